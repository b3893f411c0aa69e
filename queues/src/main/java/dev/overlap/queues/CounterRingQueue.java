package dev.overlap.queues;

import org.jctools.queues.MessagePassingQueue;
import org.jctools.queues.QueueProgressIndicators;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.AbstractQueue;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.Objects;

/**
 * A bounded MPMC {@link java.util.Queue} and JCTools {@link MessagePassingQueue} of objects on the counter
 * algorithm of {@link IntCounterRing}: one CAS per push batch on {@code endAlloc}, publication through {@code end}
 * (see {@link Publication}), one CAS per pop batch on {@code start}; {@link #drain(MessagePassingQueue.Consumer, int)}
 * and {@link #fill(MessagePassingQueue.Supplier, int)} pay one atomic per batch, as do the waiting forms
 * {@link #drain(MessagePassingQueue.Consumer, MessagePassingQueue.WaitStrategy, MessagePassingQueue.ExitCondition)}
 * and {@link #fill(MessagePassingQueue.Supplier, MessagePassingQueue.WaitStrategy, MessagePassingQueue.ExitCondition)}.
 *
 * <p><b>A drop-in for JCTools' {@code MpmcArrayQueue}</b> in both publication modes, every
 * {@link MessagePassingQueue} method with its contract: {@code offer}, {@code poll} and {@code peek} as on a
 * {@link java.util.Queue} ("empty" only when no element is in the queue), {@code relaxedOffer},
 * {@code relaxedPoll} and {@code relaxedPeek} (which may answer "empty" or "full" spuriously), {@code drain} and
 * {@code fill} (which behave as loops of relaxed calls taking their batch with one atomic), and
 * {@link QueueProgressIndicators}. The modes differ in who waits (see the table in {@link Publication}):
 * <ul>
 * <li>{@link Publication#ORDERED} (the default): a push returns only once its element is poppable, waiting for
 * pushes that reserved before it; pops never wait. {@code relaxedPoll} and {@code relaxedPeek} are {@code poll}
 * and {@code peek}.</li>
 * <li>{@link Publication#WINDOWED}: pushes never wait; an element becomes poppable when every push that reserved a
 * position in its window, or before it, has written. {@code poll} and {@code peek} therefore wait (spin, then
 * yield) while the oldest reserved position's window still has a push writing, exactly as
 * {@code MpmcArrayQueue.poll} waits for a producer that claimed the head slot and has not written it yet;
 * {@code relaxedPoll}, {@code relaxedPeek} and {@code drain} never wait and answer "empty" instead.</li>
 * </ul>
 * JCTools' argument conventions hold: {@link IllegalArgumentException} for a null consumer, supplier, wait
 * strategy or exit condition and for a negative limit; {@link NullPointerException} for a null element.
 *
 * <p><b>Booleans, not result codes.</b> Overlap's other non-blocking offers return Aeron-style result codes
 * ({@link dev.overlap.core.OfferResult}); this class keeps the signatures of the contracts it implements, which win:
 * {@code offer} and {@code relaxedOffer} return {@code false} when the queue is full (the
 * {@link dev.overlap.core.OfferResult#BACK_PRESSURED} case; it lives on the heap and is never closed or freed), and
 * {@code fill} returns a count.
 *
 * <p><b>Which shapes it is for.</b> The counter design pays one atomic per batch, so {@code fill}/{@code drain}
 * between threads that all push and pop is where it beats per-slot queues. Its publication goes through one
 * counter ({@code end}) that every push writes and a pop reads to see anything new: with one producer and one
 * consumer moving single items while the consumer keeps up (the queue empty), every publish must take that line
 * back from the consumer, and the producer runs several times slower than alone. JCTools' queues publish through
 * per-slot sequences, which a consumer one cache line behind no longer touches: prefer them for single-item
 * producer/consumer pipes. Measured side by side in {@code MpqShapesBenchmark} and {@code MpqSymmetricBenchmark}
 * (bench module).
 *
 * <p>On-heap (counters in padded fields through VarHandles, items in an {@code Object[]}): needs no JVM flag.
 * Consumed slots are cleared (nothing stays reachable from the queue after it is popped): a consumer claims
 * positions with its CAS on {@code start}, then reads and clears the slots; a producer that reuses a slot a lap
 * later waits until it is clear (only ever for a consumer that is between its CAS and its clearing store).
 *
 * <p><b>Guarantees.</b> In both modes nothing is lost, duplicated or invented and elements come out in the order
 * their pushes reserved positions (FIFO per producer). {@code offer}, {@code poll}, {@code peek} and their "full"
 * and "empty" answers are linearizable in both modes (Lincheck model checking and stress). A batch
 * {@code drain} takes the oldest {@code min(limit, n)} elements atomically, {@code n} being the elements published
 * when it read {@code end}, though a "full" answer or a peek racing with it may still see the elements it is
 * claiming. {@code fill} pushes a greedy prefix atomically, linearizable as that many offers. With
 * {@link Publication#WINDOWED} the relaxed calls and {@code drain} may miss elements exactly as far as the
 * publication lag stated there allows (Lincheck checks that bound, not just loss and order), and "full" counts
 * reservations of pushes in progress. {@link #size()} is a snapshot in both modes: the elements present at one
 * instant of the call (never more, never negative, never above {@link #capacity()}). A {@code fill} whose
 * supplier fails leaves no phantom element (see {@link #fill(MessagePassingQueue.Supplier, int)}). Iteration is
 * weakly consistent (it returns elements that were present at some point during the iteration) and does not
 * support {@code remove}.
 *
 * <p><b>Thread-safety and memory ordering.</b> Every method from any thread. Actions before {@code offer(e)}
 * happen-before actions after the {@code poll()} that returns {@code e}. A {@code fill} supplier must not push into
 * the same queue (with {@link Publication#ORDERED} that push would wait for the fill's own batch) nor, with
 * {@link Publication#WINDOWED}, call a strict pop (it would wait for the fill's own positions); a {@code drain}
 * consumer may use the queue freely.
 *
 * @param <E> element type
 */
public final class CounterRingQueue<E> extends AbstractQueue<E>
    implements MessagePassingQueue<E>, QueueProgressIndicators {
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
        this.slots = new Object[CounterSequencer.slots(true, capacity, windowSize, publication)];
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

    /** The batch the waiting {@code drain} and {@code fill} forms take with each atomic. */
    private static final int WAITING_BATCH = 256;

    @Override
    public boolean relaxedOffer(final E e) {
        return offer(e);
    }

    /**
     * Removes the oldest element; {@code null} only when the queue holds none at one instant of the call. With
     * {@link Publication#WINDOWED}, waits while a push into the oldest element's window is still writing (as
     * {@code MpmcArrayQueue.poll} waits for a claimed, unwritten head slot); see {@link #relaxedPoll()}.
     */
    @Override
    @SuppressWarnings("unchecked")
    public E poll() {
        int spins = 0;
        for (;;) {
            final long s = seq.start();
            if (s >= seq.publishedFor(s, 1) && s >= seq.endAfterHelping()) {
                if (!pushInProgressAt(s)) {
                    return null;
                }
                CounterSequencer.spin(spins++);
                continue;
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

    /**
     * As {@link #poll()}, but never waits: with {@link Publication#WINDOWED} it answers {@code null} while the
     * oldest element is not yet published (the lag stated in {@link Publication#WINDOWED}); with
     * {@link Publication#ORDERED} it is {@link #poll()}.
     */
    @Override
    @SuppressWarnings("unchecked")
    public E relaxedPoll() {
        for (;;) {
            final long s = seq.start();
            if (s >= seq.publishedFor(s, 1) && s >= seq.endAfterHelping()) {
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

    /**
     * True when a strict pop that found nothing published at {@code s} must wait: with {@link Publication#WINDOWED},
     * a push has reserved position {@code s} (it or a push of its window is still writing). With
     * {@link Publication#ORDERED} never: an unpublished reservation belongs to an offer that has not returned, so
     * "empty" is a linearizable answer.
     */
    private boolean pushInProgressAt(final long s) {
        return seq.publication == Publication.WINDOWED && seq.reserved() > s;
    }

    /**
     * The oldest element without removing it; {@code null} only when the queue holds none at one instant of the
     * call. With {@link Publication#WINDOWED}, waits as {@link #poll()} does; see {@link #relaxedPeek()}.
     */
    @Override
    public E peek() {
        return peek(true);
    }

    /** As {@link #peek()}, but never waits (see {@link #relaxedPoll()}). */
    @Override
    public E relaxedPeek() {
        return peek(false);
    }

    @SuppressWarnings("unchecked")
    private E peek(final boolean strict) {
        int spins = 0;
        for (;;) {
            final long s = seq.start();
            if (s >= seq.publishedFor(s, 1) && s >= seq.endAfterHelping()) {
                if (!strict || !pushInProgressAt(s)) {
                    return null;
                }
                CounterSequencer.spin(spins++);
                continue;
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
     * <p>Never waits: with {@link Publication#WINDOWED} it takes what is published (see {@link #relaxedPoll()}).
     *
     * @param consumer receives the elements; must not be null
     * @param limit    the most elements to take; {@code >= 0}
     * @return how many elements the consumer accepted
     * @throws IllegalArgumentException for a null consumer or a negative limit
     */
    @Override
    @SuppressWarnings("unchecked")
    public int drain(final Consumer<E> consumer, final int limit) {
        requireArgument(consumer, "consumer");
        requireLimit(limit);
        int total = 0;
        for (;;) {
            final int want = limit - total;
            final long s = seq.start();
            long e = seq.publishedFor(s, want);
            if (s >= e && s >= (e = seq.endAfterHelping())) {
                return total;
            }
            final int k = (int)Math.min(want, e - s);
            if (k == 0) {
                return total;
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
                total += accepted;
                if (skipped == 0 || total == limit) {
                    return total;
                }
                // skipped slots are not elements: claim more in their place, as a loop of polls would
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

    /**
     * Drains batches (one atomic each, see {@link #drain(MessagePassingQueue.Consumer, int)}) until one finds
     * nothing published: like a loop of {@link #relaxedPoll()} calls, so it may run for as long as producers keep
     * the queue non-empty, and the queue may be non-empty again when it returns.
     *
     * @param consumer receives the elements; must not be null
     * @return how many elements the consumer accepted
     * @throws IllegalArgumentException for a null consumer
     */
    @Override
    public int drain(final Consumer<E> consumer) {
        requireArgument(consumer, "consumer");
        int total = 0;
        for (;;) {
            final int n = drain(consumer, seq.capacity);
            if (n == 0) {
                return total;
            }
            total += n;
        }
    }

    /**
     * Drains in batches of up to {@value #WAITING_BATCH} (one atomic each) while {@code exit} says to keep running,
     * calling {@code wait} with a count of consecutive empty batches whenever one finds nothing (the count restarts
     * at 0 after a non-empty batch). {@code exit} is checked once per batch.
     *
     * @param consumer receives the elements; must not be null
     * @param wait     the idle strategy between empty batches; must not be null
     * @param exit     checked before every batch; must not be null
     * @throws IllegalArgumentException for a null argument
     */
    @Override
    public void drain(final Consumer<E> consumer, final WaitStrategy wait, final ExitCondition exit) {
        requireArgument(consumer, "consumer");
        requireArgument(wait, "wait strategy");
        requireArgument(exit, "exit condition");
        final int batch = Math.min(WAITING_BATCH, seq.capacity);
        int idle = 0;
        while (exit.keepRunning()) {
            idle = drain(consumer, batch) == 0 ? wait.idle(idle) : 0;
        }
    }

    private static void requireArgument(final Object argument, final String name) {
        if (argument == null) {
            throw new IllegalArgumentException(name + " must not be null");
        }
    }

    private static void requireLimit(final int limit) {
        if (limit < 0) {
            throw new IllegalArgumentException("limit must be >= 0, was " + limit);
        }
    }

    /**
     * Pushes up to {@code limit} elements from {@code supplier} with one reservation (as many as fit). The supplier
     * runs while the reservation is held, so it may pop from this queue with the calls that never wait
     * ({@code relaxedPoll}, {@code relaxedPeek}, {@code drain}; with {@link Publication#ORDERED} also {@code poll}
     * and {@code peek}) but must not push into it (with {@link Publication#ORDERED} that push would wait for this
     * batch: a deadlock), nor call a strict pop with {@link Publication#WINDOWED} (it would wait for this batch's
     * own unwritten positions).
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
     * <p>JCTools' {@link MessagePassingQueue.Supplier} contract asks for a supplier that never throws and never
     * returns null; this queue also survives one that does, as described above.
     *
     * @param supplier gives the elements; must not be null
     * @param limit    the most elements to push; {@code >= 0}
     * @return how many elements were pushed (0 when full)
     * @throws IllegalArgumentException for a null supplier or a negative limit
     * @throws NullPointerException     when the supplier returns null (after pushing what it gave before)
     */
    @Override
    public int fill(final Supplier<E> supplier, final int limit) {
        requireArgument(supplier, "supplier");
        requireLimit(limit);
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

    /**
     * Fills up to {@link #capacity()} elements with one reservation; see
     * {@link #fill(MessagePassingQueue.Supplier, int)}.
     *
     * @param supplier gives the elements; must not be null
     * @return how many elements were pushed (0 when full)
     * @throws IllegalArgumentException for a null supplier
     */
    @Override
    public int fill(final Supplier<E> supplier) {
        return fill(supplier, seq.capacity);
    }

    /**
     * Fills in batches of up to {@value #WAITING_BATCH} (one reservation each) while {@code exit} says to keep
     * running, calling {@code wait} with a count of consecutive full attempts whenever the queue is full (the count
     * restarts at 0 after a batch went in). {@code exit} is checked once per batch.
     *
     * @param supplier gives the elements; must not be null
     * @param wait     the idle strategy while the queue is full; must not be null
     * @param exit     checked before every batch; must not be null
     * @throws IllegalArgumentException for a null argument
     */
    @Override
    public void fill(final Supplier<E> supplier, final WaitStrategy wait, final ExitCondition exit) {
        requireArgument(supplier, "supplier");
        requireArgument(wait, "wait strategy");
        requireArgument(exit, "exit condition");
        final int batch = Math.min(WAITING_BATCH, seq.capacity);
        int idle = 0;
        while (exit.keepRunning()) {
            idle = fill(supplier, batch) == 0 ? wait.idle(idle) : 0;
        }
    }

    /** A thread's drain array; {@code busy} while a drain of that thread uses it. */
    private static final class Scratch {
        Object[] items = new Object[64];
        boolean busy;
    }

    /**
     * A snapshot: the elements present at one instant during the call (published by their push, not yet popped),
     * so never more than were present then, never negative, never above {@link #capacity()}. Elements of a push
     * still in progress, and slots skipped by a {@link #fill(MessagePassingQueue.Supplier, int)} cut short, are not counted.
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
    @Override
    public int capacity() {
        return seq.capacity;
    }

    /** @return the publication rule */
    public Publication publication() {
        return seq.publication;
    }

    /** @return the positions reserved by pushes so far ({@code endAlloc}), as JCTools' producer index */
    @Override
    public long currentProducerIndex() {
        return seq.reserved();
    }

    /** @return the positions claimed by pops so far ({@code start}), as JCTools' consumer index */
    @Override
    public long currentConsumerIndex() {
        return seq.start();
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
