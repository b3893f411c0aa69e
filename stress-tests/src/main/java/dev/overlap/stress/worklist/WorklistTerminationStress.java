package dev.overlap.stress.worklist;

import dev.overlap.queues.IntCounterRing;
import dev.overlap.queues.Publication;
import dev.overlap.queues.worklist.QuiescenceDetector;
import dev.overlap.transport.inbox.AggregatorConfig;
import dev.overlap.transport.inbox.IntAggregator;
import dev.overlap.transport.inbox.ItemType;
import dev.overlap.transport.inbox.Transport;
import org.agrona.concurrent.UnsafeBuffer;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

import java.nio.ByteBuffer;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * The distributed worklist's termination protocol over the real parts: a {@link QuiescenceDetector}, an
 * {@link IntAggregator} holding a remote task, the destination's Agrona inbox and its handler pushing into the
 * device's {@link IntCounterRing} ({@link Publication#WINDOWED}, as the worklist's default). Worker A (device 0) runs
 * the root task: it counts a child created, offers it to its aggregator (where it waits: the wait is unbounded),
 * completes the root, and only then flushes (an idle worker's flush). Worker B (device 1) does one idle round:
 * drain its inbox, pop, run what it got, then ask the detector. Whichever point the child has reached — aggregator,
 * ring, queue — the detector must not report quiescence before B ran it. The arbiter then drains and pops what is
 * left: the child must exist exactly once overall.
 * Results: r1 = B ran the child, r2 = B's detector answer, r3 = times the child was found in total.
 */
@JCStressTest
@Description("worklist termination is never premature while a task sits in an aggregator, a ring or a queue")
@Outcome(id = "1, 1, 1", expect = ACCEPTABLE, desc = "child ran on B, then termination detected")
@Outcome(id = "1, 0, 1", expect = ACCEPTABLE, desc = "child ran on B; A's counts not yet visible: late, not early")
@Outcome(id = "0, 0, 1", expect = ACCEPTABLE, desc = "child still in the aggregator, ring or queue; no termination")
@Outcome(id = "0, 1, .*", expect = FORBIDDEN, desc = "premature termination with a task in flight")
@Outcome(expect = FORBIDDEN, desc = "the child was lost or duplicated")
@State
public class WorklistTerminationStress {
    private static final int CHILD = 77;
    private static final int HOST = 0;
    private static final int WORKER_A = 1;
    private static final int WORKER_B = 2;

    private final QuiescenceDetector detector = new QuiescenceDetector(3);
    private final Transport transport = Transport.builder().devices(2).ringCapacity(512).maxEndpoints(1)
        .maxQueues(1).replySlots(1).build();
    private final IntCounterRing queueB = new IntCounterRing(
        new UnsafeBuffer(ByteBuffer.allocateDirect(IntCounterRing.requiredBytes(16, 16))), 16, 16, Publication.WINDOWED);
    private final IntAggregator toB;
    private final int[] popped = new int[4];

    public WorklistTerminationStress() {
        transport.registerHandler(1, 0, ItemType.INT, (queue, sender, items, offset, count) -> {
            for (int i = 0; i < count; i++) {
                if (!queueB.offer(items.getInt(offset + 4 * i))) {
                    throw new IllegalStateException("queue full");
                }
            }
        });
        toB = transport.newEndpoint(0).intAggregator(1, 0, AggregatorConfig.batched(64, Long.MAX_VALUE));
        detector.created(HOST, 1);      // the root task, handed to worker A
    }

    @Actor
    public void workerA() {
        detector.created(WORKER_A, 1);   // counted before it becomes visible
        toB.offer(CHILD);                // buffered in the aggregator
        detector.completed(WORKER_A, 1); // the root's work, children included, is done
        toB.flush();                     // A goes idle: flush
    }

    @Actor
    public void workerB(final III_Result r) {
        transport.inbox(1).drain();
        final int n = queueB.poll(popped, 0, popped.length);
        if (n == 1 && popped[0] == CHILD) {
            r.r1 = 1;
            detector.completed(WORKER_B, 1);
        } else if (n != 0) {
            r.r1 = 10 + n;
        }
        r.r2 = detector.isQuiescent() ? 1 : 0;
    }

    @Arbiter
    public void arbiter(final III_Result r) {
        while (transport.inbox(1).drain() > 0) {
            // apply what is left
        }
        int found = r.r1 == 1 ? 1 : 0;
        int n;
        while ((n = queueB.poll(popped, 0, popped.length)) > 0) {
            for (int i = 0; i < n; i++) {
                found += popped[i] == CHILD ? 1 : 100;
            }
        }
        r.r3 = found;
        transport.close();
    }
}
