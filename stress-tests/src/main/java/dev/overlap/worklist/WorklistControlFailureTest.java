package dev.overlap.worklist;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IJ_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * {@link WorklistControl}'s failure record: a worker of rank 1 records the failure of task 30 while another rank's
 * host reads it at the run's end, as {@code DistributedWorklist} does to throw the failure on every rank. A host that
 * sees the failed rank must see the failed task with it (the details are written before the rank is published), and
 * the run must be finished by then.
 *
 * <p>Results: the failed rank the reader saw (-1: none yet), then the task it read with it (0: none read), or -1 if
 * it saw a failure in a run not yet finished.
 */
@JCStressTest
@Description("WorklistControl: a failure's rank is published with its details, and finishes the run")
@Outcome(id = "-1, 0", expect = ACCEPTABLE, desc = "not recorded yet (or still being written)")
@Outcome(id = "1, 30", expect = ACCEPTABLE, desc = "rank 1's failure of task 30")
@Outcome(expect = FORBIDDEN, desc = "the rank without its task, or a failure in a run that goes on")
@State
public class WorklistControlFailureTest {
    private final WorklistControl control = new WorklistControl(2);

    @Actor
    public void failing() {
        control.fail(1, 2, 0, 30, "IllegalArgumentException: task thirty");
    }

    @Actor
    public void reader(final IJ_Result r) {
        final int rank = control.failedRank();
        r.r1 = rank;
        if (rank >= 0) {
            r.r2 = control.finished() ? control.failure(rank).task() : -1;
        }
    }
}
