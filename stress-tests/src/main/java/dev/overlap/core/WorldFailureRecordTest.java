package dev.overlap.core;

import org.agrona.concurrent.UnsafeBuffer;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.ILL_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * The first failure of a world, as two ranks' monitors record it at once (each blames another rank), the second
 * reading the record right after its own attempt: exactly one record wins, and whoever sees a failed rank sees that
 * rank's own reason, whole (a record still being written reads as none). A record that publishes the rank before its
 * reason, or that lets both writers in, shows the reader a rank with no reason or the other writer's reason, or
 * leaves a rank and a reason that disagree. (Two actors: jcstress runs no more than the machine has cores.)
 *
 * <p>Results: the rank the reader saw (-1: none yet) and the reason's first character code (0: none read), then the
 * winning rank and reason as the arbiter reads them, packed as rank * 1000 + reason character.
 */
@JCStressTest
@Description("World failure record: one writer wins, its rank and reason are published together")
@Outcome(id = "-1, 0, 1049", expect = ACCEPTABLE, desc = "rank 1's record won and was still being written")
@Outcome(id = {"1, 49, 1049", "2, 50, 2050"}, expect = ACCEPTABLE, desc = "read the winner, rank and reason")
@Outcome(expect = FORBIDDEN, desc = "a rank without its reason, or two writers mixed")
@State
public class WorldFailureRecordTest {
    private final WorldSegment segment = new WorldSegment(new UnsafeBuffer(new byte[WorldSegment.length(0, 0)]), 0,
        0);

    @Actor
    public void blamesRank1() {
        segment.recordFailure(1, "1 exited");
    }

    @Actor
    public void blamesRank2ThenReads(final ILL_Result r) {
        segment.recordFailure(2, "2 hung");
        final int rank = segment.failedRank();
        r.r1 = rank;
        r.r2 = rank < 0 ? 0 : firstChar(segment.failureReason());
    }

    @Arbiter
    public void arbiter(final ILL_Result r) {
        r.r3 = segment.failedRank() * 1000L + firstChar(segment.failureReason());
    }

    private static int firstChar(final String reason) {
        return reason.isEmpty() ? 0 : reason.charAt(0);
    }
}
