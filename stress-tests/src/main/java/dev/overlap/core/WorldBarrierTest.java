package dev.overlap.core;

import org.agrona.concurrent.UnsafeBuffer;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIIII_Result;

import java.util.concurrent.TimeUnit;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * {@link World#barrier()} between two ranks, the ranks as the two actors over one control segment (hence this
 * package: the segment is package-private; the processes of a real world share the same words through a mapped file).
 * Two barriers in a row, each rank writing a plain field before each and reading the other rank's after it: a rank
 * that leaves a barrier before the other arrived (a completion miscounted, or a generation bumped before the count
 * reset, so the second barrier lets a rank through early) reads a 0; so does a barrier without release/acquire
 * ordering. The arbiter checks the barrier word is back to "nobody arrived" two generations later.
 *
 * <p>The barriers are bounded (ten seconds, where a real wait takes microseconds) so that a broken barrier that would
 * strand a rank fails the test ({@code -1}) instead of hanging it.
 *
 * <p>Results: what rank 0 read of rank 1's first and second write, what rank 1 read of rank 0's, and the barrier word
 * (2 = generation 2, none arrived).
 */
@JCStressTest
@Description("World.barrier: no rank leaves before every rank arrived, writes before it are visible after it")
@Outcome(id = "1, 1, 1, 1, 2", expect = ACCEPTABLE, desc = "both barriers held; everything visible")
@Outcome(expect = FORBIDDEN, desc = "a rank passed a barrier early or read a stale write, or the word is wrong")
@State
public class WorldBarrierTest {
    /** What a rank reads when its barrier did not complete within {@link #BOUND_SECONDS}. */
    static final int STUCK = -1;
    private static final long BOUND_SECONDS = 10;
    private final WorldSegment segment = new WorldSegment(new UnsafeBuffer(new byte[WorldSegment.length(2, 0)]), 2, 0);
    private final World rank0 = World.overSegment(segment, 2, 0);
    private final World rank1 = World.overSegment(segment, 2, 1);
    private int a1;
    private int a2;
    private int b1;
    private int b2;

    @Actor
    public void rank0(final IIIII_Result r) {
        a1 = 1;
        r.r1 = meet(rank0) ? b1 : STUCK;
        a2 = 1;
        r.r2 = meet(rank0) ? b2 : STUCK;
    }

    @Actor
    public void rank1(final IIIII_Result r) {
        b1 = 1;
        r.r3 = meet(rank1) ? a1 : STUCK;
        b2 = 1;
        r.r4 = meet(rank1) ? a2 : STUCK;
    }

    /**
     * The barrier with a bound far above any real wait (the other actor is running), so that a broken barrier that
     * would let a rank wait forever fails the test ({@value #STUCK}) instead of hanging the jcstress fork.
     */
    private static boolean meet(final World rank) {
        return rank.barrier(BOUND_SECONDS, TimeUnit.SECONDS);
    }

    @Arbiter
    public void arbiter(final IIIII_Result r) {
        final long word = segment.barrierWord();
        r.r5 = WorldSegment.arrivedOf(word) == 0 ? (int)WorldSegment.generationOf(word) : -1;
    }
}
