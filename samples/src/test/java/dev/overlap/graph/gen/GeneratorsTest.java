package dev.overlap.graph.gen;

import dev.overlap.graph.CsrGraph;
import dev.overlap.graph.EdgeList;
import dev.overlap.graph.Progress;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class GeneratorsTest {
    @Test
    void kroneckerHasGraph500SizeAndIsDeterministicBySeed() {
        final Kronecker k = new Kronecker(10, 16);
        final EdgeList a = k.generate(42, 0, Progress.none());
        final EdgeList b = k.generate(42, 0, Progress.none());
        final EdgeList c = k.generate(43, 0, Progress.none());
        assertEquals(16 * 1024, a.size());
        assertEquals(1023, a.maxVertex());
        boolean differs = false;
        for (int i = 0; i < a.size(); i++) {
            assertEquals(a.source(i), b.source(i));
            assertEquals(a.target(i), b.target(i));
            differs |= a.source(i) != c.source(i) || a.target(i) != c.target(i);
        }
        assertTrue(differs, "another seed gives another graph");
    }

    /**
     * A generated graph's edges do not depend on whether it has weights: {@code sssp --generate kron:20} runs on the
     * graph {@code bfs} and {@code pr} run on (weights used to be drawn from the edges' stream, so a weighted kron 20
     * was another graph, with PageRank converging at another rate).
     */
    @Test
    void weightsDoNotChangeTheEdges() {
        for (final String spec : new String[] {"kron:10", "urand:10", "road:3000", "grid:30x20"}) {
            final GraphSpec gs = GraphSpec.parse(spec);
            final CsrGraph plain = gs.build(7, false, Progress.none());
            final CsrGraph weighted = gs.build(7, true, Progress.none());
            assertTrue(weighted.isWeighted(), spec);
            assertTrue(plain.sameAs(weighted.withoutWeights()), spec + ": the weighted graph has other edges");
        }
        final Kronecker k = new Kronecker(10, 16);
        final EdgeList plain = k.generate(7, 0, Progress.none());
        final EdgeList weighted = k.generate(7, 255, Progress.none());
        for (int i = 0; i < plain.size(); i++) {
            assertEquals(plain.source(i), weighted.source(i));
            assertEquals(plain.target(i), weighted.target(i));
        }
    }

    @Test
    void kroneckerIsScaleFreeAndUniformIsNot() {
        final CsrGraph kron = GraphSpec.parse("kron:12").build(1, false, Progress.none());
        final CsrGraph urand = GraphSpec.parse("urand:12").build(1, false, Progress.none());
        assertEquals(4096, kron.vertexCount());
        assertTrue(kron.isSymmetric() && urand.isSymmetric());
        assertTrue(kron.maxDegree() > 20 * kron.edgeCount() / kron.vertexCount(), "kron has hubs: " + kron.maxDegree());
        assertTrue(urand.maxDegree() < 4 * urand.edgeCount() / urand.vertexCount(), "urand has none: "
            + urand.maxDegree());
        // Graph500 parameters leave many vertices isolated; uniform graphs with edge factor 16 leave almost none.
        int isolated = 0;
        for (int v = 0; v < kron.vertexCount(); v++) {
            isolated += kron.degree(v) == 0 ? 1 : 0;
        }
        assertTrue(isolated > 0);
    }

    @Test
    void generatedGraphsAreSimpleAndSymmetric() {
        final CsrGraph g = GraphSpec.parse("kron:11").build(3, true, Progress.none());
        for (int v = 0; v < g.vertexCount(); v++) {
            int last = -1;
            for (long e = g.edgeStart(v); e < g.edgeEnd(v); e++) {
                final int t = g.target(e);
                assertTrue(t > last, "sorted, no duplicates");
                assertTrue(t != v, "no self-loops");
                assertTrue(g.weight(e) >= 1 && g.weight(e) <= 255);
                last = t;
                assertTrue(hasEdge(g, t, v, g.weight(e)), "reverse edge with the same weight");
            }
        }
    }

    private static boolean hasEdge(final CsrGraph g, final int u, final int v, final int w) {
        for (long e = g.edgeStart(u); e < g.edgeEnd(u); e++) {
            if (g.target(e) == v && g.weight(e) == w) {
                return true;
            }
        }
        return false;
    }

    @Test
    void uniformSizeAndDeterminism() {
        final UniformRandom u = new UniformRandom(9, 8);
        assertEquals(8 * 512, u.generate(1, 0, Progress.none()).size());
        assertTrue(GraphSpec.parse("urand:9:8").build(5, true, Progress.none())
            .sameAs(GraphSpec.parse("urand:9:8").build(5, true, Progress.none())));
        assertFalse(GraphSpec.parse("urand:9").build(5, false, Progress.none())
            .sameAs(GraphSpec.parse("urand:9").build(6, false, Progress.none())));
    }

    @Test
    void gridHasFourNeighboursAndWeightsByDeterministicSeed() {
        final CsrGraph g = GraphSpec.parse("grid:30x20").build(9, true, Progress.none());
        assertEquals(600, g.vertexCount());
        assertEquals(2L * (29 * 20 + 30 * 19), g.edgeCount());
        assertEquals(4, g.maxDegree());
        assertEquals(2, g.degree(0));
        assertEquals(4, g.degree(31));
        for (long e = 0; e < g.edgeCount(); e++) {
            assertTrue(g.weight(e) >= 1 && g.weight(e) <= 100);
        }
        assertTrue(g.sameAs(GraphSpec.parse("grid:30x20").build(9, true, Progress.none())));
        assertFalse(g.sameAs(GraphSpec.parse("grid:30x20").build(10, true, Progress.none())));
    }

    @Test
    void badSpecsSayWhatIsExpected() {
        for (final String s : new String[] {"kron", "kron:x", "kron:0", "kron:31", "grid:10", "grid:0x5", "ring:5",
            "urand:5:0"}) {
            final IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> GraphSpec.parse(s));
            assertFalse(e.getMessage().isEmpty(), s);
        }
    }
}
