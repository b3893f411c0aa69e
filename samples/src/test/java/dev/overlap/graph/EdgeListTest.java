package dev.overlap.graph;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The blocked edge list keeps every edge across block boundaries, however it grew. */
class EdgeListTest {
    private static int src(final int i) {
        return i * 7 + 1;
    }

    private static int dst(final int i) {
        return i ^ 0x5555;
    }

    private static int wgt(final int i) {
        return i % 255 + 1;
    }

    private static void check(final EdgeList e, final int n) {
        assertEquals(n, e.size());
        for (int i = 0; i < n; i++) {
            if (e.source(i) != src(i) || e.target(i) != dst(i) || e.weight(i) != wgt(i)) {
                assertEquals(src(i) + "->" + dst(i) + " w" + wgt(i), e.source(i) + "->" + e.target(i) + " w"
                    + e.weight(i), "edge " + i);
            }
        }
    }

    @Test
    void addingFromASmallCapacityGrowsAcrossBlocks() {
        final int n = 2 * EdgeList.BLOCK + 12345;
        final EdgeList e = new EdgeList(4, true);
        for (int i = 0; i < n; i++) {
            e.add(src(i), dst(i), wgt(i));
        }
        check(e, n);
        assertEquals(src(n - 1), e.maxVertex());
    }

    @Test
    void presizedListsAcceptSetAtAnyIndexAndResizeKeepsTheEdges() {
        for (final long capacity : new long[] {16, EdgeList.BLOCK - 1, EdgeList.BLOCK, EdgeList.BLOCK + 1}) {
            final EdgeList e = new EdgeList(capacity, true);
            final int first = 1000;
            e.resize(first);
            for (int i = first - 1; i >= 0; i--) {
                e.set(i, src(i), dst(i), wgt(i));
            }
            final int n = EdgeList.BLOCK + 777;
            e.resize(n);
            for (int i = first; i < n; i++) {
                e.set(i, src(i), dst(i), wgt(i));
            }
            check(e, n);
            e.add(src(n), dst(n), wgt(n));
            check(e, n + 1);
            e.resize(10);
            check(e, 10);
        }
    }

    @Test
    void unweightedListsReadWeightOneAndOversizedListsAreRejected() {
        final EdgeList e = new EdgeList(0, false);
        e.add(3, 4);
        assertEquals(1, e.weight(0));
        assertEquals(4, e.maxVertex());
        assertThrows(IllegalArgumentException.class, () -> new EdgeList(CsrGraph.MAX_EDGES + 1, false));
        assertThrows(IllegalArgumentException.class, () -> e.resize(CsrGraph.MAX_EDGES + 1));
    }
}
