package dev.overlap.queues;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The queue contract of issue 15, one test per defect found: {@code size()} is a snapshot (never more than the
 * elements present at one instant, never negative, never above capacity). The races are made deterministic where
 * possible by running the "other thread" inside a counter read of the sequencer ({@link Interposed}).
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
        final IntCounterRing r = new IntCounterRing(new UnsafeBuffer(new byte[IntCounterRing.requiredBytes(16, 4)]),
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
}
