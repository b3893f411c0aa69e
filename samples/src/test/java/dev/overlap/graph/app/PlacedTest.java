package dev.overlap.graph.app;

import dev.overlap.graph.CsrGraph;
import dev.overlap.graph.Progress;
import dev.overlap.graph.gen.GraphSpec;
import dev.overlap.graph.partition.DeviceGraph;
import dev.overlap.graph.ref.SequentialBfs;
import dev.overlap.graph.ref.Verification;
import org.junit.jupiter.api.Test;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link AppRunner#place}: a graph placed once answers many runs (BFS from many sources) in every mode, each answer
 * the sequential reference's; a wrong source, a run after the close, and a close during a run are refused with a
 * clear exception, and nothing is freed under a run.
 */
class PlacedTest {
    private static final CsrGraph GRID = GraphSpec.parse("grid:30x20").build(1, false, Progress.none());

    @Test
    void onePlacementAnswersRunsFromManySourcesInEveryMode() {
        for (final String mode : new String[] {"bsp", "async", "solo", "coop"}) {
            final AppRunner runner = AppRunner.builder().devices(2).threadsPerDevice(1).build();
            try (AppRunner.Placed placed = runner.place(HostGraph.of(GRID), GraphApp.BFS, Algorithms.forMode(mode),
                AppSettings.defaults())) {
                for (final int source : new int[] {0, 17, 599, 301}) {
                    final Verification v = Verification.depths(SequentialBfs.depths(GRID, source),
                        placed.run(source).depths());
                    assertTrue(v.passed(), mode + " from " + source + ": " + v.detail());
                }
                assertEquals(GRID.vertexCount(), placed.graph().vertexCount());
                final IllegalArgumentException wrong = assertThrows(IllegalArgumentException.class,
                    () -> placed.run(600));
                assertEquals("source 600 is outside 0..599", wrong.getMessage());
            }
        }
    }

    @Test
    void aSourceOutsideTheGraphNeverReachesTheProvider() {
        final int[] calls = {0};
        final GraphAlgorithms counting = new BfsOnly("solo") { // a third-party provider that checks nothing
            @Override
            public AppResult bfs(final DeviceGraph g, final int source, final AppSettings settings) {
                calls[0]++;
                return delegate.bfs(g, Math.floorMod(source, GRID.vertexCount()), settings);
            }
        };
        try (AppRunner.Placed placed = AppRunner.builder().build().place(HostGraph.of(GRID), GraphApp.BFS, counting,
            AppSettings.defaults())) {
            for (final int wrong : new int[] {-1, 600, Integer.MAX_VALUE}) {
                final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> placed.run(wrong));
                assertEquals("source " + wrong + " is outside 0..599", e.getMessage());
            }
            assertEquals(0, calls[0], "no call reached the provider");
            placed.run(3);
            assertEquals(1, calls[0]);
        }
    }

    @Test
    void aRunAfterTheCloseIsRefusedAndASecondCloseDoesNothing() {
        final AppRunner.Placed placed = AppRunner.builder().build().place(HostGraph.of(GRID), GraphApp.BFS,
            Algorithms.forMode("solo"), AppSettings.defaults());
        assertEquals(1, placed.devices());
        placed.close();
        placed.close();
        assertThrows(IllegalStateException.class, () -> placed.run(0));
    }

    @Test
    void aCloseDuringARunIsRefusedAndFreesNothing() throws Exception {
        final CountDownLatch inside = new CountDownLatch(1);
        final CountDownLatch closeTried = new CountDownLatch(1);
        // coop: its runs launch kernels on the mesh's workers, which a mesh closed under them would refuse
        final GraphAlgorithms waiting = new BfsOnly("coop") {
            @Override
            public AppResult bfs(final DeviceGraph g, final int source, final AppSettings settings) {
                holdUntil(inside, closeTried);
                return delegate.bfs(g, source, settings); // the graph and the mesh are still there: the run uses both
            }
        };
        final AppRunner.Placed placed = AppRunner.builder().build().place(HostGraph.of(GRID), GraphApp.BFS, waiting,
            AppSettings.defaults());
        final AtomicReference<Object> outcome = new AtomicReference<>();
        final Thread run = new Thread(() -> {
            try {
                outcome.set(placed.run(5));
            } catch (final Throwable t) {
                outcome.set(t);
            }
        }, "placed-run");
        run.start();
        assertTrue(inside.await(60, TimeUnit.SECONDS), "the run started");
        assertThrows(IllegalStateException.class, placed::close);
        closeTried.countDown();
        run.join();
        assertTrue(outcome.get() instanceof AppResult, "the run ended with its answer: " + outcome.get());
        assertTrue(Verification.depths(SequentialBfs.depths(GRID, 5), ((AppResult)outcome.get()).depths()).passed());
        assertEquals(0, placed.run(0).depths()[0], "the mesh and its workers outlived the refused close");
        placed.close();
        assertThrows(IllegalStateException.class, () -> placed.run(0));
    }
}
