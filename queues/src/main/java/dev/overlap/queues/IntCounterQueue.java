package dev.overlap.queues;

import dev.overlap.core.Device;
import dev.overlap.core.DeviceRegion;
import dev.overlap.core.OfferResult;
import org.agrona.concurrent.AtomicBuffer;

import java.util.function.IntConsumer;

/**
 * The Atos counter-based queue of {@code int} items (paper section III.A.2, Listing 6), in device memory: a
 * one-shot block whose capacity bounds all pushes until {@link #reset()} (as in Atos, pops do not free space;
 * use {@link IntCounterRing} for bounded memory under unbounded pushing).
 *
 * <p><b>Algorithm.</b> Counters {@code start}, {@code end}, {@code endAlloc} (and per-window {@code endCount}s),
 * each on its own 128-byte line of the region, then the slots; no per-slot flags. A push of {@code n} items
 * reserves {@code n} slots with one {@code getAndAdd} on {@code endAlloc}, writes them, then publishes them by
 * moving {@code end} as the queue's {@link Publication} rule says. A pop of up to {@code n} items reads
 * {@code start} and {@code end} and takes {@code min(n, end - start)} items with one CAS on {@code start}. Batch
 * operations are the JVM analog of Atos' warp- and CTA-sized workers: one atomic per batch, not per item.
 *
 * <p><b>Where this departs from Atos, and why.</b>
 * <ol>
 * <li><i>Listing 6 read literally loses or exposes items.</i> Its check
 * {@code atomicAdd(&end_count, n) + n == end_max} must read {@code end_max} after the add: with a stale read, two
 * interleaving pushes ({@code A} reads {@code end_max} = 1, {@code B} raises it to 2 and adds, {@code A} adds)
 * both fail the check and {@code end} never moves (items stranded; Atos also advances {@code end} from the pop
 * side). And {@code atomicMax(&end, end_max)} must not re-read {@code end_max}: a push past an unwritten
 * reservation may have raised it meanwhile, and {@code end} would expose an unwritten slot. Here every check is
 * a sequentially consistent read taken once, and pops help advance {@code end}.</li>
 * <li><i>Publication can starve.</i> In Atos {@code end} moves only when {@code end_count} catches
 * {@code end_max}, which under sustained pushing may not happen for a long time. {@link Publication#WINDOWED}
 * splits {@code end_count} into one counter per window of slots: a full window is published at once, so lag is
 * bounded by the time to fill one window, and Listing 6's quiescent rule is kept for the tail of a partly filled
 * window (with the reservation frontier {@code endAlloc} in place of {@code end_max}: the same safety without an
 * {@code atomicMax} per push; a reservation still being written then delays only its own window).</li>
 * <li><i>Not linearizable.</i> Even with that help, a completed push stays invisible while an earlier reservation
 * is unfilled, so a pop that starts after the push returns may report "empty": {@link Publication#WINDOWED}
 * states exactly that relaxation. {@link Publication#ORDERED} (the default) is linearizable: a push returns only
 * once its items are published, handing {@code end} from push to push in reservation order (one atomic per push,
 * no window counters); measured in {@code QueueThroughputBenchmark} / {@code AtosFig1Benchmark}.</li>
 * <li><i>One-shot.</i> Atos' block needs a reset between kernels; {@link IntCounterRing} is the ring form.</li>
 * </ol>
 *
 * <p><b>Guarantees.</b> With {@link Publication#ORDERED} (default) every operation is linearizable against a
 * FIFO queue whose pushes are refused once {@code capacity} items have been pushed since the last reset; a batch
 * push stores {@code min(n, capacity - pushedSoFar)} items (the Atos reservation is never undone, so one that
 * overflows uses up the rest of the block) and a batch pop takes {@code min(n, size)} items, both atomically.
 * A push may wait for pushes that reserved before it; pops never wait. With {@link Publication#WINDOWED} nothing
 * waits and the block is relaxed, not linearizable: nothing is lost, duplicated or invented and items come out in
 * reservation order, but a pop may answer "empty" (a batch pop take fewer) while the window of the oldest item
 * holds a position reserved by a push that is still writing (the bounded lag stated in
 * {@link Publication#WINDOWED}), so one thread's push then pop may miss its own item. Checked by Lincheck (stress,
 * WINDOWED against a model of exactly that lag) and jcstress.
 *
 * <p><b>Thread-safety and memory ordering.</b> {@code offer}/{@code poll}/{@code drain}/{@code size} from any
 * thread. Everything a thread did before pushing an item happens-before everything the thread that pops it does
 * after (release on publication, acquire on reading {@code end}). {@link #reset()} only while no other thread
 * uses the queue (between kernels). The region holds offsets only, no Java references.
 */
public final class IntCounterQueue {
    private static final int ITEM_BYTES = 4;
    private final BufferCells region;
    private final CounterSequencer seq;
    private final int slots;
    /** Its own device memory, null when built over a caller's buffer (see {@link QueueMemory#check}). */
    private final DeviceRegion memory;
    /** Its name in lifetime errors. */
    private final String name;

    /**
     * Builds a queue with default window size and {@link Publication#ORDERED}, initializing {@code region}.
     *
     * @param region   at least {@link #requiredBytes(int)} bytes, 8-byte aligned (128-byte aligned is best)
     * @param capacity items pushable until {@link #reset()}
     */
    public IntCounterQueue(final AtomicBuffer region, final int capacity) {
        this(region, capacity, CounterSequencer.defaultWindowSize(capacity), Publication.ORDERED);
    }

    /**
     * @param region      at least {@link #requiredBytes(int, int)} bytes, 8-byte aligned; initialized here
     * @param capacity    items pushable until {@link #reset()}
     * @param windowSize  positions per publication window (power of two; used by {@link Publication#WINDOWED})
     * @param publication the publication rule
     */
    public IntCounterQueue(final AtomicBuffer region, final int capacity, final int windowSize,
        final Publication publication) {
        this(region, capacity, windowSize, publication, null);
    }

    private IntCounterQueue(final AtomicBuffer region, final int capacity, final int windowSize,
        final Publication publication, final QueueMemory.Allocation allocation) {
        CounterSequencer.validate(false, capacity, windowSize, ITEM_BYTES, publication);
        QueueMemory.checkRegion(region, requiredBytes(capacity, windowSize), "IntCounterQueue of " + capacity);
        this.region = new BufferCells(region);
        this.seq = new CounterSequencer(this.region, false, capacity, windowSize, publication);
        this.slots = seq.slotsOffset();
        this.memory = QueueMemory.owned(allocation);
        this.name = "IntCounterQueue of capacity " + capacity;
    }

    /**
     * Allocates the queue in {@code device}'s memory (default window, {@link Publication#ORDERED}).
     * The memory is returned by {@link #free()} or when the mesh closes.
     *
     * @param device the device whose memory holds the queue
     * @param capacity items pushable until {@link #reset()}, 1..535822335 (the region must stay within 2 GiB)
     * @return the queue, empty
     */
    public static IntCounterQueue allocate(final Device device, final int capacity) {
        return allocate(device, capacity, CounterSequencer.defaultWindowSize(capacity), Publication.ORDERED);
    }

    /**
     * @param device the device whose memory holds the queue
     * @param capacity items pushable until {@link #reset()}, 1..535822335 (the region must stay within 2 GiB)
     * @param windowSize positions per publication window, a power of two in 1..2^20 (used by {@link
     *                   Publication#WINDOWED})
     * @param publication the publication rule, not null
     * @return the queue, empty
     * @see #allocate(Device, int)
     */
    public static IntCounterQueue allocate(final Device device, final int capacity, final int windowSize,
        final Publication publication) {
        CounterSequencer.validate(false, capacity, windowSize, ITEM_BYTES, publication);
        final QueueMemory.Allocation a = QueueMemory.allocate(device, requiredBytes(capacity, windowSize));
        return new IntCounterQueue(a.buffer, capacity, windowSize, publication, a);
    }

    /**
     * @param capacity items pushable until {@link #reset()}, 1..535822335 (the region must stay within 2 GiB)
     * @return region bytes for {@code capacity} items with the default window size
     */
    public static int requiredBytes(final int capacity) {
        return requiredBytes(capacity, CounterSequencer.defaultWindowSize(capacity));
    }

    /**
     * @param capacity items pushable until {@link #reset()}, 1..535822335 (the region must stay within 2 GiB)
     * @param windowSize positions per publication window, a power of two in 1..2^20
     * @return region bytes for {@code capacity} items with windows of {@code windowSize}
     */
    public static int requiredBytes(final int capacity, final int windowSize) {
        CounterSequencer.validate(false, capacity, windowSize, ITEM_BYTES, Publication.ORDERED);
        return CounterSequencer.regionBytes(false, capacity, windowSize, ITEM_BYTES);
    }

    /**
     * Pushes one item; never waits for room (an {@link Publication#ORDERED} push may wait for the pushes that reserved
     * before it to publish, which no pop can hold up).
     *
     * @param item the item to push
     * @return the new position (non-negative: taken): the positions reserved up to and including the item, 1 to
     *         {@link #capacity()}; or {@link OfferResult#MAX_POSITION_EXCEEDED} when the block is used up
     *         ({@code capacity} items pushed since the last {@link #reset()}), {@link OfferResult#CLOSED} when its own
     *         memory was freed (nothing pushed; see {@link OfferResult})
     */
    public long offer(final int item) {
        if (QueueMemory.isFreed(memory)) {
            return OfferResult.CLOSED;
        }
        final long s = seq.reserveBlock(1);
        if (s >= seq.capacity) {
            seq.publish(s, 0);
            return OfferResult.MAX_POSITION_EXCEEDED;
        }
        region.putInt(slots + (int)(s << 2), item);
        seq.publish(s, 1);
        return s + 1;
    }

    /**
     * Pushes {@code src[off .. off+len)} with one reservation.
     *
     * @param src the items to push, not null
     * @param off index in {@code src} of the first item
     * @param len items to push, >= 0; {@code [off, off+len)} must lie in {@code src}
     * @return how many were pushed (non-negative: taken): {@code len}, or fewer when the block ran out (a prefix of
     *         the items), 0 only for an empty batch; or {@link OfferResult#MAX_POSITION_EXCEEDED} when the block was
     *         used up before the first item, {@link OfferResult#CLOSED} when its own memory was freed (nothing
     *         pushed). Add the result to a count only when it is non-negative.
     */
    public int offer(final int[] src, final int off, final int len) {
        checkBatch(src, off, len);
        if (QueueMemory.isFreed(memory)) {
            return OfferResult.CLOSED;
        }
        if (len == 0) {
            return 0;
        }
        final long s = seq.reserveBlock(len);
        final int k = seq.blockWritable(s, len);
        int at = slots + (int)(Math.min(s, seq.capacity) << 2);
        for (int i = 0; i < k; i++, at += ITEM_BYTES) {
            region.putInt(at, src[off + i]);
        }
        seq.publish(s, k);
        return k > 0 ? k : OfferResult.MAX_POSITION_EXCEEDED;
    }

    /**
     * Pops one item.
     *
     * @param ifEmpty what to return when nothing is poppable
     * @return the oldest item, or {@code ifEmpty}
     */
    public int poll(final int ifEmpty) {
        QueueMemory.check(memory, name);
        for (;;) {
            final long s = seq.start();
            long e = seq.end();
            if (s >= e && s >= (e = seq.endAfterHelping())) {
                return ifEmpty;
            }
            final int item = region.getInt(slots + (int)(s << 2));
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
        checkBatch(dst, off, max);
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
            if (seq.casStart(s, s + k)) {
                int at = slots + (int)(s << 2);
                for (int i = 0; i < k; i++, at += ITEM_BYTES) {
                    dst[off + i] = region.getInt(at);
                }
                return k;
            }
        }
    }

    /**
     * Pops up to {@code limit} items with one CAS and hands them to {@code consumer} in order.
     *
     * @param consumer receives each popped item, in queue order, on the calling thread; not null
     * @param limit most items to pop, >= 0
     * @return how many were popped
     */
    public int drain(final IntConsumer consumer, final int limit) {
        QueueMemory.check(memory, name);
        if (consumer == null) {
            throw new NullPointerException("consumer");
        }
        if (limit < 0) {
            throw new IllegalArgumentException("limit must be >= 0, was " + limit);
        }
        for (;;) {
            final long s = seq.start();
            long e = seq.end();
            if (s >= e && s >= (e = seq.endAfterHelping())) {
                return 0;
            }
            final int k = (int)Math.min(limit, e - s);
            if (k == 0) {
                return 0;
            }
            if (seq.casStart(s, s + k)) {
                int at = slots + (int)(s << 2);
                for (int i = 0; i < k; i++, at += ITEM_BYTES) {
                    consumer.accept(region.getInt(at));
                }
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

    /** @return items pushable between resets */
    public int capacity() {
        return seq.capacity;
    }

    /** @return the publication rule */
    public Publication publication() {
        return seq.publication;
    }

    /** Empties the block for reuse. Only while no other thread uses the queue (e.g. between kernels). */
    public void reset() {
        QueueMemory.check(memory, name);
        seq.reset();
    }

    /**
     * Returns the device memory taken by {@link #allocate} (closing the mesh does it too). Afterwards every method
     * that touches the queue throws {@link IllegalStateException} naming it.
     *
     * @throws IllegalStateException if the queue was built over a caller's region, or is already freed (a second free
     *                               is reported, never applied to memory that another allocation owns now)
     */
    public void free() {
        QueueMemory.free(memory, name);
    }

    private static void checkBatch(final int[] array, final int off, final int len) {
        if (array == null) {
            throw new NullPointerException("array");
        }
        if (off < 0 || len < 0 || off > array.length - len) {
            throw new IndexOutOfBoundsException("range [" + off + ", " + off + "+" + len + ") is outside an array of "
                + array.length);
        }
    }

    /** @return true once the queue's own memory was freed ({@link #free()}, or its mesh closed) */
    public boolean isFreed() {
        return QueueMemory.isFreed(memory);
    }

    @Override
    public String toString() {
        return "IntCounterQueue{capacity=" + seq.capacity + ", size=" + (isFreed() ? "freed" : String.valueOf(size())) + ", " + seq.publication + "}";
    }
}
