package dev.overlap.graph.app;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The direction rule of the level-synchronous BFS modes, case by case (n = 1800, so n / beta = 100). */
class DirectionRuleTest {
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
}
