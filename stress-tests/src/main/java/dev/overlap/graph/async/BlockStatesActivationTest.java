package dev.overlap.graph.async;

import org.agrona.concurrent.UnsafeBuffer;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * The block states of the async pull PageRank ({@link BlockStates}, package-private, hence this package): a queued
 * block is popped by a runner while an announcer changes one of the block's inputs and activates it, as
 * {@link AsyncPullPageRank} does. The runner begins the run, reads the input (a plain load, as the gather does) and
 * ends the run; the announcer writes the input (an opaque store, as the runner's value store), fences and activates.
 *
 * <p>Results: the input the runner read, whether its end queued the block again (1), what the activation did
 * ({@link BlockStates#NOTHING} 0, {@link BlockStates#MARKED} 1, {@link BlockStates#PUSH} 2) and the final state word.
 * Forbidden: a lost activation (the runner read the old input and nothing makes the block run again), a block queued
 * twice (pushed by the announcer and re-queued by the runner), and a final state other than what the outcome implies.
 */
@JCStressTest
@Description("Async pull PageRank block states: an activation racing a run is never lost, a block is queued once")
@Outcome(id = "1, 0, 0, 0", expect = ACCEPTABLE, desc = "activation saw the block still queued; the run read the new input")
@Outcome(id = "1, 1, 1, 1", expect = ACCEPTABLE, desc = "marked dirty while running: the run is repeated (redundant)")
@Outcome(id = "1, 0, 2, 1", expect = ACCEPTABLE, desc = "queued again after the run (redundant)")
@Outcome(id = "0, 1, 1, 1", expect = ACCEPTABLE, desc = "run read the old input; marked dirty, so it runs again")
@Outcome(id = "0, 0, 2, 1", expect = ACCEPTABLE, desc = "run read the old input; queued again after it")
@Outcome(expect = FORBIDDEN, desc = "queued twice, or a state word that contradicts the transitions")
@State
public class BlockStatesActivationTest {
    private final UnsafeBuffer states = new UnsafeBuffer(new byte[16]);
    private final UnsafeBuffer input = new UnsafeBuffer(new byte[16]);

    public BlockStatesActivationTest() {
        states.putIntVolatile(0, BlockStates.QUEUED); // popped: the worklist handed it to the runner
    }

    @Actor
    public void runner(final IIII_Result r) {
        BlockStates.beginRun(states, 0);
        r.r1 = (int)input.getLong(0);
        r.r2 = BlockStates.endRun(states, 0) ? 1 : 0;
    }

    @Actor
    public void announcer(final IIII_Result r) {
        input.putLongOpaque(0, 1L);
        BlockStates.announceFence();
        r.r3 = BlockStates.activate(states, 0);
    }

    @Arbiter
    public void arbiter(final IIII_Result r) {
        r.r4 = states.getIntVolatile(0);
    }
}
