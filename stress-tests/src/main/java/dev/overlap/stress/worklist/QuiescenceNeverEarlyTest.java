package dev.overlap.stress.worklist;

import dev.overlap.worklist.QuiescenceDetector;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Termination is never premature. One task exists at the start (created by the host, participant 0). A worker
 * (participant 1) runs it: the task spawns a child for participant 2 (created before it is visible), then the
 * parent completes. Participant 2's thread runs the child and completes it, and then asks whether the system is
 * quiescent — while the worker's counters are moving. Quiescence may only be reported once both tasks completed;
 * reported with the child still unseen by participant 2 would mean a task in flight was missed.
 * Results: whether participant 2 found the child (1) and ran it, and what the detector said afterwards.
 */
@JCStressTest
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "child ran, then quiescence detected")
@Outcome(id = "1, 0", expect = ACCEPTABLE, desc = "child ran, parent's completion not yet visible: late, not early")
@Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "child not yet pushed; no quiescence reported")
@Outcome(id = "0, 1", expect = FORBIDDEN, desc = "premature termination: a task existed (parent or child)")
@State
public class QuiescenceNeverEarlyTest {
    private final QuiescenceDetector detector = new QuiescenceDetector(3);
    private volatile int childQueued;

    public QuiescenceNeverEarlyTest() {
        detector.created(0, 1);
    }

    @Actor
    public void worker() {
        detector.created(1, 1);
        childQueued = 1;
        detector.completed(1, 1);
    }

    @Actor
    public void otherDevice(final II_Result r) {
        if (childQueued == 1) {
            r.r1 = 1;
            detector.completed(2, 1);
        }
        r.r2 = detector.isQuiescent() ? 1 : 0;
    }
}
