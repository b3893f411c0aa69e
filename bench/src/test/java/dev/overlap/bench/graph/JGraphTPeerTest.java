package dev.overlap.bench.graph;

import dev.overlap.graph.CsrGraph;
import dev.overlap.graph.gen.GraphSpec;
import dev.overlap.graph.Progress;
import dev.overlap.graph.ref.Dijkstra;
import dev.overlap.graph.ref.PowerIteration;
import dev.overlap.graph.ref.SequentialBfs;
import dev.overlap.graph.ref.Verification;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class JGraphTPeerTest {
    /** Path 0 -1- 1 -5- 2 plus the shortcut 0 -2- 2, and vertex 3 alone; both directions stored. */
    private static CsrGraph small() {
        return CsrGraph.wrap(new long[] {0, 2, 4, 6, 6}, new int[] {1, 2, 0, 2, 0, 1}, new int[] {1, 2, 1, 5, 2, 5},
            true);
    }

    @Test
    void copiesOneEdgePerUndirectedEdgeAndAnswersLikeTheReferences() {
        final JGraphTPeer p = JGraphTPeer.copyOf(small());
        assertEquals(4, p.vertexCount());
        assertEquals(3, p.edgeCount());
        final JGraphTPeer.Bfs bfs = p.bfs(0);
        assertEquals(3, bfs.reached());
        assertArrayEquals(new int[] {0, 1, 1, -1}, bfs.depths(SequentialBfs.depths(small(), 0)));
        assertArrayEquals(new long[] {0, 1, 2, Dijkstra.UNREACHED}, p.distances(p.dijkstra(0)));
    }

    @Test
    void matchesTheReferencesOnAGeneratedGraph() {
        final CsrGraph g = GraphSpec.parse("kron:9").build(3, true, Progress.none());
        final JGraphTPeer p = JGraphTPeer.copyOf(g);
        assertEquals(g.edgeCount() / 2, p.edgeCount());
        final int[] depths = SequentialBfs.depths(g, 1);
        assertArrayEquals(depths, p.bfs(1).depths(depths));
        assertArrayEquals(Dijkstra.distances(g, 1), p.distances(p.dijkstra(1)));
        final double l1 = Verification.l1(PowerIteration.fixed(g, 0.85, 20).ranks(), p.pageRank(0.85, 20));
        assertTrue(l1 < 1e-12, "L1 " + l1);
    }

    @Test
    void refusesGraphsItCannotRepresent() {
        final IllegalArgumentException directed = assertThrows(IllegalArgumentException.class,
            () -> JGraphTPeer.copyOf(CsrGraph.wrap(new long[] {0, 1, 1}, new int[] {1}, null, false)));
        assertTrue(directed.getMessage().contains("needs a symmetric graph"), directed.getMessage());
        final IllegalArgumentException loop = assertThrows(IllegalArgumentException.class,
            () -> JGraphTPeer.copyOf(CsrGraph.wrap(new long[] {0, 1}, new int[] {0}, null, true)));
        assertEquals("vertex 0 has a self-loop: the JGraphT peer builds a graph without them", loop.getMessage());
    }

    @Test
    void estimatesGrowWithTheGraph() {
        final CsrGraph g = small();
        assertEquals(4 * JGraphTPeer.BYTES_PER_VERTEX + 3 * JGraphTPeer.BYTES_PER_EDGE, JGraphTPeer.estimateBytes(g));
    }
}
