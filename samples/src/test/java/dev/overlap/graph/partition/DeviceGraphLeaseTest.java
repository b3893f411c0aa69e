package dev.overlap.graph.partition;

import dev.overlap.core.Mesh;
import dev.overlap.graph.CsrGraph;
import dev.overlap.graph.Progress;
import dev.overlap.graph.app.AppResult;
import dev.overlap.graph.app.AppSettings;
import dev.overlap.graph.app.Algorithms;
import dev.overlap.graph.app.GraphAlgorithms;
import dev.overlap.graph.app.GraphApp;
import dev.overlap.graph.gen.GraphSpec;
import dev.overlap.graph.ref.SequentialBfs;
import dev.overlap.graph.ref.Verification;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A placed graph cannot be freed under a run: every built-in mode holds a lease while it runs, and closing the graph
 * while a lease is held is refused with a clear exception that frees nothing.
 */
@Timeout(120)
class DeviceGraphLeaseTest {
    private static Mesh one;
    private static Mesh two;
    private static CsrGraph grid;

    @BeforeAll
    static void meshes() {
        one = Mesh.builder().name("lease1").devices(1).threadsPerDevice(2).memoryPerDevice(16 << 20).build();
        two = Mesh.builder().name("lease2").devices(2).threadsPerDevice(1).memoryPerDevice(16 << 20).build();
        grid = GraphSpec.parse("grid:40x40").build(3, true, Progress.none());
    }

    @AfterAll
    static void close() {
        one.close();
        two.close();
    }

    private static DeviceGraph place(final String mode) {
        final Mesh mesh = mode.equals("solo") || mode.equals("coop") ? one : two; // the one-device modes
        return DeviceGraph.place(mesh, grid, Partition.byEdges(grid, mesh.deviceCount()), false);
    }

    @Test
    void closingWhileALeaseIsHeldIsRefusedFreesNothingAndWorksOnceReleased() {
        final DeviceGraph dg = place("solo");
        final DeviceGraph.Lease lease = dg.lease();
        assertEquals(1, dg.runsInFlight());
        final IllegalStateException refused = assertThrows(IllegalStateException.class, dg::close);
        assertEquals(dg + " is in use by 1 run(s): close it after they return (nothing was freed)",
            refused.getMessage());
        final AppResult r = Algorithms.forMode("solo").bfs(dg, 0, AppSettings.defaults());
        assertTrue(Verification.depths(SequentialBfs.depths(grid, 0), r.depths()).passed(), "still usable");
        lease.close();
        lease.close(); // a second close of a lease has no further effect
        assertEquals(0, dg.runsInFlight());
        dg.close();
        dg.close(); // idempotent
        final IllegalStateException closed = assertThrows(IllegalStateException.class, dg::lease);
        assertEquals(dg + " is closed: place the graph again to run on it", closed.getMessage());
        assertThrows(IllegalStateException.class, () -> Algorithms.forMode("solo").bfs(dg, 0,
            AppSettings.defaults()));
    }

    /**
     * A thread runs BFS again and again while this one watches the lease count, then closes the graph in the middle of
     * the runs: each close is refused while a run holds the graph, and once one succeeds the next run is refused.
     * Nothing else may happen (no other exception, no crash), whichever wins each race.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"solo", "coop", "bsp", "async"})
    void everyModeHoldsALeaseWhileItRunsSoClosingCannotFreeTheGraphUnderIt(final String mode) throws Exception {
        final GraphAlgorithms algorithms = Algorithms.forMode(mode);
        final DeviceGraph dg = place(mode);
        final AtomicReference<Throwable> ended = new AtomicReference<>();
        final AtomicInteger runs = new AtomicInteger();
        final Thread runner = new Thread(() -> {
            try {
                while (runs.get() < 5_000) {
                    algorithms.bfs(dg, 0, AppSettings.defaults());
                    runs.incrementAndGet();
                }
            } catch (final Throwable t) {
                ended.set(t);
            }
        }, "lease-runner-" + mode);
        runner.start();
        boolean seen = false;
        while (runner.isAlive() && !seen) {
            seen = dg.runsInFlight() > 0;
        }
        assertTrue(seen, mode + ": no run held a lease in " + runs.get() + " runs (" + ended.get() + ")");
        int refusals = 0;
        boolean closed = false;
        while (!closed) {
            try {
                dg.close();
                closed = true;
            } catch (final IllegalStateException inUse) {
                refusals++;
            }
        }
        runner.join();
        final Throwable t = ended.get();
        if (t != null) {
            assertInstanceOf(IllegalStateException.class, t, mode + ": the run after the close");
            assertEquals(dg + " is closed: place the graph again to run on it", t.getMessage());
        } else {
            assertEquals(5_000, runs.get(), mode + ": the runs ended without a refusal: " + refusals);
        }
        assertNull(t == null ? null : t.getCause(), mode + ": a refusal, not a failure inside a run");
        assertEquals(0, dg.runsInFlight());
    }

    /**
     * A provider that takes no lease of its own, run through {@link GraphApp#run} (as the commands and the runner run
     * every provider): the app holds one around the call, so a close from another thread while the provider runs is
     * refused and frees nothing; after the call the close goes through.
     */
    @Test
    void theAppHoldsALeaseAroundAProviderThatTakesNone() throws Exception {
        final DeviceGraph dg = place("solo");
        final CountDownLatch inside = new CountDownLatch(1);
        final CountDownLatch closeTried = new CountDownLatch(1);
        final GraphAlgorithms leaseless = new dev.overlap.graph.app.BfsOnly("solo") {
            @Override
            public String mode() {
                return "leaseless";
            }

            @Override
            public AppResult bfs(final DeviceGraph g, final int source, final AppSettings settings) {
                holdUntil(inside, closeTried);
                // the graph is still placed: read it as a kernel would
                final int[] depths = new int[g.partition().vertexCount()];
                java.util.Arrays.fill(depths, -1);
                depths[source] = 0;
                assertEquals(grid.degree(0), g.offsets(0).get(1) - g.offsets(0).get(0));
                return AppResult.bfs(depths, 1, new dev.overlap.graph.app.WorkCounts(1, 1, 1, 0, 0, 0, 0, 0, 0));
            }
        };
        final AtomicReference<Throwable> ended = new AtomicReference<>();
        final Thread runner = new Thread(() -> {
            try {
                GraphApp.BFS.run(leaseless, dg, dg.summary(), 0, AppSettings.defaults());
            } catch (final Throwable t) {
                ended.set(t);
            }
        }, "leaseless-runner");
        runner.start();
        assertTrue(inside.await(60, TimeUnit.SECONDS), "the provider was called");
        final IllegalStateException refused = assertThrows(IllegalStateException.class, dg::close);
        assertEquals(dg + " is in use by 1 run(s): close it after they return (nothing was freed)",
            refused.getMessage());
        closeTried.countDown();
        runner.join();
        assertNull(ended.get(), "the provider ran to the end on a placed graph");
        dg.close();
        assertEquals(0, dg.runsInFlight());
    }
}
