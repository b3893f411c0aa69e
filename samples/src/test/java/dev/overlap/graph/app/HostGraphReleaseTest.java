package dev.overlap.graph.app;

import dev.overlap.core.Mesh;
import dev.overlap.graph.CsrGraph;
import dev.overlap.graph.GraphSummary;
import dev.overlap.graph.Progress;
import dev.overlap.graph.gen.GraphSpec;
import dev.overlap.graph.partition.DeviceGraph;
import dev.overlap.graph.partition.Partition;
import dev.overlap.graph.ref.Verification;
import org.junit.jupiter.api.Test;

import java.lang.ref.WeakReference;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The host CSR is not part of a run: what the runs read of it is a {@link GraphSummary}, and
 * {@link AppRunner#measure(HostGraph, GraphApp, GraphAlgorithms, int, AppSettings)} drops it once placed, so it is
 * garbage during the timed runs, in every mode, while every answer is still verified against a reference computed
 * from it before it went.
 */
class HostGraphReleaseTest {
    private static final String[] MODES = {"bsp", "async", "solo", "coop"};

    /** A graph made here and handed over at once: the test keeps only a weak reference to it. */
    private static final class Handed {
        final WeakReference<CsrGraph> graph;
        final HostGraph host;
        GraphApp.Expected expected;

        Handed(final GraphApp app, final int source, final AppSettings settings) {
            final CsrGraph g = GraphSpec.parse("kron:8").build(3, app.weighted(), Progress.none());
            graph = new WeakReference<>(g);
            host = HostGraph.of(g, h -> expected = app.expected(h, source, settings, null));
        }
    }

    @Test
    void noRunInputHoldsTheHostGraph() {
        for (final Method m : GraphApp.class.getMethods()) {
            if (m.getName().equals("run")) {
                for (final Class<?> p : m.getParameterTypes()) {
                    assertFalse(p == CsrGraph.class, "GraphApp.run takes " + p.getSimpleName());
                }
            }
        }
        for (final Class<?> c : new Class<?>[] {DeviceGraph.class, GraphSummary.class, AppRunner.Measurement.class,
            AppResult.class}) {
            for (final Field f : c.getDeclaredFields()) {
                assertFalse(f.getType() == CsrGraph.class, c.getSimpleName() + "." + f.getName() + " is a CsrGraph");
            }
        }
    }

    @Test
    void theGraphIsGarbageDuringTheRunsAndEveryAnswerIsVerified() {
        final List<String> held = new ArrayList<>();
        for (final String mode : MODES) {
            final GraphAlgorithms algorithms = Algorithms.forMode(mode);
            for (final GraphApp app : GraphApp.values()) {
                // async PageRank runs to its tolerance; the others run fixed iterations (an exact reference)
                final AppSettings s = mode.equals("async") ? AppSettings.defaults()
                    : AppSettings.builder().fixedIterations(8).build();
                final int source = 1;
                final Handed h = new Handed(app, source, s);
                final boolean[] probed = new boolean[1];
                final AppRunner runner = AppRunner.builder().devices(2).warmups(1).runs(2).stopRunsWhen(() -> {
                    probed[0] = true;
                    assertTrue(h.host.isReleased(), "released before the runs");
                    if (!collected(h.graph)) {
                        held.add(mode + " " + app);
                    }
                    return false;
                }).build();
                final AppRunner.Measurement m = runner.measure(h.host, app, algorithms, source, s);
                assertTrue(probed[0], "asked between the timed runs");
                assertNotNull(h.expected, "the last reader ran: " + mode + " " + app);
                final Verification v = h.expected.check(m.result());
                assertTrue(v.passed(), mode + " " + app + ": " + v.detail());
                assertEquals(h.expected.reached(), app == GraphApp.PAGERANK ? m.graph().vertexCount()
                    : m.result().counts().ideal(), mode + " " + app);
            }
        }
        assertEquals(List.of(), held, "the host graph was still reachable during the runs of these");
    }

    @Test
    void aPlacedGraphKeepsNoReferenceToTheHostGraph() {
        try (Mesh mesh = Mesh.builder().name("release").devices(2).threadsPerDevice(1).memoryPerDevice(4 << 20)
            .build()) {
            final List<WeakReference<CsrGraph>> graph = new ArrayList<>();
            try (DeviceGraph dg = place(mesh, graph)) {
                // no launch since the placement's: a device's last launch (and its kernel) must not hold the graph
                assertTrue(collected(graph.get(0)), "the host graph is reachable from the placed graph");
                assertEquals(GraphSpec.parse("kron:8").build(4, true, Progress.none()).edgeCount(),
                    dg.summary().edgeCount());
            }
        }
    }

    /** Places a graph made here; {@code ref} gets a weak reference to it. */
    private static DeviceGraph place(final Mesh mesh, final List<WeakReference<CsrGraph>> ref) {
        final CsrGraph g = GraphSpec.parse("kron:8").build(4, true, Progress.none());
        ref.add(new WeakReference<>(g));
        return DeviceGraph.place(mesh, g, Partition.byEdges(g, 2), true);
    }

    /**
     * @return whether the graph was collected: a full collection is requested (at most 20 times) until the weak
     *         reference is cleared; a graph still reachable is never cleared, so the answer is never a false yes
     */
    private static boolean collected(final WeakReference<CsrGraph> graph) {
        for (int i = 0; i < 20 && graph.get() != null; i++) {
            System.gc();
        }
        return graph.get() == null;
    }

    @Test
    void aHandleIsMeasuredOnceAndWithoutAReaderToo() {
        final CsrGraph g = GraphSpec.parse("grid:6x5").build(1, false, Progress.none());
        final HostGraph host = HostGraph.of(g);
        assertFalse(host.isReleased());
        final AppRunner runner = AppRunner.builder().build();
        final AppRunner.Measurement m = runner.measure(host, GraphApp.BFS, Algorithms.forMode("bsp"), 0,
            AppSettings.defaults());
        assertTrue(host.isReleased());
        assertTrue(host.toString().contains("released"), host.toString());
        assertEquals(GraphApp.BFS.edgesTraversed(g, m.result()), GraphApp.BFS.edgesTraversed(m.graph(), m.result()));
        final IllegalStateException again = assertThrows(IllegalStateException.class, () -> runner.measure(host,
            GraphApp.BFS, Algorithms.forMode("bsp"), 0, AppSettings.defaults()));
        assertTrue(again.getMessage().contains("released"), again.getMessage());
        assertThrows(NullPointerException.class, () -> HostGraph.of(g, null));
        assertThrows(NullPointerException.class, () -> HostGraph.of(null));
    }

    @Test
    void theSummaryHoldsWhatTheRunsRead() {
        final CsrGraph g = GraphSpec.parse("kron:7").build(2, true, Progress.none());
        final GraphSummary s = GraphSummary.of(g);
        assertEquals(g.vertexCount(), s.vertexCount());
        assertEquals(g.edgeCount(), s.edgeCount());
        assertEquals(g.isSymmetric(), s.isSymmetric());
        assertTrue(s.isWeighted());
        long sum = 0;
        int max = 0;
        for (long e = 0; e < g.edgeCount(); e++) {
            sum += g.weight(e);
            max = Math.max(max, g.weight(e));
        }
        assertEquals(sum, s.weightSum());
        assertEquals(max, s.maxWeight());
        assertEquals(1, GraphSummary.of(g.withoutWeights()).maxWeight(), "unit weights");
        int withEdges = 0;
        int maxDegree = 0;
        final int[] out = s.outDegrees();
        for (int v = 0; v < g.vertexCount(); v++) {
            assertEquals(g.degree(v), s.degree(v));
            assertEquals(g.degree(v), out[v]);
            withEdges += g.degree(v) > 0 ? 1 : 0;
            maxDegree = Math.max(maxDegree, g.degree(v));
        }
        out[0] = -7;
        assertEquals(g.degree(0), s.outDegrees()[0], "a copy");
        assertEquals(withEdges, s.verticesWithEdges());
        assertTrue(withEdges < g.vertexCount(), "kron 7 has isolated vertices, which the mean leaves out");
        assertEquals(maxDegree, s.maxDegree());
        assertEquals((double)g.edgeCount() / withEdges, s.meanDegreeWithEdges());
        final GraphSummary none = GraphSummary.of(CsrGraph.wrap(new long[3], new int[0], null, true));
        assertEquals(0, none.maxDegree(), "no edges");
        assertEquals(0.0, none.meanDegreeWithEdges(), "no edges");
        assertEquals(-1, s.negativeWeightEdge());
        assertEquals(g.edgeCount(), GraphSummary.of(g.withoutWeights()).weightSum(), "unit weights");
    }

    @Test
    void ssspRefusesANegativeWeightBeforeTheMeshIsBuilt() {
        final CsrGraph g = CsrGraph.wrap(new long[] {0, 1, 2, 2}, new int[] {1, 2}, new int[] {4, -3}, false);
        final GraphSummary s = GraphSummary.of(g);
        assertEquals(1, s.negativeWeightEdge());
        assertEquals(-3, s.negativeWeight());
        assertEquals(4, s.maxWeight());
        final IllegalStateException e = assertThrows(IllegalStateException.class, () -> AppRunner.builder().build()
            .measure(g, GraphApp.SSSP, Algorithms.forMode("bsp"), 0, AppSettings.defaults()));
        assertEquals("edge 1 has negative weight -3: shortest paths need weights >= 0", e.getMessage());
        GraphApp.BFS.requireUsable(s); // only SSSP reads weights
    }

    /** Solo's BFS, leaving {@code garbage} bytes of heap behind per run as a provider's state arrays do. */
    private static GraphAlgorithms leaving(final int garbage) {
        return new BfsOnly("solo") {
            @Override
            public AppResult bfs(final DeviceGraph g, final int source, final AppSettings settings) {
                final long[] state = new long[garbage / 8];
                java.util.Arrays.fill(state, source);
                final AppResult r = delegate.bfs(g, source, settings);
                return state[state.length - 1] == source ? r : null;
            }
        };
    }

    /**
     * @return full collections so far: G1's, Parallel's or Serial's old-generation collector, which only a
     *         {@code System.gc()} starts on a heap far from full; -1 under another collector
     */
    private static long fullCollections() {
        long n = -1;
        for (final java.lang.management.GarbageCollectorMXBean gc
            : java.lang.management.ManagementFactory.getGarbageCollectorMXBeans()) {
            final String name = gc.getName();
            if (name.equals("G1 Old Generation") || name.equals("PS MarkSweep") || name.equals("MarkSweepCompact")) {
                n = Math.max(n, 0) + gc.getCollectionCount();
            }
        }
        return n;
    }

    @Test
    void aRunThatLeavesMuchHeapBehindIsCollectedBeforeTheNextAndASmallOneIsNot() {
        final int warmups = 2;
        final int runs = 3;
        final AppRunner runner = AppRunner.builder().warmups(warmups).runs(runs).build();
        org.junit.jupiter.api.Assumptions.assumeTrue(fullCollections() >= 0, "a collector that counts full GCs");
        final long[] full = new long[2];
        int i = 0;
        for (final int garbage : new int[] {64 << 20, 1 << 10}) {
            final HostGraph host = HostGraph.of(GraphSpec.parse("grid:20x20").build(1, false, Progress.none()));
            final long before = fullCollections();
            runner.measure(host, GraphApp.BFS, leaving(garbage), 0, AppSettings.defaults());
            full[i++] = fullCollections() - before;
        }
        // two before the runs (before the mesh, after the placement), then one before every run but the first; one
        // may be missed when a young collection happens to reclaim the dead array first (G1 frees dead humongous
        // arrays eagerly), so one less is allowed: the runner without these collections makes 2
        assertTrue(full[0] >= 2 + warmups + runs - 2, full[0] + " full collections with 64 MiB left per run");
        assertEquals(2, full[1], "a run that leaves 1 KiB is not followed by a collection");
    }
}
