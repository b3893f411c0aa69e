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
 * The Atos block, {@link IntCounterQueue}, pushed past its capacity by two racing producers: a block of 4
 * (windows of 2) gets 6 offers, so exactly 4 are accepted and the reservations that overflow publish nothing (in
 * {@code ORDERED} mode such a failure first waits for the reservations that fit). Thread 1 offers 11, 12, 13 one at a
 * time, then drains up to 2 ({@code drain}); thread 2 offers [21, 22, 23] as one batch (a prefix is accepted), then
 * pops a batch of up to 3. The arbiter pops the rest. Items carry a mark in their upper half so a torn or misplaced
 * item shows. Results: items accepted, items popped, flags (1 popped set differs from accepted set: lost,
 * invented, unwritten or stale; 2 duplicate; 4 per-producer order broken; 8 a refused offer followed by an accepted
 * one of the same producer; 16 upper half corrupted).
 */
public class CounterBlockOverflowTest {
    static final int MARK = 0x7A5E << 16;

    abstract static class Base {
        final UnsafeBuffer region = Regions.take(IntCounterQueue.requiredBytes(4, 2));
        final IntCounterQueue queue;
        int accepted1;
        int accepted2;
        int refusedThenAccepted;
        final int[] got1 = new int[4];
        final int[] got2 = new int[4];
        int n1;
        int n2;
        boolean drainMiscounted;

        Base(final Publication publication) {
            queue = new IntCounterQueue(region, 4, 2, publication);
        }

        void producer1() {
            for (int i = 1; i <= 3; i++) {
                if (queue.offer(MARK | (10 + i)) >= 0) { // a position, or MAX_POSITION_EXCEEDED
                    if (accepted1 != i - 1) {
                        refusedThenAccepted = 1;
                    }
                    accepted1++;
                }
            }
            final int k = queue.drain(v -> got1[n1++] = v, 2);
            drainMiscounted = k != n1;
        }

        void producer2() {
            accepted2 = Math.max(0, queue.offer(new int[] {MARK | 21, MARK | 22, MARK | 23}, 0, 3)); // or a code: none
            n2 = queue.poll(got2, 0, 3);
        }

        void arbiter(final III_Result r) {
            final int[] rest = new int[8];
            final int n3 = queue.poll(rest, 0, 8);
            final Seen seen = new Seen();
            int flags = 0;
            final int[][] outs = {got1, got2, rest};
            final int[] ns = {n1, n2, n3};
            for (int o = 0; o < 3; o++) {
                final long[] values = new long[ns[o]];
                for (int i = 0; i < values.length; i++) {
                    if ((outs[o][i] & ~0xFFFF) != MARK) {
                        flags |= 16;
                    }
                    values[i] = outs[o][i] & 0xFFFF;
                    seen.add(values[i]);
                }
                seen.orderViolations += Seen.orderViolations(values, values.length);
            }
            int expectedMask = 0;
            for (int i = 1; i <= accepted1; i++) {
                expectedMask |= 1 << (10 + i);
            }
            for (int i = 1; i <= accepted2; i++) {
                expectedMask |= 1 << (20 + i);
            }
            if (seen.mask != expectedMask || drainMiscounted) {
                flags |= 1;
            }
            if (seen.count != Integer.bitCount(seen.mask)) {
                flags |= 2;
            }
            if (seen.orderViolations != 0) {
                flags |= 4;
            }
            flags |= refusedThenAccepted * 8;
            r.r1 = accepted1 + accepted2;
            r.r2 = seen.count;
            r.r3 = flags;
            Regions.give(region);
        }
    }

    @JCStressTest
    @Description("Atos block, WINDOWED: overflowing pushes lose, invent, duplicate and reorder nothing")
    @Outcome(id = "4, 4, 0", expect = ACCEPTABLE, desc = "exactly 4 accepted, each popped once, in order")
    @Outcome(expect = FORBIDDEN, desc = "wrong count accepted, or items lost/invented/duplicated/reordered")
    @State
    public static class Windowed extends Base {
        public Windowed() {
            super(Publication.WINDOWED);
        }

        @Actor
        public void thread1() {
            producer1();
        }

        @Actor
        public void thread2() {
            producer2();
        }

        @Arbiter
        public void check(final III_Result r) {
            arbiter(r);
        }
    }

    @JCStressTest
    @Description("Atos block, ORDERED: overflowing pushes lose, invent, duplicate and reorder nothing")
    @Outcome(id = "4, 4, 0", expect = ACCEPTABLE, desc = "exactly 4 accepted, each popped once, in order")
    @Outcome(expect = FORBIDDEN, desc = "wrong count accepted, or items lost/invented/duplicated/reordered")
    @State
    public static class Ordered extends Base {
        public Ordered() {
            super(Publication.ORDERED);
        }

        @Actor
        public void thread1() {
            producer1();
        }

        @Actor
        public void thread2() {
            producer2();
        }

        @Arbiter
        public void check(final III_Result r) {
            arbiter(r);
        }
    }
}
