package dev.overlap.stress.replication;

import dev.overlap.replication.ReadyBitmap;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * A producer marks chunk 70 ready and then polls, racing a second polling agent: the chunk is claimed by exactly
 * one of them and its bit is clear afterwards. Results: the producer's claim, the agent's claim (-1 = nothing),
 * and whether the bit is still set.
 */
@JCStressTest
@Outcome(id = {"70, -1, 0", "-1, 70, 0"}, expect = ACCEPTABLE, desc = "exactly one poller claimed the chunk")
@Outcome(id = "70, 70, 0", expect = FORBIDDEN, desc = "chunk claimed twice: it would be copied twice")
@Outcome(id = {"-1, -1, 0", "-1, -1, 1"}, expect = FORBIDDEN, desc = "chunk ready but never claimed")
@Outcome(expect = FORBIDDEN, desc = "a bit that was never set was claimed, or the bit survived a claim")
@State
public class ReadyBitmapClaimOnceTest {
    private final ReadyBitmap bitmap = new ReadyBitmap(130);

    @Actor
    public void producerThenPoll(final III_Result r) {
        bitmap.set(70);
        r.r1 = bitmap.claim(0);
    }

    @Actor
    public void agent(final III_Result r) {
        r.r2 = bitmap.claim(1);
    }

    @Arbiter
    public void check(final III_Result r) {
        r.r3 = bitmap.isSet(70) ? 1 : 0;
    }
}
