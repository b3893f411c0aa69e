package dev.overlap.bench.report;

/** A problem with the input (JMH JSON, baseline, options) that stops report generation; the message says what. */
public final class ReportException extends Exception {
    private static final long serialVersionUID = 1L;

    /** @param message what is wrong, naming the file where there is one */
    public ReportException(final String message) {
        super(message);
    }

    /**
     * @param message what is wrong
     * @param cause the underlying error
     */
    public ReportException(final String message, final Throwable cause) {
        super(message, cause);
    }
}
