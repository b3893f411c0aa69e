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
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The cooperative path answers exactly what the references answer, with every worker of one device, on every shape,
 * in both BFS directions, and does the ideal work (BFS: within what its benign claim races may repeat).
 */
@Timeout(120)
class CoopAlgorithmsTest {
    private static Mesh three;
    private final CoopAlgorithms coop = new CoopAlgorithms();

    @BeforeAll
    static void meshes() {
        // three workers on two cores: the barrier must also hold when the workers outnumber the cores
        three = Mesh.builder().name("coop3").devices(1).threadsPerDevice(3).memoryPerDevice(64 << 20).build();
    }

    @AfterAll
    static void close() {
        three.close();
    }

    static Stream<Arguments> cases() {
        final List<Arguments> list = new ArrayList<>();
        for (final String g : new String[] {"kron:12", "grid:40x40", "road:3000", "urand:10", "isolated", "layers"}) {
            for (final String kind : new String[] {"range", "degree"}) {
                list.add(Arguments.of(g, kind));
            }
        }
        return list.stream();
    }

    private static CsrGraph graph(final String spec) {
        if (spec.equals("layers")) {
            return layers();
        }
        return spec.equals("isolated") ? SoloAlgorithmsTest.isolated()
            : GraphSpec.parse(spec).build(7, true, Progress.none());
    }

    /**
     * Eight layers of 500 vertices, each vertex joined to four random vertices of the next layer: from most sources
     * the frontiers stay above n / 18 for several levels, so a direction-optimizing BFS runs bottom-up for more than
     * three levels in a row (the per-level counters' slots repeat every three levels; the other graphs here switch
     * back sooner). Weighted, for the SSSP cases.
     */
    static CsrGraph layers() {
        final int layers = 8;
        final int width = 500;
        final EdgeList e = new EdgeList(4L * width * layers, true);
        final java.util.SplittableRandom random = new java.util.SplittableRandom(5);
        for (int l = 0; l + 1 < layers; l++) {
            for (int k = 0; k < width; k++) {
                for (int j = 0; j < 4; j++) {
                    e.add(l * width + k, (l + 1) * width + random.nextInt(width), 1 + random.nextInt(100));
                }
            }
        }
        return GraphBuilder.build(e, layers * width, BuildOptions.UNDIRECTED_SIMPLE, false, Progress.none());
    }

    private static Partition partition(final CsrGraph g, final String kind) {
        return kind.equals("range") ? Partition.byEdges(g, 1) : Partition.byEdgesDegreeOrdered(g, 1);
    }

    private static int[] sources(final CsrGraph g) {
        return g.vertexCount() == 11 ? new int[] {0, 4, 10, 5, 9} : new int[] {0, g.vertexCount() - 1,
            g.vertexCount() / 2};
    }

    @ParameterizedTest(name = "{0}, {1} numbering")
    @MethodSource("cases")
    void bfsEqualsSequentialBfsInEitherDirectionPolicyAndExpandsEachReachedVertexAtMostOncePerWorker(final String spec,
        final String kind) {
        final CsrGraph g = graph(spec).withoutWeights();
        try (DeviceGraph dg = DeviceGraph.place(three, g, partition(g, kind), false)) {
            for (final int source : sources(g)) {
                final int[] expected = SequentialBfs.depths(g, source);
                final long reached = GraphApp.reached(expected);
                int levels = 0;
                for (final int d : expected) {
                    levels = Math.max(levels, d + 1);
                }
                for (final AppSettings.Direction dir : AppSettings.Direction.values()) {
                    for (int repeat = 0; repeat < 3; repeat++) { // state reused by the device: nothing left over
                        final AppResult r = coop.bfs(dg, source, AppSettings.builder().direction(dir).build());
                        final Verification v = Verification.depths(expected, r.depths());
                        assertTrue(v.passed(), spec + " from " + source + ", " + dir + ": " + v.detail());
                        assertEquals(reached, r.counts().ideal(), "the ideal is the vertices reached");
                        // a race may let two workers claim a vertex; a worker never claims one twice
                        assertTrue(r.counts().visited() >= reached && r.counts().visited() <= 3 * reached,
                            "each reached vertex expanded at least once and at most once per worker: "
                                + r.counts().visited() + " for " + reached);
                        assertEquals(levels, r.counts().iterations(), "levels");
                        assertEquals(0, r.counts().remotePushes() + r.counts().messages(), "no transport");
                    }
                }
            }
        }
    }

    /**
     * Claims past the room of the next frontier are not written; the level's frontier is rebuilt from the depths. A
     * room of a few vertices makes nearly every level overflow, in both directions and from several sources.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"kron:12", "grid:40x40", "road:3000"})
    void aNextFrontierOverflowedByItsClaimsIsRebuiltFromTheDepths(final String spec) {
        final CsrGraph g = graph(spec).withoutWeights();
        try (DeviceGraph dg = DeviceGraph.place(three, g, Partition.byEdges(g, 1), false)) {
            for (final int source : sources(g)) {
                final int[] expected = SequentialBfs.depths(g, source);
                for (final AppSettings.Direction dir : AppSettings.Direction.values()) {
                    for (final int room : new int[] {1, 5, 64}) {
                        final AppResult r = CoopBfs.run(dg, source, AppSettings.builder().direction(dir).build(),
                            room, 0, false);
                        final Verification v = Verification.depths(expected, r.depths());
                        assertTrue(v.passed(), spec + " from " + source + ", " + dir + ", room " + room + ": "
                            + v.detail());
                        assertEquals(GraphApp.reached(expected), r.counts().ideal());
                    }
                }
            }
        }
    }

    /**
     * The frontiers share one queue, a ring: each level's next frontier is written after the current one and wraps
     * at the queue's end. Starting the source's frontier near the end makes the first levels wrap, in both
     * directions (a bottom-up stretch refills the queue from its start), and with a small room the overflow rebuild
     * too.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"kron:12", "grid:40x40", "road:3000"})
    void theFrontiersWrapAroundTheEndOfTheQueue(final String spec) {
        final CsrGraph g = graph(spec).withoutWeights();
        final int n = g.vertexCount();
        try (DeviceGraph dg = DeviceGraph.place(three, g, Partition.byEdges(g, 1), false)) {
            for (final int source : sources(g)) {
                final int[] expected = SequentialBfs.depths(g, source);
                for (final AppSettings.Direction dir : AppSettings.Direction.values()) {
                    for (final int first : new int[] {n - 1, n - 2, n - 40, n / 2}) {
                        for (final int room : new int[] {Integer.MAX_VALUE, 64}) {
                            final AppResult r = CoopBfs.run(dg, source, AppSettings.builder().direction(dir)
                                .build(), room, first, false);
                            final Verification v = Verification.depths(expected, r.depths());
                            assertTrue(v.passed(), spec + " from " + source + ", " + dir + ", first position "
                                + first + ", room " + room + ": " + v.detail());
                        }
                    }
                }
            }
            assertThrows(IllegalArgumentException.class, () -> CoopBfs.run(dg, 0, AppSettings.defaults(),
                Integer.MAX_VALUE, n, false));
        }
    }

    /**
     * The direction rule keeps a grid's shrinking tail top-down (see DirectionRuleTest). One worker: with more, coop's
     * claims without a CAS may expand a vertex twice, so the edges scanned differ from run to run.
     */
    @org.junit.jupiter.api.Test
    void aGridsShrinkingTailStaysTopDown() {
        onOneWorker(single -> dev.overlap.graph.app.DirectionRuleTest.assertAGridsShrinkingTailStaysTopDown(coop,
            single, 1));
    }

    /** And a road network's tail, whose tiny frontiers grow as often as they shrink (one worker, as above). */
    @org.junit.jupiter.api.Test
    void aRoadsTailStaysTopDown() {
        onOneWorker(single -> dev.overlap.graph.app.DirectionRuleTest.assertARoadsTailStaysTopDown(coop, single, 1));
    }

    /**
     * A top-down step counts its claims' edges only when the next frontier could go bottom-up, a bound from the
     * graph's largest degree; an uncounted level's edges reach the explored edges from what its step scanned. So the
     * directions taken are those of a run that counts at every level: on one worker (no repeated claims) the edges
     * scanned and the levels are equal. The last graph is a long path into a dense random part: the path's levels
     * are not counted (their frontier of one vertex cannot reach the rule's floor), and the switch in the dense part
     * comes where the path's edges count as explored (leaving them unexplored moves it).
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"kron:12", "grid:40x40", "road:3000", "urand:10", "path-into-dense"})
    void theDirectionsTakenAreThoseOfARunThatCountsEveryLevel(final String spec) {
        final CsrGraph g = spec.equals("path-into-dense") ? pathIntoDense() : graph(spec).withoutWeights();
        onOneWorker(single -> {
            try (DeviceGraph dg = DeviceGraph.place(single, g, Partition.byEdges(g, 1), false)) {
                for (final int source : sources(g)) {
                    final AppResult every = CoopBfs.run(dg, source, AppSettings.defaults(), Integer.MAX_VALUE, 0,
                        true);
                    final AppResult bounded = CoopBfs.run(dg, source, AppSettings.defaults());
                    assertTrue(Verification.depths(SequentialBfs.depths(g, source), bounded.depths()).passed());
                    assertEquals(every.counts().edgesScanned(), bounded.counts().edgesScanned(), spec + " from "
                        + source + ": the edges scanned");
                    assertEquals(every.counts().iterations(), bounded.counts().iterations(), "levels");
                }
                if (spec.equals("path-into-dense")) { // the test's point: this graph switches, after uncounted levels
                    final AppResult td = CoopBfs.run(dg, 0, AppSettings.builder()
                        .direction(AppSettings.Direction.TOP_DOWN).build());
                    assertTrue(CoopBfs.run(dg, 0, AppSettings.defaults()).counts().edgesScanned()
                        < td.counts().edgesScanned(), "the dense part goes bottom-up");
                }
            }
        });
    }

    /**
     * On one worker (no repeated claims) coop reads the edges solo reads: the same direction rule takes the same
     * directions, a top-down level reads its frontier's rows whole, and a bottom-up one reads each unreached vertex's
     * row up to its first neighbour in the frontier, or whole. Two implementations of one count, each checking the
     * other's bottom-up passes (the candidates, the first edges, the rest of the rows).
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"kron:12", "urand:10", "isolated", "layers", "path-into-dense", "grid:40x40"})
    void oneWorkerReadsTheEdgesSoloReads(final String spec) {
        final CsrGraph g = spec.equals("path-into-dense") ? pathIntoDense() : graph(spec).withoutWeights();
        onOneWorker(single -> {
            try (DeviceGraph dg = DeviceGraph.place(single, g, Partition.byEdges(g, 1), false)) {
                for (final int source : sources(g)) {
                    final AppResult solo = SoloBfs.run(dg, source, AppSettings.defaults());
                    final AppResult one = CoopBfs.run(dg, source, AppSettings.defaults());
                    assertTrue(Verification.depths(SequentialBfs.depths(g, source), one.depths()).passed());
                    assertEquals(solo.counts().edgesScanned(), one.counts().edgesScanned(), spec + " from " + source
                        + ": the edges read");
                }
            }
        });
    }

    /**
     * A path of 30 000 vertices from vertex 0 into a random graph of 2000 vertices and 16 000 edges (largest degree
     * about 30): the path's frontiers of one vertex stay below n / beta even times the largest degree squared, and
     * its 60 000 edge slots are most of the graph's, so whether they count as explored moves the dense part's switch.
     */
    static CsrGraph pathIntoDense() {
        final int path = 30_000;
        final int dense = 2000;
        final EdgeList e = new EdgeList(path + 8L * dense, false);
        for (int v = 0; v + 1 < path; v++) {
            e.add(v, v + 1, 0);
        }
        final java.util.SplittableRandom random = new java.util.SplittableRandom(11);
        e.add(path - 1, path, 0);
        for (int k = 0; k < 8 * dense; k++) {
            e.add(path + random.nextInt(dense), path + random.nextInt(dense), 0);
        }
        return GraphBuilder.build(e, path + dense, BuildOptions.UNDIRECTED_SIMPLE, false, Progress.none());
    }

    /** Runs {@code test} on a mesh of one device with one worker, closed afterwards. */
    private static void onOneWorker(final java.util.function.Consumer<Mesh> test) {
        final Mesh single = Mesh.builder().name("coop1").devices(1).threadsPerDevice(1).memoryPerDevice(16 << 20)
            .build();
        try {
            test.accept(single);
        } finally {
            single.close();
        }
    }

    @Test
    void theBottomUpStepsRunOnALowDiameterSymmetricGraphAndScanFewerEdgesThanTopDown() {
        final CsrGraph g = GraphSpec.parse("kron:14").build(3, false, Progress.none());
        assertTrue(g.isSymmetric());
        try (DeviceGraph dg = DeviceGraph.place(three, g, Partition.byEdges(g, 1), false)) {
            final int source = GraphApp.defaultSource(g, 1);
            final AppResult td = coop.bfs(dg, source, AppSettings.builder()
                .direction(AppSettings.Direction.TOP_DOWN).build());
            final AppResult opt = coop.bfs(dg, source, AppSettings.defaults());
            final int[] expected = SequentialBfs.depths(g, source);
            assertTrue(Verification.depths(expected, td.depths()).passed());
            assertTrue(Verification.depths(expected, opt.depths()).passed());
            assertTrue(opt.counts().edgesScanned() < td.counts().edgesScanned() / 2, "bottom-up stops at the first "
                + "parent: " + opt.counts().edgesScanned() + " vs top-down " + td.counts().edgesScanned());
        }
    }

    @ParameterizedTest(name = "{0}, {1} numbering")
    @MethodSource("cases")
    void pageRankMatchesPowerIterationForFixedIterationsAndToTheTolerance(final String spec, final String kind) {
        final CsrGraph g = graph(spec).withoutWeights();
        final int[] out = GraphApp.outDegrees(g);
        try (DeviceGraph dg = DeviceGraph.place(three, g.transpose(), partition(g.transpose(), kind), false)) {
            final AppResult fixed = coop.pageRank(dg, out, AppSettings.builder().fixedIterations(12).build());
            final PowerIteration.Result ref = PowerIteration.fixed(g, PowerIteration.DAMPING, 12);
            final Verification v = Verification.ranks(ref.ranks(), fixed.ranks(), 1e-9);
            assertTrue(v.passed(), spec + ": " + v.detail());
            assertEquals(12, fixed.counts().iterations());
            final AppResult tol = coop.pageRank(dg, out, AppSettings.builder().tolerance(1e-6)
                .pageRankSweep(AppSettings.PageRankSweep.JACOBI).build());
            final PowerIteration.Result exact = PowerIteration.ranks(g, PowerIteration.DAMPING, 1e-12, 100_000);
            final Verification close = Verification.ranks(exact.ranks(), tol.ranks(), 1e-6 + 1e-12);
            assertTrue(close.passed(), spec + ": " + close.detail());
            final int refIterations = PowerIteration.ranks(g, PowerIteration.DAMPING, 1e-6, 1000).iterations();
            assertTrue(Math.abs(tol.counts().iterations() - refIterations) <= 1, "the same stopping rule, so the "
                + "same work: " + tol.counts().iterations() + " vs " + refIterations);
        }
    }

    /** Three workers sweep in place, racing on the contributions: the answer is within the tolerance all the same. */
    /**
     * A worker claims eight chunks or more of a graph's rows per iteration, each of 1,024 rows at least and 16,384 at
     * most ({@link CoopPageRank#rowsPerClaim}).
     */
    @Test
    void pageRankClaimsEightChunksPerWorkerWithinTheirBounds() {
        assertEquals(CoopPageRank.MAX_ROWS, CoopPageRank.rowsPerClaim(1_000_000, 2));
        assertEquals(4096, CoopPageRank.rowsPerClaim(65_536, 2));
        assertEquals(2048, CoopPageRank.rowsPerClaim(65_536, 4));
        assertEquals(CoopPageRank.MIN_ROWS, CoopPageRank.rowsPerClaim(1000, 2));
        assertEquals(CoopPageRank.MIN_ROWS, CoopPageRank.rowsPerClaim(0, 1));
    }

    /**
     * On one worker, over a graph of fewer rows than a claim (so one call takes every row, as solo's does), coop's
     * in-place sweeps are solo's bit for bit: the same rows in the same order, the same scale and the same
     * over-relaxation factor after each sweep ({@link Relaxation}), so the same sweeps and the same ranks.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"grid:30x30", "kron:9", "road:1000"})
    void oneWorkerSweepsInPlaceAsSoloDoes(final String spec) {
        final CsrGraph g = graph(spec).withoutWeights();
        assertTrue(g.vertexCount() <= CoopPageRank.MIN_ROWS, spec + " fits one claim");
        final int[] out = GraphApp.outDegrees(g);
        onOneWorker(single -> {
            try (DeviceGraph dg = DeviceGraph.place(single, g.transpose(), Partition.byEdges(g.transpose(), 1),
                false)) {
                for (final double tolerance : new double[] {1e-5, 1e-9}) { // float and double contributions
                    final AppSettings gs = AppSettings.builder().tolerance(tolerance)
                        .pageRankSweep(AppSettings.PageRankSweep.GAUSS_SEIDEL).build();
                    final AppResult solo = SoloPageRank.run(dg, out, gs);
                    final AppResult one = CoopPageRank.run(dg, out, gs);
                    assertEquals(solo.counts().iterations(), one.counts().iterations(), spec + " to " + tolerance
                        + ": the sweeps");
                    assertArrayEquals(solo.ranks(), one.ranks(), 0, spec + " to " + tolerance + ": the ranks");
                }
            }
        });
    }

    @ParameterizedTest(name = "{0}, {1} numbering")
    @MethodSource("cases")
    void gaussSeidelPageRankIsWithinTheToleranceOfTheExactRanks(final String spec, final String kind) {
        final CsrGraph g = graph(spec).withoutWeights();
        SoloAlgorithmsTest.assertGaussSeidelWithinTolerance(coop, three, g, partition(g.transpose(), kind), spec);
    }

    @ParameterizedTest(name = "{0}, {1} numbering")
    @MethodSource("cases")
    void ssspEqualsDijkstraForEveryBucketWidth(final String spec, final String kind) {
        final CsrGraph g = graph(spec);
        try (DeviceGraph dg = DeviceGraph.place(three, g, partition(g, kind), true)) {
            for (final int source : sources(g)) {
                final long[] expected = Dijkstra.distances(g, source);
                for (final int delta : new int[] {0, 1, 7, 1 << 20}) {
                    for (int repeat = 0; repeat < 2; repeat++) {
                        final AppResult r = coop.sssp(dg, source, AppSettings.builder().delta(delta).build());
                        final Verification v = Verification.distances(expected, r.distances());
                        assertTrue(v.passed(), spec + " from " + source + ", delta " + delta + ": " + v.detail());
                        assertTrue(r.counts().visited() >= GraphApp.reached(expected), "every reached vertex");
                    }
                }
            }
        }
    }

    @Test
    void ssspWithUnitWeightsAndDeltaOneRelaxesEachVertexOnce() {
        final CsrGraph g = GraphSpec.parse("grid:25x25").build(3, false, Progress.none());
        try (DeviceGraph dg = DeviceGraph.place(three, g, Partition.byEdges(g, 1), true)) {
            final AppResult r = coop.sssp(dg, 0, AppSettings.builder().delta(1).build());
            final int[] depths = SequentialBfs.depths(g, 0);
            for (int v = 0; v < depths.length; v++) {
                assertEquals(depths[v], r.distances()[v], "vertex " + v);
            }
            assertTrue(r.counts().visited() >= g.vertexCount(), "each vertex at least once");
        }
    }

    /**
     * Vertex 3 is filed twice in bucket 0 (at 3 by the source, at 2 by vertex 1) before either entry is taken; it is
     * relaxed once, at 2: the source, 1, 2, 3 and 4 make five relaxations. The source's edges are relaxed by one
     * worker, which then takes the rest of bucket 0 alone (bin fusion), so the count does not depend on the schedule.
     */
    @Test
    void ssspRelaxesAVertexOncePerDistance() {
        final EdgeList e = new EdgeList(5, true);
        e.add(0, 1, 1);
        e.add(0, 2, 1);
        e.add(0, 3, 3);
        e.add(1, 3, 1);
        e.add(3, 4, 1);
        final CsrGraph g = GraphBuilder.build(e, 5, BuildOptions.AS_IS, false, Progress.none());
        try (DeviceGraph dg = DeviceGraph.place(three, g, Partition.byEdges(g, 1), true)) {
            final AppResult r = coop.sssp(dg, 0, AppSettings.builder().delta(8).build());
            assertTrue(Verification.distances(Dijkstra.distances(g, 0), r.distances()).passed());
            assertEquals(5, r.counts().visited(), "0, 1, 2, 3 at 2 and 4: the entry of 3 at 3 is skipped");
        }
    }

    @Test
    void ssspWordsAreIntsExactlyWhileNoSimplePathReachesTheUnreachedWord() {
        final long top = CoopSssp.NARROW_FAR >>> 1; // 2^30 - 1: the unreached word's distance
        assertEquals((1L << 30) - 1, top);
        assertTrue(CoopSssp.narrow(3, top / 2), "two edges of (2^30 - 2) / 2: the longest path is 2^30 - 2");
        assertFalse(CoopSssp.narrow(3, top / 2 + 1), "two edges of 2^29: 2^30 would reach it");
        assertFalse(CoopSssp.narrow(4, top / 3), "three edges of (2^30 - 1) / 3: exactly its distance");
        assertTrue(CoopSssp.narrow(1 << 20, 255), "kron 20's weights");
        assertTrue(CoopSssp.narrow(1, Integer.MAX_VALUE), "one vertex: no edge on any path");
        assertFalse(CoopSssp.narrow(Integer.MAX_VALUE, 1), "2^31 - 2 unit edges");
    }

    /**
     * Three paths from vertex 0: two edges of 2^29 - 1 (int words; the far end at 2^30 - 2, one below the unreached
     * word's distance), three edges of (2^30 - 1) / 3 (long words: the far end's distance is the unreached int word's),
     * and four edges of 2^30 (long words; up to 2^32, which no int word holds). Each answer must be Dijkstra's.
     */
    @Test
    void ssspDistancesAtTheTopOfIntWordsAndBeyondThemAreExact() {
        final long[][] cases = {{3, (1L << 29) - 1, 1}, {4, ((1L << 30) - 1) / 3, 0}, {5, 1L << 30, 0}};
        for (final long[] c : cases) {
            final int n = (int)c[0];
            final long weight = c[1];
            final EdgeList e = new EdgeList(n, true);
            for (int v = 0; v + 1 < n; v++) {
                e.add(v, v + 1, (int)weight);
            }
            final CsrGraph g = GraphBuilder.build(e, n, BuildOptions.AS_IS, false, Progress.none());
            assertEquals(c[2] == 1, CoopSssp.narrow(n, weight), n + " vertices, weights " + weight);
            try (DeviceGraph dg = DeviceGraph.place(three, g, Partition.byEdges(g, 1), true)) {
                final AppResult r = coop.sssp(dg, 0, AppSettings.defaults());
                final long[] expected = Dijkstra.distances(g, 0);
                assertEquals((n - 1) * weight, expected[n - 1]);
                final Verification v = Verification.distances(expected, r.distances());
                assertTrue(v.passed(), n + " vertices, weights " + weight + ": " + v.detail());
            }
        }
    }

    @Test
    void aNegativeWeightIsRefusedNamingItsSlotAndTheDeviceRunsOn() {
        final EdgeList e = new EdgeList(4, true);
        e.add(0, 1, 3);
        e.add(1, 2, -4);
        e.add(2, 3, 1);
        final CsrGraph g = GraphBuilder.build(e, 4, BuildOptions.AS_IS, false, Progress.none());
        try (DeviceGraph dg = DeviceGraph.place(three, g, Partition.byEdges(g, 1), true)) {
            final IllegalStateException x = assertThrows(IllegalStateException.class,
                () -> coop.sssp(dg, 0, AppSettings.builder().delta(1).build()));
            assertEquals("edge 1 has negative weight -4: shortest paths need weights >= 0", x.getMessage());
        }
        final CsrGraph ok = GraphSpec.parse("grid:8x8").build(1, true, Progress.none());
        try (DeviceGraph dg = DeviceGraph.place(three, ok, Partition.byEdges(ok, 1), true)) {
            assertTrue(Verification.distances(Dijkstra.distances(ok, 0), coop.sssp(dg, 0, AppSettings.defaults())
                .distances()).passed());
        }
    }

    @Test
    void theRunnerGivesCoopOneDeviceWithEveryWorker() {
        assertInstanceOf(CoopAlgorithms.class, Algorithms.forMode("COOP"));
        final CsrGraph g = GraphSpec.parse("kron:9").build(5, true, Progress.none());
        final AppRunner runner = AppRunner.builder().devices(2).threadsPerDevice(2).warmups(1).runs(2).build();
        for (final GraphApp app : GraphApp.values()) {
            final AppSettings s = AppSettings.builder().fixedIterations(5).build();
            final int source = GraphApp.defaultSource(g, 1);
            final CsrGraph host = app.weighted() ? g : g.withoutWeights();
            final AppRunner.Measurement m = runner.measure(host, app, coop, source, s);
            assertEquals(1, m.devices(), app.toString());
            assertEquals(4, m.threadsPerDevice(), "devices x workers per device: " + app);
            final Verification v = app.expected(host, source, s, null).check(m.result());
            assertTrue(v.passed(), app + ": " + v.detail());
        }
    }

    @Test
    void anInterruptedRunStopsItsLaunchAndFreesItsStateOnlyAfterTheWorkersLeft() {
        final CsrGraph g = GraphSpec.parse("grid:300x300").build(1, false, Progress.none());
        try (DeviceGraph dg = DeviceGraph.place(three, g, Partition.byEdges(g, 1), false)) {
            // a run's state is about 1.1 MB of the device's 64 MB: runs that leaked it would run out within 60
            for (int i = 0; i < 100; i++) {
                Thread.currentThread().interrupt(); // the run's join sees it at once
                try {
                    assertThrows(dev.overlap.core.InterruptedWaitException.class,
                        () -> coop.bfs(dg, 0, AppSettings.defaults()));
                    assertTrue(Thread.currentThread().isInterrupted(), "the interrupt status is kept");
                } finally {
                    Thread.interrupted();
                }
            }
            final AppResult after = coop.bfs(dg, 0, AppSettings.defaults()); // the device runs the next launch
            assertTrue(Verification.depths(SequentialBfs.depths(g, 0), after.depths()).passed());
        }
    }
}
