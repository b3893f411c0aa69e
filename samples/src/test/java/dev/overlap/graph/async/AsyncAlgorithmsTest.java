package dev.overlap.graph.async;

import dev.overlap.core.Mesh;
import dev.overlap.graph.BuildOptions;
import dev.overlap.graph.CsrGraph;
import dev.overlap.graph.EdgeList;
import dev.overlap.graph.GraphSummary;
import dev.overlap.graph.GraphBuilder;
import dev.overlap.graph.Progress;
import dev.overlap.graph.app.AppResult;
import dev.overlap.graph.app.AppSettings;
import dev.overlap.graph.app.Algorithms;
import dev.overlap.graph.app.GraphAlgorithms;
import dev.overlap.graph.gen.GraphSpec;
import dev.overlap.graph.partition.DeviceGraph;
import dev.overlap.graph.partition.Partition;
import dev.overlap.graph.ref.Dijkstra;
import dev.overlap.graph.ref.PowerIteration;
import dev.overlap.graph.ref.SequentialBfs;
import dev.overlap.graph.ref.Verification;
import dev.overlap.transport.AggregatorConfig;
import dev.overlap.worklist.DistributedWorklist;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every async app against its sequential reference on scale-free (kron), mesh-like (grid) and disconnected graphs,
 * on 1, 2 and 4 devices, with FIFO and priority worklists, persistent and discrete kernels, batched and eager remote
 * pushes, and range, hash and degree-ordered partitions.
 */
class AsyncAlgorithmsTest {
    private static Mesh one;
    private static Mesh two;
    private static Mesh four;
    private final AsyncAlgorithms async = new AsyncAlgorithms();

    @BeforeAll
    static void meshes() {
        one = Mesh.builder().name("async1").devices(1).threadsPerDevice(2).memoryPerDevice(48 << 20).build();
        two = Mesh.builder().name("async2").devices(2).threadsPerDevice(2).memoryPerDevice(48 << 20).build();
        four = Mesh.builder().name("async4").devices(4).threadsPerDevice(1).memoryPerDevice(48 << 20).build();
    }

    @AfterAll
    static void close() {
        one.close();
        two.close();
        four.close();
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

    /** A directed graph where a third of the vertices have no out-edges (dangling) and a few have no in-edges. */
    static CsrGraph directedWithDanglingVertices(final int n, final long seed) {
        final java.util.SplittableRandom rnd = new java.util.SplittableRandom(seed);
        final EdgeList e = new EdgeList(8L * n, false);
        for (int u = 0; u < n; u++) {
            if (u % 3 == 0) {
                continue;
            }
            final int k = 1 + rnd.nextInt(8);
            for (int i = 0; i < k; i++) {
                e.add(u, rnd.nextInt(n / 2) * 2);
            }
        }
        return GraphBuilder.build(e, n, new BuildOptions(false, true, true), false, Progress.none());
    }

    static Stream<Arguments> cases() {
        final List<Arguments> list = new ArrayList<>();
        int i = 0;
        for (final String g : new String[] {"kron:10", "grid:30x30", "disconnected"}) {
            for (final int devices : new int[] {1, 2, 4}) {
                for (final AppSettings.Queue queue : AppSettings.Queue.values()) {
                    for (final AppSettings.KernelStyle kernel : AppSettings.KernelStyle.values()) {
                        final String partition = new String[] {"range", "hash", "degree"}[i % 3];
                        final AggregatorConfig remote = i % 4 == 3 ? AggregatorConfig.eager()
                            : AggregatorConfig.batched(i % 2 == 0 ? 4096 : 256, 8);
                        list.add(Arguments.of(g, devices, queue, kernel, partition, remote));
                        i++;
                    }
                }
            }
        }
        return list.stream();
    }

    private static CsrGraph graph(final String spec, final boolean weighted) {
        return spec.equals("disconnected") ? disconnected(weighted)
            : GraphSpec.parse(spec).build(7, weighted, Progress.none());
    }

    private static Mesh mesh(final int devices) {
        return devices == 1 ? one : devices == 2 ? two : four;
    }

    private static Partition partition(final CsrGraph g, final int devices, final String kind) {
        return kind.equals("range") ? Partition.byEdges(g, devices) : kind.equals("hash") ? Partition.byHash(g, devices)
            : Partition.byEdgesDegreeOrdered(g, devices);
    }

    private static AppSettings settings(final AppSettings.Queue queue, final AppSettings.KernelStyle kernel,
        final AggregatorConfig remote) {
        return AppSettings.builder().queue(queue).kernel(kernel).remote(remote).build();
    }

    private static long reached(final int[] depths) {
        long r = 0;
        for (final int x : depths) {
            r += x >= 0 ? 1 : 0;
        }
        return r;
    }

    @ParameterizedTest(name = "{0} on {1} devices, {2} {3}, {4}, {5}")
    @MethodSource("cases")
    void bfsEqualsSequentialBfs(final String spec, final int devices, final AppSettings.Queue queue,
        final AppSettings.KernelStyle kernel, final String kind, final AggregatorConfig remote) {
        final CsrGraph g = graph(spec, false);
        try (DeviceGraph dg = DeviceGraph.place(mesh(devices), g, partition(g, devices, kind), false)) {
            for (final int source : new int[] {0, g.vertexCount() - 1, g.vertexCount() / 2}) {
                final AppResult r = async.bfs(dg, source, settings(queue, kernel, remote));
                final int[] expected = SequentialBfs.depths(g, source);
                final Verification v = Verification.depths(expected, r.depths());
                assertTrue(v.passed(), spec + " from " + source + ": " + v.detail());
                assertTrue(r.counts().visited() >= reached(expected), "every reached vertex is expanded at least once");
                if (kernel == AppSettings.KernelStyle.DISCRETE) {
                    assertTrue(r.counts().iterations() >= 1, "discrete runs report their rounds");
                }
                if (devices == 1) {
                    assertEquals(0, r.counts().remotePushes() + r.counts().remoteAtomics() + r.counts().messages());
                }
            }
        }
    }

    @ParameterizedTest(name = "{0} on {1} devices, {2} {3}, {4}, {5}")
    @MethodSource("cases")
    void ssspEqualsDijkstra(final String spec, final int devices, final AppSettings.Queue queue,
        final AppSettings.KernelStyle kernel, final String kind, final AggregatorConfig remote) {
        final CsrGraph g = graph(spec, true);
        try (DeviceGraph dg = DeviceGraph.place(mesh(devices), g, partition(g, devices, kind), true)) {
            for (final int source : new int[] {0, g.vertexCount() - 1}) {
                final AppResult r = async.sssp(dg, source, settings(queue, kernel, remote));
                final Verification v = Verification.distances(Dijkstra.distances(g, source), r.distances());
                assertTrue(v.passed(), spec + " from " + source + ": " + v.detail());
            }
        }
    }

    @ParameterizedTest(name = "{0} on {1} devices, {2} {3}, {4}, {5}")
    @MethodSource("cases")
    void pageRankWithinToleranceOfPowerIteration(final String spec, final int devices, final AppSettings.Queue queue,
        final AppSettings.KernelStyle kernel, final String kind, final AggregatorConfig remote) {
        final CsrGraph g = graph(spec, false);
        final double tol = 1e-6;
        checkPageRank(g, devices, kind, AppSettings.builder().queue(queue).kernel(kernel).remote(remote)
            .tolerance(tol).build(), spec);
    }

    private AppResult checkPageRank(final CsrGraph g, final int devices, final String kind, final AppSettings s,
        final String what) {
        return checkPageRank(g, devices, kind, s, what, 1.0);
    }

    private AppResult checkPageRank(final CsrGraph g, final int devices, final String kind, final AppSettings s,
        final String what, final double looseness) {
        final int[] outDeg = new int[g.vertexCount()];
        for (int v = 0; v < outDeg.length; v++) {
            outDeg[v] = g.degree(v);
        }
        try (DeviceGraph dg = DeviceGraph.place(mesh(devices), g, partition(g, devices, kind), false)) {
            final AppResult r = PushPageRank.run(dg, outDeg, s, looseness);
            final double tol = s.tolerance();
            final PowerIteration.Result ref = PowerIteration.ranks(g, s.damping(), tol / 100, 100_000);
            final Verification v = Verification.ranks(ref.ranks(), r.ranks(), tol + tol / 100);
            assertTrue(v.passed(), what + ": " + v.detail());
            double sum = 0;
            for (final double x : r.ranks()) {
                sum += x;
            }
            assertEquals(1.0, sum, 1e-9);
            assertEquals(g.vertexCount(), r.counts().ideal());
            return r;
        }
    }

    @Test
    void pageRankOnADirectedGraphWithDanglingVerticesMatchesPowerIteration() {
        final CsrGraph g = directedWithDanglingVertices(3000, 11);
        for (final int devices : new int[] {1, 2, 4}) {
            for (final double tol : new double[] {1e-3, 1e-7}) {
                checkPageRank(g, devices, "range", AppSettings.builder().tolerance(tol).build(),
                    "directed, " + devices + " devices, tolerance " + tol);
            }
        }
    }

    @Test
    void aTooLooseFirstThresholdIsRefinedUntilTheBoundHolds() {
        // The first pass runs with a threshold 10^4 times too large: its error bound cannot hold, so the host must
        // tighten the threshold and run further passes (the idle scans pick up the residuals in between) until the
        // answer is within the tolerance again.
        final CsrGraph g = GraphSpec.parse("kron:10").build(7, false, Progress.none());
        for (final AppSettings.KernelStyle kernel : AppSettings.KernelStyle.values()) {
            final AppSettings s = AppSettings.builder().kernel(kernel).tolerance(1e-6).build();
            final AppResult r = checkPageRank(g, 2, "range", s, "loose " + kernel, 1e4);
            assertTrue(r.counts().iterations() >= 2, "passes: " + r.counts().iterations());
            final AppResult d = checkPageRank(directedWithDanglingVertices(3000, 5), 4, "hash", s, "loose directed "
                + kernel, 1e4);
            assertTrue(d.counts().iterations() >= 2, "passes: " + d.counts().iterations());
        }
    }

    /**
     * One worker per device takes the kernel without atomics (own residuals with plain stores, debts to other
     * devices in the debtor's memory); several take the CAS kernel. Both must meet the tolerance on 1 and 2 devices
     * (the 4-device cases above are solo too), with FIFO and priority, persistent and discrete kernels.
     */
    @Test
    void theSoloAndAtomicKernelsBothMeetTheTolerance() {
        try (Mesh solo1 = Mesh.builder().name("solo1").devices(1).threadsPerDevice(1).memoryPerDevice(48 << 20).build();
             Mesh solo2 = Mesh.builder().name("solo2").devices(2).threadsPerDevice(1).memoryPerDevice(48 << 20).build()) {
            final CsrGraph kron = GraphSpec.parse("kron:11").build(3, false, Progress.none());
            final CsrGraph directed = directedWithDanglingVertices(2000, 9);
            for (final CsrGraph g : new CsrGraph[] {kron, directed}) {
                final int[] outDeg = new int[g.vertexCount()];
                for (int v = 0; v < outDeg.length; v++) {
                    outDeg[v] = g.degree(v);
                }
                final PowerIteration.Result ref = PowerIteration.ranks(g, 0.85, 1e-8, 100_000);
                for (final Mesh m : new Mesh[] {solo1, solo2, one, two}) {
                    for (final AppSettings.Queue q : AppSettings.Queue.values()) {
                        for (final AppSettings.KernelStyle k : AppSettings.KernelStyle.values()) {
                            try (DeviceGraph dg = DeviceGraph.place(m, g, Partition.byEdges(g, m.deviceCount()), false)) {
                                final AppResult r = async.pageRank(dg, outDeg, AppSettings.builder().queue(q).kernel(k)
                                    .tolerance(1e-6).build());
                                final Verification v = Verification.ranks(ref.ranks(), r.ranks(), 1e-6 + 1e-8);
                                assertTrue(v.passed(), m + " " + q + " " + k + ": " + v.detail());
                            }
                        }
                    }
                }
            }
        }
    }

    @Test
    void theWarmStartIsExactOnARegularGraphSoNothingIsExpanded() {
        final EdgeList e = new EdgeList(1000, false);
        for (int v = 0; v < 1000; v++) {
            e.add(v, (v + 1) % 1000);
        }
        final CsrGraph ring = GraphBuilder.build(e, 1000, BuildOptions.UNDIRECTED_SIMPLE, false, Progress.none());
        final AppResult r = checkPageRank(ring, 2, "range", AppSettings.builder().tolerance(1e-9).build(), "ring");
        assertEquals(0, r.counts().visited(), "uniform is the PageRank of a regular graph: no residual to push");
        assertEquals(1, r.counts().iterations());
        assertEquals(ring.edgeCount(), r.counts().edgesScanned(), "only the warm start's scatter");
    }

    @Test
    void theErrorBoundFollowsItsFormula() {
        assertEquals(2 * 0.01 / (0.15 * 0.8), PageRankBound.bound(0.8, 0.01, 0.85), 1e-12);
        assertEquals(Double.POSITIVE_INFINITY, PageRankBound.bound(0, 0.01, 0.85));
        assertEquals(Double.POSITIVE_INFINITY, PageRankBound.bound(-0.1, 0.01, 0.85));
    }

    @Test
    void pageRankRefusesTheReverseGraphOfADirectedGraph() {
        final CsrGraph g = directedWithDanglingVertices(500, 3);
        final int[] outDeg = new int[g.vertexCount()];
        for (int v = 0; v < outDeg.length; v++) {
            outDeg[v] = g.degree(v);
        }
        assertSame(GraphAlgorithms.PageRankEdges.OUT, async.pageRankEdges());
        try (DeviceGraph dg = DeviceGraph.place(two, g.transpose(), Partition.byEdges(g, 2), false)) {
            final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> async.pageRank(dg, outDeg, AppSettings.defaults()));
            assertTrue(e.getMessage().contains("pushes along out-edges"), e.getMessage());
        }
    }

    @Test
    void oneFifoWorkerExpandsEveryVertexExactlyOnce() {
        // One device, one worker, FIFO, top-down: the worklist is a BFS queue, so a vertex's first depth is final.
        try (Mesh m = Mesh.builder().name("async-one-worker").devices(1).threadsPerDevice(1).memoryPerDevice(32 << 20)
            .build()) {
            final CsrGraph g = GraphSpec.parse("grid:40x40").build(3, false, Progress.none());
            try (DeviceGraph dg = DeviceGraph.place(m, g, Partition.byEdges(g, 1), false)) {
                final AppResult r = async.bfs(dg, 17,
                    AppSettings.builder().direction(AppSettings.Direction.TOP_DOWN).build());
                assertTrue(Verification.depths(SequentialBfs.depths(g, 17), r.depths()).passed());
                assertEquals(g.vertexCount(), r.counts().visited());
                assertEquals(g.edgeCount(), r.counts().edgesScanned());
                assertEquals(g.vertexCount() - 1, r.counts().localPushes());
            }
        }
    }

    @Test
    void bfsDepthsBeyondWhatAHintByteHoldsAreExact() {
        // depths up to 699: the one-byte hints saturate at 255 and must then never skip an edge
        final CsrGraph path = GraphSpec.parse("grid:700x2").build(1, false, Progress.none());
        for (final Mesh m : new Mesh[] {one, two, four}) {
            try (DeviceGraph dg = DeviceGraph.place(m, path, Partition.byEdges(path, m.deviceCount()), false)) {
                for (final AppSettings.Queue q : AppSettings.Queue.values()) {
                    final AppResult r = async.bfs(dg, 0, AppSettings.builder().queue(q).build());
                    final Verification v = Verification.depths(SequentialBfs.depths(path, 0), r.depths());
                    assertTrue(v.passed(), m + " " + q + ": " + v.detail());
                }
            }
        }
    }

    @Test
    void priorityBfsDropsStaleTasksAndStaysExact() {
        final CsrGraph g = GraphSpec.parse("kron:11").build(5, false, Progress.none());
        try (DeviceGraph dg = DeviceGraph.place(four, g, Partition.byHash(g, 4), false)) {
            int source = 0;
            while (g.degree(source) == 0) {
                source++;
            }
            // top-down: the hybrid settles vertices bottom-up without pushes
            final AppSettings s = AppSettings.builder().queue(AppSettings.Queue.PRIORITY)
                .direction(AppSettings.Direction.TOP_DOWN).build();
            final AppResult r = async.bfs(dg, source, s);
            final int[] expected = SequentialBfs.depths(g, source);
            assertTrue(Verification.depths(expected, r.depths()).passed());
            // Expansions are at most the pushes plus the seed (stale tasks are dropped, never expanded twice).
            assertTrue(r.counts().visited() <= r.counts().localPushes() + r.counts().remotePushes() + 1);
            assertTrue(r.counts().remotePushes() > 0 && r.counts().remoteAtomics() > 0 && r.counts().messages() > 0);
        }
    }

    @Test
    void ssspWithAnExplicitDeltaAndSingleTaskFetchIsExact() {
        final CsrGraph g = GraphSpec.parse("grid:25x25").build(9, true, Progress.none());
        try (DeviceGraph dg = DeviceGraph.place(two, g, Partition.byEdges(g, 2), true)) {
            for (final int delta : new int[] {1, 7, 1000}) {
                final AppSettings s = AppSettings.builder().queue(AppSettings.Queue.PRIORITY).delta(delta).fetch(1)
                    .build();
                final AppResult r = async.sssp(dg, 3, s);
                final Verification v = Verification.distances(Dijkstra.distances(g, 3), r.distances());
                assertTrue(v.passed(), "delta " + delta + ": " + v.detail());
            }
        }
        assertEquals(8, AsyncSssp.delta(GraphSummary.of(g(5, 5)), AppSettings.defaults()), "2 x 5 / (4 edges / 3 vertices)");
        assertEquals(3, AsyncSssp.delta(GraphSummary.of(g(5, 5)), AppSettings.builder().delta(3).build()));
    }

    @Test
    void ssspDistancesBeyondWhatAnIntHintHoldsAreExact() {
        final EdgeList e = new EdgeList(64, true);
        for (int v = 0; v < 40; v++) {
            e.add(v, v + 1, 1_500_000_000 - v);
            e.add(v, (v + 7) % 41, 2_000_000_000);
        }
        final CsrGraph g = GraphBuilder.build(e, 41, BuildOptions.UNDIRECTED_SIMPLE, false, Progress.none());
        for (final Mesh m : new Mesh[] {one, two, four}) {
            try (DeviceGraph dg = DeviceGraph.place(m, g, Partition.byEdges(g, m.deviceCount()), true)) {
                for (final AppSettings.Queue q : AppSettings.Queue.values()) {
                    final AppResult r = async.sssp(dg, 0, AppSettings.builder().queue(q).build());
                    final Verification v = Verification.distances(Dijkstra.distances(g, 0), r.distances());
                    assertTrue(v.passed(), m + " " + q + ": " + v.detail());
                }
            }
        }
    }

    /** The path 0 - 1 - 2 with weights {@code a} and {@code b}, both ways. */
    private static CsrGraph g(final int a, final int b) {
        final EdgeList e = new EdgeList(4, true);
        e.add(0, 1, a);
        e.add(1, 2, b);
        return GraphBuilder.build(e, 3, BuildOptions.UNDIRECTED_SIMPLE, false, Progress.none());
    }

    @Test
    void theProviderIsFoundByItsModeAndSizesItsState() {
        assertTrue(Algorithms.forMode("async") instanceof AsyncAlgorithms);
        assertTrue(Algorithms.forMode("ASYNC") instanceof AsyncAlgorithms);
        final long fifo = async.stateBytesPerDevice(1000, 600, 2, 2, AppSettings.defaults());
        final long big = async.stateBytesPerDevice(1000, 600, 2, 2, batched(1 << 20));
        assertTrue(big >= fifo + (7L << 20), "a 1 MiB batch needs an 8 MiB inbox ring: " + fifo + " vs " + big);
        assertTrue(async.stateBytesPerDevice(1000, 600, 2, 2) >= fifo);
    }

    private static AppSettings batched(final int batchBytes) {
        return AppSettings.builder().remote(AggregatorConfig.batched(batchBytes, 64)).build();
    }

    @Test
    void worklistSettingsFollowTheAppSettings() {
        final AppSettings eager = AppSettings.builder().remote(AggregatorConfig.eager()).build();
        assertEquals(Worklists.MIN_RING, Worklists.ringCapacity(eager));
        assertEquals(Worklists.MIN_RING, Worklists.ringCapacity(batched(64 << 10)));
        assertEquals(1 << 23, Worklists.ringCapacity(batched(1 << 20)));
        assertEquals(1 << 24, Worklists.ringCapacity(batched((1 << 20) + 1)));
        assertEquals(AppSettings.MAX_BATCH_BYTES * 8, Worklists.ringCapacity(batched(AppSettings.MAX_BATCH_BYTES)));
        assertThrows(IllegalArgumentException.class, () -> batched(AppSettings.MAX_BATCH_BYTES + 1));
        try (DistributedWorklist wl = Worklists.build(two, eager, 10, 1, 1)) {
            assertTrue(wl.toString().contains("eager"), wl.toString());
        }
        assertEquals(8192, Worklists.queueCapacity(1000));
        assertEquals(1 << 19, Worklists.queueCapacity(1 << 18));
        assertEquals(7, Worklists.shape(AppSettings.builder().fetch(7).build()).fetchSize());
    }
}
