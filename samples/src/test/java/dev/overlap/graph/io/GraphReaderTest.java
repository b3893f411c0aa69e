package dev.overlap.graph.io;

import dev.overlap.graph.BuildOptions;
import dev.overlap.graph.CsrGraph;
import dev.overlap.graph.Progress;
import dev.overlap.graph.gen.GraphSpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.zip.GZIPOutputStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class GraphReaderTest {
    @TempDir
    Path dir;

    private Path write(final String name, final String text) throws IOException {
        final Path p = dir.resolve(name);
        Files.write(p, text.getBytes(StandardCharsets.US_ASCII));
        return p;
    }

    private Path gzip(final String name, final String text) throws IOException {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (GZIPOutputStream gz = new GZIPOutputStream(bytes)) {
            gz.write(text.getBytes(StandardCharsets.US_ASCII));
        }
        final Path p = dir.resolve(name);
        Files.write(p, bytes.toByteArray());
        return p;
    }

    private static CsrGraph read(final Path p) throws IOException {
        return GraphReader.read(p, null, BuildOptions.AS_IS, Progress.none());
    }

    private static GraphFormatException bad(final Path p) {
        return assertThrows(GraphFormatException.class, () -> read(p));
    }

    private static String edges(final CsrGraph g) {
        final StringBuilder sb = new StringBuilder();
        for (int u = 0; u < g.vertexCount(); u++) {
            for (long e = g.edgeStart(u); e < g.edgeEnd(u); e++) {
                sb.append(u).append("->").append(g.target(e));
                if (g.isWeighted()) {
                    sb.append(':').append(g.weight(e));
                }
                sb.append(' ');
            }
        }
        return sb.toString().trim();
    }

    static final String MTX_GENERAL = "%%MatrixMarket matrix coordinate integer general\n% a comment\n\n4 4 3\n"
        + "1 2 10\n2 3 -20\n4 1 7\n";

    @Test
    void matrixMarketGeneralIntegerPatternAndReal() throws IOException {
        final CsrGraph g = read(write("g.mtx", MTX_GENERAL));
        assertEquals(4, g.vertexCount());
        assertEquals("0->1:10 1->2:-20 3->0:7", edges(g));
        final CsrGraph p = read(write("p.mtx", "%%MatrixMarket matrix coordinate pattern general\n3 3 2\n1 3\n3 2\n"));
        assertEquals("0->2 2->1", edges(p));
        assertFalse(p.isWeighted());
        final CsrGraph r = read(write("r.mtx", "%%MatrixMarket matrix coordinate real general\n2 2 2\n1 2 2.6\n"
            + "2 1 -1.5e1\n"));
        assertEquals("0->1:3 1->0:-15", edges(r));
    }

    @Test
    void matrixMarketSymmetricStoresBothDirections() throws IOException {
        final CsrGraph g = read(write("s.mtx", "%%MatrixMarket matrix coordinate pattern symmetric\n3 3 3\n2 1\n3 1\n"
            + "3 3\n"));
        assertTrue(g.isSymmetric());
        assertEquals("0->1 0->2 1->0 2->0 2->2", edges(g));
    }

    @Test
    void matrixMarketErrorsNameFileLineAndReason() throws IOException {
        Path p = write("graph.mtx", "%%MatrixMarket matrix coordinate integer general\n3 3 2\n1 2 5\n2 3\n");
        GraphFormatException e = bad(p);
        assertEquals(p + ":4: expected 3 fields, found 2", e.getMessage());
        assertEquals(4, e.line());
        p = write("h.mtx", "%%MatrixMarket matrix array real general\n3 3\n");
        assertTrue(bad(p).getMessage().contains(":1: format 'array' is not supported"), bad(p).getMessage());
        p = write("c.mtx", "%%MatrixMarket matrix coordinate complex general\n");
        assertTrue(bad(p).getMessage().contains("field 'complex' is not supported"));
        p = write("k.mtx", "%%MatrixMarket matrix coordinate real skew-symmetric\n");
        assertTrue(bad(p).getMessage().contains("symmetry 'skew-symmetric' is not supported"));
        p = write("n.mtx", "%%MatrixMarket matrix coordinate pattern general\n3 4 1\n1 1\n");
        assertTrue(bad(p).getMessage().contains(":2: matrix is 3 x 4"));
        p = write("i.mtx", "%%MatrixMarket matrix coordinate pattern general\n3 3 1\n4 1\n");
        assertTrue(bad(p).getMessage().endsWith(":3: row index 4 is outside 1..3"), bad(p).getMessage());
        p = write("few.mtx", "%%MatrixMarket matrix coordinate pattern general\n3 3 3\n1 2\n");
        assertTrue(bad(p).getMessage().contains("file ends after 1 entries but the size line declares 3"));
        p = write("many.mtx", "%%MatrixMarket matrix coordinate pattern general\n3 3 1\n1 2\n2 3\n");
        assertTrue(bad(p).getMessage().contains(":4: more entries than the 1 declared"));
        p = write("x.mtx", "%%MatrixMarket matrix coordinate pattern general\n3 3 1\n1 x\n");
        assertTrue(bad(p).getMessage().endsWith(":3: column index is not an integer: 'x'"), bad(p).getMessage());
        p = write("extra.mtx", "%%MatrixMarket matrix coordinate pattern general\n3 3 1\n1 2 3\n");
        assertTrue(bad(p).getMessage().endsWith(":3: expected 2 fields, found 3"), bad(p).getMessage());
        p = write("empty.mtx", "");
        assertTrue(bad(p).getMessage().contains("empty file"));
        p = write("head.mtx", "hello\n");
        assertTrue(bad(p).getMessage().contains(":1: expected header"));
        p = write("nan.mtx", "%%MatrixMarket matrix coordinate real general\n2 2 1\n1 2 nan\n");
        assertTrue(bad(p).getMessage().contains("value is not a number: 'nan'"), bad(p).getMessage());
    }

    @Test
    void edgeListsAndSnap() throws IOException {
        assertEquals("0->1 2->0 5->3", edges(read(write("g.el", "0 1\n# comment\n2\t0\r\n\n5 3"))));
        assertEquals(6, read(write("g2.el", "0 1\n5 3\n")).vertexCount());
        assertEquals("0->1:4 1->2:9", edges(read(write("g.wel", "0 1 4\n1 2 9\n"))));
        assertEquals("0->1 1->0", edges(read(write("snap.txt", "# Directed graph\n# Nodes: 2 Edges: 2\n"
            + "# FromNodeId\tToNodeId\n0\t1\n1\t0\n"))));
    }

    @Test
    void edgeListErrors() throws IOException {
        Path p = write("bad.el", "0 1\n1\n");
        assertEquals(p + ":2: expected 2 fields, found 1", bad(p).getMessage());
        p = write("neg.el", "0 -1\n");
        assertEquals(p + ":1: target vertex -1 is outside 0.." + (Integer.MAX_VALUE - 1), bad(p).getMessage());
        p = write("big.el", "0 99999999999\n");
        assertTrue(bad(p).getMessage().contains("target vertex 99999999999 is outside"));
        p = write("w.wel", "0 1\n");
        assertEquals(p + ":1: expected 3 fields, found 2", bad(p).getMessage());
        p = write("w2.wel", "0 1 3000000000\n");
        assertTrue(bad(p).getMessage().contains("weight 3000000000 does not fit an int"));
        p = write("t.el", "0 1x\n");
        assertEquals(p + ":1: target vertex is not an integer: '1x'", bad(p).getMessage());
        p = write("huge.el", "0 123456789012345678901234567890\n");
        assertTrue(bad(p).getMessage().contains("target vertex is too large"), bad(p).getMessage());
    }

    @Test
    void dimacs() throws IOException {
        final CsrGraph g = read(write("r.gr", "c road\np sp 3 3\nc arcs\na 1 2 7\na 2 3 8\na 3 1 9\n"));
        assertEquals("0->1:7 1->2:8 2->0:9", edges(g));
        Path p = write("r2.gr", "p sp 3 2\na 1 2 7\n");
        assertTrue(bad(p).getMessage().contains("file ends after 1 arcs but the problem line declares 2"));
        p = write("r3.gr", "a 1 2 7\n");
        assertEquals(p + ":1: arc before the problem line 'p sp N M'", bad(p).getMessage());
        p = write("r4.gr", "p sp 3 1\nx 1 2\n");
        assertEquals(p + ":2: unknown line type 'x': expected c, p or a", bad(p).getMessage());
        p = write("r5.gr", "p sp 3 1\na 1 4 1\n");
        assertEquals(p + ":2: target vertex 4 is outside 1..3", bad(p).getMessage());
        p = write("r6.gr", "p max 3 1\n");
        assertTrue(bad(p).getMessage().contains(":1: expected problem line 'p sp N M'"), bad(p).getMessage());
        p = write("r7.gr", "c nothing\n");
        assertTrue(bad(p).getMessage().contains("no problem line"));
        p = write("r8.gr", "p sp 2 1\na 1 2\n");
        assertEquals(p + ":2: expected 4 fields, found 3", bad(p).getMessage());
    }

    @Test
    void gzipByMagicOrSuffixAndTruncatedGzipIsAClearError() throws IOException {
        final StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 20000; i++) {
            sb.append(i).append(' ').append((i * 7) % 20000).append('\n');
        }
        final Path gz = gzip("big.el.gz", sb.toString());
        assertEquals(20000, read(gz).edgeCount());
        final Path disguised = gzip("plain.el", "0 1\n1 2\n");
        assertEquals("0->1 1->2", edges(read(disguised)));
        final byte[] whole = Files.readAllBytes(gz);
        final Path cut = dir.resolve("cut.el.gz");
        Files.write(cut, Arrays.copyOf(whole, whole.length / 2));
        final GraphFormatException e = bad(cut);
        assertTrue(e.getMessage().startsWith(cut + ":"), e.getMessage());
        assertTrue(e.getMessage().contains("truncated gzip input"), e.getMessage());
        final Path header = dir.resolve("head.el.gz");
        Files.write(header, Arrays.copyOf(whole, 5));
        assertTrue(bad(header).getMessage().contains("gzip"), bad(header).getMessage());
    }

    @Test
    void weightedFilesReadWithoutWeightsKeepTheirEdges() throws IOException {
        final Path[] files = {write("w.wel", "0 1 4\n1 2 9\n2 0 1\n"),
            write("w.gr", "p sp 3 3\na 1 2 4\na 2 3 9\na 3 1 1\n"),
            write("w.mtx", "%%MatrixMarket matrix coordinate integer general\n3 3 3\n1 2 4\n2 3 9\n3 1 1\n")};
        for (final Path p : files) {
            final CsrGraph with = GraphReader.read(p, null, BuildOptions.AS_IS, true, Progress.none());
            final CsrGraph without = GraphReader.read(p, null, BuildOptions.AS_IS, false, Progress.none());
            assertTrue(with.isWeighted(), p.toString());
            assertFalse(without.isWeighted(), p + ": the weights are dropped");
            assertTrue(with.withoutWeights().sameAs(without), p + ": the same edges");
        }
        // a bad weight is still an error when the weights are not kept
        final Path bad = write("bad.wel", "0 1 x\n");
        assertThrows(GraphFormatException.class,
            () -> GraphReader.read(bad, null, BuildOptions.AS_IS, false, Progress.none()));
    }

    @Test
    @org.junit.jupiter.api.Timeout(value = 20, threadMode = org.junit.jupiter.api.Timeout.ThreadMode.SEPARATE_THREAD)
    void aNamedPipeIsReadOnce() throws Exception { // a second open of the pipe would block: the timeout fails it
        final Path fifo = dir.resolve("edges.wel");
        final Process mk;
        try {
            mk = new ProcessBuilder("mkfifo", fifo.toString()).start();
        } catch (final IOException e) {
            org.junit.jupiter.api.Assumptions.abort("no mkfifo here: " + e.getMessage());
            return;
        }
        org.junit.jupiter.api.Assumptions.assumeTrue(mk.waitFor() == 0, "mkfifo failed");
        final String text = "0 1 4\n1 2 9\n2 0 1\n";
        final Thread writer = new Thread(() -> {
            try {
                Files.write(fifo, text.getBytes(StandardCharsets.US_ASCII)); // blocks until the reader opens it
            } catch (final IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }, "fifo-writer");
        writer.setDaemon(true);
        writer.start();
        // a pipe gives its bytes once: the second pass must not read it again (it would find nothing, or block)
        assertEquals("0->1:4 1->2:9 2->0:1", edges(read(fifo)));
        writer.join(10_000);
    }

    @Test
    void aFileThatChangesBetweenThePassesIsRefused() throws IOException {
        final Path p = write("moving.el", "0 1\n1 0\n");
        final TextEdgeStream s = TextEdgeStream.open(p, p.toString(), EdgeListParser.UNWEIGHTED, true,
            Progress.none());
        final long[] edges = {0};
        s.forEachBatch(b -> edges[0] += b.size());
        assertEquals(2, edges[0]);
        assertEquals(2, s.size());
        // the same size and the same degrees, rewritten: only the file's stamp tells
        Files.write(p, "0 2\n2 0\n".getBytes(StandardCharsets.US_ASCII));
        Files.setLastModifiedTime(p, java.nio.file.attribute.FileTime.fromMillis(
            Files.getLastModifiedTime(p).toMillis() + 2000));
        final java.io.UncheckedIOException e = assertThrows(java.io.UncheckedIOException.class,
            () -> s.forEachBatch(b -> { }));
        assertTrue(e.getCause() instanceof GraphFormatException, e.toString());
        assertTrue(e.getCause().getMessage().startsWith(p + ": the file changed while it was read"),
            e.getCause().getMessage());
    }

    @Test
    void cleaningOptionsApplyToLoadedGraphs() throws IOException {
        final Path p = write("c.el", "0 1\n0 1\n1 1\n2 0\n");
        final CsrGraph g = GraphReader.read(p, null, BuildOptions.UNDIRECTED_SIMPLE, Progress.none());
        assertEquals("0->1 0->2 1->0 2->0", edges(g));
    }

    @Test
    void binaryInputCanBeCleanedOnLoad() throws IOException {
        final CsrGraph raw = read(write("raw.el", "0 1\n0 1\n2 2\n1 2\n"));
        final Path p = dir.resolve("raw.bcsr");
        BinaryCsr.write(raw, p, Progress.none());
        final CsrGraph g = GraphReader.read(p, null, BuildOptions.UNDIRECTED_SIMPLE, Progress.none());
        assertEquals("0->1 1->0 1->2 2->1", edges(g));
        assertTrue(g.isSymmetric());
    }

    @Test
    void unknownExtensionAndMissingFile() throws IOException {
        final Path p = write("g.csv", "0,1\n");
        assertTrue(bad(p).getMessage().contains("cannot tell the format"));
        assertEquals("0->1", edges(GraphReader.read(write("g.data", "0 1\n"), GraphFormat.EL, BuildOptions.AS_IS,
            Progress.none())));
        assertTrue(bad(dir.resolve("missing.el")).getMessage().endsWith("missing.el: no such file"));
    }

    @Test
    void binaryRoundTripsAndRejectsDamage() throws IOException {
        final CsrGraph g = GraphSpec.parse("kron:9").build(4, true, Progress.none());
        final Path p = dir.resolve("k.bcsr");
        BinaryCsr.write(g, p, Progress.none());
        assertTrue(read(p).sameAs(g));
        final CsrGraph odd = read(write("odd.el", "0 1\n1 2\n2 0\n"));
        final Path q = dir.resolve("odd.bcsr");
        BinaryCsr.write(odd, q, Progress.none());
        assertTrue(read(q).sameAs(odd));

        final byte[] bytes = Files.readAllBytes(p);
        final Path t = dir.resolve("t.bcsr");
        Files.write(t, Arrays.copyOf(bytes, bytes.length - 4));
        assertTrue(bad(t).getMessage().contains("file is truncated"), bad(t).getMessage());
        final byte[] flipped = bytes.clone();
        flipped[bytes.length - 100] ^= 1;
        Files.write(t, flipped);
        assertTrue(bad(t).getMessage().contains("payload checksum mismatch"));
        final byte[] magic = bytes.clone();
        magic[0] = 'X';
        Files.write(t, magic);
        assertEquals(t + ": not an Overlap binary CSR file (bad magic)", bad(t).getMessage());
        final byte[] version = bytes.clone();
        version[8] = 9;
        Files.write(t, version);
        assertTrue(bad(t).getMessage().contains("version 9 is not supported"));
        final byte[] header = bytes.clone();
        header[20] ^= 1;
        Files.write(t, header);
        assertTrue(bad(t).getMessage().contains("header checksum mismatch"));
        Files.write(t, new byte[10]);
        assertTrue(bad(t).getMessage().contains("shorter than the 64-byte header"));
    }
}
