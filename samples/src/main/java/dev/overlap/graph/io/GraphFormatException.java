package dev.overlap.graph.io;

import java.io.IOException;

/**
 * A graph file that cannot be read: names the file, the line (when the format has lines) and the reason, as
 * {@code graph.mtx:17: expected 3 fields, found 2}. Loaders throw it instead of returning anything partial.
 */
public final class GraphFormatException extends IOException {
    private static final long serialVersionUID = 1L;

    private final String file;
    private final long line;
    private final String reason;

    /**
     * @param file   the file as the user named it
     * @param line   1-based line number, or 0 when not applicable (binary files)
     * @param reason what is wrong
     * @param cause  underlying exception, or null
     */
    public GraphFormatException(final String file, final long line, final String reason, final Throwable cause) {
        super(file + (line > 0 ? ":" + line : "") + ": " + reason, cause);
        this.file = file;
        this.line = line;
        this.reason = reason;
    }

    /** @see #GraphFormatException(String, long, String, Throwable) */
    public GraphFormatException(final String file, final long line, final String reason) {
        this(file, line, reason, null);
    }

    /** @return the file as named by the user */
    public String file() {
        return file;
    }

    /** @return the 1-based line, or 0 */
    public long line() {
        return line;
    }

    /** @return the reason alone */
    public String reason() {
        return reason;
    }
}
