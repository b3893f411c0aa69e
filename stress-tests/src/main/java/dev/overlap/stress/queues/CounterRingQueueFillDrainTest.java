package dev.overlap.stress.queues;

import dev.overlap.queues.CounterRingQueue;
import dev.overlap.queues.Publication;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

import java.util.ArrayList;
import java.util.List;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * The object facade {@link CounterRingQueue} (capacity 4, so the round wraps its 8 slots and may fill): producers
 * {@code fill} [11, 12] and offer 21 then 22; consumers {@code drain} up to 2 and poll. Cleared slots and the
 * producer's wait for a clear slot are what is under test: a consumer must never see null, a stale element (9)
 * or a duplicate. Result: (mask, count, per-producer order violations).
 */
@JCStressTest
@Description("Queue<E> facade: fill/drain/offer/poll racing across the wrap lose, duplicate and reorder nothing")
@Outcome(id = "6297600, 4, 0", expect = ACCEPTABLE, desc = "11, 12, 21, 22 once each, in producer order")
@Outcome(expect = FORBIDDEN, desc = "lost, duplicated, null/stale or reordered")
@State
public class CounterRingQueueFillDrainTest {
    final CounterRingQueue<Integer> queue = new CounterRingQueue<>(4, 1, Publication.ORDERED);
    final List<Integer> got1 = new ArrayList<>();
    final List<Integer> got2 = new ArrayList<>();

    public CounterRingQueueFillDrainTest() {
        for (int i = 0; i < 7; i++) {
            queue.offer(9);
            queue.poll();
        }
    }

    @Actor
    public void thread1() {
        final int[] next = {11};
        int done = 0;
        while (done < 2) {
            done += queue.fill(() -> next[0]++, 2 - done);
        }
        queue.drain(got1::add, 2);
    }

    @Actor
    public void thread2() {
        queue.offer(21);
        queue.offer(22);
        final Integer e = queue.poll();
        if (e != null) {
            got2.add(e);
        }
    }

    @Arbiter
    public void arbiter(final III_Result r) {
        final List<Integer> rest = new ArrayList<>();
        queue.drain(rest::add);
        final Seen seen = new Seen();
        for (final List<Integer> got : List.of(got1, got2, rest)) {
            final long[] values = new long[got.size()];
            for (int i = 0; i < values.length; i++) {
                final Integer e = got.get(i);
                values[i] = e == null ? 0 : e;
                seen.add(values[i]);
            }
            seen.orderViolations += Seen.orderViolations(values, values.length);
        }
        r.r1 = seen.mask;
        r.r2 = seen.count;
        r.r3 = seen.orderViolations;
    }
}
