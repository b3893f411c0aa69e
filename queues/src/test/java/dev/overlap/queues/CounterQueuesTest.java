package dev.overlap.queues;

import dev.overlap.core.AlignedHeapBuffer;
import dev.overlap.core.OfferResult;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Sequential behaviour of the Atos block ({@link IntCounterQueue}) and of the object queue ({@link CounterRingQueue}),
 * and a deadlock check of the latter; the rings have their own suite over every variant ({@link CounterRingSanityTest}).
 */
public class CounterQueuesTest {
    static UnsafeBuffer region(final int bytes) {
        return AlignedHeapBuffer.allocate(bytes);
    }

    @ParameterizedTest
    @EnumSource(Publication.class)
    void blockIsOneShotUntilReset(final Publication p) {
        final IntCounterQueue q = new IntCounterQueue(region(IntCounterQueue.requiredBytes(5, 2)), 5, 2, p);
        assertEquals(1, q.offer(1), "the new position");
        assertEquals(3, q.offer(new int[] {2, 3, 4}, 0, 3));
        assertEquals(1, q.poll(-1));
        assertEquals(1, q.offer(new int[] {5, 6, 7}, 0, 3), "clamped at capacity");
        assertEquals(OfferResult.MAX_POSITION_EXCEEDED, q.offer(8), "pops do not free a block");
        assertEquals(OfferResult.MAX_POSITION_EXCEEDED, q.offer(new int[] {8}, 0, 1));
        assertEquals(0, q.offer(new int[0], 0, 0), "an empty batch takes nothing and is no error");
        final int[] out = new int[8];
        assertEquals(4, q.poll(out, 0, 8));
        assertArrayEquals(new int[] {2, 3, 4, 5}, java.util.Arrays.copyOf(out, 4));
        assertEquals(-1, q.poll(-1));
        q.reset();
        assertEquals(1, q.offer(9), "positions count from the reset");
        assertEquals(9, q.poll(-1));
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
}
