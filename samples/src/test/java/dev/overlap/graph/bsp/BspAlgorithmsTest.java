package dev.overlap.graph.bsp;

import dev.overlap.core.InterruptedWaitException;
import dev.overlap.core.KernelLaunch;
import dev.overlap.core.Mesh;
import dev.overlap.graph.BuildOptions;
import dev.overlap.graph.CsrGraph;
import dev.overlap.graph.EdgeList;
import dev.overlap.graph.GraphBuilder;
import dev.overlap.graph.Progress;
import dev.overlap.graph.app.AppResult;
import dev.overlap.graph.app.AppSettings;
import dev.overlap.graph.gen.GraphSpec;
import dev.overlap.graph.partition.DeviceGraph;
import dev.overlap.graph.partition.Partition;
import dev.overlap.graph.ref.Dijkstra;
import dev.overlap.graph.ref.PowerIteration;
import dev.overlap.graph.ref.SequentialBfs;
import dev.overlap.graph.ref.Verification;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

class BspAlgorithmsTest {
    private static Mesh one;
    private static Mesh two;
    private static Mesh three;
    private final BspAlgorithms bsp = new BspAlgorithms();

    @BeforeAll
    static void meshes() {
        one = Mesh.builder().name("bsp1").devices(1).threadsPerDevice(2).memoryPerDevice(32 << 20).build();
        two = Mesh.builder().name("bsp2").devices(2).threadsPerDevice(2).memoryPerDevice(32 << 20).build();
        three = Mesh.builder().name("bsp3").devices(3).threadsPerDevice(1).memoryPerDevice(32 << 20).build();
    }

    @AfterAll
    static void close() {
        one.close();
        two.close();
        three.close();
    }

    /** Two components (a path and a star) plus an isolated vertex and a directed tail. */
    static CsrGraph disconnected(final boolean weighted) {
        final EdgeList e = new EdgeList(16, weighted);
        e.add(0, 1, 3);
        e.add(1, 2, 4);
        e.add(2, 3, 1);
        e.add(0, 3, 9);
        e.add(5, 6, 2);
        e.add(5, 7, 2);
        e.add(5, 8, 7);
        e.add(8, 9, 1);
        return GraphBuilder.build(e, 11, BuildOptions.UNDIRECTED_SIMPLE, false, Progress.none());
    }

    static Stream<Arguments> cases() {
        final List<Arguments> list = new ArrayList<>();
        final String[] graphs = {"kron:10", "urand:10", "grid:30x30", "disconnected"};
        for (final String g : graphs) {
            for (final int devices : new int[] {1, 2, 3}) {
                for (final String kind : new String[] {"range", "hash", "degree"}) {
                    list.add(Arguments.of(g, devices, kind));
                }
            }
        }
        return list.stream();
    }

    private static CsrGraph graph(final String spec) {
        return spec.equals("disconnected") ? disconnected(true) : GraphSpec.parse(spec).build(7, true, Progress.none());
    }

    private static Mesh mesh(final int devices) {
        return devices == 1 ? one : devices == 2 ? two : three;
    }

    private static Partition partition(final CsrGraph g, final int devices, final String kind) {
        return kind.equals("range") ? Partition.byEdges(g, devices) : kind.equals("hash") ? Partition.byHash(g, devices)
            : Partition.byEdgesDegreeOrdered(g, devices);
    }

    @ParameterizedTest(name = "{0} on {1} devices, {2}")
    @MethodSource("cases")
    void bfsEqualsSequentialBfsBothDirections(final String spec, final int devices, final String kind) {
        final CsrGraph g = graph(spec);
        try (DeviceGraph dg = DeviceGraph.place(mesh(devices), g, partition(g, devices, kind), false)) {
            for (final AppSettings.Direction dir : AppSettings.Direction.values()) {
                for (final int source : new int[] {0, g.vertexCount() - 1, g.vertexCount() / 2}) {
                    final AppResult r = bsp.bfs(dg, source, AppSettings.builder().direction(dir).build());
                    final Verification v = Verification.depths(SequentialBfs.depths(g, source), r.depths());
                    assertTrue(v.passed(), spec + " " + dir + " from " + source + ": " + v.detail());
                    long reached = 0;
                    for (final int x : r.depths()) {
                        reached += x >= 0 ? 1 : 0;
                    }
                    assertEquals(reached, r.counts().visited(), "BSP BFS visits each reached vertex once");
                }
            }
        }
    }

    /**
     * The kernels use raw addresses into the run's state, which the run frees once a step's join returns: an
     * interrupted host thread must still wait until every launch has ended, then throw with its status set. The
     * kernel spins until the host thread is seen parked in the join (or has returned, the bug): without the wait,
     * the join returns while the kernel still runs.
     */
    @org.junit.jupiter.api.Test
    void joinAllWaitsForEveryLaunchWhenInterrupted() throws InterruptedException {
        final Thread host = Thread.currentThread();
        final AtomicBoolean returned = new AtomicBoolean();
        final AtomicBoolean ended = new AtomicBoolean();
        final KernelLaunch[] launches = {null, two.device(0).launch(2, (ctx, b) -> {
            Thread.State s = host.getState();
            while (!returned.get() && s != Thread.State.WAITING && s != Thread.State.TIMED_WAITING) {
                Thread.onSpinWait();
                s = host.getState();
            }
            ended.set(true);
        })};
        host.interrupt();
        boolean endedAtReturn = false;
        try {
            BspBfs.joinAll(launches);
            fail("an interrupted join must throw");
        } catch (final InterruptedWaitException expected) {
            endedAtReturn = ended.get();
        } finally {
            returned.set(true);
        }
        assertTrue(Thread.interrupted(), "the interrupt status is set again");
        assertTrue(endedAtReturn, "joinAll returned while a launch was still running");
        assertNull(launches[1]);
        two.device(0).synchronize();
    }

    @org.junit.jupiter.api.Test
    void directionOptimizingScansFewerEdgesOnScaleFreeGraphs() {
        final CsrGraph g = GraphSpec.parse("kron:12").build(1, false, Progress.none());
        int source = 0;
        while (g.degree(source) == 0) {
            source++;
        }
        try (DeviceGraph dg = DeviceGraph.place(two, g, Partition.byEdges(g, 2), false)) {
            final AppResult td = bsp.bfs(dg, source, AppSettings.builder().direction(AppSettings.Direction.TOP_DOWN)
                .build());
            final AppResult opt = bsp.bfs(dg, source, AppSettings.defaults());
            assertTrue(opt.counts().edgesScanned() * 3 < td.counts().edgesScanned(), opt.counts().edgesScanned() + " vs "
                + td.counts().edgesScanned());
            assertTrue(Verification.depths(td.depths(), opt.depths()).passed());
        }
    }

    /** The direction rule keeps a grid's shrinking tail top-down (see DirectionRuleTest). */
    @org.junit.jupiter.api.Test
    void aGridsShrinkingTailStaysTopDown() {
        dev.overlap.graph.app.DirectionRuleTest.assertAGridsShrinkingTailStaysTopDown(bsp, two, 2);
    }

    @ParameterizedTest(name = "{0} on {1} devices, {2}")
    @MethodSource("cases")
    void ssspEqualsDijkstra(final String spec, final int devices, final String kind) {
        final CsrGraph g = graph(spec);
        try (DeviceGraph dg = DeviceGraph.place(mesh(devices), g, partition(g, devices, kind), true)) {
            for (final int source : new int[] {0, g.vertexCount() - 1}) {
                final AppResult r = bsp.sssp(dg, source, AppSettings.defaults());
                final Verification v = Verification.distances(Dijkstra.distances(g, source), r.distances());
                assertTrue(v.passed(), spec + " from " + source + ": " + v.detail());
            }
        }
    }

    /**
     * Runs BSP SSSP from vertex 0 with buckets 4 wide on one device: every round's frontier fits one block, run in
     * order; {@code fuse} as {@link BspSssp#run(DeviceGraph, int, AppSettings, int)}.
     */
    private static AppResult ssspFourWide(final EdgeList e, final int n, final int fuse) {
        final CsrGraph g = GraphBuilder.build(e, n, BuildOptions.AS_IS, false, Progress.none());
        try (DeviceGraph dg = DeviceGraph.place(one, g, Partition.byEdges(g, 1), true)) {
            final AppResult r = dg.leased(() -> BspSssp.run(dg, 0, AppSettings.builder().delta(4).build(), fuse));
            final Verification v = Verification.distances(Dijkstra.distances(g, 0), r.distances());
            assertTrue(v.passed(), v.detail());
            return r;
        }
    }

    /**
     * Round 1 relaxes x then y: x pushes v as far (21, bucket 5), then y lowers v into the current bucket (3), and v,
     * already tagged for the next round, is not pushed again. That lowering must keep bucket 0 open, or the next
     * bucket would be 5 and v (at 3) would be taken for a stale entry: t, behind v, would never be reached. Without
     * fusion, which would relax x, y and v in round 0.
     */
    @org.junit.jupiter.api.Test
    void aVertexPushedAsFarAndLoweredIntoTheBucketInOneRoundKeepsTheBucketOpen() {
        final EdgeList e = new EdgeList(8, true);
        e.add(0, 1, 1); // s -> x
        e.add(0, 2, 2); // s -> y
        e.add(1, 3, 20); // x -> v: far
        e.add(2, 3, 1); // y -> v: near, after x's push
        e.add(3, 4, 1); // v -> t
        assertEquals(4, ssspFourWide(e, 5, 0).distances()[4]);
    }

    /**
     * Each vertex is relaxed once on a graph built to file entries twice and leave a stale one (buckets 4 wide, one
     * device): c is filed in bucket 7 twice (31, then 29), f in bucket 10 and then, lowered to 5, in bucket 1, where
     * it is relaxed; bucket 10's entry of f is stale by then. Six vertices are reached, six relaxed. Without fusion,
     * which would relax d and e in round 1.
     */
    @org.junit.jupiter.api.Test
    void filedVerticesAreRelaxedOnceAndStaleEntriesSkipped() {
        final EdgeList e = new EdgeList(8, true);
        e.add(0, 1, 1); // s -> a
        e.add(1, 2, 40); // a -> f: 41, bucket 10
        e.add(1, 3, 30); // a -> c: 31, bucket 7
        e.add(1, 4, 1); // a -> d: 2, bucket 0
        e.add(4, 2, 3); // d -> f: 5, bucket 1
        e.add(4, 3, 27); // d -> c: 29, bucket 7 again
        e.add(4, 5, 1); // d -> e: 3, bucket 0
        final AppResult r = ssspFourWide(e, 6, 0);
        assertEquals(6, r.counts().visited(), "one relaxation per reached vertex");
    }

    /**
     * Fusion (buckets 4 wide, one device): round 0 relaxes s, which lowers a (1) and v (3) into bucket 0; both go on
     * the stack, v on top. v is relaxed first and pushes t at 4 (bucket 1); then a lowers v to 2, which must claim v
     * again (its popper freed it) and relax it again: t gets 3, in bucket 0.
     */
    @org.junit.jupiter.api.Test
    void aFusedVertexLoweredAfterItsRelaxationIsRelaxedAgain() {
        final EdgeList e = new EdgeList(8, true);
        e.add(0, 1, 1); // s -> a
        e.add(0, 2, 3); // s -> v
        e.add(1, 2, 1); // a -> v: lower than s -> v, found after v's relaxation
        e.add(2, 3, 1); // v -> t
        final AppResult r = ssspFourWide(e, 4, BspSssp.FUSE);
        assertEquals(3, r.distances()[3]);
        assertEquals(5, r.counts().visited(), "s, a, v twice (two distances), t");
    }

    /** Fusion saves the rounds of a bucket's light-edge chains that stay on one device, and changes no answer. */
    @org.junit.jupiter.api.Test
    void fusionSavesRounds() {
        final CsrGraph g = GraphSpec.parse("grid:48x48").build(5, true, Progress.none());
        try (DeviceGraph dg = DeviceGraph.place(two, g, Partition.byEdges(g, 2), true)) {
            final AppSettings settings = AppSettings.defaults();
            final AppResult plain = dg.leased(() -> BspSssp.run(dg, 0, settings, 0));
            final AppResult fused = dg.leased(() -> BspSssp.run(dg, 0, settings, BspSssp.FUSE));
            assertTrue(fused.counts().iterations() * 4 < plain.counts().iterations() * 3, fused.counts().iterations()
                + " rounds with fusion, " + plain.counts().iterations() + " without");
            final long[] expected = Dijkstra.distances(g, 0);
            assertTrue(Verification.distances(expected, plain.distances()).passed());
            assertTrue(Verification.distances(expected, fused.distances()).passed());
        }
    }

    /** Delta-stepping's work stays near the ideal (Bellman-Ford rounds did many times it on a grid). */
    @ParameterizedTest(name = "{0}")
    @org.junit.jupiter.params.provider.ValueSource(strings = {"grid:64x64", "kron:10"})
    void ssspRelaxesAboutEachReachedVertexOnce(final String spec) {
        final CsrGraph g = graph(spec);
        try (DeviceGraph dg = DeviceGraph.place(two, g, Partition.byEdges(g, 2), true)) {
            final AppResult r = bsp.sssp(dg, 0, AppSettings.defaults());
            long reached = 0;
            for (final long x : r.distances()) {
                if (x != Dijkstra.UNREACHED) {
                    reached++;
                }
            }
            final double work = (double)r.counts().visited() / reached;
            assertTrue(work >= 1 && work < 1.25, spec + ": " + r.counts().visited() + " relaxations for " + reached
                + " reached vertices");
            assertTrue(Verification.distances(Dijkstra.distances(g, 0), r.distances()).passed());
        }
    }

    @ParameterizedTest(name = "{0} on {1} devices, {2}")
    @MethodSource("cases")
    void pageRankWithinToleranceOfPowerIteration(final String spec, final int devices, final String kind) {
        final CsrGraph g = graph(spec);
        final int[] outDeg = new int[g.vertexCount()];
        for (int v = 0; v < outDeg.length; v++) {
            outDeg[v] = g.degree(v);
        }
        try (DeviceGraph dg = DeviceGraph.place(mesh(devices), g.transpose(), partition(g, devices, kind), false)) {
            final double tol = 1e-6;
            final AppResult r = bsp.pageRank(dg, outDeg, AppSettings.builder().tolerance(tol).build());
            final PowerIteration.Result ref = PowerIteration.ranks(g, 0.85, tol / 100, 10_000);
            final Verification v = Verification.ranks(ref.ranks(), r.ranks(), tol + tol / 100);
            assertTrue(v.passed(), spec + ": " + v.detail());
            double sum = 0;
            for (final double x : r.ranks()) {
                sum += x;
            }
            assertEquals(1.0, sum, 1e-9);
            // float contributions (see PullRows): still within the tolerance, the stopping test allowing for them
            for (final double coarse : new double[] {1e-4, 2e-5}) {
                assertTrue(PullRows.floatFits(0.85, coarse));
                final AppResult f = bsp.pageRank(dg, outDeg, AppSettings.builder().tolerance(coarse).build());
                final Verification vc = Verification.ranks(ref.ranks(), f.ranks(), coarse + tol / 100);
                assertTrue(vc.passed(), spec + " at " + coarse + ": " + vc.detail());
            }
            final AppResult fixed = bsp.pageRank(dg, outDeg, AppSettings.builder().fixedIterations(5).build());
            assertEquals(5, fixed.counts().iterations());
            final Verification vf = Verification.ranks(PowerIteration.fixed(g, 0.85, 5).ranks(), fixed.ranks(), 1e-12);
            assertTrue(vf.passed(), vf.detail());
        }
    }
}
