package dev.overlap.queues;

/**
 * The counter algorithm shared by every queue of this package: positions (64-bit, never wrapping) are reserved,
 * written, published and popped through padded counters; item storage belongs to the caller. One job: decide
 * which positions a push or pop owns and when pushed positions become poppable.
 *
 * <p>Region layout (byte offsets; each counter alone on a {@value #PAD}-byte line):
 * {@code start} (next position to pop) with the consumers' hint of {@code end} beside it, {@code end} (published
 * prefix: every position below it is written and poppable), {@code endAlloc} (next position to reserve) with the
 * producers' hint of {@code start} beside it, then one 8-byte completion counter per window
 * ({@link Publication#WINDOWED} only), then the slots at {@link #slotsOffset()}.
 *
 * <p>The two hints keep each side on its own line while the other side is not the bottleneck (the way JCTools'
 * SPSC queues cache the other side's index): a pop reads {@code end} only when its hint no longer covers the
 * positions it wants, a push reads {@code start} only when its hint says the ring may be full. A hint is a value
 * the counter had (both counters only grow), so it is never ahead of the truth; the end hint is written with
 * release and read with acquire, so a pop that trusts it sees the items below it as the pop that read
 * {@code end} did.
 *
 * <p>Block form (Atos): {@code reserveBlock} is one {@code getAndAdd}; capacity bounds all pushes until
 * {@link #reset()}. Ring form: {@code tryReserveRing} is one CAS bounded by {@code start + capacity}; the ring has
 * {@code slots >= capacity + windowSize} (a power of two), so a slot is reused only after its whole window was
 * popped, which keeps per-window counters valid across laps (they count up: lap {@code L} of a window is complete
 * at {@code (L+1) * windowSize}).
 */
final class CounterSequencer {
    static final int PAD = 128;
    static final int START = 0;
    /** The consumers' hint of {@code end}, on {@code start}'s line. */
    static final int CACHED_END = START + 8;
    static final int END = PAD;
    static final int END_ALLOC = 2 * PAD;
    /** The producers' hint of {@code start}, on {@code endAlloc}'s line. */
    static final int CACHED_START = END_ALLOC + 8;
    static final int WINDOWS = 3 * PAD;
    /** {@link #tryReserveRing} result when there is no room. */
    static final long FULL = -1;
    private static final int SPINS_BEFORE_YIELD = 256;

    final CounterCells cells;
    final Publication publication;
    final boolean ring;
    final int capacity;
    final long slotMask;
    private final long reserveLimit;
    private final int windowShift;
    private final long windowSize;
    private final long windowMask;
    private final int windowCountShift;
    private final int windowCount;
    private final int slotsOffset;

    CounterSequencer(final CounterCells cells, final boolean ring, final int capacity, final int windowSize,
        final Publication publication) {
        this.cells = cells;
        this.ring = ring;
        this.capacity = capacity;
        this.publication = publication;
        this.windowShift = Integer.numberOfTrailingZeros(windowSize);
        this.windowSize = windowSize;
        this.windowCount = windows(ring, capacity, windowSize);
        this.windowCountShift = Integer.numberOfTrailingZeros(windowCount);
        this.windowMask = windowCount - 1;
        this.slotsOffset = slotsOffset(windowCount);
        this.slotMask = ring ? slots(true, capacity, windowSize, publication) - 1 : -1L;
        this.reserveLimit = ring ? Long.MAX_VALUE : capacity;
        reset();
    }

    // ---------------------------------------------------------------- layout

    static int defaultWindowSize(final int capacity) {
        return Math.min(64, Integer.highestOneBit(Math.max(1, capacity)));
    }

    static void validate(final boolean ring, final int capacity, final int windowSize, final int itemBytes,
        final Publication publication) {
        if (publication == null) {
            throw new NullPointerException("publication");
        }
        if (windowSize < 1 || windowSize > (1 << 20) || Integer.bitCount(windowSize) != 1) {
            throw new IllegalArgumentException("windowSize must be a power of two in 1.." + (1 << 20) + ", was "
                + windowSize);
        }
        final long max = ring ? (1 << 30) - windowSize : (Integer.MAX_VALUE - (1 << 22)) / itemBytes;
        if (capacity < 1 || capacity > max) {
            throw new IllegalArgumentException("capacity must be in 1.." + max + " for " + (ring ? "a ring" : "a block")
                + " of " + itemBytes + "-byte items with windows of " + windowSize + ", was " + capacity);
        }
    }

    static int slots(final boolean ring, final int capacity, final int windowSize) {
        return ring ? ceilPow2(capacity + windowSize) : capacity;
    }

    /**
     * The slots a ring of this publication rule indexes: {@link Publication#WINDOWED} needs a window of slack
     * ({@link #slots(boolean, int, int)}), so that a slot is reused only after its whole window was popped and the
     * window counters stay valid across laps; {@link Publication#ORDERED} counts no windows and needs only
     * {@code capacity} rounded up to a power of two (a position {@code p} is reserved only below
     * {@code start + capacity}, so the position that used its slot a lap before has been claimed by a pop).
     */
    static int slots(final boolean ring, final int capacity, final int windowSize, final Publication publication) {
        return ring && publication == Publication.ORDERED ? ceilPow2(capacity) : slots(ring, capacity, windowSize);
    }

    static int windows(final boolean ring, final int capacity, final int windowSize) {
        return ring ? slots(true, capacity, windowSize) / windowSize
            : ceilPow2((int)(((long)capacity + windowSize - 1) / windowSize));
    }

    static int slotsOffset(final int windows) {
        return (WINDOWS + windows * 8 + 63) & ~63;
    }

    static int regionBytes(final boolean ring, final int capacity, final int windowSize, final int itemBytes) {
        final long bytes = slotsOffset(windows(ring, capacity, windowSize))
            + (long)slots(ring, capacity, windowSize) * itemBytes;
        if (bytes > Integer.MAX_VALUE - 128) {
            throw new IllegalArgumentException("a queue of " + capacity + " items of " + itemBytes
                + " bytes does not fit in one region");
        }
        return (int)bytes;
    }

    static int ceilPow2(final int value) {
        return value <= 1 ? 1 : Integer.highestOneBit(value - 1) << 1;
    }

    int slotsOffset() {
        return slotsOffset;
    }

    /** Zeroes every counter. Only while no thread uses the queue. */
    void reset() {
        for (int w = 0; w < windowCount; w++) {
            cells.setVolatile(WINDOWS + (w << 3), 0);
        }
        cells.setVolatile(CACHED_START, 0);
        cells.setVolatile(END_ALLOC, 0);
        cells.setVolatile(END, 0);
        cells.setVolatile(CACHED_END, 0);
        cells.setVolatile(START, 0);
    }

    // ---------------------------------------------------------------- reading

    long start() {
        return cells.getVolatile(START);
    }

    long end() {
        return cells.getAcquire(END);
    }

    /**
     * A published bound for a pop at {@code s} that wants {@code want} positions: the consumers' hint when it
     * covers them (no read of the producers' line), else {@code end} itself, which becomes the hint when it covers
     * more than this pop wants (a pop that takes the last published position leaves the hint alone: the next pop
     * would read {@code end} anyway).
     *
     * @return a value {@code end} has had, at least the hint's
     */
    long publishedFor(final long s, final int want) {
        final long hint = cells.getAcquire(CACHED_END);
        if (hint - s >= want) {
            return hint;
        }
        final long e = cells.getAcquire(END);
        if (e - s > want) {
            cells.setRelease(CACHED_END, e);
        }
        return e;
    }

    long reserved() {
        return cells.getVolatile(END_ALLOC);
    }

    boolean casStart(final long expected, final long value) {
        return cells.compareAndSet(START, expected, value);
    }

    /**
     * Called by a pop that found {@code start >= end}: in {@link Publication#WINDOWED} mode it helps move
     * {@code end} (as Atos does from the pop side); in {@link Publication#ORDERED} mode {@code end} is exact.
     *
     * @return the published prefix after helping
     */
    long endAfterHelping() {
        return publication == Publication.WINDOWED ? advance() : cells.getAcquire(END);
    }

    /**
     * The published, unpopped positions at one instant: {@code end - start} from a read of {@code end} taken while
     * {@code start} held one value (read {@code start}, {@code end}, {@code start} again; retry while {@code start}
     * moved, as JCTools' {@code size()} does with its indices). Reading the two counters apart counts the
     * positions popped in between as present: with one item ever present, that answered up to the capacity.
     * Since {@code start <= end <= start + capacity} holds at every instant (pops claim only published positions;
     * a ring reserves only below {@code start + capacity}, a block only below {@code capacity}), the answer is in
     * {@code [0, capacity]}. Lock-free: a retry means a pop succeeded.
     *
     * @return {@code end - start} at the instant {@code end} was read
     */
    long size() {
        long s = cells.getVolatile(START);
        for (;;) {
            final long e = cells.getVolatile(END);
            final long again = cells.getVolatile(START);
            if (again == s) {
                return e - s;
            }
            s = again;
        }
    }

    // ---------------------------------------------------------------- reserving

    /** Atos' reservation: one getAndAdd. Positions at or past {@code capacity} must not be written. */
    long reserveBlock(final int n) {
        return cells.getAndAdd(END_ALLOC, n);
    }

    /** @return how many of the {@code n} positions reserved at {@code s} lie inside the block */
    int blockWritable(final long s, final int n) {
        return (int)Math.max(0, Math.min(n, capacity - s));
    }

    /**
     * Reserves {@code n <= capacity} ring positions, all or nothing, with one CAS on {@code endAlloc} bounded by
     * {@code start + capacity}.
     *
     * @return the first position, or {@link #FULL}: in {@link Publication#ORDERED} mode when published, unpopped
     * items leave fewer than {@code n} free at one instant (reservations still being written are waited out, so
     * that "full" is linearizable); in {@link Publication#WINDOWED} mode when reservations leave fewer than
     * {@code n} free
     */
    long tryReserveRing(final int n) {
        return tryReserveRing(n, capacity);
    }

    /** As {@link #tryReserveRing(int)} with {@code limit} (at most the ring's slots minus a window) as the bound. */
    long tryReserveRing(final int n, final long limit) {
        final long capacity = limit;
        int spins = 0;
        long a = cells.getVolatile(END_ALLOC);
        for (;;) {
            if (a + n - cells.getAcquire(CACHED_START) > capacity) {
                long st = cells.getVolatile(START);
                cells.setRelease(CACHED_START, st);
                if (a + n - st > capacity) {
                    if (publication == Publication.WINDOWED) {
                        return FULL;
                    }
                    final long e = cells.getVolatile(END);
                    st = cells.getVolatile(START);
                    if (e + n - st > capacity) {
                        return FULL;
                    }
                    spin(spins++);
                    a = cells.getVolatile(END_ALLOC);
                    continue;
                }
            }
            // a failed exchange hands back the current value: retry with it without another read (one ownership
            // transfer of the contended line per attempt instead of a shared read followed by an upgrade)
            final long witness = cells.compareAndExchange(END_ALLOC, a, a + n);
            if (witness == a) {
                return a;
            }
            a = witness;
        }
    }

    /**
     * Ends a ring reservation {@code [s, s + n)} of which only the first {@code written} positions were written:
     * gives the unwritten tail back with one CAS of {@code endAlloc} from {@code s + n} to {@code s + written},
     * then publishes the written prefix. The CAS succeeds exactly when nobody reserved after this reservation
     * (always in single-threaded use); then the tail is as if it had never been reserved (the next reservation
     * gets those positions, and they are counted once, by whoever writes them). When it fails, nothing changed:
     * the caller still owns all {@code n} positions and must fill and {@link #publish} them.
     *
     * <p>Why this is safe. Nobody waits for or counts a position at or above {@code endAlloc}: with
     * {@link Publication#ORDERED} a later push waits for {@code end} to reach its own first position, which after
     * the give-back is {@code s + written}; with {@link Publication#WINDOWED} a window counter only ever counts
     * written positions, and a written position is never given back, so "count == reserved positions of the
     * window" still implies "every reserved position of the window is written" even though {@code endAlloc}
     * moved down. A push of the same window that stopped its {@link #advance()} at the withdrawn reservation is
     * published by the {@code advance()} this method runs after the CAS (ours, or the one of {@link #publish}).
     * {@code endAlloc} returning to an earlier value is harmless to other reservers: a CAS from {@code a} to
     * {@code a + k} claims {@code [a, a + k)}, free whenever {@code endAlloc == a}, and the capacity bound was
     * checked against a {@code start} that only grows.
     *
     * @return true when the tail was given back (and the prefix published); false when someone reserved after
     * this reservation (nothing done)
     */
    boolean publishGivingBack(final long s, final int n, final int written) {
        if (!cells.compareAndSet(END_ALLOC, s + n, s + written)) {
            return false;
        }
        if (written > 0) {
            publish(s, written);
        } else if (publication == Publication.WINDOWED) {
            advance();
        }
        return true;
    }

    /** @return a hint of the free ring positions (reservations count as used) */
    long ringFreeHint() {
        final long a = cells.getVolatile(END_ALLOC);
        return capacity - (a - cells.getVolatile(START));
    }

    // ---------------------------------------------------------------- publishing

    /**
     * Publishes the {@code written} items at {@code [s, s + written)} of a reservation starting at {@code s}
     * (block overflow: {@code written} may be 0 or less than reserved).
     */
    void publish(final long s, final int written) {
        if (publication == Publication.ORDERED) {
            publishOrdered(s, written);
        } else {
            publishWindowed(s, written);
        }
    }

    private void publishOrdered(final long s, final int written) {
        if (written == 0) {
            // Block overflow: wait until every reservation that fits is published, so the failure linearizes
            // at an instant where the block really is full.
            final long mustSee = Math.min(s, reserveLimit);
            int spins = 0;
            while (cells.getAcquire(END) < mustSee) {
                spin(spins++);
            }
            return;
        }
        int spins = 0;
        while (cells.getAcquire(END) != s) {
            spin(spins++);
        }
        cells.setRelease(END, s + written);
    }

    private void publishWindowed(final long s, final int written) {
        final long last = s + written;
        long p = s;
        while (p < last) {
            final long w = p >>> windowShift;
            final long portion = Math.min(last, (w + 1) << windowShift) - p;
            cells.getAndAdd(windowOffset(w), portion);
            p += portion;
        }
        // Dekker with advance(): our counts are in before we read end; whoever moves end past our window's base
        // after this read will see them.
        if (cells.getVolatile(END) < last || written == 0) {
            advance();
        }
    }

    private int windowOffset(final long window) {
        return WINDOWS + (int)((window & windowMask) << 3);
    }

    /**
     * Moves {@code end} over every window that is complete, then over the tail of the window it stops in when
     * every position reserved there so far is written (Listing 6's {@code endCount == endMax}, per window).
     * Any thread may call it; {@code end} only ever takes verified values, by CAS.
     *
     * @return the published prefix seen last
     */
    long advance() {
        long e = cells.getVolatile(END);
        for (;;) {
            final long w = e >>> windowShift;
            final long base = w << windowShift;
            final long lapOffset = (w >>> windowCountShift) << windowShift;
            // completed count first, reservations second: what was complete when counted was reserved by then
            final long done = cells.getVolatile(windowOffset(w)) - lapOffset;
            final long reservedEnd = Math.min(Math.min(cells.getVolatile(END_ALLOC), reserveLimit), base + windowSize);
            if (done != reservedEnd - base || base + done <= e) {
                return e;
            }
            final long target = base + done;
            if (cells.compareAndSet(END, e, target)) {
                e = target;
                if (done != windowSize) {
                    return e;
                }
            } else {
                e = cells.getVolatile(END);
            }
        }
    }

    static void spin(final int spins) {
        if (spins < SPINS_BEFORE_YIELD) {
            Thread.onSpinWait();
        } else {
            Thread.yield();
        }
    }
}
