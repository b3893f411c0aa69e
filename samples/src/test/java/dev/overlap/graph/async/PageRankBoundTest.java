package dev.overlap.graph.async;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The stopping rule both async PageRank variants share. */
class PageRankBoundTest {
    @Test
    void theBoundIsTwiceTheSpreadOverTheDampedRankSum() {
        assertEquals(2 * 0.01 / (0.15 * 0.8), PageRankBound.bound(0.8, 0.01, 0.85), 1e-12);
        assertEquals(0, PageRankBound.bound(1, 0, 0.85));
        assertEquals(Double.POSITIVE_INFINITY, PageRankBound.bound(0, 0.01, 0.85));
    }

    @Test
    void theThresholdFallsInProportionToTheMissButAlwaysAndNeverByMoreThan64() {
        // a bound twice the tolerance: 0.8 * 1/2 of the threshold
        assertEquals(0.4, PageRankBound.lowered(1, 1e-4, 2e-4), 1e-12);
        // just above the tolerance: by the margin
        assertEquals(0.8 / 1.01, PageRankBound.lowered(1, 1e-4, 1.01e-4), 1e-12);
        // whatever the bound, by 10 % at least
        assertEquals(0.9, PageRankBound.lowered(1, 1e-4, 0.5e-4), 1e-12);
        // a bound far off lowers it by 64 at most
        assertEquals(1.0 / 64, PageRankBound.lowered(1, 1e-4, 1), 1e-12);
        assertEquals(1.0 / 64, PageRankBound.lowered(1, 1e-4, Double.POSITIVE_INFINITY), 1e-12);
    }

    @Test
    void aRunThatDoesNotConvergeSaysHowFarItGot() {
        final String m = PageRankBound.notConverged("async PageRank", 0.5, 64, 1e-9, 1e-4).getMessage();
        assertEquals("async PageRank: the L1 error bound is still 0.5 after 64 passes (threshold 1.0E-9); tolerance "
            + "1.0E-4", m);
        assertTrue(PageRankBound.MAX_PASSES >= 16);
    }
}
