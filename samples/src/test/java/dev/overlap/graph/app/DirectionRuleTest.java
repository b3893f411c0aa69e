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

    /** The tail of a road network: a few dozen vertices that grow as often as they shrink, and fewer edges than n / beta. */
    @Test
    void aFrontierWithFewerEdgesThanOneInBetaVerticesStaysTopDownEvenGrowing() {
        assertFalse(DirectionRule.bottomUp(false, N, 4, 3, 7, 39), "growing, edges above unexplored / alpha, 7 < 100");
        assertFalse(DirectionRule.bottomUp(false, N, 53, 45, 99, 1450), "99 < 100");
        assertTrue(DirectionRule.bottomUp(false, N, 53, 45, 100, 1450), "100 edges: as many as n / beta");
    }

    /** A frontier whose edges, at most its vertices times the largest degree, are fewer than n / beta: top-down. */
    @Test
    void aFrontierThatCannotHaveNOverBetaEdgesCannotGoBottomUp() {
        assertTrue(DirectionRule.mayGoBottomUp(N, 25, 4), "up to 100 edges: as many as n / beta");
        assertFalse(DirectionRule.mayGoBottomUp(N, 24, 4), "up to 96");
        assertTrue(DirectionRule.mayGoBottomUp(N, 1, 100));
        assertFalse(DirectionRule.mayGoBottomUp(N, 0, 1000));
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
        assertTheTailStaysTopDown(algorithms, mesh, devices, "grid:64x64", 0, 2080);
    }

    /**
     * As {@link #assertAGridsShrinkingTailStaysTopDown} on a road network, whose last levels' frontiers of a few
     * vertices grow as often as they shrink: they have fewer edges than n / beta, so they stay top-down.
     */
    public static void assertARoadsTailStaysTopDown(final GraphAlgorithms algorithms, final Mesh mesh,
        final int devices) {
        assertTheTailStaysTopDown(algorithms, mesh, devices, "road:20000", 0, 10_000);
    }

    private static void assertTheTailStaysTopDown(final GraphAlgorithms algorithms, final Mesh mesh,
        final int devices, final String spec, final int... sources) {
        final CsrGraph g = GraphSpec.parse(spec).build(1, false, Progress.none());
        try (DeviceGraph dg = DeviceGraph.place(mesh, g, Partition.byEdges(g, devices), false)) {
            for (final int source : sources) {
                final AppResult td = algorithms.bfs(dg, source, AppSettings.builder()
                    .direction(AppSettings.Direction.TOP_DOWN).build());
                final AppResult opt = algorithms.bfs(dg, source, AppSettings.defaults());
                assertEquals(td.counts().edgesScanned(), opt.counts().edgesScanned(), spec + " from " + source);
            }
        }
    }
}
