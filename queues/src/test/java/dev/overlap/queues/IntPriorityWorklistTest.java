package dev.overlap.queues;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

public class IntPriorityWorklistTest {
    static IntPriorityWorklist worklist(final int capacity, final int threshold, final int delta) {
        return new IntPriorityWorklist(new UnsafeBuffer(new byte[IntPriorityWorklist.requiredBytes(capacity)]),
            capacity, threshold, delta);
    }

    @Test
    void servesBandsInPriorityOrderAndKeepsKeys() {
        final IntPriorityWorklist w = worklist(16, 10, 10);
        assertTrue(w.push(1, 25));
        assertTrue(w.push(2, 5));
        assertTrue(w.push(3, 15));
        assertTrue(w.push(4, 35));
        final List<String> got = new ArrayList<>();
        long e;
        while ((e = w.poll(Long.MIN_VALUE)) != Long.MIN_VALUE) {
            got.add(IntPriorityWorklist.item(e) + "@" + IntPriorityWorklist.key(e));
        }
        assertEquals(List.of("2@5", "3@15", "1@25", "4@35"), got);
        assertEquals(40, w.threshold());
    }

    @Test
    void fullIsBackPressure() {
        final IntPriorityWorklist w = worklist(2, 10, 1);
        assertTrue(w.push(1, 1));
        assertTrue(w.push(2, 1));
        assertTrue(w.push(3, 1), "near full: goes far");
        assertTrue(w.push(4, 100));
        assertFalse(w.push(5, 100));
        assertThrows(IllegalArgumentException.class, () -> worklist(4, 0, 0));
    }

    @Test
    void longWorklistKeepsLongKeys() {
        final LongPriorityWorklist w = new LongPriorityWorklist(
            new UnsafeBuffer(new byte[LongPriorityWorklist.requiredBytes(8)]), 8, 1L << 40, 1L << 40);
        assertTrue(w.push(7L << 33, 3L << 40));
        assertTrue(w.push(5, 1));
        final long[] e = new long[2];
        assertTrue(w.poll(e));
        assertEquals(1, e[0]);
        assertEquals(5, e[1]);
        assertTrue(w.poll(e));
        assertEquals(3L << 40, e[0]);
        assertEquals(7L << 33, e[1]);
        assertFalse(w.poll(e));
    }

    @Test
    void concurrentLongWorklistLosesNothing() throws Exception {
        final LongPriorityWorklist w = new LongPriorityWorklist(
            new UnsafeBuffer(new byte[LongPriorityWorklist.requiredBytes(1 << 10)]), 1 << 10, 0, 8);
        final int perThread = 50_000;
        final AtomicLong popped = new AtomicLong();
        final AtomicLong sum = new AtomicLong();
        final Thread[] threads = new Thread[2];
        for (int t = 0; t < threads.length; t++) {
            final int id = t;
            threads[t] = new Thread(() -> {
                final long[] e = new long[2];
                int pushed = 0;
                while (pushed < perThread || popped.get() < (long)threads.length * perThread) {
                    final long item = id * perThread + pushed + 1;
                    if (pushed < perThread && w.push(item, item % 700)) {
                        pushed++;
                    }
                    if (w.poll(e)) {
                        if (e[0] != e[1] % 700) {
                            throw new AssertionError("re-keyed " + e[1]);
                        }
                        popped.incrementAndGet();
                        sum.addAndGet(e[1]);
                    }
                }
            });
        }
        for (final Thread t : threads) {
            t.start();
        }
        for (final Thread t : threads) {
            t.join(60_000);
            assertFalse(t.isAlive(), "stuck");
        }
        final long n = (long)threads.length * perThread;
        assertEquals(n, popped.get());
        assertEquals(n * (n + 1) / 2, sum.get());
    }

    @Test
    void concurrentPushesAndMovesLoseNothing() throws Exception {
        final IntPriorityWorklist w = worklist(1 << 12, 0, 8);
        final int perThread = 100_000;
        final AtomicLong popped = new AtomicLong();
        final AtomicLong sum = new AtomicLong();
        final Thread[] threads = new Thread[3];
        for (int t = 0; t < threads.length; t++) {
            final int id = t;
            threads[t] = new Thread(() -> {
                int pushed = 0;
                while (pushed < perThread || popped.get() < (long)threads.length * perThread) {
                    if (pushed < perThread && w.push(id * perThread + pushed + 1, (pushed * 7919) % 1000)) {
                        pushed++;
                    }
                    final long e = w.poll(Long.MIN_VALUE);
                    if (e != Long.MIN_VALUE) {
                        popped.incrementAndGet();
                        sum.addAndGet(IntPriorityWorklist.item(e));
                    }
                }
            });
        }
        for (final Thread t : threads) {
            t.start();
        }
        for (final Thread t : threads) {
            t.join(60_000);
            assertFalse(t.isAlive(), "stuck");
        }
        final long n = (long)threads.length * perThread;
        assertEquals(n, popped.get());
        assertEquals(n * (n + 1) / 2, sum.get());
    }
}
