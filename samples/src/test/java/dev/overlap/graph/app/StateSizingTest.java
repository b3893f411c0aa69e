package dev.overlap.graph.app;

import dev.overlap.graph.GraphSummary;
import dev.overlap.graph.Progress;
import dev.overlap.graph.gen.GraphSpec;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The devices' memory is sized for the app that runs, not for the largest app's state (it is zeroed, so resident,
 * from the mesh's start): never more than the any-app size, less for the apps whose state is smaller. That the runs
 * fit in what is sized is what every test that measures an app on a runner shows.
 */
class StateSizingTest {
    @Test
    void eachAppGetsItsOwnStateAndNoMoreThanAnyApp() {
        final GraphSummary kron = GraphSummary.of(GraphSpec.parse("kron:12").build(1, false, Progress.none()));
        final GraphSummary grid = GraphSummary.of(GraphSpec.parse("grid:64x64").build(1, false, Progress.none()));
        final int owned = kron.vertexCount() / 2;
        for (final String mode : new String[] {"bsp", "async"}) {
            final GraphAlgorithms a = Algorithms.forMode(mode);
            for (final GraphSummary g : new GraphSummary[] {kron, grid}) {
                final AppSettings s = AppSettings.defaults();
                final long any = a.stateBytesPerDevice(g.vertexCount(), owned, 2, 1, s);
                long largest = 0;
                for (final GraphApp app : GraphApp.values()) {
                    final long one = a.stateBytesPerDevice(app, g, owned, 2, 1, s);
                    assertTrue(one > 0 && one <= any, mode + " " + app + ": " + one + " of " + any);
                    largest = Math.max(largest, one);
                }
                assertTrue(a.stateBytesPerDevice(GraphApp.BFS, g, owned, 2, 1, s)
                    < a.stateBytesPerDevice(GraphApp.PAGERANK, g, owned, 2, 1, s), mode + ": BFS needs less than PR");
                if (mode.equals("bsp")) {
                    assertEquals(any, largest, "bsp: the any-app size is the largest app's");
                }
            }
        }
        final GraphAlgorithms solo = Algorithms.forMode("solo");
        assertEquals(0, solo.stateBytesPerDevice(GraphApp.PAGERANK, kron, kron.vertexCount(), 1, 1,
            AppSettings.defaults()), "solo's state lives on the heap");
    }
}
