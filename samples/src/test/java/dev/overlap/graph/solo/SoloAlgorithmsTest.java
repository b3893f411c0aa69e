package dev.overlap.graph.solo;

import dev.overlap.core.Mesh;
import dev.overlap.graph.BuildOptions;
import dev.overlap.graph.CsrGraph;
import dev.overlap.graph.EdgeList;
import dev.overlap.graph.GraphBuilder;
import dev.overlap.graph.Progress;
import dev.overlap.graph.app.AppResult;
import dev.overlap.graph.app.AppRunner;
import dev.overlap.graph.app.AppSettings;
import dev.overlap.graph.app.Algorithms;
import dev.overlap.graph.app.GraphApp;
import dev.overlap.graph.gen.GraphSpec;
import dev.overlap.graph.partition.DeviceGraph;
import dev.overlap.graph.partition.Partition;
import dev.overlap.graph.ref.Dijkstra;
import dev.overlap.graph.ref.PowerIteration;
import dev.overlap.graph.ref.SequentialBfs;
import dev.overlap.graph.ref.Verification;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The one-thread path answers exactly what the references answer, on every shape, and counts its work. */
class SoloAlgorithmsTest {
    private static Mesh one;
    private static Mesh two;
    private final SoloAlgorithms solo = new SoloAlgorithms();

    @BeforeAll
    static void meshes() {
        one = Mesh.builder().name("solo1").devices(1).threadsPerDevice(1).memoryPerDevice(32 << 20).build();
        two = Mesh.builder().name("solo2").devices(2).threadsPerDevice(1).memoryPerDevice(8 << 20).build();
    }

    @AfterAll
    static void close() {
        one.close();
        two.close();
    }

    /**
     * A directed graph as read from a file ({@link BuildOptions#AS_IS}): a weighted cycle 0-1-2-3 with a chord, a
     * fan 5 -> 6, 7, 8 -> 9 whose tail 9 has in-edges and no out-edges, and vertices 4 and 10 with no edges at all;
     * sources 4, 9 and 10 reach only themselves.
     */
    static CsrGraph isolated() {
        final EdgeList e = new EdgeList(16, true);
        e.add(0, 1, 5);
        e.add(1, 2, 1);
        e.add(2, 3, 2);
        e.add(3, 0, 8);
        e.add(0, 2, 7);
        e.add(5, 6, 3);
        e.add(5, 7, 1);
        e.add(7, 8, 4);
        e.add(5, 8, 9);
        e.add(8, 9, 2);
        e.add(6, 9, 6);
        return GraphBuilder.build(e, 11, BuildOptions.AS_IS, false, Progress.none());
    }

    static Stream<Arguments> cases() {
        final List<Arguments> list = new ArrayList<>();
        for (final String g : new String[] {"kron:10", "grid:30x30", "road:3000", "urand:9", "isolated"}) {
            for (final String kind : new String[] {"range", "degree"}) {
                list.add(Arguments.of(g, kind));
            }
        }
        return list.stream();
    }

    private static CsrGraph graph(final String spec) {
        return spec.equals("isolated") ? isolated() : GraphSpec.parse(spec).build(7, true, Progress.none());
    }

    private static Partition partition(final CsrGraph g, final String kind) {
        return kind.equals("range") ? Partition.byEdges(g, 1) : Partition.byEdgesDegreeOrdered(g, 1);
    }

    /** Sources: 0, the last vertex, a middle one, and for the isolated graph the vertices without edges. */
    private static int[] sources(final CsrGraph g) {
        return g.vertexCount() == 11 ? new int[] {0, 4, 10, 5, 9} : new int[] {0, g.vertexCount() - 1,
            g.vertexCount() / 2};
    }

    @ParameterizedTest(name = "{0}, {1} numbering")
    @MethodSource("cases")
    void bfsEqualsSequentialBfsAndExpandsEachReachedVertexOnce(final String spec, final String kind) {
        final CsrGraph g = graph(spec);
        final AppSettings topDown = AppSettings.builder().direction(AppSettings.Direction.TOP_DOWN).build();
        try (DeviceGraph dg = DeviceGraph.place(one, g, partition(g, kind), false)) {
            for (final int source : sources(g)) {
                final int[] expected = SequentialBfs.depths(g, source);
                long edges = 0;
                int levels = 0;
                for (int u = 0; u < g.vertexCount(); u++) {
                    edges += expected[u] >= 0 ? g.degree(u) : 0;
                    levels = Math.max(levels, expected[u] + 1);
                }
                for (final AppSettings settings : new AppSettings[] {topDown, AppSettings.defaults()}) {
                    final String where = spec + " from " + source + ", " + settings.direction();
                    final AppResult r = solo.bfs(dg, source, settings);
                    final Verification v = Verification.depths(expected, r.depths());
                    assertTrue(v.passed(), where + ": " + v.detail());
                    assertEquals(GraphApp.reached(expected), r.counts().visited(), where + ": each reached vertex once");
                    assertEquals(levels, r.counts().iterations(), where + ": levels");
                    assertEquals(0, r.counts().remotePushes() + r.counts().messages(), where + ": no transport");
                    if (settings == topDown) {
                        assertEquals(edges, r.counts().edgesScanned(), where + ": the out-edges of the reached vertices");
                    }
                }
            }
        }
    }

    /**
     * On a symmetric low-diameter graph the default BFS takes bottom-up steps (each unreached vertex stops at its first
     * neighbour in the frontier), so it reads far fewer edges than top-down, with the same depths; on the same edges
     * marked directed it has no in-edges to look at and stays top-down.
     */
    @Test
    void bfsGoesBottomUpOnASymmetricLowDiameterGraphOnly() {
        final CsrGraph g = GraphSpec.parse("kron:14").build(3, false, Progress.none());
        assertTrue(g.isSymmetric());
        final int n = g.vertexCount();
        final long[] offsets = new long[n + 1];
        g.copyOffsets(0, offsets, 0, n + 1);
        final int[] targets = new int[(int)g.edgeCount()];
        g.copyTargets(0, targets, 0, targets.length);
        final CsrGraph directed = CsrGraph.wrap(offsets, targets, null, false);
        final int source = GraphApp.defaultSource(g, 1);
        final int[] expected = SequentialBfs.depths(g, source);
        final AppSettings topDown = AppSettings.builder().direction(AppSettings.Direction.TOP_DOWN).build();
        final long[] scanned = new long[3];
        int i = 0;
        for (final CsrGraph graph : new CsrGraph[] {g, directed}) {
            try (DeviceGraph dg = DeviceGraph.place(one, graph, Partition.byEdges(graph, 1), false)) {
                for (final AppSettings settings : graph == g ? new AppSettings[] {topDown, AppSettings.defaults()}
                    : new AppSettings[] {AppSettings.defaults()}) {
                    final AppResult r = solo.bfs(dg, source, settings);
                    assertTrue(Verification.depths(expected, r.depths()).passed(), graph + " " + settings.direction());
                    scanned[i++] = r.counts().edgesScanned();
                }
            }
        }
        assertTrue(scanned[1] < scanned[0] / 2, "bottom-up stops at the first parent: " + scanned[1] + " edges vs "
            + "top-down " + scanned[0]);
        assertEquals(scanned[0], scanned[2], "a directed graph stays top-down");
    }

    /** The direction rule keeps a grid's shrinking tail top-down (see DirectionRuleTest), in solo as in coop. */
    @Test
    void aGridsShrinkingTailStaysTopDown() {
        dev.overlap.graph.app.DirectionRuleTest.assertAGridsShrinkingTailStaysTopDown(solo, one, 1);
    }

    /**
     * And a road network's tail, whose tiny frontiers grow as often as they shrink (solo does not even ask the rule
     * there: no frontier of a road network could have n / beta edges; coop's test asks it every level).
     */
    @Test
    void aRoadsTailStaysTopDown() {
        dev.overlap.graph.app.DirectionRuleTest.assertARoadsTailStaysTopDown(solo, one, 1);
    }

    @ParameterizedTest(name = "{0}, {1} numbering")
    @MethodSource("cases")
    void ssspEqualsDijkstraForEveryBucketWidth(final String spec, final String kind) {
        final CsrGraph g = graph(spec);
        try (DeviceGraph dg = DeviceGraph.place(one, g, partition(g, kind), true)) {
            for (final int source : sources(g)) {
                final long[] expected = Dijkstra.distances(g, source);
                for (final int delta : new int[] {0, 1, 7, 1 << 20}) {
                    final AppResult r = solo.sssp(dg, source, AppSettings.builder().delta(delta).build());
                    final Verification v = Verification.distances(expected, r.distances());
                    assertTrue(v.passed(), spec + " from " + source + ", delta " + delta + ": " + v.detail());
                    assertTrue(r.counts().visited() >= GraphApp.reached(expected), "at least every reached vertex");
                    assertTrue(r.counts().edgesScanned() >= 0);
                }
            }
        }
    }

    @Test
    void ssspWithUnitWeightsIsBfsDepth() {
        final CsrGraph g = GraphSpec.parse("grid:25x25").build(3, false, Progress.none());
        try (DeviceGraph dg = DeviceGraph.place(one, g, Partition.byEdges(g, 1), true)) {
            final AppResult r = solo.sssp(dg, 0, AppSettings.builder().delta(1).build());
            final int[] depths = SequentialBfs.depths(g, 0);
            for (int v = 0; v < depths.length; v++) {
                assertEquals(depths[v], r.distances()[v], "vertex " + v);
            }
            assertEquals(g.vertexCount(), r.counts().visited(), "delta 1 on unit weights expands each vertex once");
        }
    }

    @ParameterizedTest(name = "{0}, {1} numbering")
    @MethodSource("cases")
    void pageRankMatchesPowerIterationForFixedIterationsAndToTheTolerance(final String spec, final String kind) {
        final CsrGraph g = graph(spec).withoutWeights();
        final int[] out = GraphApp.outDegrees(g);
        try (DeviceGraph dg = DeviceGraph.place(one, g.transpose(), partition(g.transpose(), kind), false)) {
            final AppResult fixed = solo.pageRank(dg, out, AppSettings.builder().fixedIterations(12).build());
            final PowerIteration.Result ref = PowerIteration.fixed(g, PowerIteration.DAMPING, 12);
            final Verification v = Verification.ranks(ref.ranks(), fixed.ranks(), 1e-9);
            assertTrue(v.passed(), spec + ": " + v.detail());
            assertEquals(12, fixed.counts().iterations());
            assertEquals(12L * g.vertexCount(), fixed.counts().visited());
            assertEquals(12L * g.edgeCount(), fixed.counts().edgesScanned());
            final AppResult tol = solo.pageRank(dg, out, AppSettings.builder().tolerance(1e-6)
                .pageRankSweep(AppSettings.PageRankSweep.JACOBI).build());
            final PowerIteration.Result exact = PowerIteration.ranks(g, PowerIteration.DAMPING, 1e-12, 100_000);
            final Verification close = Verification.ranks(exact.ranks(), tol.ranks(), 1e-6 + 1e-12);
            assertTrue(close.passed(), spec + ": " + close.detail());
            final int refIterations = PowerIteration.ranks(g, PowerIteration.DAMPING, 1e-6, 1000).iterations();
            assertTrue(Math.abs(tol.counts().iterations() - refIterations) <= 1, "the same stopping rule, so the "
                + "same work: " + tol.counts().iterations() + " vs " + refIterations);
        }
    }

    /**
     * On a symmetric graph the pull reads its out-degrees from its rows, so the caller passes none: the answer is the
     * one with the degrees, bit for bit, in both numberings, Jacobi and in place; a directed graph (whose placed rows
     * are its in-edges) needs them, and is refused without.
     */
    @ParameterizedTest(name = "{0}, {1} numbering")
    @MethodSource("cases")
    void aSymmetricGraphNeedsNoOutDegrees(final String spec, final String kind) {
        final CsrGraph g = graph(spec).withoutWeights();
        final int[] out = GraphApp.outDegrees(g);
        try (DeviceGraph dg = DeviceGraph.place(one, g.transpose(), partition(g.transpose(), kind), false)) {
            assertEquals(!g.isSymmetric(), solo.pageRankReadsOutDegrees(dg));
            assertEquals(!g.isSymmetric(), new CoopAlgorithms().pageRankReadsOutDegrees(dg));
            for (final AppSettings s : new AppSettings[] {AppSettings.builder().fixedIterations(12).build(),
                AppSettings.builder().tolerance(1e-4).pageRankSweep(GS).build()}) {
                if (g.isSymmetric()) {
                    assertArrayEquals(solo.pageRank(dg, out, s).ranks(), solo.pageRank(dg, null, s).ranks(), spec);
                } else {
                    assertTrue(assertThrows(IllegalArgumentException.class, () -> solo.pageRank(dg, null, s))
                        .getMessage().contains("no out-degrees for a directed graph"));
                }
            }
        }
    }

    private static final AppSettings.PageRankSweep GS = AppSettings.PageRankSweep.GAUSS_SEIDEL;

    @ParameterizedTest(name = "{0}, {1} numbering")
    @MethodSource("cases")
    void gaussSeidelPageRankIsWithinTheToleranceOfTheExactRanks(final String spec, final String kind) {
        final CsrGraph g = graph(spec).withoutWeights();
        assertGaussSeidelWithinTolerance(solo, one, g, partition(g.transpose(), kind), spec);
    }

    /**
     * Runs {@code algorithms}' PageRank with Gauss-Seidel sweeps on {@code g}, placed on {@code mesh} by {@code p}, to
     * two tolerances, and checks each answer against the converged ranks and the work it counts. Shared with the
     * coop test, whose workers race on the contributions.
     */
    static void assertGaussSeidelWithinTolerance(final dev.overlap.graph.app.GraphAlgorithms algorithms,
        final Mesh mesh, final CsrGraph g, final Partition p, final String what) {
        final int[] out = GraphApp.outDegrees(g);
        try (DeviceGraph dg = DeviceGraph.place(mesh, g.transpose(), p, false)) {
            final PowerIteration.Result exact = PowerIteration.ranks(g, PowerIteration.DAMPING, 1e-12, 100_000);
            for (final double tolerance : new double[] {1e-4, 1e-8}) {
                final AppResult gs = algorithms.pageRank(dg, out, AppSettings.builder().tolerance(tolerance)
                    .pageRankSweep(GS).build());
                final Verification close = Verification.ranks(exact.ranks(), gs.ranks(), tolerance + 1e-12);
                assertTrue(close.passed(), what + " to " + tolerance + ": " + close.detail());
                assertEquals(gs.counts().iterations() * (long)g.vertexCount(), gs.counts().visited(), "every row per "
                    + "sweep");
            }
        }
    }

    /**
     * On long-diameter graphs an in-place sweep carries a change across the graph in far fewer sweeps, and
     * over-relaxed ({@link Relaxation}) in fewer still: under 0.45 of Jacobi's iterations here (35 of 86 on the grid,
     * 29 of 105 on the road graph), where plain Gauss-Seidel sweeps took 0.55 and 0.47 of them (47 and 49).
     */
    @ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(strings = {"grid:30x30", "road:3000"})
    void gaussSeidelNeedsFewerSweepsThanJacobiOnLongDiameterGraphs(final String spec) {
        final CsrGraph g = graph(spec).withoutWeights();
        final int[] out = GraphApp.outDegrees(g);
        try (DeviceGraph dg = DeviceGraph.place(one, g.transpose(), Partition.byEdges(g.transpose(), 1), false)) {
            final long jacobi = solo.pageRank(dg, out, AppSettings.builder().tolerance(1e-8)
                .pageRankSweep(AppSettings.PageRankSweep.JACOBI).build())
                .counts().iterations();
            final long gs = solo.pageRank(dg, out, AppSettings.builder().tolerance(1e-8).pageRankSweep(GS).build())
                .counts().iterations();
            assertTrue(gs < jacobi * 0.45, spec + ": " + gs + " sweeps against " + jacobi + " iterations");
        }
    }

    /**
     * The first sweeps: on a Kronecker graph the error after 6 in-place sweeps is far below Jacobi's after 6
     * iterations, because each sweep is scaled back to a total rank of 1 ({@link SoloPageRank.PullState}); without
     * that, the total's error fades by only about 0.73 per sweep and Gauss-Seidel trails Jacobi.
     */
    @Test
    void gaussSeidelGetsCloseInItsFirstSweepsOnAKroneckerGraph() {
        final CsrGraph g = GraphSpec.parse("kron:12").build(7, false, Progress.none());
        final int[] out = GraphApp.outDegrees(g);
        final double[] exact = PowerIteration.ranks(g, PowerIteration.DAMPING, 1e-13, 100_000).ranks();
        try (DeviceGraph dg = DeviceGraph.place(one, g.transpose(), Partition.byEdges(g.transpose(), 1), false)) {
            final double gs = errorAfter(dg, out, GS, 6, exact);
            final double jacobi = errorAfter(dg, out, AppSettings.PageRankSweep.JACOBI, 6, exact);
            assertTrue(gs < jacobi / 10, "after 6: Gauss-Seidel " + gs + ", Jacobi " + jacobi);
        }
    }

    /**
     * In-place sweeps keep float contributions where float rounding stays below what the stopping rule must see (a
     * tolerance of 1e-5 or more), doubles below that; Jacobi always doubles. The 1e-8 runs of
     * {@link #assertGaussSeidelWithinTolerance} show the double sweeps reach what floats could not.
     */
    @Test
    void inPlaceSweepsKeepFloatContributionsOnlyWhereTheToleranceAllows() {
        final CsrGraph g = GraphSpec.parse("kron:8").build(7, false, Progress.none());
        final int[] out = GraphApp.outDegrees(g);
        try (DeviceGraph dg = DeviceGraph.place(one, g.transpose(), Partition.byEdges(g.transpose(), 1), false)) {
            final SoloGraph sg = SoloGraph.of(dg);
            final AppSettings.Builder gs = AppSettings.builder().pageRankSweep(GS);
            assertTrue(SoloPageRank.PullState.initial(sg, out, gs.tolerance(1e-5).build()).single != null);
            assertTrue(SoloPageRank.PullState.initial(sg, out, gs.tolerance(1e-4).build()).contrib == null);
            assertTrue(SoloPageRank.PullState.initial(sg, out, gs.tolerance(0.99e-5).build()).single == null);
            assertTrue(SoloPageRank.PullState.initial(sg, out, AppSettings.builder().tolerance(1e-4)
                .pageRankSweep(AppSettings.PageRankSweep.JACOBI).build()).single == null);
        }
    }

    /**
     * An in-place call over {@code float} contributions ({@link SoloPageRank#rows}) takes its rows as two interleaved
     * halves: when no row of the call reads another (their in-edges come from row 0 only), it stores exactly what
     * calls of one row each store, and sums the same change, dangling rank and total (to rounding: they add in another
     * order), for every count, odd ones included: each row once, none skipped, none twice; over-relaxed or not.
     */
    @Test
    void anInPlaceCallTakesEachOfItsRowsOnce() {
        for (final double omega : new double[] {1, 1.3}) {
            for (int m = 1; m <= 9; m++) {
                inPlaceRowsOnce(m, omega);
            }
        }
    }

    private static void inPlaceRowsOnce(final int m, final double omega) {
        final EdgeList e = new EdgeList(3 * m, false);
        for (int v = 1; v <= m; v++) {
            e.add(0, v); // row v reads row 0 only
            if (v % 2 == 0) { // even rows have an out-degree of 2 (to rows outside the call), odd ones none
                e.add(v, 0);
                e.add(v, m + 1);
            }
        }
        final CsrGraph g = GraphBuilder.build(e, m + 2, BuildOptions.AS_IS, false, Progress.none());
        final int[] out = GraphApp.outDegrees(g);
        try (DeviceGraph dg = DeviceGraph.place(one, g.transpose(), Partition.byEdges(g.transpose(), 1),
            false)) {
            final SoloGraph sg = SoloGraph.of(dg);
            final float[] start = new float[m + 2];
            for (int v = 0; v <= m + 1; v++) {
                start[v] = 1f / (v + 2);
            }
            final float[] oneByOne = start.clone();
            final double[] expected = new double[3];
            final double[] sums = new double[3];
            for (int v = 1; v <= m; v++) {
                SoloPageRank.rows(v, v + 1, sg.offsetsAt(), sg.targetsAt(), 0.01, 0.85, 1.5, omega, null, null,
                    oneByOne, out, sums);
                for (int i = 0; i < 3; i++) {
                    expected[i] += sums[i];
                }
            }
            final float[] inOneCall = start.clone();
            SoloPageRank.rows(1, m + 1, sg.offsetsAt(), sg.targetsAt(), 0.01, 0.85, 1.5, omega, null, null,
                inOneCall, out, sums);
            assertArrayEquals(oneByOne, inOneCall, m + " rows at " + omega + ": the stored contributions");
            assertArrayEquals(expected, sums, 1e-12, m + " rows at " + omega + ": the change, dangling rank and "
                + "total");
        }
    }

    private static double errorAfter(final DeviceGraph dg, final int[] out, final AppSettings.PageRankSweep sweep,
        final int sweeps, final double[] exact) {
        final SoloGraph g = SoloGraph.of(dg);
        final SoloPageRank.PullState state = SoloPageRank.PullState.initial(g, out,
            AppSettings.builder().pageRankSweep(sweep).build());
        final int done = SoloPageRank.iterate(g, state, PowerIteration.DAMPING, 0, sweeps);
        final double[] ranks = g.toOriginal(state.answer(done));
        double error = 0;
        for (int v = 0; v < ranks.length; v++) {
            error += Math.abs(ranks[v] - exact[v]);
        }
        return error;
    }

    /**
     * {@code AUTO} (the default) sweeps in place only to a tolerance on graphs of mean degree 8 or more: there the
     * default run takes fewer sweeps than Jacobi's iterations; with fixed iterations, or on a grid, it is Jacobi.
     */
    @Test
    void theAutoSweepIsGaussSeidelToAToleranceOnHighDegreeGraphsOnly() {
        final AppSettings.PageRankSweep auto = AppSettings.PageRankSweep.AUTO;
        assertEquals(auto, AppSettings.defaults().pageRankSweep());
        assertTrue(auto.inPlace(0, 1000, 8000));
        assertTrue(!auto.inPlace(0, 1000, 7999) && !auto.inPlace(5, 1000, 1_000_000), "low degree, fixed iterations");
        assertTrue(GS.inPlace(0, 1000, 10) && !AppSettings.PageRankSweep.JACOBI.inPlace(0, 1000, 1_000_000));
        // the report's line says the same choice and why
        assertEquals("sweep auto -> gauss-seidel (to a tolerance, mean degree 8.0 >= 8)", auto.choice(0, 1000, 8000));
        assertEquals("sweep auto -> jacobi (to a tolerance, mean degree 7.9 < 8)", auto.choice(0, 1000, 7999));
        assertEquals("sweep auto -> jacobi (fixed iterations: power iteration step for step)",
            auto.choice(5, 1000, 1_000_000));
        assertEquals("sweep gauss-seidel -> gauss-seidel (as asked)", GS.choice(0, 1000, 10));
        for (final String spec : new String[] {"kron:12", "grid:40x40"}) {
            final CsrGraph g = GraphSpec.parse(spec).build(7, false, Progress.none());
            final int[] out = GraphApp.outDegrees(g);
            try (DeviceGraph dg = DeviceGraph.place(one, g.transpose(), Partition.byEdges(g.transpose(), 1), false)) {
                final AppSettings.Builder b = AppSettings.builder().tolerance(1e-6);
                final long byDefault = solo.pageRank(dg, out, b.build()).counts().iterations();
                final long jacobi = solo.pageRank(dg, out, b.pageRankSweep(AppSettings.PageRankSweep.JACOBI).build())
                    .counts().iterations();
                final long inPlace = solo.pageRank(dg, out, b.pageRankSweep(GS).build()).counts().iterations();
                assertEquals(spec.startsWith("kron") ? inPlace : jacobi, byDefault, spec + ": auto " + byDefault
                    + ", Jacobi " + jacobi + ", Gauss-Seidel " + inPlace);
                assertTrue(!spec.startsWith("kron") || inPlace < jacobi, spec + ": " + inPlace + " against " + jacobi);
            }
        }
    }

    @Test
    void gaussSeidelRunsToAToleranceAndOnlyInSoloAndCoop() {
        assertEquals("Gauss-Seidel PageRank runs to a tolerance (its answer after a fixed number of sweeps depends "
            + "on the workers' interleaving): fixed iterations do not apply", assertThrows(
                IllegalArgumentException.class, () -> AppSettings.builder().fixedIterations(5).pageRankSweep(GS)
                    .build()).getMessage());
        final CsrGraph g = GraphSpec.parse("grid:8x8").build(1, false, Progress.none());
        final AppSettings settings = AppSettings.builder().pageRankSweep(GS).build();
        for (final String mode : new String[] {"bsp", "async"}) {
            try (DeviceGraph dg = DeviceGraph.place(two, g, Partition.byEdges(g, 2), false)) {
                final UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class,
                    () -> Algorithms.forMode(mode).pageRank(dg, GraphApp.outDegrees(g), settings));
                assertEquals(mode + " PageRank has no Gauss-Seidel sweep: solo and coop have (the async pull, "
                    + "--async-variant pull, is a Gauss-Seidel of its own)", e.getMessage());
            }
        }
    }

    @Test
    void aGraphSpreadOverSeveralDevicesOrPlacedWithoutWeightsIsRefusedByName() {
        final CsrGraph g = GraphSpec.parse("grid:8x8").build(1, true, Progress.none());
        try (DeviceGraph dg = DeviceGraph.place(two, g, Partition.byEdges(g, 2), true)) {
            assertEquals("solo runs on one device, the graph is placed on 2: place it on a mesh of one device",
                assertThrows(IllegalArgumentException.class, () -> solo.bfs(dg, 0, AppSettings.defaults()))
                    .getMessage());
        }
        try (DeviceGraph dg = DeviceGraph.place(one, g, Partition.byEdges(g, 1), false)) {
            assertEquals("the graph was placed without weights: SSSP needs them", assertThrows(
                IllegalArgumentException.class, () -> solo.sssp(dg, 0, AppSettings.defaults())).getMessage());
            assertEquals("source 64 is outside 0..63", assertThrows(IllegalArgumentException.class,
                () -> solo.bfs(dg, 64, AppSettings.defaults())).getMessage());
            assertEquals("source -1 is outside 0..63", assertThrows(IllegalArgumentException.class,
                () -> solo.sssp(dg, -1, AppSettings.defaults())).getMessage());
        }
    }

    @Test
    void theRunnerGivesSoloOneDeviceWithOneWorkerWhateverItWasAskedFor() {
        assertInstanceOf(SoloAlgorithms.class, Algorithms.forMode("SOLO"));
        final CsrGraph g = GraphSpec.parse("kron:9").build(5, true, Progress.none());
        final AppRunner runner = AppRunner.builder().devices(3).threadsPerDevice(2).warmups(1).runs(2).build();
        for (final GraphApp app : GraphApp.values()) {
            final AppSettings s = AppSettings.builder().fixedIterations(5).build();
            final int source = GraphApp.defaultSource(g, 1);
            final AppRunner.Measurement m = runner.measure(app.weighted() ? g : g.withoutWeights(), app, solo, source,
                s);
            assertEquals(1, m.devices(), app.toString());
            assertEquals(1, m.threadsPerDevice(), app.toString());
            final CsrGraph host = app.weighted() ? g : g.withoutWeights();
            final Verification v = app.expected(host, source, s, null).check(m.result());
            assertTrue(v.passed(), app + ": " + v.detail());
            if (app.hasSource()) {
                assertTrue(m.result().counts().ideal() > 0, "the runner sets the ideal work: " + app);
            }
        }
    }
}
