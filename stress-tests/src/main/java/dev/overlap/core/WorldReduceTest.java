package dev.overlap.core;

import org.agrona.concurrent.UnsafeBuffer;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * {@link World#allReduceSum(long)} between two ranks (the actors) over one control segment, three reductions in a
 * row with different values each time: every rank must get every sum right. The areas the ranks write their values
 * into alternate between reductions; with one area (or with values read before the barrier), a rank that runs ahead
 * overwrites its value for the next reduction while the other still reads the previous one, and a sum comes out
 * wrong.
 *
 * <p>Results: the second and third sums as rank 0 saw them, then as rank 1 saw them (the first is checked in line:
 * a wrong one reports -1 in place of the second).
 */
@JCStressTest
@Description("World.allReduceSum: consecutive reductions never mix values of different rounds")
@Outcome(id = "30, 300, 30, 300", expect = ACCEPTABLE, desc = "every sum right on both ranks")
@Outcome(expect = FORBIDDEN, desc = "a rank summed a value of another round")
@State
public class WorldReduceTest {
    private final WorldSegment segment = new WorldSegment(new UnsafeBuffer(new byte[WorldSegment.length(2, 0)]), 2,
        0);
    private final World rank0 = World.overSegment(segment, 2, 0);
    private final World rank1 = World.overSegment(segment, 2, 1);

    @Actor
    public void rank0(final IIII_Result r) {
        final boolean first = rank0.allReduceSum(1) == 3;
        final long second = rank0.allReduceSum(10);
        r.r1 = first ? (int)second : -1;
        r.r2 = (int)rank0.allReduceSum(100);
    }

    @Actor
    public void rank1(final IIII_Result r) {
        final boolean first = rank1.allReduceSum(2) == 3;
        final long second = rank1.allReduceSum(20);
        r.r3 = first ? (int)second : -1;
        r.r4 = (int)rank1.allReduceSum(200);
    }
}
