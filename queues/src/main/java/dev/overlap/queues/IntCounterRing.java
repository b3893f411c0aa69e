package dev.overlap.queues;

import dev.overlap.core.Device;
import dev.overlap.core.DeviceRegion;
import dev.overlap.core.OfferResult;
import dev.overlap.core.Specialized;
import org.agrona.concurrent.AtomicBuffer;

import java.util.Objects;

// template: codegen writes LongCounterRing from this file, each @Specialized int a long (see codegen/README.md).
/**
 * The counter-based queue of {@code int} items in ring form: bounded memory for an unbounded number of pushes.
 * Beyond Atos' one-shot block (see {@link IntCounterQueue} for the shared algorithm):
 *
 * <ul>
 * <li><b>Reservation</b> is one CAS on {@code endAlloc} bounded by {@code start + capacity} (a {@code getAndAdd}
 * could overshoot a full ring and would then have to wait for consumers). A full ring is back-pressure: the push
 * returns {@link OfferResult#BACK_PRESSURED} (or a batch push pushes fewer), it never overwrites.</li>
 * <li><b>Releasing slots without release counters.</b> A pop copies its items <em>before</em> its CAS on
 * {@code start}; producers may only reserve positions below {@code start + capacity}, so while {@code start} still
 * equals the value the pop read, none of its slots can be overwritten, and a successful CAS proves the copy was
 * taken from intact slots. The CAS on {@code start} is therefore both the pop and the release: producers see free
 * space by reading {@code start}; no per-slot flags, no second atomic.</li>
 * <li><b>Windows across laps.</b> The ring has at least {@code capacity + windowSize} slots (a power of two), so a
 * window's slots are reused only after the whole window was popped; per-window completion counters count up
 * across laps ({@link Publication#WINDOWED}).</li>
 * </ul>
 *
 * <p><b>Guarantees.</b> With {@link Publication#ORDERED} (default) {@link #offer(int)}, {@link #offerAll}
 * (all-or-nothing), {@link #poll(int)} and the "full" and "empty" answers are linearizable against a bounded FIFO
 * queue. A batch pop {@link #poll(int[], int, int)} takes the oldest {@code min(max, n)} items atomically, {@code n} being the
 * items published when it read {@code end}; it is linearizable with pushes and pops, but a "full" answer racing
 * with it may still count the items it is claiming (the pop reads {@code end}, then claims by CAS on
 * {@code start}). {@link #offer(int[], int, int)} pushes a greedy prefix atomically, linearizable as that many
 * single pushes: a drop-in, without boxing, for a bounded linearizable MPMC queue such as JCTools'
 * {@code MpmcArrayQueue} of {@code Integer}s. With {@link Publication#WINDOWED} it is a relaxed MPMC ring, not
 * linearizable: nothing is lost, duplicated or invented and items come out in reservation order, but a pop may
 * answer "empty" (a batch pop take fewer) while the window of the oldest item holds a position reserved by a push
 * that is still writing (the bounded lag stated in {@link Publication#WINDOWED}), so one thread's offer then poll
 * may miss its own item; use it where JCTools' {@code relaxedOffer}/{@code relaxedPoll} would do. "Full" then
 * counts reserved positions. Checked by Lincheck (stress, against a model of exactly that lag; the shared
 * algorithm also by model checking through {@link CounterRingQueue}) and jcstress.
 *
 * <p><b>Thread-safety and memory ordering.</b> Any thread may call any method. Everything a thread did before
 * pushing an item happens-before everything the thread that pops it does after.
 */
public final class IntCounterRing {
    private static final int ITEM_BYTES = Integer.BYTES;
    private static final int ITEM_SHIFT = Integer.numberOfTrailingZeros(Integer.BYTES);
    private final BufferCells region;
    private final CounterSequencer seq;
    private final int slots;
    private final long mask;
    /** Its own device memory, null when built over a caller's buffer (see {@link QueueMemory#check}). */
    private final DeviceRegion memory;
    /** Its name in lifetime errors. */
    private final String name;

    /**
     * Builds a ring with default window size and {@link Publication#ORDERED}, initializing {@code region}.
     *
     * @param region   at least {@link #requiredBytes(int)} bytes, 8-byte aligned
     * @param capacity items the ring holds
     */
    public IntCounterRing(final AtomicBuffer region, final int capacity) {
        this(region, capacity, CounterSequencer.defaultWindowSize(capacity), Publication.ORDERED);
    }

    /**
     * @param region      at least {@link #requiredBytes(int, int)} bytes, 8-byte aligned; initialized here
     * @param capacity    items the ring holds
     * @param windowSize  positions per publication window (power of two)
     * @param publication the publication rule
     */
    public IntCounterRing(final AtomicBuffer region, final int capacity, final int windowSize,
        final Publication publication) {
        this(region, capacity, windowSize, publication, null);
    }

    private IntCounterRing(final AtomicBuffer region, final int capacity, final int windowSize,
        final Publication publication, final QueueMemory.Allocation allocation) {
        CounterSequencer.validate(true, capacity, windowSize, ITEM_BYTES, publication);
        QueueMemory.checkRegion(region, requiredBytes(capacity, windowSize), "IntCounterRing of " + capacity);
        this.region = new BufferCells(region);
        this.seq = new CounterSequencer(this.region, true, capacity, windowSize, publication);
        this.slots = seq.slotsOffset();
        this.mask = seq.slotMask;
        this.memory = QueueMemory.owned(allocation);
        this.name = "IntCounterRing of capacity " + capacity;
    }

    /**
     * Allocates the ring in {@code device}'s memory; {@link #free()} or closing the mesh returns it.
     *
     * @param device the device whose memory holds the ring
     * @param capacity items the ring holds, 1..2^30 - 64
     * @return the ring, empty ({@link Publication#ORDERED})
     */
    public static IntCounterRing allocate(final Device device, final int capacity) {
        return allocate(device, capacity, CounterSequencer.defaultWindowSize(capacity), Publication.ORDERED);
    }

    /**
     * Allocates the ring with the default window size and the given publication rule in {@code device}'s memory.
     *
     * @param device the device whose memory holds the ring
     * @param capacity items the ring holds, 1..2^30 - 64
     * @param publication the publication rule, not null
     * @return the ring, empty
     */
    public static IntCounterRing allocate(final Device device, final int capacity, final Publication publication) {
        return allocate(device, capacity, CounterSequencer.defaultWindowSize(capacity), publication);
    }

    /**
     * @param device the device whose memory holds the ring
     * @param capacity items the ring holds, 1..2^30 - windowSize
     * @param windowSize positions per publication window, a power of two in 1..2^20
     * @param publication the publication rule, not null
     * @return the ring, empty
     * @see #allocate(Device, int)
     */
    public static IntCounterRing allocate(final Device device, final int capacity, final int windowSize,
        final Publication publication) {
        CounterSequencer.validate(true, capacity, windowSize, ITEM_BYTES, publication);
        final QueueMemory.Allocation a = QueueMemory.allocate(device, requiredBytes(capacity, windowSize));
        return new IntCounterRing(a.buffer, capacity, windowSize, publication, a);
    }

    /**
     * @param capacity items the ring holds, 1..2^30 - 64
     * @return region bytes for {@code capacity} items with the default window size
     */
    public static int requiredBytes(final int capacity) {
        return requiredBytes(capacity, CounterSequencer.defaultWindowSize(capacity));
    }

    /**
     * @param capacity items the ring holds, 1..2^30 - windowSize
     * @param windowSize positions per publication window, a power of two in 1..2^20
     * @return region bytes for {@code capacity} items with windows of {@code windowSize}
     */
    public static int requiredBytes(final int capacity, final int windowSize) {
        CounterSequencer.validate(true, capacity, windowSize, ITEM_BYTES, Publication.ORDERED);
        return CounterSequencer.regionBytes(true, capacity, windowSize, ITEM_BYTES);
    }

    private int offset(final long position) {
        return slots + (int)((position & mask) << ITEM_SHIFT);
    }

    /**
     * Pushes one item if the ring has room; never waits for room.
     *
     * @param item the item to push
     * @return the new position (non-negative: taken), which is {@link #reservedIndex()} as this push left it: the
     *         positions reserved up to and including the item; or {@link OfferResult#BACK_PRESSURED} when the ring is
     *         full, {@link OfferResult#CLOSED} when its own memory was freed (nothing pushed; see {@link OfferResult})
     */
    public long offer(final @Specialized int item) {
        if (QueueMemory.isFreed(memory)) {
            return OfferResult.CLOSED;
        }
        final long s = seq.tryReserveRing(1);
        if (s == CounterSequencer.FULL) {
            return OfferResult.BACK_PRESSURED;
        }
        region.putInt(offset(s), item);
        seq.publish(s, 1);
        return s + 1;
    }

    /**
     * Pushes one item bounded by {@code limit} instead of the capacity (for a structure that keeps headroom for
     * itself, e.g. the priority worklist re-queuing items it moves).
     */
    boolean offerWithin(final @Specialized int item, final int limit) {
        final long s = seq.tryReserveRing(1, limit);
        if (s == CounterSequencer.FULL) {
            return false;
        }
        region.putInt(offset(s), item);
        seq.publish(s, 1);
        return true;
    }

    /** As {@link #offerAll} bounded by {@code limit} instead of the capacity (see {@link #offerWithin}). */
    boolean offerAllWithin(final int[] src, final int off, final int len, final int limit) {
        final long s = seq.tryReserveRing(len, limit);
        if (s == CounterSequencer.FULL) {
            return false;
        }
        write(src, off, len, s);
        return true;
    }

    /**
     * Pushes all of {@code src[off .. off+len)} with one reservation, or nothing; never waits for room.
     *
     * @param src the items to push, not null
     * @param off index in {@code src} of the first item
     * @param len items to push, 0..{@link #capacity()}; {@code [off, off+len)} must lie in {@code src}
     * @return {@code len} (non-negative: taken; 0 for an empty batch), or {@link OfferResult#BACK_PRESSURED} (nothing
     *         pushed) when fewer than {@code len} slots are free, {@link OfferResult#CLOSED} when the ring's own memory
     *         was freed
     * @throws IllegalArgumentException when {@code len > capacity}
     */
    public int offerAll(final int[] src, final int off, final int len) {
        Objects.checkFromIndexSize(off, len, src.length);
        if (len > seq.capacity) {
            throw new IllegalArgumentException("batch of " + len + " exceeds the ring capacity " + seq.capacity);
        }
        if (QueueMemory.isFreed(memory)) {
            return OfferResult.CLOSED;
        }
        if (len == 0) {
            return 0;
        }
        final long s = seq.tryReserveRing(len);
        if (s == CounterSequencer.FULL) {
            return OfferResult.BACK_PRESSURED;
        }
        write(src, off, len, s);
        return len;
    }

    /**
     * Pushes as many of {@code src[off .. off+len)} as fit (a prefix) with one reservation; never waits for room.
     *
     * @param src the items to push, not null
     * @param off index in {@code src} of the first item
     * @param len items to push, >= 0; {@code [off, off+len)} must lie in {@code src}
     * @return how many were pushed, 1 to {@code len} (non-negative: taken; 0 only for an empty batch), or
     *         {@link OfferResult#BACK_PRESSURED} when not one fits, {@link OfferResult#CLOSED} when the ring's own
     *         memory was freed (nothing pushed). Add the result to a count only when it is non-negative.
     */
    public int offer(final int[] src, final int off, final int len) {
        Objects.checkFromIndexSize(off, len, src.length);
        if (QueueMemory.isFreed(memory)) {
            return OfferResult.CLOSED;
        }
        int n = len;
        while (n > 0) {
            final long s = seq.tryReserveRing(n);
            if (s != CounterSequencer.FULL) {
                write(src, off, n, s);
                return n;
            }
            if (n == 1) {
                return OfferResult.BACK_PRESSURED;
            }
            n = (int)Math.min(n - 1, Math.max(1, seq.ringFreeHint()));
        }
        return 0;
    }

    private void write(final int[] src, final int off, final int n, final long s) {
        // at most two contiguous runs: up to the end of the slot array, then from its start
        final int first = (int)Math.min(n, mask + 1 - (s & mask));
        int at = offset(s);
        for (int i = 0; i < first; i++, at += ITEM_BYTES) {
            region.putInt(at, src[off + i]);
        }
        at = slots;
        for (int i = first; i < n; i++, at += ITEM_BYTES) {
            region.putInt(at, src[off + i]);
        }
        seq.publish(s, n);
    }

    /**
     * @param ifEmpty what to return when nothing is poppable
     * @return the oldest item, or {@code ifEmpty}
     */
    public @Specialized int poll(final @Specialized int ifEmpty) {
        QueueMemory.check(memory, name);
        for (;;) {
            final long s = seq.start();
            final long e = seq.end();
            if (s >= e && s >= seq.endAfterHelping()) {
                return ifEmpty;
            }
            final @Specialized int item = region.getInt(offset(s));
            if (seq.casStart(s, s + 1)) {
                return item;
            }
        }
    }

    /**
     * Pops up to {@code max} items with one CAS into {@code dst[off ..]}.
     *
     * @param dst receives the items, not null
     * @param off index in {@code dst} of the first item written
     * @param max most items to pop, >= 0; {@code [off, off+max)} must lie in {@code dst}
     * @return how many were popped (0 when empty)
     */
    public int poll(final int[] dst, final int off, final int max) {
        QueueMemory.check(memory, name);
        Objects.checkFromIndexSize(off, max, dst.length);
        for (;;) {
            final long s = seq.start();
            long e = seq.end();
            if (s >= e && s >= (e = seq.endAfterHelping())) {
                return 0;
            }
            final int k = (int)Math.min(max, e - s);
            if (k == 0) {
                return 0;
            }
            final int first = (int)Math.min(k, mask + 1 - (s & mask));
            int at = offset(s);
            for (int i = 0; i < first; i++, at += ITEM_BYTES) {
                dst[off + i] = region.getInt(at);
            }
            at = slots;
            for (int i = first; i < k; i++, at += ITEM_BYTES) {
                dst[off + i] = region.getInt(at);
            }
            if (seq.casStart(s, s + k)) {
                return k;
            }
        }
    }

    /**
     * A snapshot: the items that were published and not popped at one instant during the call (so never more
     * than were present then, never negative, never above {@link #capacity()}). Items of a push still in progress
     * are not counted. Lock-free (it retries only while pops succeed).
     *
     * @return published, unpopped items at one instant
     */
    public int size() {
        QueueMemory.check(memory, name);
        return (int)seq.size();
    }

    /** @return {@code end}: how many items were ever published (poppable or popped); a monitoring snapshot */
    public long publishedIndex() {
        QueueMemory.check(memory, name);
        return seq.end();
    }

    /** @return {@code endAlloc}: how many positions pushes ever reserved; a monitoring snapshot */
    public long reservedIndex() {
        QueueMemory.check(memory, name);
        return seq.reserved();
    }

    /** @return true when nothing is poppable right now */
    public boolean isEmpty() {
        QueueMemory.check(memory, name);
        return size() == 0;
    }

    /** @return items the ring holds */
    public int capacity() {
        return seq.capacity;
    }

    /** @return the publication rule */
    public Publication publication() {
        return seq.publication;
    }

    /**
     * Returns the device memory taken by {@link #allocate} (closing the mesh does it too). Afterwards every method
     * that touches the ring throws {@link IllegalStateException} naming it.
     *
     * @throws IllegalStateException if the ring was built over a caller's region, or is already freed (a second free
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
        return "IntCounterRing{capacity=" + seq.capacity + ", size=" + (isFreed() ? "freed" : String.valueOf(size())) + ", " + seq.publication + "}";
    }
}
