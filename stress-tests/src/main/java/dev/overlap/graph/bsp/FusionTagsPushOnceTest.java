package dev.overlap.graph.bsp;

import dev.overlap.stress.queues.Regions;
import org.agrona.UnsafeApi;
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
 * BSP SSSP's {@link FusionTags}: in round 4 a worker lowers a free vertex twice (it cannot fuse it), while another
 * worker claims a filed entry of it ({@link FusionTags#claimFiled}). Exactly one lowering pushes the vertex for round
 * 5, whatever the order: a vertex pushed twice in one round could overflow its owner's next frontier. A filed claim
 * that overwrote the pushed tag with the round's (a blind exchange) would let the second lowering push again. (Two
 * actors: jcstress runs no more than the machine's 2 cores.)
 *
 * <p>Results: the two lowerings' claims ({@code 1} PUSH, {@code 2} PUSHED: already in the next frontier) and whether
 * the filed entry was claimed ({@code 1}) or not ({@code 0}).
 */
@JCStressTest
@Description("FusionTags: a vertex is pushed once a round, whatever a filed entry's claim does meanwhile")
@Outcome(id = {"1, 2, 0", "1, 2, 1"}, expect = ACCEPTABLE,
    desc = "the first lowering pushes, the second finds it pushed; the filed entry claims it only before the push")
@Outcome(id = {"1, 1, 0", "1, 1, 1"}, expect = FORBIDDEN, desc = "pushed twice in one round")
@Outcome(expect = FORBIDDEN, desc = "nobody pushed, or another claim")
@State
public class FusionTagsPushOnceTest {
    private static final int ROUND = 4;
    /** The tag at 0. */
    private final UnsafeBuffer words = Regions.take(64);
    private final long tagAt;

    public FusionTagsPushOnceTest() {
        tagAt = words.addressOffset();
        UnsafeApi.putInt(null, tagAt, FusionTags.FREE);
    }

    @Actor
    public void lowerings(final III_Result r) {
        r.r1 = FusionTags.claim(tagAt, ROUND + 1, false);
        r.r2 = FusionTags.claim(tagAt, ROUND + 1, false);
    }

    @Actor
    public void filedEntry(final III_Result r) {
        r.r3 = FusionTags.claimFiled(tagAt, ROUND) ? 1 : 0;
    }

    @Arbiter
    public void recycle() {
        Regions.give(words);
    }
}
