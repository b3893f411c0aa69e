package dev.overlap.graph.cli;

import dev.overlap.graph.app.AppSettings;
import dev.overlap.transport.AggregatorConfig;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The command line's remote-send options become the transport's {@link AggregatorConfig} at the edge. */
class ModeOptionsTest {
    @Test
    void batchBytesZeroIsTheCommandLinesSpellingOfEager() {
        assertTrue(ModeOptions.remote(0, 64).isEager());
        assertTrue(ModeOptions.remote(0, 0).isEager());
    }

    @Test
    void aBatchSizeAndWaitBecomeABatchedConfiguration() {
        final AggregatorConfig c = ModeOptions.remote(4096, 32);
        assertFalse(c.isEager());
        assertEquals(4096, c.batchBytes());
        assertEquals(32, c.waitPolls());
        assertEquals(1, ModeOptions.remote(16, 0).waitPolls(), "--wait 0 flushes at the first poll");
        assertEquals(AppSettings.MAX_BATCH_BYTES, ModeOptions.remote(AppSettings.MAX_BATCH_BYTES, 1).batchBytes());
    }

    @Test
    void valuesOutsideTheOptionsRangesAreRefusedNamingTheRange() {
        for (final int bytes : new int[] {1, 15, -1, AppSettings.MAX_BATCH_BYTES + 1}) {
            assertEquals("batch bytes must be 0 (eager) or in 16.." + AppSettings.MAX_BATCH_BYTES + ", was " + bytes,
                assertThrows(IllegalArgumentException.class, () -> ModeOptions.remote(bytes, 1)).getMessage());
        }
        assertEquals("wait must be >= 0, was -1",
            assertThrows(IllegalArgumentException.class, () -> ModeOptions.remote(4096, -1)).getMessage());
    }
}
