package dev.overlap.graph.io;

import dev.overlap.graph.BuildOptions;
import dev.overlap.graph.CsrGraph;
import dev.overlap.graph.Progress;
import dev.overlap.graph.gen.GraphSpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Generated graphs written as edge lists read back as the same CSR. */
class EdgeListWriterTest {
    @TempDir
    Path dir;

    private static CsrGraph readSimple(final Path p) throws IOException {
        return GraphReader.read(p, null, BuildOptions.UNDIRECTED_SIMPLE, Progress.none());
    }

    @Test
    void generatedGraphsRoundTripThroughElAndWel() throws IOException {
        // kron:13 is several of the reader's batches and grows its degree counts many times
        for (final String spec : new String[] {"kron:9", "grid:7x5", "road:300", "urand:8:4", "kron:13"}) {
            final CsrGraph g = GraphSpec.parse(spec).build(5, true, Progress.none());
            final Path wel = dir.resolve(spec.replace(':', '-') + ".wel");
            final Path el = dir.resolve(spec.replace(':', '-') + ".el");
            final long welLines = EdgeListWriter.write(g, wel, Progress.none());
            EdgeListWriter.write(g, el, Progress.none());
            assertTrue(g.sameAs(readSimple(wel)), spec + " .wel: same vertices, edges and weights");
            assertTrue(g.withoutWeights().sameAs(readSimple(el)), spec + " .el: same vertices and edges");
            int isolatedLast = g.degree(g.vertexCount() - 1) == 0 ? 1 : 0;
            assertEquals(g.edgeCount() / 2 + isolatedLast, welLines, spec + ": each undirected edge once");
        }
    }

    @Test
    void anIsolatedLastVertexIsKeptByASelfLoopThatReadersDrop() throws IOException {
        final EdgeListFixture f = new EdgeListFixture();
        final Path el = dir.resolve("g.el");
        EdgeListWriter.write(f.graph, el, Progress.none());
        assertEquals(List.of("0 1", "1 2", "3 3"), Files.readAllLines(el));
        final CsrGraph back = readSimple(el);
        assertEquals(4, back.vertexCount());
        assertTrue(f.graph.sameAs(back));
        // an asymmetric graph is written edge by edge, read back as it is
        final CsrGraph directed = GraphReader.read(write("d.el", "2 0\n0 1\n"), null, BuildOptions.AS_IS,
            Progress.none());
        final Path out = dir.resolve("d-out.el");
        EdgeListWriter.write(directed, out, Progress.none());
        assertEquals(List.of("0 1", "2 0"), Files.readAllLines(out));
    }

    @Test
    void wrongNamesUnweightedWelAndMissingDirectoriesAreRefusedWithoutAFile() throws IOException {
        final CsrGraph g = new EdgeListFixture().graph;
        assertTrue(assertThrows(IllegalArgumentException.class, () -> EdgeListWriter.write(g, dir.resolve("g.mtx"),
            Progress.none())).getMessage().contains("expected a .el or .wel file name"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> EdgeListWriter.write(g, dir.resolve("g.wel"),
            Progress.none())).getMessage().contains("needs a weighted graph"));
        assertTrue(assertThrows(FileSystemException.class, () -> EdgeListWriter.write(g,
            dir.resolve("no").resolve("g.el"), Progress.none())).getMessage().contains("no such directory"));
        Files.createDirectory(dir.resolve("d.el"));
        assertTrue(assertThrows(FileSystemException.class, () -> EdgeListWriter.write(g, dir.resolve("d.el"),
            Progress.none())).getMessage().contains("is a directory"));
        try (var files = Files.list(dir)) {
            assertFalse(files.anyMatch(p -> p.getFileName().toString().endsWith(".tmp")), "no temporary left");
        }
    }

    @Test
    void numbersAreWrittenInDecimal() {
        final byte[] b = new byte[16];
        for (final int x : new int[] {0, 7, 10, 99, 12345, Integer.MAX_VALUE, -5, Integer.MIN_VALUE}) {
            final int end = EdgeListWriter.number(b, 1, x);
            assertEquals(Integer.toString(x), new String(b, 1, end - 1, java.nio.charset.StandardCharsets.US_ASCII));
        }
    }

    private Path write(final String name, final String text) throws IOException {
        return Files.writeString(dir.resolve(name), text);
    }

    /** 0-1-2 path plus the isolated vertex 3, symmetric. */
    private static final class EdgeListFixture {
        final CsrGraph graph = CsrGraph.wrap(new long[] {0, 1, 3, 4, 4}, new int[] {1, 0, 2, 1}, null, true);
    }
}
