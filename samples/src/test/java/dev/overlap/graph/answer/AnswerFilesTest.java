package dev.overlap.graph.answer;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The answer file formats: exact round trips of every kind in both forms, the text layout, and every bad file. */
class AnswerFilesTest {
    private static byte[] write(final Answer a, final AnswerFormat f) throws IOException {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        AnswerWriter.write(a, f, out);
        return out.toByteArray();
    }

    private static Answer read(final byte[] bytes) throws IOException {
        return AnswerReader.read(new ByteArrayInputStream(bytes), "a.txt");
    }

    private static Answer read(final String text) throws IOException {
        return read(text.getBytes(StandardCharsets.US_ASCII));
    }

    private static String text(final Answer a) throws IOException {
        return new String(write(a, AnswerFormat.TEXT), StandardCharsets.US_ASCII);
    }

    @Test
    void textLayoutIsAHeaderThenVertexValueLines() throws IOException {
        assertEquals("# overlap answer 1: app=bfs value=depth vertices=3 source=1 unreached=-1\n0 1\n1 0\n2 -1\n",
            text(Answer.depths(new int[] {1, 0, -1}, 1)));
        assertEquals("# overlap answer 1: app=sssp value=distance vertices=3 source=0 unreached=-1\n0 0\n1 "
            + "9223372036854775806\n2 -1\n", text(Answer.distances(new long[] {0, Long.MAX_VALUE - 1, Answer.UNREACHED},
            0)));
        assertEquals("# overlap answer 1: app=pr value=rank vertices=2\n0 0.25\n1 7.5E-7\n",
            text(Answer.ranks(new double[] {0.25, 7.5e-7})));
        assertEquals("# overlap answer 1: app=jacobi value=x vertices=2\n0 -1.0\n1 1.0E300\n",
            text(Answer.solution(new double[] {-1, 1e300})));
    }

    @Test
    void everyKindRoundTripsExactlyInBothForms() throws IOException {
        final SplittableRandom rnd = new SplittableRandom(7);
        // more than one 64 KiB buffer of lines and of values
        final int n = 100_003;
        final int[] depths = new int[n];
        final long[] distances = new long[n];
        final double[] ranks = new double[n];
        for (int v = 0; v < n; v++) {
            depths[v] = rnd.nextInt(8) == 0 ? -1 : rnd.nextInt(Integer.MAX_VALUE);
            distances[v] = rnd.nextInt(8) == 0 ? Answer.UNREACHED : rnd.nextLong(Long.MAX_VALUE);
            ranks[v] = Double.longBitsToDouble(rnd.nextLong() & 0x7fef_ffff_ffff_ffffL) * (rnd.nextBoolean() ? 1 : -1);
        }
        ranks[0] = Double.MIN_VALUE;
        ranks[1] = -0.0;
        ranks[2] = Double.MAX_VALUE;
        ranks[3] = Double.NaN;
        for (final AnswerFormat f : AnswerFormat.values()) {
            final Answer d = read(write(Answer.depths(depths, 5), f));
            assertEquals(AnswerKind.DEPTH, d.kind());
            assertEquals(5, d.source());
            assertArrayEquals(depths, d.depths(), f.name());
            final Answer s = read(write(Answer.distances(distances, n - 1), f));
            assertEquals(n - 1, s.source());
            assertArrayEquals(distances, s.distances(), f.name());
            final Answer r = read(write(Answer.ranks(ranks), f));
            assertEquals(Answer.NO_SOURCE, r.source());
            for (int v = 0; v < n; v++) {
                assertEquals(Double.doubleToLongBits(ranks[v]), Double.doubleToLongBits(r.ranks()[v]), f + " " + v);
            }
            final Answer x = read(write(Answer.solution(ranks), f));
            assertEquals(AnswerKind.SOLUTION, x.kind());
            assertArrayEquals(r.ranks(), x.solution());
        }
    }

    /**
     * Values that fill the writer's 64 KiB buffer to its last byte (2^13 and 2^14 ranks or distances, 2^14 depths: a
     * power-of-two graph's answer) leave no room for the 4-byte trailer: it goes into the next buffer, and the file
     * reads back whole.
     */
    @Test
    void valuesThatFillTheBufferExactlyStillGetTheirTrailer() throws IOException {
        for (final int n : new int[] {1 << 13, 1 << 14, (1 << 16) / 8 - 1, (1 << 16) / 4}) {
            final double[] ranks = new double[n];
            final long[] distances = new long[n];
            final int[] depths = new int[n];
            for (int v = 0; v < n; v++) {
                ranks[v] = 1.0 / (v + 1);
                distances[v] = v;
                depths[v] = v;
            }
            assertArrayEquals(ranks, read(write(Answer.ranks(ranks), AnswerFormat.BINARY)).ranks(), "ranks " + n);
            assertArrayEquals(distances, read(write(Answer.distances(distances, 0), AnswerFormat.BINARY)).distances(),
                "distances " + n);
            assertArrayEquals(depths, read(write(Answer.depths(depths, 0), AnswerFormat.BINARY)).depths(),
                "depths " + n);
        }
    }

    @Test
    void binaryLayoutIsTheDocumentedOne() throws IOException {
        final byte[] b = write(Answer.distances(new long[] {0, 7, Answer.UNREACHED}, 1), AnswerFormat.BINARY);
        assertEquals(32 + 3 * 8 + 4, b.length);
        final ByteBuffer h = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
        assertEquals("OVLPANS\0", new String(b, 0, 8, StandardCharsets.US_ASCII));
        assertEquals(1, h.getInt(8));
        assertEquals(2, h.getInt(12));
        assertEquals(3, h.getLong(16));
        assertEquals(1, h.getLong(24));
        assertEquals(0, h.getLong(32));
        assertEquals(7, h.getLong(40));
        assertEquals(-1, h.getLong(48));
        final java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
        crc.update(b, 32, 24);
        assertEquals((int)crc.getValue(), h.getInt(56));
    }

    @Test
    void textReaderAcceptsAnyOrderCommentsBlankLinesAndCrLf() throws IOException {
        final Answer a = read("# overlap answer 1: app=bfs value=depth vertices=3 source=2 unreached=-1\r\n"
            + "# a comment\n\n2 0\r\n  0\t-1  \n1 1\n");
        assertArrayEquals(new int[] {-1, 1, 0}, a.depths());
        assertEquals(2, a.source());
    }

    private static void assertBad(final String text, final String message) {
        final AnswerFormatException e = assertThrows(AnswerFormatException.class, () -> read(text));
        assertEquals(message, e.getMessage());
    }

    @Test
    void badTextNamesFileLineAndReason() {
        final String h = "# overlap answer 1: app=bfs value=depth vertices=2 source=0 unreached=-1\n";
        assertBad("", "a.txt: empty: not an answer file");
        assertBad("0 1\n1 2\n", "a.txt: not an answer file: it starts with neither '# overlap answer' nor the binary "
            + "magic OVLPANS");
        assertBad("# overlap answer 2: app=bfs vertices=1 source=0\n", "a.txt:1: version '2:' is not 1:");
        assertBad("# overlap answer 1: app=dfs vertices=1\n", "a.txt:1: header app=dfs: expected bfs, sssp, pr or "
            + "jacobi");
        assertBad("# overlap answer 1: app=bfs value=rank vertices=1 source=0\n", "a.txt:1: header value=rank does not "
            + "go with app=bfs (expected value=depth)");
        assertBad("# overlap answer 1: app=bfs value=depth source=0\n", "a.txt:1: the header has no vertices=");
        assertBad("# overlap answer 1: app=bfs vertices=2 source=2\n", "a.txt:1: header source=2 is outside 0..1");
        assertBad("# overlap answer 1: app=bfs vertices=two\n", "a.txt:1: header vertices=two is not an integer");
        assertBad("# overlap answer 1: app=bfs vertices\n", "a.txt:1: header field 'vertices' is not key=value");
        assertBad(h + "0 0\n", "a.txt:2: 1 of the 2 vertices have no line, the first 1");
        assertBad(h + "0 0\n0 1\n", "a.txt:3: vertex 0 appears twice");
        assertBad(h + "0 0\n2 1\n", "a.txt:3: vertex 2 is outside 0..1");
        assertBad(h + "0 0\n1\n", "a.txt:3: expected 2 fields, found 1");
        assertBad(h + "0 0\n1 1 1\n", "a.txt:3: expected 2 fields, found more");
        assertBad(h + "0 0\n1 -2\n", "a.txt:3: depth -2 is outside -1..2147483647");
        assertBad(h + "0 0\n1 x\n", "a.txt:3: depth 'x' is not an integer");
        assertBad(h + "0 0\n- 1\n", "a.txt:3: vertex '-' is not an integer");
        assertBad(h + "0 0\n1 99999999999999999999\n", "a.txt:3: depth '99999999999999999999' is too large");
        assertBad("# overlap answer 1: app=sssp vertices=1 source=0\n0 -3\n", "a.txt:2: distance -3 is below -1");
        assertBad("# overlap answer 1: app=pr vertices=1\n0 0.5e\n", "a.txt:2: value '0.5e' is not a number");
        final char[] longLine = new char[5000];
        Arrays.fill(longLine, '1');
        assertBad(h + new String(longLine) + "\n", "a.txt:2: line longer than 4096 bytes: not an answer file");
    }

    @Test
    void badBinaryNamesFileAndReason() throws IOException {
        final byte[] good = write(Answer.depths(new int[] {0, 1, 2}, 0), AnswerFormat.BINARY);
        assertBadBinary(Arrays.copyOf(good, 20), "a.txt: truncated: the file ends inside the header");
        assertBadBinary(Arrays.copyOf(good, 40), "a.txt: truncated: the file ends inside the values");
        assertBadBinary(Arrays.copyOf(good, good.length - 1), "a.txt: truncated: the file ends inside the CRC-32C "
            + "trailer");
        assertBadBinary(Arrays.copyOf(good, good.length + 1), "a.txt: bytes after the CRC-32C trailer: not one answer");
        final byte[] flipped = good.clone();
        flipped[33] ^= 1;
        final AnswerFormatException crc = assertThrows(AnswerFormatException.class, () -> read(flipped));
        assertTrue(crc.getMessage().endsWith("the file is damaged"), crc.getMessage());
        assertBadBinary(patch(good, 8, 2), "a.txt: version 2 is not 1");
        assertBadBinary(patch(good, 12, 9), "a.txt: kind 9 is not 1 (depth), 2 (distance), 3 (rank) or 4 (x)");
        assertBadBinary(patchLong(good, 16, -5), "a.txt: vertex count -5 is outside 0..2147483639");
        assertBadBinary(patchLong(good, 24, 3), "a.txt: source 3 is outside 0..2");
        final byte[] ranks = write(Answer.ranks(new double[] {1}), AnswerFormat.BINARY);
        assertBadBinary(patchLong(ranks, 24, 0), "a.txt: source 0 should be -1 in a pr answer");
        final byte[] negative = patch(good, 36, -4);
        assertBadBinary(negative, "a.txt: vertex 1 has depth -4, below -1");
    }

    private static void assertBadBinary(final byte[] bytes, final String message) {
        final AnswerFormatException e = assertThrows(AnswerFormatException.class, () -> read(bytes));
        assertEquals(message, e.getMessage());
    }

    private static byte[] patch(final byte[] b, final int at, final int value) {
        final byte[] c = b.clone();
        ByteBuffer.wrap(c).order(ByteOrder.LITTLE_ENDIAN).putInt(at, value);
        return c;
    }

    private static byte[] patchLong(final byte[] b, final int at, final long value) {
        final byte[] c = b.clone();
        ByteBuffer.wrap(c).order(ByteOrder.LITTLE_ENDIAN).putLong(at, value);
        return c;
    }

    @Test
    void misuseIsAClearException() {
        assertThrows(IllegalArgumentException.class, () -> Answer.depths(new int[] {0, -2}, 0));
        assertThrows(IllegalArgumentException.class, () -> Answer.depths(new int[] {0}, 1));
        assertThrows(IllegalArgumentException.class, () -> Answer.distances(new long[] {-1}, 0));
        assertThrows(NullPointerException.class, () -> Answer.ranks(null));
        final Answer a = Answer.ranks(new double[] {1});
        final IllegalStateException e = assertThrows(IllegalStateException.class, a::depths);
        assertEquals("a pr answer holds rank values, not depth values", e.getMessage());
    }
}
