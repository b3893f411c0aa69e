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
import org.openjdk.jcstress.infra.results.II_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * BSP SSSP's {@link FusionTags} (in this package because it is package-private): a vertex is on a worker's fusion
 * stack (tag {@code FUSED}, distance 10) when that worker pops it while another worker lowers its distance to 5. The
 * lowerer lowers (a CAS, as the SSSP round does) and then claims ({@link FusionTags#claim}); the popper releases
 * ({@link FusionTags#release}) and then reads the distance it relaxes at. The lowering is lost if the lowerer finds
 * the vertex still fused (and leaves it to the popper) while the popper read the old distance: a Dekker pattern, which
 * the release's volatile write and the reads' ordering forbid.
 *
 * <p>Results: the lowerer's claim ({@code 0} FUSE: it claimed the vertex again; {@code 3} HELD: it left it to the
 * popper), and the distance the popper read.
 */
@JCStressTest
@Description("FusionTags: a lowering that finds its vertex fused is seen by the popper's read of the distance")
@Outcome(id = "3, 5", expect = ACCEPTABLE, desc = "left to the popper, which relaxes at the new distance")
@Outcome(id = {"0, 5", "0, 10"}, expect = ACCEPTABLE, desc = "released first: the lowerer claims it again")
@Outcome(id = "3, 10", expect = FORBIDDEN, desc = "each left the new distance to the other: the lowering is lost")
@Outcome(expect = FORBIDDEN, desc = "any other claim or distance")
@State
public class FusionTagsReleaseTest {
    private static final int NEXT_TAG = 1;
    /** The tag at 0, the distance at 8. */
    private final UnsafeBuffer words = Regions.take(64);
    private final long tagAt;
    private final long distAt;

    public FusionTagsReleaseTest() {
        tagAt = words.addressOffset();
        distAt = tagAt + 8;
        UnsafeApi.putInt(null, tagAt, FusionTags.FUSED);
        UnsafeApi.putLong(null, distAt, 10);
    }

    @Actor
    public void lowerer(final II_Result r) {
        UnsafeApi.compareAndSetLong(null, distAt, 10, 5);
        r.r1 = FusionTags.claim(tagAt, NEXT_TAG, true);
    }

    @Actor
    public void popper(final II_Result r) {
        FusionTags.release(tagAt, NEXT_TAG);
        r.r2 = (int)UnsafeApi.getLongVolatile(null, distAt);
    }

    @Arbiter
    public void recycle() {
        Regions.give(words);
    }
}
