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

    /** A stream delivering a list in slices of {@code slice} edges, each a batch of its own (ids tracked by add). */
    private static EdgeStream slices(final EdgeList all, final int slice) {
        return new EdgeStream() {
            @Override
            public boolean isWeighted() {
                return all.isWeighted();
            }

            @Override
            public long size() {
                return all.size();
            }

            @Override
            public void forEachBatch(final java.util.function.Consumer<EdgeList> batch) {
                final EdgeList b = new EdgeList(slice, all.isWeighted());
                for (int i = 0; i < all.size(); i++) {
                    b.add(all.source(i), all.target(i), all.weight(i));
                    if (b.size() == slice || i == all.size() - 1) {
                        batch.accept(b);
                        b.clear();
                    }
                }
            }
        };
    }

    @Test
    void aStreamOfUnknownVertexCountGrowsToItsLargestIdBatchByBatch() {
        final java.util.SplittableRandom r = new java.util.SplittableRandom(7);
        final EdgeList all = new EdgeList(16, true);
        for (int i = 0; i < 20_000; i++) {
            // ids grow along the stream, so the counts grow many times, in the middle of a pass
            final int bound = 2 + i / 3;
            all.add(r.nextInt(bound), r.nextInt(bound), r.nextInt(1, 100));
        }
        for (final BuildOptions o : new BuildOptions[] {BuildOptions.AS_IS, BuildOptions.UNDIRECTED_SIMPLE}) {
            final CsrGraph want = GraphBuilder.build(all, -1, o, false, Progress.none());
            final CsrGraph got = GraphBuilder.build(slices(all, 777), -1, o, false, Progress.none());
            assertTrue(want.sameAs(got), o + ": the stream's graph is the list's");
            assertEquals(all.maxVertex() + 1, got.vertexCount());
        }
        // a declared count above the largest id keeps its isolated vertices
        assertEquals(all.maxVertex() + 11, GraphBuilder.build(slices(all, 777), all.maxVertex() + 11,
            BuildOptions.AS_IS, false, Progress.none()).vertexCount());
    }

    @Test
    void aSecondPassThatNamesOtherVerticesIsRefused() {
        // same degrees, but the second pass names vertex 5 of 2
        final EdgeStream changing = ChangingEdges.of(ChangingEdges.edges(0, 1, 1, 0), ChangingEdges.edges(0, 1, 1, 5));
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> GraphBuilder.build(changing, -1, BuildOptions.AS_IS, false, Progress.none()));
        assertTrue(e.getMessage().contains("edge to vertex 5"), e.getMessage());
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

    /**
     * Dropping duplicates in place (the arrays keep an unused tail) gives the same graph as a naive build, whether
     * the builder keeps the tail (few repeats) or trims by a copy (mostly repeats): same rows, lightest weights,
     * edge count, fingerprint, transpose; with self-loops dropped or kept, symmetrized or not.
     */
    @Test
    void inPlaceDedupeEqualsANaiveBuildWithAndWithoutATail() {
        for (final int repeats : new int[] {1, 8}) {
            for (final BuildOptions o : new BuildOptions[] {BuildOptions.UNDIRECTED_SIMPLE,
                new BuildOptions(false, false, true), new BuildOptions(true, false, true)}) {
                for (final boolean weighted : new boolean[] {false, true}) {
                    final java.util.Random rnd = new java.util.Random(repeats * 31L + (weighted ? 1 : 0));
                    final int n = 50;
                    final EdgeList e = new EdgeList(16, weighted);
                    for (int i = 0; i < 400; i++) {
                        final int u = rnd.nextInt(n);
                        final int v = rnd.nextInt(8) == 0 ? u : rnd.nextInt(n);
                        for (int r = 0; r < 1 + rnd.nextInt(repeats); r++) {
                            e.add(u, v, 1 + rnd.nextInt(9));
                        }
                    }
                    final CsrGraph g = GraphBuilder.build(e, n, o, false, Progress.none());
                    final CsrGraph want = naive(e, n, o);
                    final String what = o + " weighted=" + weighted + " repeats<=" + repeats;
                    assertTrue(g.sameAs(want) && want.sameAs(g), what);
                    assertEquals(want.edgeCount(), g.edgeCount(), what);
                    assertEquals(want.fingerprint(), g.fingerprint(), what);
                    assertEquals(want.toString(), g.toString(), what);
                    assertTrue(g.transpose().sameAs(want.transpose()), what);
                    assertTrue(g.withoutWeights().sameAs(want.withoutWeights()), what);
                }
            }
        }
    }

    /** The reference: per row a sorted map from target to its lightest weight, wrapped with exact arrays. */
    private static CsrGraph naive(final EdgeList e, final int n, final BuildOptions o) {
        final java.util.List<java.util.TreeMap<Integer, Integer>> rows = new java.util.ArrayList<>();
        for (int v = 0; v < n; v++) {
            rows.add(new java.util.TreeMap<>());
        }
        for (int i = 0; i < e.size(); i++) {
            final int u = e.source(i);
            final int v = e.target(i);
            if (u == v && o.dropSelfLoops()) {
                continue;
            }
            rows.get(u).merge(v, e.weight(i), Math::min);
            if (o.symmetrize() && u != v) {
                rows.get(v).merge(u, e.weight(i), Math::min);
            }
        }
        final long[] offsets = new long[n + 1];
        for (int v = 0; v < n; v++) {
            offsets[v + 1] = offsets[v] + rows.get(v).size();
        }
        final int[] targets = new int[(int)offsets[n]];
        final int[] weights = e.isWeighted() ? new int[targets.length] : null;
        int k = 0;
        for (int v = 0; v < n; v++) {
            for (final java.util.Map.Entry<Integer, Integer> x : rows.get(v).entrySet()) {
                targets[k] = x.getKey();
                if (weights != null) {
                    weights[k] = x.getValue();
                }
                k++;
            }
        }
        return CsrGraph.wrap(offsets, targets, weights, o.symmetrize());
    }

    @Test
    void dedupeKeepsTheArraysUnlessTheTailExceedsAQuarter() {
        assertTrue(GraphBuilder.keepsInPlace(100, 100));
        assertTrue(GraphBuilder.keepsInPlace(75, 100));
        assertFalse(GraphBuilder.keepsInPlace(74, 100));
        assertFalse(GraphBuilder.keepsInPlace(0, 100));
        assertTrue(GraphBuilder.keepsInPlace(0, 0));
    }
}
