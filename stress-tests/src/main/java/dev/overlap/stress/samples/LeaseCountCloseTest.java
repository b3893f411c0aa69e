package dev.overlap.stress.samples;

import dev.overlap.graph.partition.LeaseCount;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Proves {@link LeaseCount}, the guard that keeps a placed graph from being freed under a run:
 * a run that took a hold never sees the resource closed while it holds it, and a hold is refused only once closed.
 *
 * <p>Actor 1 is a run: it takes a hold, records whether the resource is closed while it holds it, and releases.
 * Actor 2 closes. Result: whether the hold was taken (1) or refused (0), whether the run saw the resource closed
 * while holding (1), and the close's outcome ({@link LeaseCount#CLOSED_NOW} 0, {@link LeaseCount#IN_USE} 2).
 */
@JCStressTest
@Description("LeaseCount: a resource is never closed while a hold is taken; a hold is refused only once closed")
@Outcome(id = "1, 0, 2", expect = ACCEPTABLE, desc = "the run held it: the close was refused")
@Outcome(id = "1, 0, 0", expect = ACCEPTABLE, desc = "the run held and released it, then the close succeeded")
@Outcome(id = "0, 0, 0", expect = ACCEPTABLE, desc = "the close came first: the run's hold was refused")
@Outcome(id = "1, 1, .*", expect = FORBIDDEN, desc = "closed under a run that held it")
@Outcome(id = "0, ., 2", expect = FORBIDDEN, desc = "a hold refused though the close did not happen")
@Outcome(expect = FORBIDDEN, desc = "anything else")
@State
public class LeaseCountCloseTest {
    private final LeaseCount leases = new LeaseCount();

    @Actor
    public void run(final III_Result r) {
        if (leases.acquire()) {
            r.r1 = 1;
            r.r2 = leases.isClosed() ? 1 : 0;
            leases.release();
        }
    }

    @Actor
    public void close(final III_Result r) {
        r.r3 = leases.tryClose();
    }
}
