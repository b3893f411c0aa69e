package dev.overlap.graph.answer;

import java.io.IOException;

/**
 * An answer file that cannot be read: names the file, the line of a text file and the reason, as
 * {@code bfs.txt:17: expected 2 fields, found 3}. {@link AnswerReader} throws it instead of returning anything
 * partial.
 */
public final class AnswerFormatException extends IOException {
    private static final long serialVersionUID = 1L;

    /**
     * @param file   the file as the caller named it
     * @param line   1-based line of a text file, or 0 (binary files, or the file as a whole)
     * @param reason what is wrong
     */
    public AnswerFormatException(final String file, final long line, final String reason) {
        super(file + (line > 0 ? ":" + line : "") + ": " + reason);
    }
}
