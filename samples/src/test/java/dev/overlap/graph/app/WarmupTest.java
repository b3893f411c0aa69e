package dev.overlap.graph.app;

import dev.overlap.core.WorldConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A warm-up makes its runs, and more until its time floor; the clock is a counter, never the wall clock. */
class WarmupTest {
    /** A clock that moves {@code step} nanoseconds each time a run runs, and not otherwise. */
    private static final class StepClock {
        long now;
        final long step;

        StepClock(final long step) {
            this.step = step;
        }

        void run() {
            now += step;
        }
    }

    @Test
    void withoutAFloorItMakesExactlyItsRuns() {
        final StepClock c = new StepClock(1);
        assertEquals(7, Warmup.ofRuns(7).perform(c::run, () -> c.now));
        assertEquals(7, c.now);
        assertEquals(0, Warmup.ofRuns(0).perform(c::run, () -> c.now));
    }

    @Test
    void aFloorLongerThanTheRunsAddsRunsUntilItIsReached() {
        final StepClock c = new StepClock(2_000_000); // each run lasts 2 ms
        assertEquals(5, new Warmup(2, 9).perform(c::run, () -> c.now), "2 runs, then 4 ms < 9 ms: 5 runs (10 ms)");
        final StepClock none = new StepClock(2_000_000);
        assertEquals(3, new Warmup(0, 5).perform(none::run, () -> none.now), "a floor alone: 6 ms >= 5 ms");
    }

    @Test
    void runsThatFillTheFloorAreNotExtended() {
        final StepClock c = new StepClock(100_000_000); // 100 ms each
        assertEquals(10, new Warmup(10, 500).perform(c::run, () -> c.now));
    }

    @Test
    void acrossProcessesATimeFloorIsRefusedNamingWhy(@TempDir final Path dir) {
        final AppRunner.Builder b = AppRunner.builder().warmups(2).warmupMillis(300)
            .world(WorldConfig.sharedMemory(dir.resolve("job"), 2, 0).build());
        final String m = assertThrows(IllegalArgumentException.class, b::build).getMessage();
        assertTrue(m.startsWith("a warm-up time floor (300 ms) would end after different runs in different processes"),
            m);
        assertEquals(Warmup.ofRuns(2), b.warmupMillis(0).build().warmup(), "runs alone are the same on every rank");
    }

    @Test
    void moreSaysWhetherARunIsDue() {
        final Warmup w = new Warmup(3, 1);
        assertTrue(w.more(2, 5_000_000));
        assertTrue(w.more(3, 999_999), "the runs made, not yet the floor");
        assertFalse(w.more(3, 1_000_000));
        assertFalse(Warmup.ofRuns(3).more(3, 0));
    }

    @Test
    void rangesAreCheckedAndTheReportsSayBoth() {
        assertEquals("warm-up runs must be in 0..1000, was -1",
            assertThrows(IllegalArgumentException.class, () -> new Warmup(-1, 0)).getMessage());
        assertEquals("warm-up time must be in 0..600000 ms, was 600001",
            assertThrows(IllegalArgumentException.class, () -> new Warmup(1, 600_001)).getMessage());
        assertThrows(IllegalArgumentException.class, () -> AppRunner.builder().warmupMillis(-1));
        assertEquals("10 warm-up runs (0.5 s at least)", new Warmup(10, 500).describe());
        assertEquals("1 warm-up run", Warmup.ofRuns(1).describe());
        assertEquals("0 warm-up runs (2 s at least)", new Warmup(0, 2000).describe());
        assertEquals(new Warmup(4, 250), AppRunner.builder().warmups(4).warmupMillis(250).build().warmup());
    }
}
