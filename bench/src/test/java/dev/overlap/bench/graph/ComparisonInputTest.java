package dev.overlap.bench.graph;

import dev.overlap.graph.CsrGraph;
import dev.overlap.graph.Progress;
import dev.overlap.graph.io.GraphFormatException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A --graphs entry is a generator spec or a graph file; files are read as undirected simple graphs. */
class ComparisonInputTest {
    @TempDir
    Path dir;

    @Test
    void specsAndFilesAreToldApartByTheName() {
        final ComparisonInput kron = ComparisonInput.parse(" kron:8 ");
        assertFalse(kron.isFile());
        assertEquals("kron:8", kron.name());
        assertEquals("kron", kron.family());
        assertNull(kron.path());
        assertEquals("road", ComparisonInput.parse("road:500").family());
        assertEquals("grid", ComparisonInput.parse("grid:4x4").family());
        final ComparisonInput file = ComparisonInput.parse("/data/gap/kron20.wel");
        assertTrue(file.isFile());
        assertEquals("kron20.wel", file.name());
        assertEquals("file", file.family());
        assertTrue(file.gapReadable());
        assertFalse(ComparisonInput.parse("g.bcsr").gapReadable(), "GAP has no reader for Overlap's binary CSR");
        assertFalse(ComparisonInput.parse("g.el.gz").gapReadable(), "GAP reads no gzip");
        assertFalse(kron.gapReadable());
        assertTrue(assertThrows(IllegalArgumentException.class, () -> ComparisonInput.parse("ring:3")).getMessage()
            .contains("unknown generator 'ring'"));
    }

    @Test
    void aFileWithBothDirectionsDuplicatesAndALoopLoadsAsTheUndirectedSimpleGraph() throws IOException {
        // as GAP's converter writes: both directions, plus a duplicate and a self-loop
        final Path el = Files.writeString(dir.resolve("g.wel"), "0 1 5\n1 0 5\n1 2 7\n2 1 7\n1 2 9\n3 3 1\n");
        final CsrGraph g = ComparisonInput.parse(el.toString()).load(1, true, Progress.none());
        assertEquals(4, g.vertexCount());
        assertEquals(4, g.edgeCount(), "0-1 and 1-2, both ways, the loop and the duplicate gone");
        assertTrue(g.isSymmetric());
        assertEquals(7, g.weight(g.edgeStart(2)), "the lightest copy of 1-2");
        assertThrows(GraphFormatException.class, () -> ComparisonInput.parse(dir.resolve("none.el").toString())
            .load(1, false, Progress.none()));
    }
}
