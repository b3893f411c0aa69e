package dev.overlap.hosts;

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
 * Two threads of a host group record a failure at once (the receiver finds rank 1 silent while a sender finds rank
 * 2's connection gone): {@link GroupState#fail} lets exactly one win and hands the winner to both, so every wait of
 * this rank, and the report to the other ranks, names the same rank. A check-then-set record lets both think they
 * won and leaves them naming different ranks.
 *
 * <p>Results: the rank each recorder got back, then the rank recorded (arbiter).
 */
@JCStressTest
@Description("GroupState failure record: one of two racing failures wins, and both recorders get the winner")
@Outcome(id = {"1, 1, 1", "2, 2, 2"}, expect = ACCEPTABLE, desc = "one winner, seen by both")
@Outcome(expect = FORBIDDEN, desc = "two winners, or a winner other than the one recorded")
@State
public class GroupStateFailureTest {
    private final GroupState state = new GroupState(3, 1);

    @Actor
    public void receiverFindsRank1Silent(final III_Result r) {
        r.r1 = state.fail(1, "silent").rank();
    }

    @Actor
    public void senderFindsRank2Gone(final III_Result r) {
        r.r2 = state.fail(2, "gone").rank();
    }

    @Arbiter
    public void arbiter(final III_Result r) {
        r.r3 = state.failure().rank();
    }
}
