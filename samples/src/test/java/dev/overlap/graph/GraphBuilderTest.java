package dev.overlap.graph;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class GraphBuilderTest {
    private static EdgeList sample() {
        final EdgeList e = new EdgeList(4, true);
        e.add(0, 1, 5);
        e.add(0, 1, 3);
        e.add(1, 1, 7);
        e.add(2, 0, 1);
        e.add(1, 2, 2);
        return e;
    }

    private static int[] row(final CsrGraph g, final int v) {
        final int[] r = new int[g.degree(v)];
        for (int i = 0; i < r.length; i++) {
            r[i] = g.target(g.edgeStart(v) + i);
        }
        return r;
    }

    private static int[] weights(final CsrGraph g, final int v) {
        final int[] r = new int[g.degree(v)];
        for (int i = 0; i < r.length; i++) {
            r[i] = g.weight(g.edgeStart(v) + i);
        }
        return r;
    }

    @Test
    void asIsKeepsEveryEdgeInInputOrder() {
        final CsrGraph g = GraphBuilder.build(sample(), 3, BuildOptions.AS_IS, false, Progress.none());
        assertEquals(3, g.vertexCount());
        assertEquals(5, g.edgeCount());
        assertArrayEquals(new int[] {1, 1}, row(g, 0));
        assertArrayEquals(new int[] {5, 3}, weights(g, 0));
        assertArrayEquals(new int[] {1, 2}, row(g, 1));
        assertFalse(g.isSymmetric());
    }

    @Test
    void symmetrizeAddsReversesButNotASecondSelfLoop() {
        final CsrGraph g = GraphBuilder.build(sample(), -1, new BuildOptions(true, false, false), false,
            Progress.none());
        assertEquals(9, g.edgeCount());
        assertTrue(g.isSymmetric());
        assertEquals(1, java.util.Arrays.stream(row(g, 1)).filter(t -> t == 1).count());
    }

    @Test
    void cleaningDropsLoopsAndDuplicatesKeepingTheLightest() {
        final CsrGraph g = GraphBuilder.build(sample(), 3, BuildOptions.UNDIRECTED_SIMPLE, false, Progress.none());
        assertArrayEquals(new int[] {1, 2}, row(g, 0));
        assertArrayEquals(new int[] {3, 1}, weights(g, 0));
        assertArrayEquals(new int[] {0, 2}, row(g, 1));
        assertArrayEquals(new int[] {3, 2}, weights(g, 1));
        assertArrayEquals(new int[] {0, 1}, row(g, 2));
        assertEquals(6, g.edgeCount());
    }

    @Test
    void vertexOutsideTheDeclaredCountIsRejected() {
        assertThrows(IllegalArgumentException.class,
            () -> GraphBuilder.build(sample(), 2, BuildOptions.AS_IS, false, Progress.none()));
    }

    @Test
    void wrapValidatesAndTransposeReverses() {
        assertThrows(IllegalArgumentException.class, () -> CsrGraph.wrap(new long[] {0, 2, 1}, new int[] {0}, null,
            false));
        assertThrows(IllegalArgumentException.class, () -> CsrGraph.wrap(new long[] {0, 1}, new int[] {3}, null,
            false));
        final CsrGraph g = CsrGraph.wrap(new long[] {0, 2, 2, 3}, new int[] {1, 2, 0}, new int[] {4, 5, 6}, false);
        final CsrGraph t = g.transpose();
        assertArrayEquals(new int[] {2}, row(t, 0));
        assertArrayEquals(new int[] {0}, row(t, 1));
        assertArrayEquals(new int[] {0}, row(t, 2));
        assertArrayEquals(new int[] {5}, weights(t, 2));
        assertTrue(t.transpose().sameAs(g));
    }
}
