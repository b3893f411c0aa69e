package dev.overlap.stress.core;

import dev.overlap.core.IntArray;
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
 * Proves that {@link IntArray#getAndMin} is an atomic, linearizable minimum (the remote atomic-min of BFS/SSSP): two
 * threads lower the same element (10) to 3 and to 5 at once. Whatever the order, the element ends at 3 and the
 * previous values returned are those of one serial order: the first caller sees 10, the second sees what the first
 * left. A non-atomic read-compare-write loses an update (final 5) or lets both callers see 10; a CAS loop that does
 * not retry after a failed CAS leaves the larger value.
 *
 * <p>Result: previous value returned to min(3), to min(5), final element.
 */
@JCStressTest
@Description("Two racing getAndMin calls on one IntArray element: final value is the minimum, previous values form a "
    + "serial order")
@Outcome(id = "10, 3, 3", expect = ACCEPTABLE, desc = "min(3) first, then min(5) saw 3 and changed nothing")
@Outcome(id = "5, 10, 3", expect = ACCEPTABLE, desc = "min(5) first, then min(3) saw 5 and lowered it")
@Outcome(id = "10, 10, 3", expect = FORBIDDEN,
    desc = "both saw the initial value: the read and the write are not one atomic step")
@Outcome(id = "10, 10, 5", expect = FORBIDDEN, desc = "lost update: min(3) overwritten by min(5)")
@Outcome(expect = FORBIDDEN, desc = "any other result breaks atomic-minimum semantics")
@State
public class IntArrayGetAndMinTest {
    private static final class Shared {
        static final SlotRing RING = new SlotRing();
        static final IntArray ARRAY = StressMesh.device().allocateInts(SlotRing.SLOTS);
    }

    private final IntArray array = Shared.ARRAY;
    private final long ticket = Shared.RING.claim();
    private final int index = SlotRing.slot(ticket);

    public IntArrayGetAndMinTest() {
        array.set(index, 10);
    }

    @Actor
    public void minLow(final III_Result r) {
        r.r1 = array.getAndMin(index, 3);
    }

    @Actor
    public void minHigh(final III_Result r) {
        r.r2 = array.getAndMin(index, 5);
    }

    @Arbiter
    public void arbiter(final III_Result r) {
        Shared.RING.verify(ticket);
        r.r3 = array.getVolatile(index);
    }
}
