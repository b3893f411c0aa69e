package dev.overlap.graph.gen;

import dev.overlap.graph.CsrGraph;
import dev.overlap.graph.Progress;
import dev.overlap.graph.ref.SequentialBfs;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The road-like generator: sparse, planar (lattice edges only), connected, long diameter, deterministic. */
class RoadTest {
    /** Eccentricity of {@code from}, and the farthest vertex, by BFS. */
    private static int[] farthest(final CsrGraph g, final int from) {
        final int[] d = SequentialBfs.depths(g, from);
        int far = from;
        for (int v = 0; v < d.length; v++) {
            assertTrue(d[v] >= 0, "vertex " + v + " is not reached: the road graph must be connected");
            if (d[v] > d[far]) {
                far = v;
            }
        }
        return new int[] {d[far], far};
    }

    @Test
    void aSmallRoadGraphIsSparsePlanarConnectedAndLongAcross() {
        final GraphSpec spec = GraphSpec.parse("road:10000");
        assertEquals("road:10000", spec.toString());
        final CsrGraph g = spec.build(7, true, Progress.none());
        assertEquals(10_000, g.vertexCount());
        assertTrue(g.isSymmetric());
        final double meanDegree = (double)g.edgeCount() / g.vertexCount();
        assertEquals(2.3, meanDegree, 0.01, "mean degree");
        assertEquals(2L * (9_999 + 1_500), g.edgeCount(), "a spanning tree plus 0.15 n edges, each both ways");
        int maxDegree = 0;
        for (int v = 0; v < g.vertexCount(); v++) {
            maxDegree = Math.max(maxDegree, g.degree(v));
            for (long e = g.edgeStart(v); e < g.edgeEnd(v); e++) {
                final int t = g.target(e);
                final int gap = Math.abs(t - v);
                // lattice neighbours only (100 wide): left/right in the same row, or up/down
                assertTrue(gap == 100 || (gap == 1 && t / 100 == v / 100), v + " -> " + t);
                assertTrue(g.weight(e) >= 1 && g.weight(e) <= 100, "weight " + g.weight(e));
            }
        }
        assertTrue(maxDegree <= 4, "planar lattice degree: " + maxDegree);
        // Double sweep: a lower bound of the diameter. No path is shorter than the Manhattan distance (198 corner to
        // corner); the random tree's winding makes it longer still, but not absurdly (hundreds, not thousands).
        final int[] first = farthest(g, 0);
        final int[] second = farthest(g, first[1]);
        assertTrue(second[0] >= 198 && second[0] < 2_000, "diameter lower bound " + second[0]);
        assertTrue(farthest(g, 0)[0] >= 198, "from a corner, at least the Manhattan distance to the other corner");
    }

    @Test
    void sameSeedSameGraphWeightsDoNotChangeTheEdgesAndOtherSeedsDiffer() {
        final GraphSpec spec = GraphSpec.parse("road:2000");
        final CsrGraph a = spec.build(3, true, Progress.none());
        assertTrue(a.sameAs(spec.build(3, true, Progress.none())));
        assertTrue(a.withoutWeights().sameAs(spec.build(3, false, Progress.none())), "weights drawn apart");
        assertFalse(a.sameAs(spec.build(4, true, Progress.none())));
    }

    @Test
    void tinyInputsStillGiveAConnectedGraphAndBadCountsAreRejected() {
        for (final int n : new int[] {2, 3, 5, 17}) {
            final Road r = new Road(n);
            final CsrGraph g = GraphSpec.parse("road:" + n).build(1, false, Progress.none());
            assertEquals(n, g.vertexCount());
            assertEquals(2 * r.edgeCount(), g.edgeCount(), "road:" + n);
            assertTrue(g.edgeCount() >= 2L * (n - 1), "at least a spanning tree");
            farthest(g, 0);
        }
        assertEquals(5, new Road(17).width());
        assertEquals(4, new Road(17).height());
        assertThrows(IllegalArgumentException.class, () -> new Road(1));
        assertThrows(IllegalArgumentException.class, () -> new Road(Road.MAX_VERTICES + 1));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> GraphSpec.parse("road:1x2")).getMessage()
            .contains("road:VERTICES"));
        assertThrows(IllegalArgumentException.class, () -> GraphSpec.parse("road"));
    }
}
