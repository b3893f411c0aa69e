package dev.overlap.graph.ref;

import dev.overlap.graph.CsrGraph;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ReferencesTest {
    /** 0 -> 1 (4), 0 -> 2 (1), 2 -> 1 (2), 1 -> 3 (5); vertex 4 isolated. */
    private static final CsrGraph G = CsrGraph.wrap(new long[] {0, 2, 3, 4, 4, 4}, new int[] {1, 2, 3, 1},
        new int[] {4, 1, 5, 2}, false);

    @Test
    void bfsAndDijkstraOnAKnownGraph() {
        assertArrayEquals(new int[] {0, 1, 1, 2, -1}, SequentialBfs.depths(G, 0));
        assertArrayEquals(new long[] {0, 3, 1, 8, Dijkstra.UNREACHED}, Dijkstra.distances(G, 0));
        assertThrows(IllegalArgumentException.class, () -> Dijkstra.distances(CsrGraph.wrap(new long[] {0, 1, 1},
            new int[] {1}, new int[] {-1}, false), 0));
    }

    @Test
    void pageRankSumsToOneAndMeetsItsBound() {
        final PowerIteration.Result r = PowerIteration.ranks(G, 0.85, 1e-10, 10_000);
        double sum = 0;
        for (final double x : r.ranks()) {
            sum += x;
        }
        assertEquals(1.0, sum, 1e-12);
        assertTrue(r.errorBound() < 1e-10);
        final PowerIteration.Result loose = PowerIteration.ranks(G, 0.85, 1e-3, 10_000);
        assertTrue(Verification.l1(loose.ranks(), r.ranks()) <= 1e-3 + 1e-10, "the bound holds");
        assertTrue(r.ranks()[3] > r.ranks()[4], "a linked vertex outranks an isolated one");
    }

    @Test
    void verificationsReportTheFirstMismatch() {
        final Verification bad = Verification.depths(new int[] {0, 1, 2}, new int[] {0, 1, 3});
        assertFalse(bad.passed());
        assertEquals("vertex 2 has depth 3, sequential BFS says 2", bad.detail());
        assertTrue(Verification.distances(new long[] {0, 5}, new long[] {0, 5}).passed());
        assertFalse(Verification.distances(new long[] {0, 5}, new long[] {0, Long.MAX_VALUE}).passed());
        assertFalse(Verification.ranks(new double[] {0.5, 0.5}, new double[] {0.6, 0.4}, 0.1).passed());
        assertTrue(Verification.ranks(new double[] {0.5, 0.5}, new double[] {0.52, 0.48}, 0.1).passed());
        assertFalse(Verification.ranks(new double[] {0.5, 0.5}, new double[] {Double.NaN, 0.5}, 0.1).passed());
    }
}
