package dev.overlap.graph.io;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.util.zip.ZipException;

/**
 * A hand-rolled tokenizer over bytes of a text graph file: whitespace-separated fields, one record per line, line
 * numbers for errors. Parses integers without allocating; the only allocations are its buffer and the strings of
 * error messages and header lines.
 *
 * <p>Fields are separated by spaces or tabs; a line ends at {@code \n} (a preceding {@code \r} counts as space).
 * Read errors of the stream become {@link GraphFormatException}s naming the line, and a gzip stream that ends early
 * is reported as truncated.
 *
 * <p>Thread-safety: none; confined to the loading thread.
 */
final class LineScanner {
    private static final int EOF = -1;

    private final InputStream in;
    private final String file;
    private final byte[] buf;
    private final boolean gzip;
    private int pos;
    private int limit;
    private long line = 1;

    LineScanner(final InputStream in, final String file, final int bufferSize, final boolean gzip) {
        this.in = in;
        this.file = file;
        this.buf = new byte[bufferSize];
        this.gzip = gzip;
    }

    /** @return the file name used in errors */
    String file() {
        return file;
    }

    /**
     * Consumes a one-letter record tag (DIMACS {@code a}); it must be followed by a blank.
     *
     * @throws GraphFormatException when the tag is longer than one letter
     */
    void skipTag() throws GraphFormatException {
        final int tag = peek();
        pos++;
        final int c = peek();
        if (c != ' ' && c != '\t') {
            throw error("unknown line type '" + (char)tag + fieldText() + "'");
        }
    }

    /** @return the current 1-based line number */
    long line() {
        return line;
    }

    /** @return an error at the current line */
    GraphFormatException error(final String reason) {
        return new GraphFormatException(file, line, reason);
    }

    private boolean fill() throws GraphFormatException {
        if (limit < 0) {
            return false;
        }
        try {
            int n;
            do {
                n = in.read(buf, 0, buf.length);
            } while (n == 0);
            if (n < 0) {
                limit = -1;
                pos = 0;
                return false;
            }
            pos = 0;
            limit = n;
            return true;
        } catch (final EOFException e) {
            throw new GraphFormatException(file, line, (gzip ? "truncated gzip input" : "unexpected end of file")
                + " (" + e.getMessage() + ")", e);
        } catch (final ZipException e) {
            throw new GraphFormatException(file, line, "corrupt gzip input (" + e.getMessage() + ")", e);
        } catch (final IOException e) {
            throw new GraphFormatException(file, line, "read failed: " + e, e);
        }
    }

    /** @return the next byte without consuming it, or -1 at end of file */
    int peek() throws GraphFormatException {
        if (pos >= limit && !fill()) {
            return EOF;
        }
        return buf[pos] & 0xFF;
    }

    /** @return true at end of file */
    boolean atEof() throws GraphFormatException {
        return peek() == EOF;
    }

    /** Skips spaces, tabs and carriage returns (not newlines). */
    void skipBlanks() throws GraphFormatException {
        while (true) {
            if (pos >= limit && !fill()) {
                return;
            }
            final byte b = buf[pos];
            if (b != ' ' && b != '\t' && b != '\r') {
                return;
            }
            pos++;
        }
    }

    /** @return true when, after blanks, the line ends (newline or end of file) */
    boolean atEndOfLine() throws GraphFormatException {
        skipBlanks();
        final int c = peek();
        return c == '\n' || c == EOF;
    }

    /** Consumes the rest of the line including its newline. */
    void skipLine() throws GraphFormatException {
        while (true) {
            if (pos >= limit && !fill()) {
                return;
            }
            final byte b = buf[pos++];
            if (b == '\n') {
                line++;
                return;
            }
        }
    }

    /**
     * Ends a record: after blanks the line must end; consumes the newline.
     *
     * @param expected fields the record should have had, for the error message
     * @throws GraphFormatException "expected N fields, found M" when more fields follow
     */
    void endRecord(final int expected) throws GraphFormatException {
        if (!atEndOfLine()) {
            int found = expected;
            while (!atEndOfLine()) {
                skipField();
                found++;
            }
            throw error("expected " + expected + " fields, found " + found);
        }
        if (peek() == '\n') {
            pos++;
            line++;
        }
    }

    private void skipField() throws GraphFormatException {
        while (true) {
            final int c = peek();
            if (c == EOF || c == ' ' || c == '\t' || c == '\r' || c == '\n') {
                return;
            }
            pos++;
        }
    }

    /** @return the rest of the line (without the newline, which is consumed), for header lines */
    String restOfLine() throws GraphFormatException {
        final StringBuilder sb = new StringBuilder();
        while (true) {
            final int c = peek();
            if (c == EOF) {
                break;
            }
            pos++;
            if (c == '\n') {
                line++;
                break;
            }
            sb.append((char)c);
        }
        final int end = sb.length();
        return end > 0 && sb.charAt(end - 1) == '\r' ? sb.substring(0, end - 1) : sb.toString();
    }

    /** @return the next field as text (for error messages), without consuming it beyond the field */
    private String fieldText() throws GraphFormatException {
        final StringBuilder sb = new StringBuilder();
        while (sb.length() < 40) {
            final int c = peek();
            if (c == EOF || c == ' ' || c == '\t' || c == '\r' || c == '\n') {
                break;
            }
            sb.append((char)c);
            pos++;
        }
        return sb.toString();
    }

    /**
     * Parses field {@code index} (1-based) of a record of {@code expected} fields as a decimal integer.
     *
     * @param what     the field's meaning, for errors ("source vertex")
     * @param index    1-based position of the field in the record
     * @param expected fields in the record
     * @return the value
     * @throws GraphFormatException when the line ends early ("expected 3 fields, found 2"), the field is not an
     *                              integer, or it overflows a long
     */
    long nextLong(final String what, final int index, final int expected) throws GraphFormatException {
        skipBlanks();
        int c = peek();
        if (c == '\n' || c == EOF) {
            throw error("expected " + expected + " fields, found " + (index - 1));
        }
        boolean negative = false;
        if (c == '-' || c == '+') {
            negative = c == '-';
            pos++;
            c = peek();
        }
        if (c < '0' || c > '9') {
            throw error(what + " is not an integer: '" + (negative ? "-" : "") + fieldText() + "'");
        }
        long value = 0;
        while (c >= '0' && c <= '9') {
            final int digit = c - '0';
            if (value > (Long.MAX_VALUE - digit) / 10) {
                throw error(what + " is too large: '" + value + fieldText() + "'");
            }
            value = value * 10 + digit;
            pos++;
            c = peek();
        }
        if (c != EOF && c != ' ' && c != '\t' && c != '\r' && c != '\n') {
            throw error(what + " is not an integer: '" + (negative ? "-" : "") + value + fieldText() + "'");
        }
        return negative ? -value : value;
    }

    private final byte[] field = new byte[64];
    private static final double[] POW10 = {1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13,
        1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

    /**
     * Parses field {@code index} as a real number (decimal with optional fraction and exponent). The common case
     * (at most 15 significant digits, small exponent) is parsed in place and exact; anything else falls back to
     * {@link Double#parseDouble}. Infinities and NaN are rejected.
     *
     * @see #nextLong(String, int, int)
     */
    double nextDouble(final String what, final int index, final int expected) throws GraphFormatException {
        skipBlanks();
        int c = peek();
        if (c == '\n' || c == EOF) {
            throw error("expected " + expected + " fields, found " + (index - 1));
        }
        int len = 0;
        while (c != EOF && c != ' ' && c != '\t' && c != '\r' && c != '\n') {
            if (len == field.length) {
                throw error(what + " is not a number: '" + new String(field, 0, 40, java.nio.charset.StandardCharsets.ISO_8859_1) + "...'");
            }
            field[len++] = (byte)c;
            pos++;
            c = peek();
        }
        int i = 0;
        boolean negative = false;
        if (field[0] == '-' || field[0] == '+') {
            negative = field[0] == '-';
            i++;
        }
        long mantissa = 0;
        int digits = 0;
        int scale = 0;
        boolean any = false;
        while (i < len && field[i] >= '0' && field[i] <= '9') {
            any = true;
            if (mantissa != 0 || field[i] != '0') {
                digits++;
            }
            mantissa = mantissa * 10 + (field[i] - '0');
            i++;
            if (digits > 15) {
                return slowDouble(what, len);
            }
        }
        if (i < len && field[i] == '.') {
            i++;
            while (i < len && field[i] >= '0' && field[i] <= '9') {
                any = true;
                if (mantissa != 0 || field[i] != '0') {
                    digits++;
                }
                mantissa = mantissa * 10 + (field[i] - '0');
                scale--;
                i++;
                if (digits > 15) {
                    return slowDouble(what, len);
                }
            }
        }
        if (!any) {
            throw error(what + " is not a number: '" + text(len) + "'");
        }
        if (i < len && (field[i] == 'e' || field[i] == 'E')) {
            i++;
            boolean expNegative = false;
            if (i < len && (field[i] == '-' || field[i] == '+')) {
                expNegative = field[i] == '-';
                i++;
            }
            if (i == len) {
                throw error(what + " is not a number: '" + text(len) + "'");
            }
            int exp = 0;
            while (i < len && field[i] >= '0' && field[i] <= '9') {
                exp = Math.min(100_000, exp * 10 + (field[i] - '0'));
                i++;
            }
            scale += expNegative ? -exp : exp;
        }
        if (i != len) {
            throw error(what + " is not a number: '" + text(len) + "'");
        }
        if (scale < -22 || scale > 22) {
            return slowDouble(what, len);
        }
        final double v = scale < 0 ? mantissa / POW10[-scale] : mantissa * POW10[scale];
        return negative ? -v : v;
    }

    private String text(final int len) {
        return new String(field, 0, len, java.nio.charset.StandardCharsets.ISO_8859_1);
    }

    private double slowDouble(final String what, final int len) throws GraphFormatException {
        final String t = text(len);
        try {
            final double d = Double.parseDouble(t);
            if (!Double.isFinite(d)) {
                throw error(what + " is not finite: '" + t + "'");
            }
            return d;
        } catch (final NumberFormatException e) {
            throw error(what + " is not a number: '" + t + "'");
        }
    }
}
