package dev.overlap.graph.answer;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.BitSet;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.zip.CRC32C;

/**
 * Reads an answer file in either {@link AnswerFormat}, told apart by its first bytes, and checks it whole: the
 * header, every vertex exactly once with a value of the header's kind, the binary form's length and CRC-32C.
 * Anything wrong is an {@link AnswerFormatException} naming the file (and the line of a text file); nothing partial
 * is returned.
 *
 * <p>Thread-safety: the static methods keep their state on their own stack.
 */
public final class AnswerReader {
    private static final int BUFFER = 1 << 16;
    /** Longest text line accepted: far above any real one, low enough that a wrong file cannot exhaust the heap. */
    private static final int MAX_LINE = 4096;
    /** Largest vertex count: the largest Java array. */
    private static final long MAX_VERTICES = Integer.MAX_VALUE - 8;

    private final InputStream in;
    private final String name;
    private final byte[] buf = new byte[BUFFER];
    private int pos;
    private int limit;
    private final byte[] line = new byte[MAX_LINE];
    /** Length of the line in {@link #line}. */
    private int length;
    private long lineNumber;

    private AnswerReader(final InputStream in, final String name) {
        this.in = in;
        this.name = name;
    }

    /**
     * @param file an answer file
     * @return its answer
     * @throws AnswerFormatException naming the file (and line) when it is not a valid answer file
     * @throws IOException           when it cannot be read
     */
    public static Answer read(final Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            return read(in, file.toString());
        }
    }

    /**
     * @param in   an answer, text or binary; read to its end, not closed
     * @param name the name for messages
     * @return the answer
     * @throws AnswerFormatException naming {@code name} (and the line) when it is not a valid answer
     * @throws IOException           when {@code in} throws
     */
    public static Answer read(final InputStream in, final String name) throws IOException {
        Objects.requireNonNull(name, "name");
        final AnswerReader r = new AnswerReader(Objects.requireNonNull(in, "in"), name);
        final byte[] first = r.peek(AnswerFormat.MAGIC.length);
        if (Arrays.equals(first, AnswerFormat.MAGIC)) {
            return r.binary();
        }
        final byte[] text = AnswerFormat.TEXT_HEADER.getBytes(StandardCharsets.US_ASCII);
        if (Arrays.equals(first, Arrays.copyOf(text, first.length)) && first.length == AnswerFormat.MAGIC.length) {
            return r.text();
        }
        throw r.error(0, first.length == 0 ? "empty: not an answer file" : "not an answer file: it starts with "
            + "neither '" + AnswerFormat.TEXT_HEADER.trim() + "' nor the binary magic OVLPANS");
    }

    private Answer text() throws IOException {
        if (!nextLine()) {
            throw error(1, "no header line");
        }
        final String header = new String(line, 0, length, StandardCharsets.US_ASCII);
        if (!header.startsWith(AnswerFormat.TEXT_HEADER)) {
            throw error(lineNumber, "the header must start with '" + AnswerFormat.TEXT_HEADER.trim() + "'");
        }
        final String[] words = header.substring(AnswerFormat.TEXT_HEADER.length()).trim().split("\\s+");
        if (!words[0].equals(AnswerFormat.VERSION + ":")) {
            throw error(lineNumber, "version '" + words[0] + "' is not " + AnswerFormat.VERSION + ":");
        }
        final Map<String, String> keys = new HashMap<>();
        for (int i = 1; i < words.length; i++) {
            final int eq = words[i].indexOf('=');
            if (eq <= 0) {
                throw error(lineNumber, "header field '" + words[i] + "' is not key=value");
            }
            keys.put(words[i].substring(0, eq), words[i].substring(eq + 1));
        }
        final AnswerKind kind = AnswerKind.ofApp(String.valueOf(keys.get("app")));
        if (kind == null) {
            throw error(lineNumber, "header app=" + keys.get("app") + ": expected bfs, sssp, pr or jacobi");
        }
        if (keys.containsKey("value") && !keys.get("value").equals(kind.value())) {
            throw error(lineNumber, "header value=" + keys.get("value") + " does not go with app=" + kind.app()
                + " (expected value=" + kind.value() + ")");
        }
        final long n = headerNumber(keys, "vertices", 0, MAX_VERTICES);
        final int source = kind.traversal() ? (int)headerNumber(keys, "source", 0, n - 1) : Answer.NO_SOURCE;
        final int[] ints = kind == AnswerKind.DEPTH ? new int[(int)n] : null;
        final long[] longs = kind == AnswerKind.DISTANCE ? new long[(int)n] : null;
        final double[] doubles = kind.traversal() ? null : new double[(int)n];
        final BitSet seen = new BitSet((int)n);
        while (nextLine()) {
            int p = skipBlanks(0);
            if (p == length || line[p] == '#') {
                continue;
            }
            final int vEnd = fieldEnd(p);
            final long v = integer(p, vEnd, "vertex");
            if (v < 0 || v >= n) {
                throw error(lineNumber, "vertex " + v + " is outside 0.." + (n - 1));
            }
            p = skipBlanks(vEnd);
            if (p == length) {
                throw error(lineNumber, "expected 2 fields, found 1");
            }
            final int valueEnd = fieldEnd(p);
            if (skipBlanks(valueEnd) != length) {
                throw error(lineNumber, "expected 2 fields, found more");
            }
            if (seen.get((int)v)) {
                throw error(lineNumber, "vertex " + v + " appears twice");
            }
            seen.set((int)v);
            switch (kind) {
                case DEPTH: {
                    final long d = integer(p, valueEnd, "depth");
                    if (d < -1 || d > Integer.MAX_VALUE) {
                        throw error(lineNumber, "depth " + d + " is outside -1.." + Integer.MAX_VALUE);
                    }
                    ints[(int)v] = (int)d;
                    break;
                }
                case DISTANCE: {
                    final long d = integer(p, valueEnd, "distance");
                    if (d < -1) {
                        throw error(lineNumber, "distance " + d + " is below -1");
                    }
                    longs[(int)v] = d == -1 ? Answer.UNREACHED : d;
                    break;
                }
                default:
                    doubles[(int)v] = real(p, valueEnd);
                    break;
            }
        }
        if (seen.cardinality() != n) {
            throw error(lineNumber, (n - seen.cardinality()) + " of the " + n + " vertices have no line, the first "
                + seen.nextClearBit(0));
        }
        return answer(kind, ints, longs, doubles, source);
    }

    private Answer binary() throws IOException {
        final ByteBuffer h = ByteBuffer.wrap(bytes(AnswerFormat.HEADER_BYTES, "the header"))
            .order(ByteOrder.LITTLE_ENDIAN);
        h.position(AnswerFormat.MAGIC.length);
        final int version = h.getInt();
        if (version != AnswerFormat.VERSION) {
            throw error(0, "version " + version + " is not " + AnswerFormat.VERSION);
        }
        final int code = h.getInt();
        final AnswerKind kind = AnswerKind.ofCode(code);
        if (kind == null) {
            throw error(0, "kind " + code + " is not 1 (depth), 2 (distance), 3 (rank) or 4 (x)");
        }
        final long n = h.getLong();
        if (n < 0 || n > MAX_VERTICES) {
            throw error(0, "vertex count " + n + " is outside 0.." + MAX_VERTICES);
        }
        final long src = h.getLong();
        if (kind.traversal() ? src < 0 || src >= n : src != -1) {
            throw error(0, "source " + src + (kind.traversal() ? " is outside 0.." + (n - 1)
                : " should be -1 in a " + kind.app() + " answer"));
        }
        final int[] ints = kind == AnswerKind.DEPTH ? new int[(int)n] : null;
        final long[] longs = kind == AnswerKind.DISTANCE ? new long[(int)n] : null;
        final double[] doubles = kind.traversal() ? null : new double[(int)n];
        final CRC32C crc = new CRC32C();
        final byte[] block = new byte[BUFFER];
        final ByteBuffer b = ByteBuffer.wrap(block).order(ByteOrder.LITTLE_ENDIAN);
        final int perBlock = BUFFER / kind.bytes();
        for (int v = 0; v < n;) {
            final int count = (int)Math.min(perBlock, n - v);
            readFully(block, count * kind.bytes(), "the values");
            crc.update(block, 0, count * kind.bytes());
            b.clear();
            for (final int end = v + count; v < end; v++) {
                switch (kind) {
                    case DEPTH: {
                        final int d = b.getInt();
                        if (d < -1) {
                            throw error(0, "vertex " + v + " has depth " + d + ", below -1");
                        }
                        ints[v] = d;
                        break;
                    }
                    case DISTANCE: {
                        final long d = b.getLong();
                        if (d < -1) {
                            throw error(0, "vertex " + v + " has distance " + d + ", below -1");
                        }
                        longs[v] = d == -1 ? Answer.UNREACHED : d;
                        break;
                    }
                    default:
                        doubles[v] = b.getDouble();
                        break;
                }
            }
        }
        final int stored = ByteBuffer.wrap(bytes(4, "the CRC-32C trailer")).order(ByteOrder.LITTLE_ENDIAN).getInt();
        if (stored != (int)crc.getValue()) {
            throw error(0, String.format(java.util.Locale.ROOT, "CRC-32C of the values is %08x, the trailer says "
                + "%08x: the file is damaged", (int)crc.getValue(), stored));
        }
        if (pos < limit || fill()) {
            throw error(0, "bytes after the CRC-32C trailer: not one answer");
        }
        return answer(kind, ints, longs, doubles, (int)src);
    }

    private static Answer answer(final AnswerKind kind, final int[] ints, final long[] longs, final double[] doubles,
        final int source) {
        switch (kind) {
            case DEPTH:
                return Answer.depths(ints, source);
            case DISTANCE:
                return Answer.distances(longs, source);
            case RANK:
                return Answer.ranks(doubles);
            default:
                return Answer.solution(doubles);
        }
    }

    private byte[] bytes(final int count, final String what) throws IOException {
        final byte[] b = new byte[count];
        readFully(b, count, what);
        return b;
    }

    private void readFully(final byte[] b, final int count, final String what) throws IOException {
        int got = 0;
        while (got < count) {
            if (pos == limit && !fill()) {
                throw error(0, "truncated: the file ends inside " + what);
            }
            final int k = Math.min(count - got, limit - pos);
            System.arraycopy(buf, pos, b, got, k);
            pos += k;
            got += k;
        }
    }

    /** @return up to {@code count} first bytes, without consuming them (fewer only at the end of the stream) */
    private byte[] peek(final int count) throws IOException {
        while (limit - pos < count && fill()) {
            // until enough bytes or the end
        }
        return Arrays.copyOfRange(buf, pos, Math.min(limit, pos + count));
    }

    /** Reads more bytes behind the unread ones; false at the end of the stream. */
    private boolean fill() throws IOException {
        if (pos > 0) {
            System.arraycopy(buf, pos, buf, 0, limit - pos);
            limit -= pos;
            pos = 0;
        }
        final int got = in.read(buf, limit, buf.length - limit);
        if (got > 0) {
            limit += got;
        }
        return got > 0;
    }

    private long headerNumber(final Map<String, String> keys, final String key, final long min, final long max)
        throws AnswerFormatException {
        final String text = keys.get(key);
        if (text == null) {
            throw error(lineNumber, "the header has no " + key + "=");
        }
        try {
            final long x = Long.parseLong(text);
            if (x < min || x > max) {
                throw error(lineNumber, "header " + key + "=" + text + " is outside " + min + ".." + max);
            }
            return x;
        } catch (final NumberFormatException e) {
            throw error(lineNumber, "header " + key + "=" + text + " is not an integer");
        }
    }

    /** Reads the next line into {@link #line} (without its {@code \n} and a {@code \r} before it). */
    private boolean nextLine() throws IOException {
        if (pos == limit && !fill()) {
            return false;
        }
        lineNumber++;
        length = 0;
        while (pos < limit || fill()) {
            final byte c = buf[pos++];
            if (c == '\n') {
                break;
            }
            if (length == MAX_LINE) {
                throw error(lineNumber, "line longer than " + MAX_LINE + " bytes: not an answer file");
            }
            line[length++] = c;
        }
        if (length > 0 && line[length - 1] == '\r') {
            length--;
        }
        return true;
    }

    private int skipBlanks(final int from) {
        int p = from;
        while (p < length && (line[p] == ' ' || line[p] == '\t')) {
            p++;
        }
        return p;
    }

    private int fieldEnd(final int from) {
        int p = from;
        while (p < length && line[p] != ' ' && line[p] != '\t') {
            p++;
        }
        return p;
    }

    private long integer(final int from, final int to, final String what) throws AnswerFormatException {
        int p = from;
        final boolean negative = line[p] == '-';
        if (negative) {
            p++;
        }
        if (p == to) {
            throw notA(what, "an integer", from, to);
        }
        long x = 0;
        for (; p < to; p++) {
            final int d = line[p] - '0';
            if (d < 0 || d > 9) {
                throw notA(what, "an integer", from, to);
            }
            if (x > (Long.MAX_VALUE - d) / 10) {
                throw error(lineNumber, what + " '" + field(from, to) + "' is too large");
            }
            x = x * 10 + d;
        }
        return negative ? -x : x;
    }

    private double real(final int from, final int to) throws AnswerFormatException {
        try {
            return Double.parseDouble(field(from, to));
        } catch (final NumberFormatException e) {
            throw notA("value", "a number", from, to);
        }
    }

    private AnswerFormatException notA(final String what, final String kind, final int from, final int to) {
        return error(lineNumber, what + " '" + field(from, to) + "' is not " + kind);
    }

    private String field(final int from, final int to) {
        return new String(line, from, to - from, StandardCharsets.ISO_8859_1);
    }

    private AnswerFormatException error(final long at, final String reason) {
        return new AnswerFormatException(name, at, reason);
    }
}
