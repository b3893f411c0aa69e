package dev.overlap.stress.queues;

import dev.overlap.queues.IntCounterRing;
import dev.overlap.queues.Publication;
import org.agrona.concurrent.UnsafeBuffer;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Two threads each offer one item and then poll one (so pushes race pushes, pops race pops, and each pop races
 * the other thread's push) on an {@link IntCounterRing} of capacity 2 whose
 * positions were advanced so that this round wraps around the slot array (a stale slot of the earlier lap holds 9).
 * The arbiter drains the rest. Result: (bit mask of values seen, how many were seen).
 */
public class CounterRingRaceTest {
    static IntCounterRing wrappedRing(final UnsafeBuffer region, final Publication publication) {
        final IntCounterRing ring = new IntCounterRing(region, 2, 1, publication);
        for (int i = 0; i < 3; i++) {
            ring.offer(9);
            ring.poll(-1);
        }
        return ring;
    }

    @JCStressTest
    @Description("ORDERED ring: nothing lost, duplicated, read unwritten (0) or stale (9) across the wrap")
    @Outcome(id = "6, 2", expect = ACCEPTABLE, desc = "both items, once each")
    @Outcome(expect = FORBIDDEN, desc = "lost, duplicated, unwritten or stale item")
    @State
    public static class Ordered {
        final UnsafeBuffer region = Regions.take(IntCounterRing.requiredBytes(2, 1));
        final IntCounterRing ring = wrappedRing(region, Publication.ORDERED);
        final Seen a = new Seen();
        final Seen b = new Seen();

        @Actor
        public void thread1() {
            ring.offer(1);
            final int v = ring.poll(-1);
            if (v != -1) {
                a.add(v);
            }
        }

        @Actor
        public void thread2() {
            ring.offer(2);
            final int v = ring.poll(-1);
            if (v != -1) {
                b.add(v);
            }
        }

        @Arbiter
        public void arbiter(final II_Result r) {
            a.merge(b);
            int v;
            while ((v = ring.poll(-1)) != -1) {
                a.add(v);
            }
            r.r1 = a.mask;
            r.r2 = a.count;
            Regions.give(region);
        }
    }

    @JCStressTest
    @Description("WINDOWED ring (Listing 6 with windows): same guarantees once every push has returned")
    @Outcome(id = "6, 2", expect = ACCEPTABLE, desc = "both items, once each")
    @Outcome(expect = FORBIDDEN, desc = "lost, duplicated, unwritten or stale item")
    @State
    public static class Windowed {
        final UnsafeBuffer region = Regions.take(IntCounterRing.requiredBytes(2, 1));
        final IntCounterRing ring = wrappedRing(region, Publication.WINDOWED);
        final Seen a = new Seen();
        final Seen b = new Seen();

        @Actor
        public void thread1() {
            ring.offer(1);
            final int v = ring.poll(-1);
            if (v != -1) {
                a.add(v);
            }
        }

        @Actor
        public void thread2() {
            ring.offer(2);
            final int v = ring.poll(-1);
            if (v != -1) {
                b.add(v);
            }
        }

        @Arbiter
        public void arbiter(final II_Result r) {
            a.merge(b);
            int v;
            while ((v = ring.poll(-1)) != -1) {
                a.add(v);
            }
            r.r1 = a.mask;
            r.r2 = a.count;
            Regions.give(region);
        }
    }
}
