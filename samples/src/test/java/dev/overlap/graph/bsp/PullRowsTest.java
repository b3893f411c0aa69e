package dev.overlap.graph.bsp;

import dev.overlap.core.Device;
import dev.overlap.core.DoubleArray;
import dev.overlap.core.IntArray;
import dev.overlap.core.LongArray;
import dev.overlap.core.Mesh;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The row kernel reads at raw addresses: every index it would derive is checked before a block runs. */
class PullRowsTest {
    private static Mesh mesh;
    private static Device dev;

    @BeforeAll
    static void mesh() {
        mesh = Mesh.builder().name("pullrows").devices(1).threadsPerDevice(1).memoryPerDevice(1 << 20).build();
        dev = mesh.device(0);
    }

    @AfterAll
    static void close() {
        mesh.close();
    }

    /** Rows 0..2 with in-edges {1, 2}, {0}, {} (ids below 3). */
    private static LongArray offsets() {
        final LongArray off = dev.allocateLongs(4);
        off.set(0, 0);
        off.set(1, 2);
        off.set(2, 3);
        off.set(3, 3);
        return off;
    }

    private static IntArray targets(final int... ids) {
        final IntArray t = dev.allocateInts(ids.length);
        for (int i = 0; i < ids.length; i++) {
            t.set(i, ids[i]);
        }
        return t;
    }

    @Test
    void oneBlockGathersTheContributions() {
        final DoubleArray ranks = dev.allocateDoubles(3);
        final IntArray deg = targets(1, 0, 2);
        final PullRows rows = new PullRows(offsets(), targets(1, 2, 0), ranks, 0, deg, 3);
        final DoubleArray c = dev.allocateDoubles(3);
        c.set(0, 0.5);
        c.set(1, 0.25);
        c.set(2, 0.125);
        final DoubleArray next = dev.allocateDoubles(5);
        final DoubleArray partials = dev.allocateDoubles(2);
        rows.block(0, c, next, 2, partials, 0, 0.1, 0.5);
        assertEquals(0.1 + 0.5 * 0.375, ranks.get(0));
        assertEquals(0.1 + 0.5 * 0.5, ranks.get(1));
        assertEquals(0.1, ranks.get(2));
        assertEquals(ranks.get(0), next.get(2));
        assertEquals(0.0, next.get(3), "a dangling row contributes nothing");
        assertEquals(0.05, next.get(4));
        assertEquals(ranks.get(0) + ranks.get(1) + ranks.get(2), partials.get(0), 1e-15);
        assertEquals(ranks.get(1), partials.get(1));
    }

    @Test
    void arraysTooShortForTheRowsAreRefused() {
        final IntArray deg = targets(1, 1, 1);
        final DoubleArray ranks = dev.allocateDoubles(3);
        final IntArray t = targets(1, 2, 0);
        assertThrows(IllegalArgumentException.class, () -> new PullRows(offsets(), t, ranks, 1, deg, 3));
        assertThrows(IllegalArgumentException.class, () -> new PullRows(offsets(), t, ranks, 0, targets(1, 1), 3));
        assertThrows(IllegalArgumentException.class, () -> new PullRows(offsets(), t, ranks, 0, deg, 4));
        assertThrows(IllegalArgumentException.class, () -> new PullRows(offsets(), targets(1, 2), ranks, 0, deg, 3),
            "offsets beyond the targets");
        final LongArray falling = offsets();
        falling.set(1, 3);
        falling.set(2, 1);
        assertThrows(IllegalArgumentException.class, () -> new PullRows(falling, t, ranks, 0, deg, 3));
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> new PullRows(offsets(), targets(1, -2, 0), ranks, 0, deg, 3));
        assertTrue(e.getMessage().contains("negative"), e.getMessage());
    }

    @Test
    void vectorsShorterThanTheIdsOrRowsAreRefusedBeforeAnyWrite() {
        final DoubleArray ranks = dev.allocateDoubles(3);
        final PullRows rows = new PullRows(offsets(), targets(1, 2, 7), ranks, 0, targets(1, 1, 1), 3);
        final DoubleArray partials = dev.allocateDoubles(2);
        final DoubleArray eight = dev.allocateDoubles(8);
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> rows.block(0, dev.allocateDoubles(7), eight, 0, partials, 0, 0.1, 0.5));
        assertTrue(e.getMessage().contains("ids below 8"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> rows.block(0, eight, eight, 6, partials, 0, 0.1, 0.5));
        assertThrows(IllegalArgumentException.class, () -> rows.block(0, eight, eight, -1, partials, 0, 0.1, 0.5));
        assertEquals(0.0, ranks.get(0), "nothing written");
        rows.block(0, eight, eight, 5, partials, 0, 0.1, 0.5);
        assertEquals(0.1, ranks.get(2));
    }

    /** Float contributions: the same rows from float bits, the next contributions rounded to float. */
    @Test
    void floatContributionsGatherAndStoreFloats() {
        final DoubleArray ranks = dev.allocateDoubles(3);
        final PullRows rows = new PullRows(offsets(), targets(1, 2, 0), ranks, 0, targets(3, 0, 2), 3);
        final IntArray c = dev.allocateInts(3);
        PullRows.setContribution(c, 0, 0.5);
        PullRows.setContribution(c, 1, 0.25);
        PullRows.setContribution(c, 2, 0.1);
        assertEquals(0.1f, Float.intBitsToFloat(c.get(2)));
        final IntArray next = dev.allocateInts(3);
        final DoubleArray partials = dev.allocateDoubles(2);
        rows.block(0, c, next, 0, partials, 0, 0.1, 0.5);
        assertEquals(0.1 + 0.5 * (0.25 + (double)0.1f), ranks.get(0));
        assertEquals((float)(ranks.get(0) / 3), Float.intBitsToFloat(next.get(0)));
        assertEquals(0f, Float.intBitsToFloat(next.get(1)));
        assertEquals(ranks.get(1), partials.get(1));
        assertThrows(IllegalArgumentException.class, () -> rows.block(0, c, dev.allocateDoubles(3), 0, partials, 0,
            0.1, 0.5), "mixed precisions");
        assertThrows(IllegalArgumentException.class, () -> rows.block(0, dev.allocateLongs(3), dev.allocateLongs(3),
            0, partials, 0, 0.1, 0.5), "longs are no contributions");
    }

    /** Float is chosen only when its rounding term is at most a sixteenth of the tolerance. */
    @Test
    void floatFitsOnlyTolerancesWellAboveTheRounding() {
        final double term = PullRows.FLOAT_ROUNDING * 0.85 / 0.15;
        assertTrue(PullRows.floatFits(0.85, 16 * term));
        assertTrue(!PullRows.floatFits(0.85, 15 * term));
        assertTrue(PullRows.floatFits(0.85, 1e-4));
        assertTrue(!PullRows.floatFits(0.85, 1e-6));
    }
}
