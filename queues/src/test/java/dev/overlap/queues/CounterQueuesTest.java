package dev.overlap.queues;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Sequential behaviour, argument checks and a multi-threaded conservation check of every counter queue. */
public class CounterQueuesTest {
    static UnsafeBuffer region(final int bytes) {
        return new UnsafeBuffer(new byte[bytes]);
    }

    @ParameterizedTest
    @EnumSource(Publication.class)
    void blockIsOneShotUntilReset(final Publication p) {
        final IntCounterQueue q = new IntCounterQueue(region(IntCounterQueue.requiredBytes(5, 2)), 5, 2, p);
        assertTrue(q.offer(1));
        assertEquals(3, q.offer(new int[] {2, 3, 4}, 0, 3));
        assertEquals(1, q.poll(-1));
        assertEquals(1, q.offer(new int[] {5, 6, 7}, 0, 3), "clamped at capacity");
        assertFalse(q.offer(8), "pops do not free a block");
        final int[] out = new int[8];
        assertEquals(4, q.poll(out, 0, 8));
        assertArrayEquals(new int[] {2, 3, 4, 5}, java.util.Arrays.copyOf(out, 4));
        assertEquals(-1, q.poll(-1));
        q.reset();
        assertTrue(q.offer(9));
        assertEquals(9, q.poll(-1));
    }

    @ParameterizedTest
    @EnumSource(Publication.class)
    void ringWrapsAndReportsFull(final Publication p) {
        final LongCounterRing r = new LongCounterRing(region(LongCounterRing.requiredBytes(3, 2)), 3, 2, p);
        for (long lap = 0; lap < 50; lap++) {
            assertTrue(r.offer(lap));
            assertTrue(r.offerAll(new long[] {lap + 1, lap + 2}, 0, 2));
            assertFalse(r.offer(99), "full is back-pressure");
            assertFalse(r.offerAll(new long[] {1, 2}, 0, 2));
            assertEquals(3, r.size());
            assertEquals(lap, r.poll(-1));
            assertEquals(1, r.offer(new long[] {7, 8}, 0, 2), "greedy offer pushes what fits");
            final long[] out = new long[4];
            assertEquals(3, r.poll(out, 0, 4));
            assertArrayEquals(new long[] {lap + 1, lap + 2, 7, 0}, out);
            assertEquals(-1, r.poll(-1));
        }
    }

    @Test
    void objectQueueIsAQueue() {
        final CounterRingQueue<String> q = new CounterRingQueue<>(4);
        assertThrows(NullPointerException.class, () -> q.offer(null));
        assertThrows(IllegalArgumentException.class, () -> new CounterRingQueue<String>(0));
        assertTrue(q.offer("a"));
        assertEquals(3, q.fill(() -> "b", 10));
        assertFalse(q.offer("c"));
        assertThrows(IllegalStateException.class, () -> q.add("c"));
        assertEquals("a", q.peek());
        assertTrue(q.contains("b"));
        assertEquals(4, q.size());
        final List<String> got = new ArrayList<>();
        assertEquals(2, q.drain(got::add, 2));
        assertEquals(List.of("a", "b"), got);
        assertEquals("b", q.poll());
        assertEquals("b", q.poll());
        assertNull(q.poll());
        assertTrue(q.isEmpty());
    }

    @Test
    void failedFillLosesNothingAndBlocksNothing() {
        final CounterRingQueue<Integer> q = new CounterRingQueue<>(8);
        final int[] next = {0};
        assertThrows(NullPointerException.class, () -> q.fill(() -> next[0] < 2 ? next[0]++ : null, 5));
        assertEquals(0, q.poll());
        assertEquals(1, q.poll());
        assertNull(q.poll());
        for (int i = 0; i < 20; i++) {
            assertTrue(q.offer(i));
            assertEquals(i, q.poll());
        }
    }

    /** Drain consumers push back into the queue while other threads fill it near full: must never deadlock. */
    @ParameterizedTest
    @EnumSource(Publication.class)
    void drainConsumersMayPushIntoTheSameQueue(final Publication p) throws Exception {
        final CounterRingQueue<Integer> q = new CounterRingQueue<>(16, 4, p);
        final Thread[] threads = new Thread[3];
        for (int t = 0; t < threads.length; t++) {
            threads[t] = new Thread(() -> {
                for (int i = 0; i < 50_000; i++) {
                    q.fill(() -> 1, 6);
                    q.drain(e -> q.offer(e), 7);
                    q.poll();
                }
            });
            threads[t].start();
        }
        for (final Thread t : threads) {
            t.join(60_000);
            assertFalse(t.isAlive(), "deadlock");
        }
    }

    @Test
    void badArgumentsFailAtTheEdge() {
        assertThrows(IllegalArgumentException.class, () -> IntCounterRing.requiredBytes(0));
        assertThrows(IllegalArgumentException.class, () -> IntCounterRing.requiredBytes(8, 3));
        assertThrows(IllegalArgumentException.class, () -> new IntCounterRing(region(64), 8));
        final IntCounterRing r = new IntCounterRing(region(IntCounterRing.requiredBytes(8)), 8);
        assertThrows(IndexOutOfBoundsException.class, () -> r.poll(new int[2], 1, 2));
        assertThrows(IllegalArgumentException.class, () -> r.offerAll(new int[9], 0, 9));
    }

    /** Producers and consumers race on a small ring; every item must come out exactly once, in order per producer. */
    @ParameterizedTest
    @EnumSource(Publication.class)
    void concurrentRingConservesItems(final Publication p) throws Exception {
        final int producers = 2;
        final int consumers = 2;
        final int perProducer = 200_000;
        final LongCounterRing r = new LongCounterRing(region(LongCounterRing.requiredBytes(64, 8)), 64, 8, p);
        final AtomicLong sum = new AtomicLong();
        final AtomicLong count = new AtomicLong();
        final List<Thread> threads = new ArrayList<>();
        final long[][] lastSeen = new long[consumers][producers];
        final boolean[] orderBroken = new boolean[1];
        for (int t = 0; t < producers; t++) {
            final int id = t;
            threads.add(new Thread(() -> {
                final long[] batch = new long[5];
                int i = 0;
                while (i < perProducer) {
                    final int n = Math.min(batch.length, perProducer - i);
                    for (int j = 0; j < n; j++) {
                        batch[j] = ((long)id << 32) | (i + j + 1);
                    }
                    final int pushed = (i & 1) == 0 ? r.offer(batch, 0, n) : (r.offer(batch[0]) ? 1 : 0);
                    i += pushed;
                    if (pushed == 0) {
                        Thread.onSpinWait();
                    }
                }
            }));
        }
        for (int t = 0; t < consumers; t++) {
            final int id = t;
            threads.add(new Thread(() -> {
                final long[] out = new long[7];
                while (count.get() < (long)producers * perProducer) {
                    final int n = r.poll(out, 0, 1 + (int)(count.get() % 7));
                    for (int j = 0; j < n; j++) {
                        final int producer = (int)(out[j] >>> 32);
                        final long seq = out[j] & 0xffffffffL;
                        if (seq <= lastSeen[id][producer]) {
                            orderBroken[0] = true;
                        }
                        lastSeen[id][producer] = seq;
                        sum.addAndGet(seq);
                    }
                    count.addAndGet(n);
                }
            }));
        }
        threads.forEach(Thread::start);
        for (final Thread t : threads) {
            t.join(60_000);
            assertFalse(t.isAlive(), "stuck thread");
        }
        assertEquals((long)producers * perProducer, count.get());
        assertEquals((long)producers * perProducer * (perProducer + 1L) / 2, sum.get());
        assertFalse(orderBroken[0], "per-producer FIFO broken");
        assertEquals(-1, r.poll(-1));
    }
}
