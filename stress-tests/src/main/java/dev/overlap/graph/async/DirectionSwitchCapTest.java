package dev.overlap.graph.async;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.I_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * The async hybrid BFS's {@link DirectionSwitch} (package-private, hence this package): two workers of different
 * devices each discover a vertex whose edges alone cross Beamer's switch, one at depth 3 and one at depth 2, so both
 * publish their sums and both try to set the cap. The cap only ever goes down: whatever the interleaving, it must end
 * at 2 (the shallower depth). A racing publish that raised it (3) would let the top-down phase expand depth 2's
 * frontier although the switch fired there; no cap at all would lose the switch.
 */
@JCStressTest
@Description("DirectionSwitch: racing switch decisions leave the cap at the shallowest switching depth")
@Outcome(id = "2", expect = ACCEPTABLE, desc = "the cap is the shallower depth")
@Outcome(expect = FORBIDDEN, desc = "the cap was raised by a racing publish, or never set")
@State
public class DirectionSwitchCapTest {
    /** 18 vertices (n / beta = 1 edge), 10,000 edge slots; each discovery carries 5,000 edges (> FLUSH). */
    private final DirectionSwitch sw = new DirectionSwitch(2, 1, 18, 10_000);

    @Actor
    public void workerOfDevice0() {
        sw.discovered(0, 0, 3, 5_000);
    }

    @Actor
    public void workerOfDevice1() {
        sw.discovered(1, 0, 2, 5_000);
    }

    @Arbiter
    public void arbiter(final I_Result r) {
        r.r1 = sw.cap();
    }
}
