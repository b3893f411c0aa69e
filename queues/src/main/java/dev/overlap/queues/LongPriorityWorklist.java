package dev.overlap.queues;

import dev.overlap.core.Device;
import dev.overlap.core.DeviceRegion;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The Atos priority worklist for {@code long} items with {@code long} priorities (lower key = more urgent): the
 * same near/far bands and threshold moves (a whole band per raise) as {@link IntPriorityWorklist}, with each entry
 * stored as two consecutive longs {@code (key, item)} pushed all-or-nothing and popped two at a time (so every
 * published prefix holds whole entries and an item keeps its key through every move).
 *
 * <p><b>Guarantees</b> are those of {@link IntPriorityWorklist}: nothing lost, duplicated or re-keyed; "empty" only
 * when both bands were empty with no move in progress; "full" ({@code false}) is back-pressure.
 *
 * <p><b>Thread-safety and memory ordering.</b> Any thread may push and poll; a push happens-before the poll that
 * returns its entry. The threshold only grows.
 */
public final class LongPriorityWorklist {
    /** Far entries a mover takes at once (and the far band's private headroom). */
    public static final int MOVE_BATCH = 64;
    private static final int THRESHOLD = 0;
    private static final int MOVE_SEQUENCE = 128;
    private static final int RINGS = 256;

    private final AtomicBuffer buffer;
    private final LongCounterRing near;
    private final LongCounterRing far;
    private final int capacity;
    private final long delta;
    /** The mover's scratch: a batch taken from far, and the part of it that goes back. */
    private final long[] moved = new long[2 * MOVE_BATCH];
    private final long[] stay = new long[2 * MOVE_BATCH];
    private final ThreadLocal<long[]> pair = ThreadLocal.withInitial(() -> new long[2]);
    /** Its own device memory, null when built over a caller's buffer (see {@link QueueMemory#check}). */
    private final DeviceRegion memory;
    /** Its name in lifetime errors. */
    private final String name;

    /**
     * @param region           at least {@link #requiredBytes(int)} bytes, 8-byte aligned; initialized here
     * @param capacity         entries each band may hold
     * @param initialThreshold keys below it go to near at first
     * @param delta            how much the threshold rises when near drains, >= 1
     */
    public LongPriorityWorklist(final AtomicBuffer region, final int capacity, final long initialThreshold,
        final long delta) {
        this(region, capacity, initialThreshold, delta, null);
    }

    private LongPriorityWorklist(final AtomicBuffer region, final int capacity, final long initialThreshold,
        final long delta, final QueueMemory.Allocation allocation) {
        if (delta < 1) {
            throw new IllegalArgumentException("delta must be >= 1, was " + delta);
        }
        QueueMemory.checkRegion(region, requiredBytes(capacity), "LongPriorityWorklist of " + capacity);
        this.buffer = region;
        this.capacity = capacity;
        this.delta = delta;
        final int nearBytes = align(LongCounterRing.requiredBytes(2 * capacity));
        final int farBytes = align(LongCounterRing.requiredBytes(2 * (capacity + MOVE_BATCH)));
        this.near = new LongCounterRing(new UnsafeBuffer(region, RINGS, nearBytes), 2 * capacity);
        this.far = new LongCounterRing(new UnsafeBuffer(region, RINGS + nearBytes, farBytes),
            2 * (capacity + MOVE_BATCH));
        buffer.putLongVolatile(THRESHOLD, initialThreshold);
        buffer.putLongVolatile(MOVE_SEQUENCE, 0);
        this.memory = QueueMemory.owned(allocation);
        this.name = "LongPriorityWorklist of capacity " + capacity;
    }

    /** Allocates the worklist in {@code device}'s memory; {@link #free()} or closing the mesh returns it. */
    public static LongPriorityWorklist allocate(final Device device, final int capacity, final long initialThreshold,
        final long delta) {
        final QueueMemory.Allocation a = QueueMemory.allocate(device, requiredBytes(capacity));
        return new LongPriorityWorklist(a.buffer, capacity, initialThreshold, delta, a);
    }

    /** @return region bytes for a worklist of {@code capacity} entries per band */
    public static int requiredBytes(final int capacity) {
        if (capacity < 1 || capacity > (1 << 27)) {
            throw new IllegalArgumentException("capacity must be in 1.." + (1 << 27) + ", was " + capacity);
        }
        return RINGS + align(LongCounterRing.requiredBytes(2 * capacity))
            + align(LongCounterRing.requiredBytes(2 * (capacity + MOVE_BATCH)));
    }

    private static int align(final int bytes) {
        return (bytes + 127) & ~127;
    }

    /** @return the current threshold (keys below it go to near) */
    public long threshold() {
        QueueMemory.check(memory, name);
        return buffer.getLongVolatile(THRESHOLD);
    }

    /**
     * Pushes {@code item} with priority {@code key}: to near when {@code key < threshold}, else (or when near is
     * full) to far.
     *
     * @return false when both bands are full
     */
    public boolean push(final long item, final long key) {
        QueueMemory.check(memory, name);
        final long[] entry = pair.get();
        entry[0] = key;
        entry[1] = item;
        if (key < buffer.getLongVolatile(THRESHOLD) && near.offerAll(entry, 0, 2)) {
            return true;
        }
        return far.offerAllWithin(entry, 0, 2, 2 * capacity);
    }

    /**
     * Pops an entry: from near; when near is empty, moves the next band of far entries first.
     *
     * @param keyAndItem receives {@code [key, item]}
     * @return false when the worklist is empty
     */
    public boolean poll(final long[] keyAndItem) {
        QueueMemory.check(memory, name);
        if (keyAndItem == null || keyAndItem.length < 2) {
            throw new IllegalArgumentException("keyAndItem must be a long[2] or longer");
        }
        int spins = 0;
        for (;;) {
            final long move = buffer.getLongVolatile(MOVE_SEQUENCE);
            final int got = near.poll(keyAndItem, 0, 2);
            if (got == 2) {
                return true;
            }
            if (got != 0) {
                throw new IllegalStateException("near band split an entry: worklist invariant broken");
            }
            if ((move & 1) != 0) {
                CounterSequencer.spin(spins++);
                continue;
            }
            if (far.size() == 0) {
                if (buffer.getLongVolatile(MOVE_SEQUENCE) == move) {
                    return false;
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
     * Mover only. Raises the threshold, then passes once over the entries far holds now, {@value #MOVE_BATCH} at a
     * time: the batch's entries below the new threshold go to near and the others back to far, each group with one
     * reservation and in the order it had (entry by entry only when near cannot take its group whole); when nothing
     * moved, raises the threshold to the smallest key seen (as {@link IntPriorityWorklist} does).
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
            final int n = far.poll(batch, 0, Math.min(batch.length, left));
            if (n == 0) {
                break;
            }
            if ((n & 1) != 0) {
                throw new IllegalStateException("far band split an entry: worklist invariant broken");
            }
            left -= n;
            int toNear = 0;
            int toFar = 0;
            for (int i = 0; i < n; i += 2) {
                if (batch[i] < threshold) {
                    batch[toNear++] = batch[i];
                    batch[toNear++] = batch[i + 1];
                } else {
                    back[toFar++] = batch[i];
                    back[toFar++] = batch[i + 1];
                }
            }
            if (toNear > 0 && toNear <= near.capacity() && near.offerAll(batch, 0, toNear)) {
                movedAny = true;
            } else {
                for (int i = 0; i < toNear; i += 2) { // near cannot take them all: what it refuses waits in far
                    if (near.offerAll(batch, i, 2)) {
                        movedAny = true;
                    } else {
                        back[toFar++] = batch[i];
                        back[toFar++] = batch[i + 1];
                    }
                }
            }
            for (int i = 0; i < toFar; i += 2) {
                smallest = Math.min(smallest, back[i]);
            }
            if (toFar > 0 && !far.offerAllWithin(back, 0, toFar, 2 * (capacity + MOVE_BATCH))) {
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
        return (near.size() + far.size()) / 2;
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
        return isFreed() ? "LongPriorityWorklist{freed}"
            : "LongPriorityWorklist{threshold=" + threshold() + ", size=" + size() + "}";
    }
}
