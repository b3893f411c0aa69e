package dev.overlap.stress.core;

import dev.overlap.core.DoubleArray;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.ZZD_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Proves that {@link DoubleArray#compareAndSet} is a strong, atomic CAS on the IEEE-754 bits, as documented: the
 * element starts as {@code NaN} and two threads both try to replace that {@code NaN} with 1.0 and 2.0 at once.
 * Exactly one succeeds and the element holds the winner's value. Two successes mean the compare and the set are
 * not one atomic step; two failures mean the CAS compared values with {@code ==} (for which {@code NaN != NaN})
 * instead of bits, or failed spuriously.
 *
 * <p>Result: success of CAS to 1.0, success of CAS to 2.0, final element.
 */
@JCStressTest
@Description("Two racing compareAndSet(NaN -> x) calls on one DoubleArray element: bitwise compare, exactly one wins")
@Outcome(id = "true, false, 1.0", expect = ACCEPTABLE, desc = "CAS to 1.0 won, CAS to 2.0 saw 1.0 and failed")
@Outcome(id = "false, true, 2.0", expect = ACCEPTABLE, desc = "CAS to 2.0 won, CAS to 1.0 saw 2.0 and failed")
@Outcome(id = "true, true, 1.0", expect = FORBIDDEN, desc = "both CAS succeeded: not atomic")
@Outcome(id = "true, true, 2.0", expect = FORBIDDEN, desc = "both CAS succeeded: not atomic")
@Outcome(id = "false, false, NaN", expect = FORBIDDEN,
    desc = "both CAS failed: NaN compared by value instead of by bits, or a spurious failure")
@Outcome(expect = FORBIDDEN, desc = "any other result breaks compare-and-set semantics")
@State
public class DoubleArrayCompareAndSetTest {
    private static final class Shared {
        static final SlotRing RING = new SlotRing();
        static final DoubleArray ARRAY = StressMesh.device().allocateDoubles(SlotRing.SLOTS);
    }

    private final DoubleArray array = Shared.ARRAY;
    private final long ticket = Shared.RING.claim();
    private final int index = SlotRing.slot(ticket);

    public DoubleArrayCompareAndSetTest() {
        array.set(index, Double.NaN);
    }

    @Actor
    public void casTo1(final ZZD_Result r) {
        r.r1 = array.compareAndSet(index, Double.NaN, 1.0);
    }

    @Actor
    public void casTo2(final ZZD_Result r) {
        r.r2 = array.compareAndSet(index, Double.NaN, 2.0);
    }

    @Arbiter
    public void arbiter(final ZZD_Result r) {
        Shared.RING.verify(ticket);
        r.r3 = array.getVolatile(index);
    }
}
