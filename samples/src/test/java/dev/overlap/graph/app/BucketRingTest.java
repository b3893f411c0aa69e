package dev.overlap.graph.app;

import org.junit.jupiter.api.Test;

import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The ring of delta-stepping buckets that solo, coop and bsp SSSP share: its width, its slots, its arrays. */
class BucketRingTest {
    /**
     * The bucket width is the chosen delta rounded down to a power of two, unless the ring of buckets would then
     * need more than {@code MAX_SLOTS} slots; the ring is a power of two with room for the largest weight.
     */
    @Test
    void theBucketWidthIsAPowerOfTwoAndTheRingHoldsTheLargestWeight() {
        assertEquals(0, BucketRing.widthShift(1, 255));
        assertEquals(2, BucketRing.widthShift(5, 255), "5 -> 4");
        assertEquals(4, BucketRing.widthShift(25, 100), "25 -> 16");
        assertEquals(4, BucketRing.widthShift(16, 100));
        assertEquals(8, BucketRing.slotsFor(100, 4), "100 / 16 + 2 = 8");
        assertEquals(32, BucketRing.slotsFor(255, 4), "255 / 16 + 2 = 17 -> 32");
    }

    @Test
    void everyRingFitsItsWeightsAndTheLimit() {
        final int[] weights = {0, 1, 2, 3, 100, 255, 65_533, 65_534, 65_535, 1 << 20, Integer.MAX_VALUE - 1,
            Integer.MAX_VALUE};
        for (final int chosen : new int[] {1, 2, 3, 25, 256, 1 << 24}) {
            for (final int maxWeight : weights) {
                final int shift = BucketRing.widthShift(chosen, maxWeight);
                final int ring = BucketRing.slotsFor(maxWeight, shift);
                final String what = "delta " + chosen + ", max weight " + maxWeight + ": shift " + shift + ", ring "
                    + ring;
                final long width = 1L << shift;
                if (width <= chosen) {
                    assertTrue(2 * width > chosen, what + ": the largest power of two at most delta");
                } else {
                    assertTrue(((long)maxWeight >> (shift - 1)) + 2 > BucketRing.MAX_SLOTS,
                        what + ": wider than delta only when half the width would overfill the ring");
                }
                assertTrue(Integer.bitCount(ring) == 1, what + ": a power of two");
                assertTrue(ring >= ((long)maxWeight >> shift) + 2, what + ": room for the largest weight");
                assertTrue(ring <= BucketRing.MAX_SLOTS, what + ": within the limit");
                new BucketRing(ring); // accepted
            }
        }
    }

    @Test
    void aRingThatIsNotAPowerOfTwoIsRefused() {
        for (final int slots : new int[] {0, -4, 3, 12, BucketRing.MAX_SLOTS * 2}) {
            final IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new BucketRing(slots));
            assertTrue(e.getMessage().contains("was " + slots), e.getMessage());
        }
    }

    @Test
    void entriesStayInTheirBucketsAndGrowPastTheFirstArray() {
        final BucketRing ring = new BucketRing(8);
        for (int v = 0; v < 200; v++) {
            ring.add(v, 10 + v % 3);
        }
        assertEquals(200, ring.pending());
        assertEquals(67, ring.size(10));
        assertEquals(67, ring.size(11));
        assertEquals(66, ring.size(12));
        assertEquals(10, ring.lowest(10));
        assertEquals(10, ring.lowest(5), "from below: the first bucket with entries");
        final int[] ten = ring.take(10);
        final int[] expected = new int[67];
        for (int i = 0; i < 67; i++) {
            expected[i] = 3 * i;
        }
        assertArrayEquals(expected, Arrays.copyOf(ten, 67));
        assertEquals(0, ring.size(10));
        assertEquals(133, ring.pending());
        assertEquals(11, ring.lowest(10));
        assertEquals(11, ring.lowest(11));
    }

    @Test
    void bucketsAWholeRingApartShareASlotSoTheLowestIsFromTheCallersBucket() {
        final BucketRing ring = new BucketRing(4);
        ring.add(7, 9); // slot 1
        assertEquals(9, ring.lowest(6));
        assertEquals(9, ring.lowest(9));
        assertEquals(13, ring.lowest(10), "the caller promises nothing lies below 'from': slot 1 is read as 13");
        ring.take(9);
        assertEquals(Long.MAX_VALUE, ring.lowest(9));
        assertEquals(0, ring.pending());
    }

    @Test
    void takenArraysComeBackAsSparesSoASteadyRunAllocatesNothing() {
        final BucketRing ring = new BucketRing(4);
        ring.add(1, 0);
        final int[] first = ring.take(0);
        assertEquals(1, first[0]);
        ring.add(2, 0); // filed while the first array is out: a new array
        final int[] second = ring.take(0);
        assertNotSame(first, second);
        assertEquals(2, second[0]);
        ring.giveBack(first);
        ring.giveBack(second);
        ring.add(3, 1);
        final int[] third = ring.take(1); // slot 1's own array goes out; the slot gets the first spare
        assertEquals(3, third[0]);
        ring.add(4, 1);
        assertSame(first, ring.take(1), "filed into the array given back first");
        ring.add(5, 1);
        assertSame(second, ring.take(1), "then into the second");
        final int[] empty = ring.take(3);
        assertEquals(0, ring.size(3));
        assertTrue(empty.length > 0, "an empty bucket still hands out an array to give back");
    }
}
