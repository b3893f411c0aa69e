package dev.overlap.queues;

import dev.overlap.core.AlignedHeapBuffer;
import dev.overlap.core.OfferResult;
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
        return new IntPriorityWorklist(AlignedHeapBuffer.allocate(IntPriorityWorklist.requiredBytes(capacity)),
            capacity, threshold, delta);
    }

    @Test
    void servesBandsInPriorityOrderAndKeepsKeys() {
        final IntPriorityWorklist w = worklist(16, 10, 10);
        assertEquals(IntPriorityWorklist.FAR, w.push(1, 25));
        assertEquals(IntPriorityWorklist.NEAR, w.push(2, 5));
        assertEquals(IntPriorityWorklist.FAR, w.push(3, 15));
        assertEquals(IntPriorityWorklist.FAR, w.push(4, 35));
        final List<String> got = new ArrayList<>();
        long e;
        while ((e = w.poll(Long.MIN_VALUE)) != Long.MIN_VALUE) {
            got.add(IntPriorityWorklist.item(e) + "@" + IntPriorityWorklist.key(e));
        }
        assertEquals(List.of("2@5", "3@15", "1@25", "4@35"), got);
        assertEquals(40, w.threshold());
    }

    @Test
    void aRaiseMovesTheWholeBandNotOneBatch() {
        // 1000 far entries with keys 0..9 in no particular order, threshold 0, delta 1: every raise must move the
        // whole band of its key before the threshold rises again, so pops come out in key order.
        final IntPriorityWorklist w = worklist(2048, 0, 1);
        for (int i = 0; i < 1000; i++) {
            assertEquals(IntPriorityWorklist.FAR, w.push(i, (i * 7) % 10));
        }
        int lastKey = -1;
        int count = 0;
        long e;
        while ((e = w.poll(Long.MIN_VALUE)) != Long.MIN_VALUE) {
            assertTrue(IntPriorityWorklist.key(e) >= lastKey, "key " + IntPriorityWorklist.key(e) + " after "
                + lastKey);
            lastKey = IntPriorityWorklist.key(e);
            count++;
        }
        assertEquals(1000, count);
        assertEquals(10, w.threshold());
    }

    @Test
    void emptyBandsAreSkippedNotCrossedOneDeltaAtATime() {
        final IntPriorityWorklist w = worklist(64, 0, 1);
        assertTrue(OfferResult.isTaken(w.push(1, 1_000_000)));
        assertTrue(OfferResult.isTaken(w.push(2, 1_000_005)));
        final long first = w.poll(Long.MIN_VALUE);
        assertEquals(1, IntPriorityWorklist.item(first));
        // one pass found no key in the band [0, 1) and jumped to the smallest key; the next raise moved it
        assertEquals(1_000_001, w.threshold());
        assertEquals(2, IntPriorityWorklist.item(w.poll(Long.MIN_VALUE)));
    }

    @Test
    void batchPushAndPollKeepEntriesAndBands() {
        final IntPriorityWorklist w = worklist(8, 10, 10);
        final long[] in = new long[12];
        for (int i = 0; i < in.length; i++) {
            in[i] = IntPriorityWorklist.entry(i, i * 3);
        }
        // keys 0..9 go near (4 of them), the rest far; near holds 8 and far 8, so 12 fit
        assertEquals(12, w.pushAll(in, 12));
        final long[] extra = new long[8];
        for (int i = 0; i < extra.length; i++) {
            extra[i] = IntPriorityWorklist.entry(100 + i, 50);
        }
        final int pushed = w.pushAll(extra, extra.length);
        assertEquals(OfferResult.BACK_PRESSURED, pushed, "far is full and the keys are not near: nothing fits");
        assertEquals(0, w.pushAll(extra, 0), "an empty batch takes nothing and is no error");
        final long[] out = new long[16];
        final java.util.Set<Integer> seen = new java.util.HashSet<>();
        int n;
        int lastBand = -1;
        while ((n = w.poll(out, 0, 5)) > 0) {
            assertTrue(n <= 5);
            for (int i = 0; i < n; i++) {
                final int item = IntPriorityWorklist.item(out[i]);
                assertEquals(item * 3, IntPriorityWorklist.key(out[i]), "re-keyed");
                assertTrue(seen.add(item), "duplicate " + item);
                assertTrue(IntPriorityWorklist.key(out[i]) / 10 >= lastBand - 0, "band order");
                lastBand = Math.max(lastBand, IntPriorityWorklist.key(out[i]) / 10);
            }
        }
        assertEquals(12, seen.size());
    }

    @Test
    void aBatchThatFarCannotTakeWholeIsPushedAsFarAsItFits() {
        final IntPriorityWorklist w = worklist(8, 10, 10);
        final long[] first = new long[5];
        for (int i = 0; i < first.length; i++) {
            first[i] = IntPriorityWorklist.entry(i, 50);
        }
        assertEquals(5, w.pushAll(first, 5), "one reservation for the five far entries");
        final long[] second = new long[6];
        for (int i = 0; i < second.length; i++) {
            second[i] = IntPriorityWorklist.entry(10 + i, 60 + i);
        }
        assertEquals(3, w.pushAll(second, 6), "far holds 8: three more fit, one by one");
        final java.util.Set<Integer> pushed = new java.util.HashSet<>();
        for (int i = 0; i < 3; i++) {
            pushed.add(IntPriorityWorklist.item(second[i]));
        }
        final java.util.Set<Integer> seen = new java.util.HashSet<>();
        long e;
        while ((e = w.poll(Long.MIN_VALUE)) != Long.MIN_VALUE) {
            assertTrue(seen.add(IntPriorityWorklist.item(e)), "duplicate");
        }
        assertEquals(8, seen.size());
        for (int i = 0; i < 5; i++) {
            assertTrue(seen.contains(i));
        }
        assertTrue(seen.containsAll(pushed), "the pushed ones are the prefix the call reported");
        for (int i = 3; i < 6; i++) {
            assertFalse(seen.contains(IntPriorityWorklist.item(second[i])), "an unpushed entry appeared");
        }
    }

    @Test
    void fullIsBackPressure() {
        final IntPriorityWorklist w = worklist(2, 10, 1);
        assertEquals(IntPriorityWorklist.NEAR, w.push(1, 1));
        assertEquals(IntPriorityWorklist.NEAR, w.push(2, 1));
        assertEquals(IntPriorityWorklist.FAR, w.push(3, 1), "near full: goes far");
        assertEquals(IntPriorityWorklist.FAR, w.push(4, 100));
        assertEquals(OfferResult.BACK_PRESSURED, w.push(5, 100));
        assertEquals(OfferResult.BACK_PRESSURED, w.push(5, 1), "near and far full");
        assertEquals(OfferResult.BACK_PRESSURED, w.pushAll(new long[] {IntPriorityWorklist.entry(6, 1)}, 1));
        assertThrows(IllegalArgumentException.class, () -> worklist(4, 0, 0));
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
                    if (pushed < perThread && w.push(id * perThread + pushed + 1, (pushed * 7919) % 1000) >= 0) {
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
            t.join(300_000); // a hang guard, not a time budget: on a loaded 2-core machine the run takes minutes
            assertFalse(t.isAlive(), "stuck");
        }
        final long n = (long)threads.length * perThread;
        assertEquals(n, popped.get());
        assertEquals(n * (n + 1) / 2, sum.get());
    }
}
