package dev.overlap.stress.queues;

import dev.overlap.queues.IntCounterQueue;
import dev.overlap.queues.Publication;
import org.agrona.concurrent.UnsafeBuffer;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * The Atos one-shot block, faithful reservation (one getAndAdd per batch) with the WINDOWED (Listing 6) rule:
 * two threads push [11, 12] and [21, 22] as batches into a block of 8 (windows of 2), then each pops a batch of up
 * to 3 while the other's batch may still be being published. Result: (mask of values seen, count, per-producer order violations).
 */
public class CounterBlockRaceTest {
    abstract static class Base {
        final UnsafeBuffer region = Regions.take(IntCounterQueue.requiredBytes(8, 2));
        final IntCounterQueue queue;
        final int[] out1 = new int[4];
        final int[] out2 = new int[4];
        int n1;
        int n2;

        Base(final Publication publication) {
            queue = new IntCounterQueue(region, 8, 2, publication);
        }

        void arbiter(final III_Result r) {
            final Seen seen = new Seen();
            final int[] rest = new int[8];
            final int n3 = queue.poll(rest, 0, 8);
            final int[][] outs = {out1, out2, rest};
            final int[] ns = {n1, n2, n3};
            for (int o = 0; o < 3; o++) {
                final long[] values = new long[ns[o]];
                for (int i = 0; i < ns[o]; i++) {
                    values[i] = outs[o][i];
                    seen.add(values[i]);
                }
                seen.orderViolations += Seen.orderViolations(values, ns[o]);
            }
            r.r1 = seen.mask;
            r.r2 = seen.count;
            r.r3 = seen.orderViolations;
            Regions.give(region);
        }
    }

    @JCStressTest
    @Description("Atos block, WINDOWED publication: nothing lost/duplicated/unwritten, FIFO per producer")
    @Outcome(id = "6297600, 4, 0", expect = ACCEPTABLE, desc = "11, 12, 21, 22 once each, in producer order")
    @Outcome(expect = FORBIDDEN, desc = "lost, duplicated, unwritten or reordered")
    @State
    public static class Windowed extends Base {
        public Windowed() {
            super(Publication.WINDOWED);
        }

        @Actor
        public void thread1() {
            queue.offer(new int[] {11, 12}, 0, 2);
            n1 = queue.poll(out1, 0, 3);
        }

        @Actor
        public void thread2() {
            queue.offer(new int[] {21, 22}, 0, 2);
            n2 = queue.poll(out2, 0, 3);
        }

        @Arbiter
        public void check(final III_Result r) {
            arbiter(r);
        }
    }

    @JCStressTest
    @Description("Atos block, ORDERED publication: nothing lost/duplicated/unwritten, FIFO per producer")
    @Outcome(id = "6297600, 4, 0", expect = ACCEPTABLE, desc = "11, 12, 21, 22 once each, in producer order")
    @Outcome(expect = FORBIDDEN, desc = "lost, duplicated, unwritten or reordered")
    @State
    public static class Ordered extends Base {
        public Ordered() {
            super(Publication.ORDERED);
        }

        @Actor
        public void thread1() {
            queue.offer(new int[] {11, 12}, 0, 2);
            n1 = queue.poll(out1, 0, 3);
        }

        @Actor
        public void thread2() {
            queue.offer(new int[] {21, 22}, 0, 2);
            n2 = queue.poll(out2, 0, 3);
        }

        @Arbiter
        public void check(final III_Result r) {
            arbiter(r);
        }
    }
}
