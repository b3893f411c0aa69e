package dev.overlap.queues;

import dev.overlap.core.AlignedHeapBuffer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntSupplier;
import org.jctools.queues.MessagePassingQueue.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The queue contract of issue 15, one test per defect found: {@code size()} is a snapshot (never more than the
 * elements present at one instant, never negative, never above capacity), and a {@code fill} cut short by its
 * supplier leaves no phantom elements. The races are made deterministic where possible: by running the "other
 * thread" inside a counter read of the sequencer ({@link Interposed}), or inside the fill supplier.
 */
public class QueueContractTest {
    /**
     * Counters that run a hook (once) just before the next read of {@code end}: the hook plays a thread that ran
     * between a reader's read of {@code start} and its read of {@code end}.
     */
    static final class Interposed extends CounterCells {
        private final CounterCells inner;
        private Runnable beforeEndRead;

        Interposed(final CounterCells inner) {
            this.inner = inner;
        }

        void beforeNextEndRead(final Runnable hook) {
            beforeEndRead = hook;
        }

        private void hook(final int offset) {
            if (offset == CounterSequencer.END && beforeEndRead != null) {
                final Runnable h = beforeEndRead;
                beforeEndRead = null;
                h.run();
            }
        }

        @Override
        long getVolatile(final int offset) {
            hook(offset);
            return inner.getVolatile(offset);
        }

        @Override
        long getAcquire(final int offset) {
            hook(offset);
            return inner.getAcquire(offset);
        }

        @Override
        void setRelease(final int offset, final long value) {
            inner.setRelease(offset, value);
        }

        @Override
        void setVolatile(final int offset, final long value) {
            inner.setVolatile(offset, value);
        }

        @Override
        long getAndAdd(final int offset, final long delta) {
            return inner.getAndAdd(offset, delta);
        }

        @Override
        boolean compareAndSet(final int offset, final long expected, final long value) {
            return inner.compareAndSet(offset, expected, value);
        }

        @Override
        long compareAndExchange(final int offset, final long expected, final long value) {
            return inner.compareAndExchange(offset, expected, value);
        }
    }

    private static void push(final CounterSequencer seq) {
        final long s = seq.tryReserveRing(1);
        assertTrue(s >= 0, "ring full");
        seq.publish(s, 1);
    }

    private static void pop(final CounterSequencer seq) {
        final long s = seq.start();
        assertTrue(seq.endAfterHelping() > s, "nothing to pop");
        assertTrue(seq.casStart(s, s + 1));
    }

    /**
     * The defect: {@code size()} read {@code start}, then {@code end}; with one element ever present, pushes and
     * pops in between made it answer up to the capacity (1 in ~700,000 calls under a real race). Here the race
     * happens every time: between the reader's two reads, another "thread" pushes and pops five times.
     */
    @ParameterizedTest
    @EnumSource(Publication.class)
    void sizeIsASnapshotNeverAboveElementsPresent(final Publication p) {
        final Interposed cells = new Interposed(new HeapCells(CounterSequencer.slotsOffset(
            CounterSequencer.windows(true, 8, 2))));
        final CounterSequencer seq = new CounterSequencer(cells, true, 8, 2, p);
        final Runnable fivePingPongs = () -> {
            for (int i = 0; i < 5; i++) {
                push(seq);
                pop(seq);
            }
        };
        cells.beforeNextEndRead(fivePingPongs);
        assertEquals(0, seq.size(), "nothing was present at any instant");
        push(seq);
        cells.beforeNextEndRead(fivePingPongs);
        assertEquals(1, seq.size(), "exactly one element was present at every instant");
        cells.beforeNextEndRead(() -> pop(seq));
        assertEquals(0, seq.size(), "the one element was popped before end was read");
    }

    /**
     * The same through the public queues, under a real race: one thread pushes and pops one element at a time
     * (never more than one present), another asks {@code size()} and {@code isEmpty()} as fast as it can.
     */
    @ParameterizedTest
    @EnumSource(Publication.class)
    void sizeStaysWithinElementsPresentUnderARace(final Publication p) throws Exception {
        final CounterRingQueue<Integer> q = new CounterRingQueue<>(16, 4, p);
        final IntCounterRing r = new IntCounterRing(AlignedHeapBuffer.allocate(IntCounterRing.requiredBytes(16, 4)),
            16, 4, p);
        checkSizeRace(() -> {
            q.offer(1);
            return q.poll() == null ? 1 : 0;
        }, q::size);
        checkSizeRace(() -> {
            r.offer(1);
            return r.poll(-1) == -1 ? 1 : 0;
        }, r::size);
    }

    private static void checkSizeRace(final IntSupplier pingPong, final IntSupplier size) throws Exception {
        final AtomicBoolean stop = new AtomicBoolean();
        final AtomicLong lost = new AtomicLong();
        final Thread worker = new Thread(() -> {
            while (!stop.get()) {
                lost.addAndGet(pingPong.getAsInt());
            }
        });
        worker.start();
        int bad = 0;
        int worst = 0;
        try {
            for (int i = 0; i < 2_000_000; i++) {
                final int n = size.getAsInt();
                if (n < 0 || n > 1) {
                    bad++;
                    worst = Math.max(worst, Math.abs(n));
                }
            }
        } finally {
            stop.set(true);
            worker.join();
        }
        assertEquals(0, bad, "size() outside [0, 1] with one element ever present (worst " + worst + ")");
        assertEquals(0, lost.get(), "a poll right after its own offer found nothing (single thread, no other push)");
        assertFalse(worker.isAlive());
    }

    /** A supplier of 100, 101, ... that fails (null or exception) when asked for element number {@code failAt}. */
    private static Supplier<Integer> failingAt(final int failAt, final boolean throwIt) {
        final int[] next = {0};
        return () -> {
            if (next[0] == failAt) {
                if (throwIt) {
                    throw new IllegalStateException("supplier failed on purpose");
                }
                return null;
            }
            return 100 + next[0]++;
        };
    }

    /** Checks that the queue holds exactly {@code expected}, in order, and that its capacity is all usable. */
    private static void assertHoldsExactly(final CounterRingQueue<Integer> q, final List<Integer> expected) {
        assertEquals(expected.size(), q.size(), "size() counts the elements, nothing else");
        assertEquals(expected.isEmpty(), q.isEmpty());
        final List<Integer> got = new ArrayList<>();
        Integer e;
        while ((e = q.poll()) != null) {
            got.add(e);
        }
        assertEquals(expected, got);
        assertEquals(0, q.size());
        assertTrue(q.isEmpty());
        for (int i = 0; i < q.capacity(); i++) {
            assertTrue(q.offer(i), "room for the whole capacity: no slot kept by the failed fill");
        }
        assertFalse(q.offer(-1));
        assertEquals(q.capacity(), q.size());
        for (int i = 0; i < q.capacity(); i++) {
            assertEquals(i, q.poll());
        }
        assertNull(q.poll());
    }

    /**
     * The defect: a fill whose supplier returned null after some elements left its unwritten slots as skip markers
     * that size(), isEmpty() and the full check still counted ({@code size()} 4 while {@code poll()} returned
     * null). Alone on the queue, the fill must give the unwritten tail back.
     */
    @ParameterizedTest
    @EnumSource(Publication.class)
    void fillCutShortBySupplierNullLeavesNoPhantomElements(final Publication p) {
        fillCutShort(p, false);
    }

    /** As {@link #fillCutShortBySupplierNullLeavesNoPhantomElements}, with a supplier that throws. */
    @ParameterizedTest
    @EnumSource(Publication.class)
    void fillCutShortByExceptionLeavesNoPhantomElements(final Publication p) {
        fillCutShort(p, true);
    }

    private static void fillCutShort(final Publication p, final boolean throwIt) {
        for (int failAt = 0; failAt <= 6; failAt++) {
            final CounterRingQueue<Integer> q = new CounterRingQueue<>(8, 2, p);
            assertTrue(q.offer(7));
            final Supplier<Integer> supplier = failingAt(failAt, throwIt);
            if (failAt == 6) {
                assertEquals(6, q.fill(supplier, 6), "did not fail: a full batch");
            } else {
                final RuntimeException e = assertThrows(RuntimeException.class, () -> q.fill(supplier, 6));
                assertEquals(throwIt ? IllegalStateException.class : NullPointerException.class, e.getClass());
            }
            final List<Integer> expected = new ArrayList<>(List.of(7));
            for (int i = 0; i < failAt; i++) {
                expected.add(100 + i);
            }
            assertHoldsExactly(q, expected);
        }
    }

    /**
     * Window completion counters stay right after give-backs: laps of fills cut short at random points, offers and
     * polls, one thread, so every pushed element must be poppable at once and {@code size()} exact at every step
     * (a window counted twice or never would strand or expose positions a lap later).
     */
    @ParameterizedTest
    @EnumSource(Publication.class)
    void fillCutShortKeepsWindowCountersRight(final Publication p) {
        final CounterRingQueue<Integer> q = new CounterRingQueue<>(6, 4, p);
        final SplittableRandom random = new SplittableRandom(15);
        final java.util.ArrayDeque<Integer> model = new java.util.ArrayDeque<>();
        int next = 0;
        for (int step = 0; step < 20_000; step++) {
            switch (random.nextInt(3)) {
                case 0: {
                    final int limit = random.nextInt(1, 6);
                    final int failAt = random.nextInt(0, limit + 1);
                    final int first = next;
                    final int[] given = {0};
                    final Supplier<Integer> supplier = () -> given[0] == failAt ? null : first + given[0]++;
                    int pushed;
                    try {
                        pushed = q.fill(supplier, limit);
                    } catch (final NullPointerException expected) {
                        pushed = given[0];
                    }
                    for (int i = 0; i < pushed; i++) {
                        model.add(first + i);
                    }
                    next += pushed;
                    break;
                }
                case 1:
                    if (q.offer(next)) {
                        model.add(next++);
                    } else {
                        assertEquals(6, model.size(), "full only at capacity");
                    }
                    break;
                default:
                    assertEquals(model.poll(), q.poll());
                    break;
            }
            assertEquals(model.size(), q.size());
            assertEquals(model.peek(), q.peek());
        }
    }

    /**
     * The contended case: another producer reserved after the fill, so the unwritten tail cannot be given back
     * and becomes skipped slots. They must not be counted by size() or isEmpty(), consumers pass them, and the
     * full check counts them until they are passed (documented). The other producer is the supplier itself with
     * WINDOWED (a push there does not wait), and a second thread with ORDERED (its push waits for the fill).
     */
    /**
     * A queue of 8 holding {@code [100, skipped, skipped, skipped, 50]}: a fill of 4 whose supplier gave 100 and
     * then failed after another producer had reserved position 4 behind it (and pushed 50 there), so its unwritten
     * tail could not be given back. The other producer is the supplier itself with WINDOWED (a push there does not
     * wait), and a second thread with ORDERED (its push waits for the fill).
     */
    private static CounterRingQueue<Integer> queueWithSkippedSlots(final Publication p) throws Exception {
        final CounterRingQueue<Integer> q = new CounterRingQueue<>(8, 2, p);
        final int[] given = {0};
        final Thread[] other = new Thread[1];
        final AtomicBoolean otherPushed = new AtomicBoolean();
        final Supplier<Integer> supplier = () -> {
            if (given[0] == 1) {
                // reserve position 4 behind this fill's reservation [0, 4), then fail
                if (p == Publication.WINDOWED) {
                    assertTrue(q.offer(50));
                } else {
                    other[0] = new Thread(() -> otherPushed.set(q.offer(50)));
                    other[0].start();
                    while (q.currentProducerIndex() < 5) {
                        Thread.onSpinWait();
                    }
                }
                return null;
            }
            return 100 + given[0]++;
        };
        assertThrows(NullPointerException.class, () -> q.fill(supplier, 4));
        if (other[0] != null) {
            other[0].join();
            assertTrue(otherPushed.get());
        }
        return q;
    }

    /**
     * Skipped slots are not elements for {@code drain} either: a drain whose batch meets them takes elements in
     * their place, as the loop of polls it stands for would (found by the JCTools conformance port: it returned 0
     * while 50 was there, and a waiting drain then idled beside an element).
     */
    @ParameterizedTest
    @EnumSource(Publication.class)
    void drainTakesElementsInPlaceOfSkippedSlots(final Publication p) throws Exception {
        final CounterRingQueue<Integer> q = queueWithSkippedSlots(p);
        final List<Integer> got = new ArrayList<>();
        assertEquals(1, q.drain(got::add, 1));
        assertEquals(1, q.drain(got::add, 3), "the three skipped slots do not count against the limit");
        assertEquals(List.of(100, 50), got);
        assertNull(q.relaxedPeek());
        assertEquals(0, q.size());
    }

    @ParameterizedTest
    @EnumSource(Publication.class)
    void fillCutShortUnderContentionSkipsAreNotCounted(final Publication p) throws Exception {
        final CounterRingQueue<Integer> q = queueWithSkippedSlots(p);
        assertEquals(5, q.currentProducerIndex(), "the tail was not given back: someone had reserved after it");
        assertEquals(2, q.size(), "100 and 50; the 3 skipped slots are not elements");
        assertFalse(q.isEmpty());
        // the skipped slots still take room until consumers pass them: 8 - 5 positions free
        for (int i = 0; i < 3; i++) {
            assertTrue(q.offer(200 + i));
        }
        assertFalse(q.offer(-1), "full: 5 elements and 3 skipped slots not yet passed");
        assertEquals(5, q.size());
        assertEquals(100, q.peek());
        assertEquals(100, q.poll());
        assertEquals(50, q.peek(), "peek passes the skipped slots");
        assertEquals(4, q.size());
        assertTrue(q.offer(300), "the passed slots are free again");
        final List<Integer> rest = new ArrayList<>();
        q.drain(rest::add);
        assertEquals(List.of(50, 200, 201, 202, 300), rest);
        assertEquals(0, q.size());
        assertTrue(q.isEmpty());
    }

    /**
     * A pop never takes a position that is reserved but not yet written, however the consumers' hint of
     * {@code end} was refreshed: the fill's own supplier plays the consumer while the fill's reservation is held
     * (two published elements ahead of it), so the race is deterministic. A hint taken from the reservations
     * instead of the published prefix makes the third pop claim the unwritten slot: it answers null, and the
     * element written there afterwards is lost (mutant {@code queues-end-hint-from-reservations}).
     */
    @ParameterizedTest
    @EnumSource(Publication.class)
    void aPopNeverTakesAReservationStillBeingWritten(final Publication p) {
        final CounterRingQueue<Integer> q = new CounterRingQueue<>(8, 4, p);
        assertTrue(q.offer(1));
        assertTrue(q.offer(2));
        final List<Integer> popped = new ArrayList<>();
        final Supplier<Integer> supplier = () -> {
            popped.add(q.relaxedPoll());
            popped.add(q.relaxedPoll());
            popped.add(q.relaxedPoll()); // position 2 is this fill's own reservation, not written yet
            return 3;
        };
        assertEquals(1, q.fill(supplier, 1));
        assertEquals(java.util.Arrays.asList(1, 2, null), popped);
        assertEquals(1, q.size(), "the element the fill wrote is in the queue");
        assertEquals(3, q.poll(), "the element the fill wrote comes out");
        assertNull(q.relaxedPoll());
        assertEquals(3, q.currentConsumerIndex());
        assertEquals(3, q.currentProducerIndex());
    }
}
