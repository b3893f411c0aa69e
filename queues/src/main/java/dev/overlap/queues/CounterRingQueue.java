package dev.overlap.queues;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.AbstractQueue;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * A bounded MPMC {@link java.util.Queue} of objects on the counter algorithm of {@link IntCounterRing}: one CAS
 * per push batch on {@code endAlloc}, publication through {@code end} (see {@link Publication}), one CAS per pop
 * batch on {@code start}, with batch {@link #drain(Consumer, int)} and {@link #fill(Supplier, int)} that pay one
 * atomic per batch.
 *
 * <p><b>What it is a drop-in for depends on the publication rule</b> (see the table in {@link Publication}):
 * <ul>
 * <li>{@link Publication#ORDERED} (the default): a linearizable bounded FIFO, a drop-in where code uses JCTools'
 * {@code MpmcArrayQueue} ({@code offer}/{@code poll}/{@code peek}, {@code drain}, {@code fill}; its
 * {@code relaxed*} calls become the plain ones, which only answer more precisely) or a
 * {@link java.util.concurrent.ConcurrentLinkedQueue} with a known bound.</li>
 * <li>{@link Publication#WINDOWED}: a relaxed MPMC queue with bounded publication lag. It is <em>not</em> a
 * drop-in for {@code MpmcArrayQueue}'s linearizable {@code offer}/{@code poll}: one thread's {@code offer} then
 * {@code poll} can find nothing while another thread's push that reserved before it, or in the same window, is
 * still writing. It is a drop-in where code uses {@code MpmcArrayQueue} only through {@code relaxedOffer},
 * {@code relaxedPoll} and {@code relaxedPeek} (which may answer "empty" while the queue is not; they become
 * {@code offer}, {@code poll} and {@code peek} here), {@code drain} and {@code fill}, and takes "empty" as a
 * hint, not as proof.</li>
 * </ul>
 *
 * <p>On-heap (counters in padded fields through VarHandles, items in an {@code Object[]}): needs no JVM flag.
 * Consumed slots are cleared (nothing stays reachable from the queue after it is popped): a consumer claims
 * positions with its CAS on {@code start}, then reads and clears the slots; a producer that reuses a slot a lap
 * later waits until it is clear (only ever for a consumer that is between its CAS and its clearing store).
 *
 * <p><b>Guarantees.</b> In both modes nothing is lost, duplicated or invented and elements come out in the order
 * their pushes reserved positions (FIFO per producer). With {@link Publication#ORDERED} {@code offer},
 * {@code poll}, {@code peek} and the "full" and "empty" answers are linearizable (Lincheck model checking and
 * stress). {@link #drain(Consumer, int)} takes the oldest {@code min(limit, n)} elements atomically, {@code n}
 * being the elements published when it read {@code end}: linearizable with offers and polls, though a "full"
 * answer or a peek racing with it may still see the elements it is claiming. {@link #fill(Supplier, int)} pushes a
 * greedy prefix atomically, linearizable as that many offers. With {@link Publication#WINDOWED} "empty" may hide
 * elements exactly as far as the publication lag stated there allows (Lincheck checks that bound, not just loss
 * and order), and "full" counts reservations of pushes in progress. Null elements are rejected with
 * {@link NullPointerException}. {@link #size()} is a snapshot in both modes: the elements present at one instant
 * of the call (never more, never negative, never above {@link #capacity()}). A {@code fill} whose supplier fails
 * leaves no phantom element (see {@link #fill(Supplier, int)}). Iteration is weakly consistent (it returns
 * elements that were present at some point during the iteration) and does not support {@code remove}.
 *
 * <p><b>Thread-safety and memory ordering.</b> Every method from any thread. Actions before {@code offer(e)}
 * happen-before actions after the {@code poll()} that returns {@code e}. A {@code fill} supplier must not push into
 * the same queue; a {@code drain} consumer may use it freely.
 *
 * @param <E> element type
 */
public final class CounterRingQueue<E> extends AbstractQueue<E> {
    private static final VarHandle SLOTS = MethodHandles.arrayElementVarHandle(Object[].class);
    private static final VarHandle SKIPS_PUBLISHED;
    private static final VarHandle SKIPS_TAKEN;

    static {
        try {
            final MethodHandles.Lookup lookup = MethodHandles.lookup();
            SKIPS_PUBLISHED = lookup.findVarHandle(CounterRingQueue.class, "skipsPublished", long.class);
            SKIPS_TAKEN = lookup.findVarHandle(CounterRingQueue.class, "skipsTaken", long.class);
        } catch (final ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /**
     * Fills the unwritten slots of a {@link #fill} cut short that could not give them back (another producer had
     * reserved after it), so the reservation still publishes; consumers pass over it.
     */
    private static final Object SKIP = new Object();
    /** Per-thread array a drain moves its batch into, so that no slot is held while the consumer runs. */
    private static final ThreadLocal<Scratch> SCRATCH = ThreadLocal.withInitial(Scratch::new);
    private final CounterSequencer seq;
    private final Object[] slots;
    private final long mask;
    /**
     * {@link #SKIP} slots ever announced (added before they are published) and ever consumed (added after the
     * consumer's CAS on {@code start} passed them). Both only grow, and only when a fill is cut short under
     * contention: {@link #size()} scans for skipped slots only while they differ.
     */
    @SuppressWarnings("unused") // through SKIPS_PUBLISHED
    private volatile long skipsPublished;
    @SuppressWarnings("unused") // through SKIPS_TAKEN
    private volatile long skipsTaken;

    /**
     * A queue with default window size and {@link Publication#ORDERED}.
     *
     * @param capacity the bound, 1..2^30 - 64
     * @throws IllegalArgumentException for a bad capacity
     */
    public CounterRingQueue(final int capacity) {
        this(capacity, CounterSequencer.defaultWindowSize(capacity), Publication.ORDERED);
    }

    /**
     * @param capacity    the bound
     * @param windowSize  positions per publication window (power of two)
     * @param publication the publication rule
     */
    public CounterRingQueue(final int capacity, final int windowSize, final Publication publication) {
        CounterSequencer.validate(true, capacity, windowSize, 4, publication);
        final int windows = CounterSequencer.windows(true, capacity, windowSize);
        this.seq = new CounterSequencer(new HeapCells(CounterSequencer.slotsOffset(windows)), true, capacity,
            windowSize, publication);
        this.slots = new Object[CounterSequencer.slots(true, capacity, windowSize)];
        this.mask = seq.slotMask;
    }

    @Override
    public boolean offer(final E e) {
        Objects.requireNonNull(e, "CounterRingQueue does not accept null elements");
        final long s = seq.tryReserveRing(1);
        if (s == CounterSequencer.FULL) {
            return false;
        }
        store(s, e);
        seq.publish(s, 1);
        return true;
    }

    private void store(final long position, final Object e) {
        final int i = (int)(position & mask);
        int spins = 0;
        while (SLOTS.getAcquire(slots, i) != null) {
            CounterSequencer.spin(spins++);
        }
        slots[i] = e;
    }

    private Object take(final long position) {
        final int i = (int)(position & mask);
        final Object e = slots[i];
        SLOTS.setRelease(slots, i, null);
        return e;
    }

    @Override
    @SuppressWarnings("unchecked")
    public E poll() {
        for (;;) {
            final long s = seq.start();
            final long e = seq.end();
            if (s >= e && s >= seq.endAfterHelping()) {
                return null;
            }
            if (seq.casStart(s, s + 1)) {
                final Object item = take(s);
                if (item != SKIP) {
                    return (E)item;
                }
                SKIPS_TAKEN.getAndAdd(this, 1L);
            }
        }
    }

    @Override
    @SuppressWarnings("unchecked")
    public E peek() {
        for (;;) {
            final long s = seq.start();
            final long e = seq.end();
            if (s >= e && s >= seq.endAfterHelping()) {
                return null;
            }
            final Object item = SLOTS.getAcquire(slots, (int)(s & mask));
            if (seq.start() != s || item == null) {
                continue;
            }
            if (item != SKIP) {
                return (E)item;
            }
            if (seq.casStart(s, s + 1)) {
                take(s);
                SKIPS_TAKEN.getAndAdd(this, 1L);
            }
        }
    }

    /**
     * Pops up to {@code limit} elements with one CAS and hands them to {@code consumer} in FIFO order. The batch's
     * slots are all cleared before the first call of {@code consumer}, so the consumer may push into and pop from
     * this queue. If the consumer throws, the elements of this batch it has not accepted are offered again (at the
     * tail); one that does not fit is named in a suppressed {@link IllegalStateException} of the exception.
     *
     * @return how many elements the consumer accepted
     */
    @SuppressWarnings("unchecked")
    public int drain(final Consumer<? super E> consumer, final int limit) {
        Objects.requireNonNull(consumer, "consumer");
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
            if (!seq.casStart(s, s + k)) {
                continue;
            }
            final Scratch scratch = SCRATCH.get();
            final boolean nested = scratch.busy; // a drain from inside a consumer gets its own array
            if (!nested && scratch.items.length < k) {
                scratch.items = new Object[Math.max(k, 2 * scratch.items.length)];
            }
            final Object[] batch = nested ? new Object[k] : scratch.items;
            scratch.busy = true;
            int skipped = 0;
            for (int i = 0; i < k; i++) {
                final Object item = take(s + i);
                batch[i] = item;
                if (item == SKIP) {
                    skipped++;
                }
            }
            if (skipped > 0) {
                SKIPS_TAKEN.getAndAdd(this, (long)skipped);
            }
            int accepted = 0;
            int i = 0;
            try {
                for (; i < k; i++) {
                    final Object item = batch[i];
                    batch[i] = null;
                    if (item != SKIP) {
                        consumer.accept((E)item);
                        accepted++;
                    }
                }
                return accepted;
            } catch (final RuntimeException | Error failure) {
                for (int j = i + 1; j < k; j++) {
                    final Object item = batch[j];
                    batch[j] = null;
                    if (item != SKIP && !offer((E)item)) {
                        failure.addSuppressed(new IllegalStateException("queue full: element " + item
                            + " of a failed drain could not be re-offered"));
                    }
                }
                throw failure;
            } finally {
                scratch.busy = nested;
            }
        }
    }

    /** Drains up to {@link #capacity()} elements; see {@link #drain(Consumer, int)}. */
    public int drain(final Consumer<? super E> consumer) {
        return drain(consumer, seq.capacity);
    }

    /**
     * Pushes up to {@code limit} elements from {@code supplier} with one reservation (as many as fit). The supplier
     * runs while the reservation is held, so it may pop from this queue but must not push into it (with
     * {@link Publication#ORDERED} that push would wait for this batch: a deadlock).
     *
     * <p>A {@code null} from the supplier, or an exception, ends the batch after the {@code i} elements it gave:
     * those are pushed (as {@code i} offers), and the exception ({@link NullPointerException} for null) is
     * rethrown. The unused rest of the reservation leaves no phantom elements: it is given back with one CAS when no
     * other producer reserved after this batch (always when one thread pushes), as if it had never been
     * reserved. Otherwise (another producer reserved after it and may already be writing) its slots are marked
     * skipped and published with the batch: consumers pass over them, {@link #size()} and {@link #isEmpty()} do
     * not count them, but until consumers pass them they still take room, so an {@code offer} or {@code fill} may
     * find the queue full with up to that many fewer elements than {@link #capacity()}.
     *
     * @return how many elements were pushed (0 when full)
     */
    public int fill(final Supplier<? extends E> supplier, final int limit) {
        Objects.requireNonNull(supplier, "supplier");
        if (limit < 0) {
            throw new IllegalArgumentException("limit must be >= 0, was " + limit);
        }
        int n = Math.min(limit, seq.capacity);
        while (n > 0) {
            final long s = seq.tryReserveRing(n);
            if (s == CounterSequencer.FULL) {
                if (n == 1) {
                    return 0;
                }
                n = (int)Math.min(n - 1, Math.max(1, seq.ringFreeHint()));
                continue;
            }
            int i = 0;
            try {
                for (; i < n; i++) {
                    store(s + i, Objects.requireNonNull(supplier.get(),
                        "CounterRingQueue does not accept null elements (from the fill supplier)"));
                }
            } finally {
                if (i == n) {
                    seq.publish(s, n);
                } else {
                    endCutShort(s, n, i);
                }
            }
            return n;
        }
        return 0;
    }

    /**
     * Ends a fill reservation {@code [s, s + n)} whose supplier gave only {@code written} elements: gives the rest
     * back when nobody reserved after it, else publishes it as skipped slots (announced in {@code skipsPublished}
     * first, so that {@link #size()} never misses one).
     */
    private void endCutShort(final long s, final int n, final int written) {
        if (seq.publishGivingBack(s, n, written)) {
            return;
        }
        SKIPS_PUBLISHED.getAndAdd(this, (long)(n - written));
        for (int j = written; j < n; j++) {
            store(s + j, SKIP);
        }
        seq.publish(s, n);
    }

    /** Fills up to {@link #capacity()} elements; see {@link #fill(Supplier, int)}. */
    public int fill(final Supplier<? extends E> supplier) {
        return fill(supplier, seq.capacity);
    }

    /** A thread's drain array; {@code busy} while a drain of that thread uses it. */
    private static final class Scratch {
        Object[] items = new Object[64];
        boolean busy;
    }

    /**
     * A snapshot: the elements present at one instant during the call (published by their push, not yet popped),
     * so never more than were present then, never negative, never above {@link #capacity()}. Elements of a push
     * still in progress, and slots skipped by a {@link #fill(Supplier, int)} cut short, are not counted.
     * Lock-free: it retries only while pops succeed. Costs three counter reads and two reads of a rarely written
     * line; only while skipped slots are in the queue does it scan the published slots (validated: the scan counts
     * only if {@code start} did not move during it).
     */
    @Override
    public int size() {
        // taken before the count, published after it: if they are equal, every skipped slot ever announced by the
        // end of the count had been consumed before the count began, so none lay in the range counted
        final long taken = (long)SKIPS_TAKEN.getVolatile(this);
        final long n = seq.size();
        if ((long)SKIPS_PUBLISHED.getVolatile(this) == taken) {
            return (int)n;
        }
        return sizeWithoutSkips();
    }

    /** Counts the published, unconsumed slots that hold elements, with {@code start} still at the end. */
    private int sizeWithoutSkips() {
        for (;;) {
            final long s = seq.start();
            final long e = seq.end();
            int elements = 0;
            for (long p = s; p < e; p++) {
                // below end and at or above an unmoved start: written, not cleared, not reused (a slot is reused
                // only after start passed it)
                if (SLOTS.getAcquire(slots, (int)(p & mask)) != SKIP) {
                    elements++;
                }
            }
            if (seq.start() == s) {
                return elements;
            }
        }
    }

    /** @return {@code size() == 0}: no element present at one instant during the call */
    @Override
    public boolean isEmpty() {
        return size() == 0;
    }

    /** @return the bound given at construction */
    public int capacity() {
        return seq.capacity;
    }

    /** @return the publication rule */
    public Publication publication() {
        return seq.publication;
    }

    /** @return {@code endAlloc}, the positions reserved so far (for tests that must wait for a reservation) */
    long reservedIndex() {
        return seq.reserved();
    }

    /** A weakly consistent iterator over the elements published when it was created; no {@code remove}. */
    @Override
    public Iterator<E> iterator() {
        return new Iterator<>() {
            private long position = seq.start();
            private final long end = seq.end();
            private E next = advance();

            @SuppressWarnings("unchecked")
            private E advance() {
                while (position < end) {
                    final long p = position++;
                    final Object item = SLOTS.getAcquire(slots, (int)(p & mask));
                    if (item != null && item != SKIP && seq.start() <= p) {
                        return (E)item;
                    }
                }
                return null;
            }

            @Override
            public boolean hasNext() {
                return next != null;
            }

            @Override
            public E next() {
                if (next == null) {
                    throw new NoSuchElementException();
                }
                final E e = next;
                next = advance();
                return e;
            }
        };
    }

    @Override
    public String toString() {
        return "CounterRingQueue{capacity=" + seq.capacity + ", size=" + size() + ", " + seq.publication + "}";
    }
}
