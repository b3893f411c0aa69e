package dev.overlap.worklist;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.JJ_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * {@link WorklistControl}'s sweep words (hence this package: the class is package-private; across processes the same
 * words are shared memory): the termination checker opens sweep 7 over a base of 100 tasks while an idle worker
 * looks, as {@code DistributedWorklist}'s persistent loop does, at whether a sweep is open and which epoch it is. A
 * worker that sees the sweep open must see its epoch (and a checker reading the base afterwards its base): otherwise
 * it would acknowledge the previous epoch, or run the idle function for a sweep that then ends the run without it.
 *
 * <p>Results: the epoch the worker saw with the sweep open (0: it saw none open), then the base it read after.
 */
@JCStressTest
@Description("WorklistControl: a worker that sees a sweep open sees its epoch and base")
@Outcome(id = "0, .*", expect = ACCEPTABLE, desc = "no sweep open yet")
@Outcome(id = "7, 100", expect = ACCEPTABLE, desc = "the sweep, with its epoch and base")
@Outcome(expect = FORBIDDEN, desc = "an open sweep with a stale epoch or base")
@State
public class WorklistControlSweepTest {
    private final WorklistControl control = new WorklistControl(2);

    public WorklistControlSweepTest() {
        control.setSweepEpoch(6); // the previous sweep's epoch
    }

    @Actor
    public void checker() {
        control.openSweep(7, 100);
    }

    @Actor
    public void worker(final JJ_Result r) {
        if (control.sweepOpen()) {
            r.r1 = control.sweepEpoch();
            r.r2 = control.sweepBase();
        }
    }
}
