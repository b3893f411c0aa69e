package dev.overlap.graph.async;

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
import dev.overlap.graph.ref.SequentialBfs;
import dev.overlap.graph.ref.Verification;
import dev.overlap.transport.AggregatorConfig;
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
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The direction-optimizing (hybrid) async BFS: it must switch to bottom-up steps on a scale-free graph (and then scan
 * far fewer edges than top-down), never switch on a mesh or with {@code --direction top-down}, and be exact in every
 * case — on 1, 2 and 4 devices, FIFO and priority worklists, persistent and discrete kernels, and with vertices the
 * source does not reach.
 */
class HybridBfsTest {
    private static Mesh one;
    private static Mesh two;
    private static Mesh four;
    private final AsyncAlgorithms async = new AsyncAlgorithms();

    @BeforeAll
    static void meshes() {
        one = Mesh.builder().name("hybrid1").devices(1).threadsPerDevice(2).memoryPerDevice(48 << 20).build();
        two = Mesh.builder().name("hybrid2").devices(2).threadsPerDevice(2).memoryPerDevice(48 << 20).build();
        four = Mesh.builder().name("hybrid4").devices(4).threadsPerDevice(1).memoryPerDevice(48 << 20).build();
    }

    @AfterAll
    static void close() {
        one.close();
        two.close();
        four.close();
    }

    static Stream<Arguments> cases() {
        final List<Arguments> list = new ArrayList<>();
        for (final int devices : new int[] {1, 2, 4}) {
            for (final AppSettings.Queue queue : AppSettings.Queue.values()) {
                for (final AppSettings.KernelStyle kernel : AppSettings.KernelStyle.values()) {
                    list.add(Arguments.of(devices, queue, kernel));
                }
            }
        }
        return list.stream();
    }

    private static Mesh mesh(final int devices) {
        return devices == 1 ? one : devices == 2 ? two : four;
    }

    private static AppSettings settings(final AppSettings.Queue queue, final AppSettings.KernelStyle kernel,
        final AppSettings.Direction direction) {
        return AppSettings.builder().queue(queue).kernel(kernel).direction(direction)
            .remote(AggregatorConfig.batched(1024, 8)).build();
    }

    /** @return a vertex of the largest degree (the source from which a scale-free graph's BFS switches early) */
    static int hub(final CsrGraph g) {
        int best = 0;
        for (int v = 1; v < g.vertexCount(); v++) {
            if (g.degree(v) > g.degree(best)) {
                best = v;
            }
        }
        return best;
    }

    /** Edges out of the vertices {@code depths} reaches: what a top-down BFS scans at least. */
    private static long reachedEdges(final CsrGraph g, final int[] depths) {
        long m = 0;
        for (int v = 0; v < g.vertexCount(); v++) {
            m += depths[v] >= 0 ? g.degree(v) : 0;
        }
        return m;
    }

    /** {@code g} followed by a path of {@code pathLength} vertices and {@code isolated} vertices without edges. */
    static CsrGraph withUnreachedParts(final CsrGraph g, final int pathLength, final int isolated) {
        final int n = g.vertexCount();
        final EdgeList e = new EdgeList(g.edgeCount() + 2L * pathLength, false);
        for (int u = 0; u < n; u++) {
            for (long i = g.edgeStart(u); i < g.edgeEnd(u); i++) {
                e.add(u, g.target(i));
            }
        }
        for (int i = 1; i < pathLength; i++) {
            e.add(n + i - 1, n + i);
            e.add(n + i, n + i - 1);
        }
        return GraphBuilder.build(e, n + pathLength + isolated, BuildOptions.UNDIRECTED_SIMPLE, false,
            Progress.none());
    }

    @ParameterizedTest(name = "kron on {0} devices, {1} {2}")
    @MethodSource("cases")
    void aScaleFreeGraphSwitchesToBottomUpAndStaysExact(final int devices, final AppSettings.Queue queue,
        final AppSettings.KernelStyle kernel) {
        final CsrGraph g = GraphSpec.parse("kron:12").build(3, false, Progress.none());
        try (DeviceGraph dg = DeviceGraph.place(mesh(devices), g, Partition.byEdges(g, devices), false)) {
            final int source = hub(g);
            final int[] expected = SequentialBfs.depths(g, source);
            final AppResult hybrid = async.bfs(dg, source, settings(queue, kernel, AppSettings.Direction.OPTIMIZING));
            final Verification v = Verification.depths(expected, hybrid.depths());
            assertTrue(v.passed(), v.detail());
            // bottom-up steps scan few edges, and count as iterations beyond the worklist's rounds (one when persistent)
            final AppResult topDown = async.bfs(dg, source, settings(queue, kernel, AppSettings.Direction.TOP_DOWN));
            assertTrue(Verification.depths(expected, topDown.depths()).passed());
            if (kernel == AppSettings.KernelStyle.PERSISTENT) {
                assertEquals(1, topDown.counts().iterations());
                assertTrue(hybrid.counts().iterations() >= 2, "phase rounds plus steps: " + hybrid.counts().iterations());
            }
            assertTrue(hybrid.counts().edgesScanned() * 2 < reachedEdges(g, expected),
                "the hybrid scans " + hybrid.counts().edgesScanned() + " of " + reachedEdges(g, expected));
            assertTrue(topDown.counts().edgesScanned() >= reachedEdges(g, expected));
            assertTrue(hybrid.counts().visited() >= reached(expected), "every reached vertex is expanded or found");
        }
    }

    private static long reached(final int[] depths) {
        long r = 0;
        for (final int x : depths) {
            r += x >= 0 ? 1 : 0;
        }
        return r;
    }

    @ParameterizedTest(name = "grid on {0} devices, {1} {2}")
    @MethodSource("cases")
    void aMeshNeverSwitches(final int devices, final AppSettings.Queue queue, final AppSettings.KernelStyle kernel) {
        final CsrGraph g = GraphSpec.parse("grid:120x120").build(3, false, Progress.none());
        try (DeviceGraph dg = DeviceGraph.place(mesh(devices), g, Partition.byEdges(g, devices), false)) {
            for (final int source : new int[] {0, g.vertexCount() / 2 + 60}) {
                final AppResult r = async.bfs(dg, source, settings(queue, kernel, AppSettings.Direction.OPTIMIZING));
                assertTrue(Verification.depths(SequentialBfs.depths(g, source), r.depths()).passed());
                // top-down scans every edge of every expanded vertex; a bottom-up step would scan fewer
                assertTrue(r.counts().edgesScanned() >= g.edgeCount(), r.counts().toString());
                if (kernel == AppSettings.KernelStyle.PERSISTENT) {
                    assertEquals(1, r.counts().iterations(), r.counts().toString());
                }
            }
        }
    }

    @ParameterizedTest(name = "kron with unreached parts on {0} devices, {1} {2}")
    @MethodSource("cases")
    void unreachedVerticesStayUnreachedAcrossTheSwitch(final int devices, final AppSettings.Queue queue,
        final AppSettings.KernelStyle kernel) {
        final CsrGraph kron = GraphSpec.parse("kron:11").build(9, false, Progress.none());
        final CsrGraph g = withUnreachedParts(kron, 300, 50);
        try (DeviceGraph dg = DeviceGraph.place(mesh(devices), g, Partition.byHash(g, devices), false)) {
            for (final int source : new int[] {hub(kron), kron.vertexCount() + 7, g.vertexCount() - 1}) {
                final int[] expected = SequentialBfs.depths(g, source);
                final AppResult r = async.bfs(dg, source, settings(queue, kernel, AppSettings.Direction.OPTIMIZING));
                final Verification v = Verification.depths(expected, r.depths());
                assertTrue(v.passed(), "from " + source + ": " + v.detail());
            }
        }
    }

    @Test
    void aDirectedGraphRunsTopDownEvenWhenOptimizingIsAsked() {
        final EdgeList e = new EdgeList(64, false);
        for (int i = 0; i < 30; i++) {
            e.add(i, i + 1);
            e.add(0, i + 2);
        }
        final CsrGraph g = GraphBuilder.build(e, 40, new BuildOptions(false, true, true), false, Progress.none());
        try (DeviceGraph dg = DeviceGraph.place(two, g, Partition.byEdges(g, 2), false)) {
            final AppResult r = async.bfs(dg, 0, AppSettings.defaults());
            assertTrue(Verification.depths(SequentialBfs.depths(g, 0), r.depths()).passed());
            assertEquals(1, r.counts().iterations());
        }
    }

    @Test
    void theSwitchCapsAtTheFirstDepthWhoseEdgesOutweighTheRest() {
        // n = 1800, m = 10000: a depth needs more than n / 18 = 100 edges and more than a 15th of what is left
        final DirectionSwitch sw = new DirectionSwitch(1, 2, 1800, 10_000);
        sw.reset();
        assertEquals(DirectionSwitch.NO_CAP, sw.cap());
        for (int i = 0; i < 50; i++) {
            sw.discovered(0, 0, 1, 20);
        }
        // 1000 edges at depth 1 stay in worker 0's row until they reach FLUSH: nothing published yet
        assertEquals(DirectionSwitch.NO_CAP, sw.cap());
        for (int i = 0; i < DirectionSwitch.FLUSH; i++) {
            sw.discovered(0, 1, 2, 1);
        }
        // depth 2 now holds FLUSH edges published: 4096 * 15 > 10000 - 4096
        assertEquals(2, sw.cap());
        for (int i = 0; i < DirectionSwitch.FLUSH; i++) {
            sw.discovered(0, 1, 1, 1);
        }
        assertEquals(1, sw.cap(), "the cap only falls");
        sw.release();
        assertEquals(DirectionSwitch.NO_CAP, sw.cap());
        assertTrue(!sw.counting());
    }

    @Test
    void aDepthWithFewerEdgesThanTheVertexBoundNeverSwitches() {
        // n = 18 * 100000: a depth needs more than 100000 edges, whatever is left to explore
        final DirectionSwitch sw = new DirectionSwitch(1, 1, 1_800_000, 5_000);
        sw.reset();
        for (int i = 0; i < 4 * DirectionSwitch.FLUSH; i++) {
            sw.discovered(0, 0, 3, 1);
        }
        assertEquals(DirectionSwitch.NO_CAP, sw.cap());
        // and depths beyond what the switch watches are ignored
        for (int i = 0; i < 200; i++) {
            sw.discovered(0, 0, DirectionSwitch.LEVELS, 1 << 20);
        }
        assertEquals(DirectionSwitch.NO_CAP, sw.cap());
    }
}
