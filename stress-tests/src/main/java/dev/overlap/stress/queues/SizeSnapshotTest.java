package dev.overlap.stress.queues;

import dev.overlap.queues.CounterRingQueue;
import dev.overlap.queues.IntCounterRing;
import dev.overlap.queues.Publication;
import org.agrona.concurrent.UnsafeBuffer;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

import java.util.function.IntSupplier;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * {@code size()} is a snapshot: never more than the elements present at one instant. One actor pushes and pops one
 * element {@value #ROUNDS} times (so at most one element is ever present); the other asks {@code size()}
 * {@value #ROUNDS} times. Every answer must be 0 or 1. Reading {@code start} and {@code end} apart (the defect of
 * issue 15) counts the pops that happened in between as present and answers up to the capacity here (8); that
 * broken {@code size()} failed this test in every run tried (mutant {@code mutants/queues-size-reads-start-and-end-apart}). Result: (largest size seen, smallest size seen, polls of
 * the pushing actor that found nothing: 0, since no other push is ever in progress, in either mode).
 */
public class SizeSnapshotTest {
    /** Pushes-and-pops of one actor, size() calls of the other: long enough actors to overlap often. */
    static final int ROUNDS = 8;

    abstract static class Base {
        int largest = Integer.MIN_VALUE;
        int smallest = Integer.MAX_VALUE;
        int missed;

        final void pingPong(final IntSupplier offerThenPollMissed) {
            for (int i = 0; i < ROUNDS; i++) {
                missed += offerThenPollMissed.getAsInt();
            }
        }

        final void sizes(final IntSupplier size) {
            for (int i = 0; i < ROUNDS; i++) {
                final int n = size.getAsInt();
                largest = Math.max(largest, n);
                smallest = Math.min(smallest, n);
            }
        }

        final void check(final III_Result r) {
            r.r1 = largest;
            r.r2 = smallest;
            r.r3 = missed;
        }
    }

    @JCStressTest
    @Description("CounterRingQueue ORDERED: size() never counts more than the one element ever present")
    @Outcome(id = {"0, 0, 0", "1, 0, 0", "1, 1, 0"}, expect = ACCEPTABLE, desc = "sizes 0 and 1 only")
    @Outcome(expect = FORBIDDEN, desc = "a size above 1 or below 0, or a pusher missed its own element")
    @State
    public static class QueueOrdered extends Base {
        final CounterRingQueue<Integer> queue = new CounterRingQueue<>(8, 2, Publication.ORDERED);

        @Actor
        public void pusher() {
            pingPong(() -> {
                queue.offer(1);
                return queue.poll() == null ? 1 : 0;
            });
        }

        @Actor
        public void reader() {
            sizes(queue::size);
        }

        @Arbiter
        public void arbiter(final III_Result r) {
            check(r);
        }
    }

    @JCStressTest
    @Description("CounterRingQueue WINDOWED: size() never counts more than the one element ever present")
    @Outcome(id = {"0, 0, 0", "1, 0, 0", "1, 1, 0"}, expect = ACCEPTABLE, desc = "sizes 0 and 1 only")
    @Outcome(expect = FORBIDDEN, desc = "a size above 1 or below 0, or a pusher missed its own element")
    @State
    public static class QueueWindowed extends Base {
        final CounterRingQueue<Integer> queue = new CounterRingQueue<>(8, 2, Publication.WINDOWED);

        @Actor
        public void pusher() {
            pingPong(() -> {
                queue.offer(1);
                return queue.poll() == null ? 1 : 0;
            });
        }

        @Actor
        public void reader() {
            sizes(queue::size);
        }

        @Arbiter
        public void arbiter(final III_Result r) {
            check(r);
        }
    }

    @JCStressTest
    @Description("IntCounterRing WINDOWED (device-memory counters): size() never counts more than the one item present")
    @Outcome(id = {"0, 0, 0", "1, 0, 0", "1, 1, 0"}, expect = ACCEPTABLE, desc = "sizes 0 and 1 only")
    @Outcome(expect = FORBIDDEN, desc = "a size above 1 or below 0, or a pusher missed its own item")
    @State
    public static class RingWindowed extends Base {
        final UnsafeBuffer region = Regions.take(IntCounterRing.requiredBytes(8, 2));
        final IntCounterRing ring = new IntCounterRing(region, 8, 2, Publication.WINDOWED);

        @Actor
        public void pusher() {
            pingPong(() -> {
                ring.offer(1);
                return ring.poll(-1) == -1 ? 1 : 0;
            });
        }

        @Actor
        public void reader() {
            sizes(ring::size);
        }

        @Arbiter
        public void arbiter(final III_Result r) {
            check(r);
            Regions.give(region);
        }
    }
}
