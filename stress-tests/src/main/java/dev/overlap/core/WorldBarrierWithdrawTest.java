package dev.overlap.core;

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
 * A barrier wait that gives up (a timeout or an interrupt) takes its arrival back, racing a rank that arrives and
 * completes the barrier: either the withdrawal wins (the barrier is as if the rank never came: one arrival, same
 * generation) or the completion does (the withdrawing rank learns its arrival counted: next generation, nobody
 * arrived). Three ranks, so that the barrier cannot complete without a third arrival the arbiter makes: the arrival
 * already there is the arbiter's set-up. Losing the race both ways (an arrival taken back after it completed the
 * barrier, or a lost arrival from a withdrawal that is not one atomic step) shows as a count or generation that
 * matches neither.
 *
 * <p>Results: withdrawn (1) or counted (0) for the withdrawing rank; completed (1) or not (0) for the arriving rank;
 * the generation and the count the arbiter finds.
 */
@JCStressTest
@Description("World barrier: a withdrawal racing the completing arrival is one or the other, never both or neither")
@Outcome(id = "1, 0, 0, 2", expect = ACCEPTABLE, desc = "withdrawn first: the arrival and the set-up one remain")
@Outcome(id = "0, 1, 1, 0", expect = ACCEPTABLE, desc = "completed first: the withdrawal learnt its arrival counted")
@Outcome(expect = FORBIDDEN, desc = "an arrival lost or counted twice")
@State
public class WorldBarrierWithdrawTest {
    private final WorldSegment segment = new WorldSegment(new UnsafeBuffer(new byte[WorldSegment.length(0, 0)]), 0, 0);
    private final long generation;

    public WorldBarrierWithdrawTest() {
        segment.arrive(3); // the third rank's arrival, there before the race
        generation = segment.arrive(3); // the withdrawing rank's arrival
    }

    @Actor
    public void withdrawing(final IIII_Result r) {
        r.r1 = segment.withdraw(generation, 3) ? 1 : 0;
    }

    @Actor
    public void arriving(final IIII_Result r) {
        segment.arrive(3);
        r.r2 = WorldSegment.generationOf(segment.barrierWord()) != generation ? 1 : 0;
    }

    @Arbiter
    public void arbiter(final IIII_Result r) {
        final long word = segment.barrierWord();
        r.r3 = (int)WorldSegment.generationOf(word);
        r.r4 = WorldSegment.arrivedOf(word);
    }
}
