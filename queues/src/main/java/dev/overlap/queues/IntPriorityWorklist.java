package dev.overlap.queues;

import dev.overlap.core.Device;
import dev.overlap.core.DeviceRegion;
import dev.overlap.core.OfferResult;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The Atos priority worklist ({@code DistributedPriorityQueues}, Listing 4) for {@code int} items with {@code int}
 * priorities (lower key = more urgent), in device memory: a <em>near</em> ring for keys below a threshold and a
 * <em>far</em> ring for the rest. When the near ring drains, one popper becomes the mover: it raises the threshold
 * by {@code delta} and makes one pass over the entries far held when the pass began, {@value #MOVE_BATCH} at a
 * time, re-queueing each in near (key below the new threshold) or far (still too large) — Atos' move of a whole
 * band between discrete iterations. A pass that moved nothing raises the threshold to the smallest key it saw, so
 * empty bands are skipped instead of crossed one {@code delta} per pass. (Moving only one batch per raise
 * would let the threshold outrun the keys whenever far holds more than a batch, and the worklist would degrade into
 * FIFO order.) Entries are {@code (key, item)} packed in one {@code long}, so an item keeps its priority through
 * every move. Both rings are {@link LongCounterRing}s ({@link Publication#ORDERED}).
 *
 * <p><b>Guarantees.</b> Nothing is lost, duplicated or invented, including across threshold moves: the far ring
 * has {@value #MOVE_BATCH} slots of headroom that user pushes may not use, so a mover can always re-queue what it
 * took. {@link #poll(long)} reports empty only when, at one instant, both rings were empty and no move was in
 * progress (it waits for a running move, which is bounded work, instead of answering early); so pushes and polls
 * are linearizable against a bag of entries: a poll returns an entry some push added and no poll returned before,
 * and "empty" only when the bag is empty (Lincheck stress, with distinct items, so duplicates and losses show). Order is by priority band, FIFO within a
 * ring; it is not a strict priority queue (as in Atos). {@code push} reports {@link OfferResult#BACK_PRESSURED} when the worklist
 * holds {@code capacity} items in near and far each (back-pressure, never a drop).
 *
 * <p><b>Thread-safety and memory ordering.</b> Any thread may push and poll. A push happens-before the poll that
 * returns its entry; a threshold raise happens-before the pushes that read it. The threshold only grows.
 */
public final class IntPriorityWorklist {
    /** Far entries a mover takes at once (and the far ring's private headroom). */
    public static final int MOVE_BATCH = 64;
    /** {@link #push} put the entry in the near band (its key was below the threshold). */
    public static final int NEAR = 0;
    /** {@link #push} put the entry in the far band (its key was not below the threshold, or near was full). */
    public static final int FAR = 1;
    private static final int THRESHOLD = 0;
    private static final int MOVE_SEQUENCE = 128;
    private static final int RINGS = 256;

    private final AtomicBuffer buffer;
    private final LongCounterRing near;
    private final LongCounterRing far;
    private final int capacity;
    private final int delta;
    /** The mover's scratch: a batch taken from far, and the part of it that goes back. */
    private final long[] moved = new long[MOVE_BATCH];
    private final long[] stay = new long[MOVE_BATCH];
    private final ThreadLocal<long[]> single = ThreadLocal.withInitial(() -> new long[1]);
    /** Its own device memory, null when built over a caller's buffer (see {@link QueueMemory#check}). */
    private final DeviceRegion memory;
    /** Its name in lifetime errors. */
    private final String name;

    /**
     * @param region           at least {@link #requiredBytes(int)} bytes, 8-byte aligned; initialized here
     * @param capacity         entries each of near and far may hold
     * @param initialThreshold keys below it go to near at first
     * @param delta            how much the threshold rises when near drains, >= 1
     */
    public IntPriorityWorklist(final AtomicBuffer region, final int capacity, final int initialThreshold,
        final int delta) {
        this(region, capacity, initialThreshold, delta, null);
    }

    private IntPriorityWorklist(final AtomicBuffer region, final int capacity, final int initialThreshold,
        final int delta, final QueueMemory.Allocation allocation) {
        if (delta < 1) {
            throw new IllegalArgumentException("delta must be >= 1, was " + delta);
        }
        QueueMemory.checkRegion(region, requiredBytes(capacity), "IntPriorityWorklist of " + capacity);
        this.buffer = region;
        this.capacity = capacity;
        this.delta = delta;
        final int nearBytes = align(LongCounterRing.requiredBytes(capacity));
        final int farBytes = align(LongCounterRing.requiredBytes(capacity + MOVE_BATCH));
        this.near = new LongCounterRing(new UnsafeBuffer(region, RINGS, nearBytes), capacity);
        this.far = new LongCounterRing(new UnsafeBuffer(region, RINGS + nearBytes, farBytes), capacity + MOVE_BATCH);
        buffer.putLongVolatile(THRESHOLD, initialThreshold);
        buffer.putLongVolatile(MOVE_SEQUENCE, 0);
        this.memory = QueueMemory.owned(allocation);
        this.name = "IntPriorityWorklist of capacity " + capacity;
    }

    /**
     * Allocates the worklist in {@code device}'s memory; {@link #free()} or closing the mesh returns it.
     *
     * @param device the device whose memory holds the worklist
     * @param capacity entries each of near and far may hold, 1..2^28
     * @param initialThreshold keys below it go to near at first
     * @param delta how much the threshold rises when near drains, >= 1
     * @return the worklist, empty
     */
    public static IntPriorityWorklist allocate(final Device device, final int capacity, final int initialThreshold,
        final int delta) {
        final QueueMemory.Allocation a = QueueMemory.allocate(device, requiredBytes(capacity));
        return new IntPriorityWorklist(a.buffer, capacity, initialThreshold, delta, a);
    }

    /**
     * @param capacity entries each of near and far may hold, 1..2^28
     * @return region bytes for a worklist of {@code capacity} entries per band
     */
    public static int requiredBytes(final int capacity) {
        if (capacity < 1 || capacity > (1 << 28)) {
            throw new IllegalArgumentException("capacity must be in 1.." + (1 << 28) + ", was " + capacity);
        }
        return RINGS + align(LongCounterRing.requiredBytes(capacity))
            + align(LongCounterRing.requiredBytes(capacity + MOVE_BATCH));
    }

    private static int align(final int bytes) {
        return (bytes + 127) & ~127;
    }

    /**
     * @param item the item, in the entry's low 32 bits
     * @param key its priority (lower is more urgent), in the entry's high 32 bits
     * @return the entry packing {@code item} with its {@code key}
     */
    public static long entry(final int item, final int key) {
        return ((long)key << 32) | (item & 0xffffffffL);
    }

    /**
     * @param entry an entry packed by {@link #entry(int, int)}
     * @return the item of an entry
     */
    public static int item(final long entry) {
        return (int)entry;
    }

    /**
     * @param entry an entry packed by {@link #entry(int, int)}
     * @return the priority key of an entry
     */
    public static int key(final long entry) {
        return (int)(entry >> 32);
    }

    /** @return the current threshold (keys below it go to near) */
    public long threshold() {
        QueueMemory.check(memory, name);
        return buffer.getLongVolatile(THRESHOLD);
    }

    /**
     * Pushes {@code item} with priority {@code key}: to near when {@code key < threshold}, else to far (or to far
     * when near is full); never waits for room.
     *
     * @param item the item to push
     * @param key its priority, lower is more urgent
     * @return the band that took it (non-negative: taken), {@link #NEAR} or {@link #FAR}; or
     *         {@link OfferResult#BACK_PRESSURED} when both bands are full, {@link OfferResult#CLOSED} when the
     *         worklist's own memory was freed (nothing pushed; see {@link OfferResult})
     */
    public int push(final int item, final int key) {
        if (QueueMemory.isFreed(memory)) {
            return OfferResult.CLOSED;
        }
        final long e = entry(item, key);
        if (key < buffer.getLongVolatile(THRESHOLD) && near.offer(e) >= 0) {
            return NEAR;
        }
        return far.offerWithin(e, capacity) ? FAR : OfferResult.BACK_PRESSURED;
    }

    /**
     * Pushes {@code entries[0 .. n)} ({@link #entry}s): those below the threshold (read once) to near with one
     * reservation, the others (and what near refuses) to far with one reservation (one by one only when far cannot
     * take them all). Reorders {@code entries} (near candidates first).
     *
     * @param entries the {@link #entry}s to push in {@code [0, n)}; reordered in place
     * @param n how many entries to push, 0..{@code entries.length}
     * @return how many were pushed (non-negative: taken; 0 only for {@code n == 0}): all but the suffix of
     *         {@code entries} (in its new order) from the return value on, which found both bands full; or
     *         {@link OfferResult#BACK_PRESSURED} when not one fits, {@link OfferResult#CLOSED} when the worklist's own
     *         memory was freed (nothing pushed)
     */
    public int pushAll(final long[] entries, final int n) {
        java.util.Objects.checkFromIndexSize(0, n, entries.length);
        if (QueueMemory.isFreed(memory)) {
            return OfferResult.CLOSED;
        }
        final long threshold = buffer.getLongVolatile(THRESHOLD);
        int k = 0;
        for (int i = 0; i < n; i++) {
            final long e = entries[i];
            if (key(e) < threshold) {
                entries[i] = entries[k];
                entries[k++] = e;
            }
        }
        final int i = k == 0 ? 0 : Math.max(0, near.offer(entries, 0, k)); // near's only code: BACK_PRESSURED
        if (i == n || far.offerAllWithin(entries, i, n - i, capacity)) {
            return n;
        }
        // far cannot take the whole rest at once: push what fits one by one, keeping the unpushed ones as a suffix
        int unpushed = i;
        for (int j = i; j < n; j++) {
            if (far.offerWithin(entries[j], capacity)) {
                final long t = entries[unpushed];
                entries[unpushed++] = entries[j];
                entries[j] = t;
            }
        }
        return unpushed > 0 ? unpushed : OfferResult.BACK_PRESSURED;
    }

    /**
     * Pops an entry: from near; when near is empty, moves the next band of far entries first.
     *
     * @param ifEmpty returned when the worklist is empty (choose a value no {@link #entry} of yours can equal)
     * @return the entry ({@link #item}, {@link #key}) or {@code ifEmpty}
     */
    public long poll(final long ifEmpty) {
        QueueMemory.check(memory, name);
        final long[] one = single.get();
        return poll(one, 0, 1) == 1 ? one[0] : ifEmpty;
    }

    /**
     * Pops up to {@code max} entries from near with one reservation; when near is empty, moves the next band of far
     * entries first. Answers 0 under the same rule as {@link #poll(long)}.
     *
     * @param dst receives the entries, not null
     * @param off index in {@code dst} of the first entry written
     * @param max most entries to pop, >= 0; {@code [off, off+max)} must lie in {@code dst}
     * @return how many entries were written to {@code dst[off ..]} (0 when the worklist is empty)
     */
    public int poll(final long[] dst, final int off, final int max) {
        QueueMemory.check(memory, name);
        int spins = 0;
        for (;;) {
            final long move = buffer.getLongVolatile(MOVE_SEQUENCE);
            final int got = near.poll(dst, off, max);
            if (got > 0) {
                return got;
            }
            if ((move & 1) != 0) {
                CounterSequencer.spin(spins++);
                continue;
            }
            if (far.size() == 0) {
                // No move since `move` was read, so nothing left far in between: near and far were both empty
                // when near was found empty.
                if (buffer.getLongVolatile(MOVE_SEQUENCE) == move) {
                    return 0;
                }
                continue;
            }
            if (buffer.compareAndSetLong(MOVE_SEQUENCE, move, move + 1)) {
                try {
                    moveBand();
                } finally {
                    buffer.putLongRelease(MOVE_SEQUENCE, move + 2);
                }
            }
        }
    }

    /**
     * Mover only (odd move sequence). Raises the threshold, then passes once over the entries far holds now,
     * {@value #MOVE_BATCH} at a time (the far ring's headroom): the batch's entries below the new threshold go to
     * near with one reservation, the others (and what near refuses) back to far with one reservation, each group in
     * the order it had. When nothing moved, raises the threshold to the smallest key seen, so that the next raise
     * moves the band starting there.
     */
    private void moveBand() {
        final long threshold = buffer.getLongVolatile(THRESHOLD) + delta;
        buffer.putLongVolatile(THRESHOLD, threshold);
        final long[] batch = moved;
        final long[] back = stay;
        int left = far.size();
        boolean movedAny = false;
        long smallest = Long.MAX_VALUE;
        while (left > 0) {
            final int n = far.poll(batch, 0, Math.min(MOVE_BATCH, left));
            if (n == 0) {
                break;
            }
            left -= n;
            int toNear = 0;
            int toFar = 0;
            for (int i = 0; i < n; i++) {
                final long e = batch[i];
                if (key(e) < threshold) {
                    batch[toNear++] = e;
                } else {
                    back[toFar++] = e;
                }
            }
            final int accepted = toNear == 0 ? 0 : Math.max(0, near.offer(batch, 0, toNear)); // or BACK_PRESSURED
            movedAny |= accepted > 0;
            for (int i = accepted; i < toNear; i++) { // near is full: these wait in far
                back[toFar++] = batch[i];
            }
            for (int i = 0; i < toFar; i++) {
                smallest = Math.min(smallest, key(back[i]));
            }
            if (toFar > 0 && !far.offerAllWithin(back, 0, toFar, capacity + MOVE_BATCH)) {
                throw new IllegalStateException("far band has no headroom left: worklist invariant broken");
            }
        }
        if (!movedAny && smallest != Long.MAX_VALUE && smallest > threshold) {
            buffer.putLongVolatile(THRESHOLD, smallest);
        }
    }

    /** @return entries published in near and far (a snapshot; excludes entries a mover holds) */
    public int size() {
        QueueMemory.check(memory, name);
        return near.size() + far.size();
    }

    /** @return entries each band may hold */
    public int capacity() {
        return capacity;
    }

    /**
     * Returns the device memory taken by {@link #allocate} (closing the mesh does it too). Afterwards every method
     * that touches the worklist throws {@link IllegalStateException} naming it.
     *
     * @throws IllegalStateException if the worklist was built over a caller's region, or is already freed (a second free
     *                               is reported, never applied to memory that another allocation owns now)
     */
    public void free() {
        QueueMemory.free(memory, name);
    }

    /** @return true once the queue's own memory was freed ({@link #free()}, or its mesh closed) */
    public boolean isFreed() {
        return QueueMemory.isFreed(memory);
    }

    @Override
    public String toString() {
        return isFreed() ? "IntPriorityWorklist{freed}"
            : "IntPriorityWorklist{threshold=" + threshold() + ", near=" + near.size() + ", far=" + far.size() + "}";
    }
}
