package dev.overlap.graph.app;

import java.util.Arrays;

/**
 * The buckets of delta-stepping SSSP (Meyer and Sanders), as every mode that runs it keeps them: a ring of growable
 * int arrays, one slot per bucket of distance width {@code 1 << shift}, holding the vertices filed there.
 *
 * <p><b>Why a ring.</b> A relaxation from bucket {@code b} lands at most {@code maxWeight / width + 1} buckets ahead,
 * so a ring of {@link #slotsFor} slots (at least {@code maxWeight / width + 2}, a power of two so that a slot is a
 * mask) never folds two live buckets onto one slot, provided the caller files only in buckets from the one it is
 * emptying up to {@code slots - 1} ahead of it. The width is a power of two ({@link #widthShift}), so a distance's
 * bucket is a shift, not a 64-bit division per improvement.
 *
 * <p><b>No allocation per vertex.</b> The arrays grow by doubling; {@link #take} hands a bucket's array out and puts
 * a spare in its slot, and {@link #giveBack} returns it as a spare once its entries are relaxed, so a run in its
 * steady state allocates nothing (two spares: a bucket handed out for a round and one taken again meanwhile).
 *
 * <p>Thread-safety: none; a ring belongs to one thread at a time (a worker while it files, the host or the worker
 * itself between rounds), handed over by whatever orders the rounds (a join, a barrier).
 */
public final class BucketRing {
    /** The most slots a ring may need; the width is raised beyond it ({@link #widthShift}). */
    public static final int MAX_SLOTS = 1 << 16;
    private static final int FIRST = 64;

    private final int mask;
    private final int[][] slots;
    private final int[] sizes;
    private int[] spare;
    private int[] secondSpare;
    private long pending;

    /**
     * @param slots the ring's slots, a power of two ({@link #slotsFor})
     * @throws IllegalArgumentException if {@code slots} is not a power of two or exceeds {@link #MAX_SLOTS}
     */
    public BucketRing(final int slots) {
        if (slots < 1 || slots > MAX_SLOTS || Integer.bitCount(slots) != 1) {
            throw new IllegalArgumentException("slots must be a power of two in 1.." + MAX_SLOTS + ", was " + slots);
        }
        this.mask = slots - 1;
        this.slots = new int[slots][];
        this.sizes = new int[slots];
    }

    /**
     * @param chosen    the width asked for ({@link AppSettings#deltaFor})
     * @param maxWeight the largest edge weight
     * @return the bucket width as a shift ({@code 1 << shift}): the largest power of two at most {@code chosen}, or
     *         the least one wide enough for a ring for weights up to {@code maxWeight} to need at most
     *         {@value #MAX_SLOTS} slots, whichever is larger
     */
    public static int widthShift(final int chosen, final int maxWeight) {
        final long least = ((long)maxWeight + MAX_SLOTS - 3) / (MAX_SLOTS - 2); // slotsFor(maxWeight, w) <= MAX_SLOTS
        final long down = Long.highestOneBit(Math.max(1, chosen));
        return Long.numberOfTrailingZeros(down >= least ? down : powerOfTwoAtLeast(least));
    }

    /**
     * @return the slots of a ring of buckets of width {@code 1 << shift} for weights up to {@code maxWeight}: a power
     *         of two, at least {@code (maxWeight >> shift) + 2}
     */
    public static int slotsFor(final int maxWeight, final int shift) {
        return (int)powerOfTwoAtLeast(((long)maxWeight >> shift) + 2);
    }

    /** @return the least power of two {@code >= x}, for {@code 1 <= x <= 2^62} */
    private static long powerOfTwoAtLeast(final long x) {
        return Long.highestOneBit(x) == x ? x : Long.highestOneBit(x) << 1;
    }

    /** Files vertex {@code v} in bucket {@code bucket}. */
    public void add(final int v, final long bucket) {
        final int slot = (int)bucket & mask;
        int[] items = slots[slot];
        final int size = sizes[slot];
        if (items == null || size == items.length) {
            items = slots[slot] = items == null ? new int[FIRST] : Arrays.copyOf(items, size * 2);
        }
        items[size] = v;
        sizes[slot] = size + 1;
        pending++;
    }

    /** @return the entries filed in bucket {@code bucket} and not taken */
    public int size(final long bucket) {
        return sizes[(int)bucket & mask];
    }

    /** @return the entries filed and not taken, over every bucket */
    public long pending() {
        return pending;
    }

    /**
     * Empties bucket {@code bucket}: its entries are the first {@link #size} of the returned array (read the size
     * before). Entries filed in the bucket afterwards go to a spare array. Hand the array back with {@link #giveBack}
     * once its entries are used.
     *
     * @return the bucket's array (never null; empty when nothing was filed)
     */
    public int[] take(final long bucket) {
        final int slot = (int)bucket & mask;
        final int[] items = slots[slot] != null ? slots[slot] : new int[FIRST];
        pending -= sizes[slot];
        slots[slot] = spare;
        sizes[slot] = 0;
        spare = secondSpare;
        secondSpare = null;
        return items;
    }

    /** Returns an array {@link #take} handed out, once nobody reads its entries, as a spare. */
    public void giveBack(final int[] items) {
        if (spare == null) {
            spare = items;
        } else if (secondSpare == null) {
            secondSpare = items;
        }
    }

    /**
     * @param from a bucket at or below every bucket with entries
     * @return the lowest bucket in {@code [from, from + slots)} with entries, or {@link Long#MAX_VALUE} if the ring
     *         is empty
     */
    public long lowest(final long from) {
        for (int k = 0; k <= mask; k++) {
            if (sizes[(int)(from + k) & mask] > 0) {
                return from + k;
            }
        }
        return Long.MAX_VALUE;
    }
}
