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
 * The object facade {@link CounterRingQueue} (capacity 4, so the round wraps its 8 slots and may fill), in both
 * publication modes. Cleared slots and the producer's wait for a clear slot are under test in both: a consumer
 * must never see null (a slot popped before it was written), a stale element (9) or a duplicate, and once every
 * actor has returned the arbiter must find every element that was not popped. Result: (mask, count,
 * per-producer order violations).
 *
 * <p>{@link Publication#ORDERED}: producers {@code fill} [11, 12] and offer 21 then 22; consumers {@code drain} up
 * to 2 and poll. {@link Publication#WINDOWED} (windows of 2, counters on their second lap, the round starting at a
 * window boundary): one producer pushes 11, then 12, each with a {@code fill} of one whose supplier takes a while
 * (so its reservation is often still unwritten while the other producer's offer of 21 or 22, in the same window,
 * is written and counted), then drains up to 2; the other offers 21, 22 and polls. That is the race the window
 * counters exist for: a window may be published only when every position reserved in it is written, else a
 * consumer pops a slot that was never written (null here) and the element written later is lost behind
 * {@code start} (mutant {@code mutants/queues-windowed-publishes-unwritten-window-prefix}).
 */
public class CounterRingQueueFillDrainTest {
    /** How long the WINDOWED producer's supplier holds its reservation unwritten (a few microseconds). */
    static final int SUPPLIER_SPINS = 64;

    abstract static class Base {
        final CounterRingQueue<Integer> queue;
        final List<Integer> got1 = new ArrayList<>();
        final List<Integer> got2 = new ArrayList<>();

        Base(final Publication publication, final int windowSize, final int warmUp) {
            queue = new CounterRingQueue<>(4, windowSize, publication);
            for (int i = 0; i < warmUp; i++) {
                queue.offer(9);
                queue.poll();
            }
        }

        final void fillThenDrain() {
            final int[] next = {11};
            int done = 0;
            while (done < 2) {
                done += queue.fill(() -> next[0]++, 2 - done);
            }
            queue.drain(got1::add, 2);
        }

        /** Pushes 11, then 12, each by a fill of one whose supplier spins a while before giving its element. */
        final void slowFillsThenDrain() {
            for (int item = 11; item <= 12; item++) {
                final int e = item;
                while (queue.fill(() -> {
                    for (int i = 0; i < SUPPLIER_SPINS; i++) {
                        Thread.onSpinWait();
                    }
                    return e;
                }, 1) == 0) {
                    Thread.onSpinWait(); // full (capacity 4 holds all four elements: never, in fact)
                }
            }
            queue.drain(got1::add, 2);
        }

        final void offerOfferPoll() {
            queue.offer(21);
            queue.offer(22);
            final Integer e = queue.poll();
            if (e != null) {
                got2.add(e);
            }
        }

        final void check(final III_Result r) {
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

    @JCStressTest
    @Description("Queue<E> facade, ORDERED: fill/drain/offer/poll racing across the wrap lose, duplicate and reorder nothing")
    @Outcome(id = "6297600, 4, 0", expect = ACCEPTABLE, desc = "11, 12, 21, 22 once each, in producer order")
    @Outcome(expect = FORBIDDEN, desc = "lost, duplicated, null/stale or reordered")
    @State
    public static class Ordered extends Base {
        public Ordered() {
            super(Publication.ORDERED, 1, 7);
        }

        @Actor
        public void thread1() {
            fillThenDrain();
        }

        @Actor
        public void thread2() {
            offerOfferPoll();
        }

        @Arbiter
        public void arbiter(final III_Result r) {
            check(r);
        }
    }

    @JCStressTest
    @Description("Queue<E> facade, WINDOWED: pushes sharing windows (one slow to write), drain and poll lose, duplicate, invent and reorder nothing")
    @Outcome(id = "6297600, 4, 0", expect = ACCEPTABLE, desc = "11, 12, 21, 22 once each, in producer order")
    @Outcome(expect = FORBIDDEN, desc = "lost, duplicated, null (unwritten)/stale, or reordered")
    @State
    public static class Windowed extends Base {
        public Windowed() {
            super(Publication.WINDOWED, 2, 8);
        }

        @Actor
        public void thread1() {
            slowFillsThenDrain();
        }

        @Actor
        public void thread2() {
            offerOfferPoll();
        }

        @Arbiter
        public void arbiter(final III_Result r) {
            check(r);
        }
    }
}
