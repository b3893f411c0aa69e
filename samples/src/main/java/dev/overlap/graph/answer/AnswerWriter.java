package dev.overlap.graph.answer;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.zip.CRC32C;

/**
 * Writes an {@link Answer} in either {@link AnswerFormat}. Buffered in 64 KiB blocks; integers are formatted into the
 * buffer digit by digit and doubles through one reused {@link StringBuilder}, so a line costs no allocation and no
 * format string, whatever the vertex count.
 *
 * <p>Thread-safety: the static method keeps its state on its own stack; concurrent calls with different streams are
 * safe.
 */
public final class AnswerWriter {
    private static final int BUFFER = 1 << 16;
    /** Longest line: a 10-digit vertex, a space, a double of at most 24 characters (or a 20-digit long), newline. */
    private static final int MAX_LINE = 64;

    private final OutputStream out;
    private final byte[] buf = new byte[BUFFER];
    private final StringBuilder number = new StringBuilder(32);
    private int pos;

    private AnswerWriter(final OutputStream out) {
        this.out = out;
    }

    /**
     * Writes {@code answer} to {@code out} and flushes it; does not close it.
     *
     * @param answer the answer
     * @param format text or binary
     * @param out    where to write
     * @throws IOException what {@code out} throws
     */
    public static void write(final Answer answer, final AnswerFormat format, final OutputStream out)
        throws IOException {
        Objects.requireNonNull(answer, "answer");
        Objects.requireNonNull(format, "format");
        final AnswerWriter w = new AnswerWriter(Objects.requireNonNull(out, "out"));
        if (format == AnswerFormat.TEXT) {
            w.text(answer);
        } else {
            w.binary(answer);
        }
        out.flush();
    }

    private void text(final Answer a) throws IOException {
        final AnswerKind k = a.kind();
        ascii("# overlap answer " + AnswerFormat.VERSION + ": app=" + k.app() + " value=" + k.value() + " vertices="
            + a.size() + (k.traversal() ? " source=" + a.source() + " unreached=-1" : "") + "\n");
        final int n = a.size();
        if (k.traversal()) {
            for (int v = 0; v < n; v++) {
                room(MAX_LINE);
                decimal(v);
                buf[pos++] = ' ';
                decimal(a.integer(v));
                buf[pos++] = '\n';
            }
        } else {
            for (int v = 0; v < n; v++) {
                room(MAX_LINE);
                decimal(v);
                buf[pos++] = ' ';
                number.setLength(0);
                number.append(a.real(v));
                for (int i = 0; i < number.length(); i++) {
                    buf[pos++] = (byte)number.charAt(i);
                }
                buf[pos++] = '\n';
            }
        }
        drain();
    }

    private void binary(final Answer a) throws IOException {
        final AnswerKind k = a.kind();
        final ByteBuffer b = ByteBuffer.wrap(buf).order(ByteOrder.LITTLE_ENDIAN);
        b.put(AnswerFormat.MAGIC).putInt(AnswerFormat.VERSION).putInt(k.code()).putLong(a.size())
            .putLong(a.source());
        out.write(buf, 0, b.position());
        b.clear();
        final CRC32C crc = new CRC32C();
        final int n = a.size();
        for (int v = 0; v < n; v++) {
            if (b.remaining() < 8) {
                crc.update(buf, 0, b.position());
                out.write(buf, 0, b.position());
                b.clear();
            }
            switch (k) {
                case DEPTH:
                    b.putInt((int)a.integer(v));
                    break;
                case DISTANCE:
                    b.putLong(a.integer(v));
                    break;
                default:
                    b.putDouble(a.real(v));
                    break;
            }
        }
        crc.update(buf, 0, b.position());
        if (b.remaining() < 4) { // values that filled the buffer to its end: the trailer goes in the next one
            out.write(buf, 0, b.position());
            b.clear();
        }
        b.putInt((int)crc.getValue());
        out.write(buf, 0, b.position());
    }

    private void ascii(final String s) throws IOException {
        final byte[] bytes = s.getBytes(StandardCharsets.US_ASCII);
        room(bytes.length);
        if (bytes.length > buf.length) {
            out.write(bytes);
        } else {
            System.arraycopy(bytes, 0, buf, pos, bytes.length);
            pos += bytes.length;
        }
    }

    /** Appends {@code x} in decimal; the caller has made room for 20 characters. */
    private void decimal(final long x) {
        if (x < 0) {
            // only -1 (unreached) and never Long.MIN_VALUE: answers hold vertex ids, depths and distances
            buf[pos++] = '-';
            decimal(-x);
            return;
        }
        int digits = 1;
        for (long t = x; t >= 10; t /= 10) {
            digits++;
        }
        long y = x;
        for (int i = pos + digits - 1; i >= pos; i--) {
            buf[i] = (byte)('0' + (int)(y % 10));
            y /= 10;
        }
        pos += digits;
    }

    private void room(final int bytes) throws IOException {
        if (pos + bytes > buf.length) {
            drain();
        }
    }

    private void drain() throws IOException {
        if (pos > 0) {
            out.write(buf, 0, pos);
            pos = 0;
        }
    }
}
