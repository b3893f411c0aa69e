package dev.overlap.stress.queues;

import dev.overlap.queues.LongCounterRing;
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
 * Batch operations racing across the wrap of a {@link LongCounterRing} of capacity 4 (8 slots, windows of 2):
 * thread 1 pushes [11, 12] and thread 2 pushes [21, 22] with one reservation each (greedy: the rest of a batch
 * refused when full is pushed again), then each pops a batch of up to 3 with one CAS. Result:
 * (mask of values seen: bits 11, 12, 21, 22 = 6297600; count; per-producer order violations within any
 * consumer's sequence).
 */
@JCStressTest
@Description("Batch push/pop on a wrapping ring: nothing lost/duplicated/unwritten/stale, FIFO per producer")
@Outcome(id = "6297600, 4, 0", expect = ACCEPTABLE, desc = "11, 12, 21, 22 once each, producer order kept")
@Outcome(expect = FORBIDDEN, desc = "lost, duplicated, unwritten, stale or reordered")
@State
public class CounterRingBatchFifoTest {
    final UnsafeBuffer region = Regions.take(LongCounterRing.requiredBytes(4, 2));
    final LongCounterRing ring;
    final long[] in1 = {11, 12};
    final long[] in2 = {21, 22};
    final long[] out1 = new long[8];
    final long[] out2 = new long[8];
    int n1;
    int n2;

    public CounterRingBatchFifoTest() {
        ring = new LongCounterRing(region, 4, 2, Publication.ORDERED);
        final long[] stale = {9, 9, 9};
        for (int i = 0; i < 2; i++) {
            ring.offer(stale, 0, 3);
            ring.poll(new long[3], 0, 3);
        }
    }

    @Actor
    public void thread1() {
        pushAll(in1);
        n1 = ring.poll(out1, 0, 3);
    }

    @Actor
    public void thread2() {
        pushAll(in2);
        n2 = ring.poll(out2, 0, 3);
    }

    private void pushAll(final long[] items) {
        int done = 0;
        while (done < items.length) {
            done += Math.max(0, ring.offer(items, done, items.length - done)); // a count, or BACK_PRESSURED: retry
        }
    }

    @Arbiter
    public void arbiter(final III_Result r) {
        final Seen seen = new Seen();
        final long[] rest = new long[8];
        final int n3 = ring.poll(rest, 0, 8);
        for (final long[] out : new long[][] {out1, out2, rest}) {
            final int n = out == out1 ? n1 : out == out2 ? n2 : n3;
            for (int i = 0; i < n; i++) {
                seen.add(out[i]);
            }
            seen.orderViolations += Seen.orderViolations(out, n);
        }
        r.r1 = seen.mask;
        r.r2 = seen.count;
        r.r3 = seen.orderViolations;
        Regions.give(region);
    }
}
