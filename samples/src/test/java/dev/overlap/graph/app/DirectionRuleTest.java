package dev.overlap.graph.app;

import dev.overlap.core.Mesh;
import dev.overlap.graph.CsrGraph;
import dev.overlap.graph.Progress;
import dev.overlap.graph.gen.GraphSpec;
import dev.overlap.graph.partition.DeviceGraph;
import dev.overlap.graph.partition.Partition;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The direction rule of the level-synchronous BFS modes, case by case (n = 1800, so n / beta = 100). */
public class DirectionRuleTest {
    private static final long N = 1800;

    @Test
    void aFrontierWithManyEdgesGoesBottomUpWhenLargeOrGrowing() {
        assertTrue(DirectionRule.bottomUp(false, N, 100, 500, 1000, 14_000), "large, shrinking");
        assertTrue(DirectionRule.bottomUp(false, N, 20, 10, 1000, 14_000), "small, growing");
        assertFalse(DirectionRule.bottomUp(false, N, 100, 500, 1000, 15_000), "edges not above unexplored / alpha");
    }

    /** The shrinking tail of a long-diameter BFS: few edges left, tiny frontiers. */
    @Test
    void aSmallFrontierThatDoesNotGrowStaysTopDown() {
        assertFalse(DirectionRule.bottomUp(false, N, 31, 33, 120, 200), "small and shrinking");
        assertFalse(DirectionRule.bottomUp(false, N, 31, 31, 120, 200), "small and steady");
    }

    @Test
    void bottomUpEndsWhenTheFrontierIsSmallAndShrinking() {
        assertFalse(DirectionRule.bottomUp(true, N, 99, 100, 0, 0));
        assertTrue(DirectionRule.bottomUp(true, N, 99, 99, 0, 0), "small but not shrinking");
        assertTrue(DirectionRule.bottomUp(true, N, 100, 900, 0, 0), "shrinking but not small");
    }

    /**
     * The shrinking tail of a grid's BFS has few unexplored edges but tiny frontiers: no bottom-up step there (each
     * scans every vertex), so a direction-optimizing run of {@code algorithms} scans exactly the edges top-down does.
     * For the level-synchronous modes' tests (bsp, coop), from a corner and from the middle.
     */
    public static void assertAGridsShrinkingTailStaysTopDown(final GraphAlgorithms algorithms, final Mesh mesh,
        final int devices) {
        final CsrGraph g = GraphSpec.parse("grid:64x64").build(1, false, Progress.none());
        try (DeviceGraph dg = DeviceGraph.place(mesh, g, Partition.byEdges(g, devices), false)) {
            for (final int source : new int[] {0, 2080}) {
                final AppResult td = algorithms.bfs(dg, source, AppSettings.builder()
                    .direction(AppSettings.Direction.TOP_DOWN).build());
                final AppResult opt = algorithms.bfs(dg, source, AppSettings.defaults());
                assertEquals(td.counts().edgesScanned(), opt.counts().edgesScanned(), "from " + source);
            }
        }
    }
}
