package dev.overlap.stress.core;

import dev.overlap.core.DoubleArray;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.DDD_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Proves that {@link DoubleArray#getAndMin} is an atomic, linearizable minimum (the remote atomic-min of BFS/SSSP):
 * two threads lower the same element (10.5) to 2.25 and to 4.75 at once. Whatever the order, the element ends at
 * 2.25 and the previous values returned are those of one serial order: the first caller sees 10.5, the second sees
 * what the first left. A non-atomic read-compare-write loses an update (final 4.75) or lets both callers see 10.5; a
 * CAS loop that does not retry after a failed CAS leaves the larger value. (DoubleArray's min is a CAS loop on the
 * IEEE-754 bits.)
 *
 * <p>Result: previous value returned to min(2.25), to min(4.75), final element.
 */
@JCStressTest
@Description("Two racing getAndMin calls on one DoubleArray element: final value is the minimum, previous values "
    + "form a serial order")
@Outcome(id = "10.5, 2.25, 2.25", expect = ACCEPTABLE,
    desc = "min(2.25) first, then min(4.75) saw 2.25 and changed nothing")
@Outcome(id = "4.75, 10.5, 2.25", expect = ACCEPTABLE, desc = "min(4.75) first, then min(2.25) saw 4.75 and lowered it")
@Outcome(id = "10.5, 10.5, 2.25", expect = FORBIDDEN,
    desc = "both saw the initial value: the read and the write are not one atomic step")
@Outcome(id = "10.5, 10.5, 4.75", expect = FORBIDDEN, desc = "lost update: min(2.25) overwritten by min(4.75)")
@Outcome(expect = FORBIDDEN, desc = "any other result breaks atomic-minimum semantics")
@State
public class DoubleArrayGetAndMinTest {
    private static final class Shared {
        static final SlotRing RING = new SlotRing();
        static final DoubleArray ARRAY = StressMesh.device().allocateDoubles(SlotRing.SLOTS);
    }

    private final DoubleArray array = Shared.ARRAY;
    private final long ticket = Shared.RING.claim();
    private final int index = SlotRing.slot(ticket);

    public DoubleArrayGetAndMinTest() {
        array.set(index, 10.5);
    }

    @Actor
    public void minLow(final DDD_Result r) {
        r.r1 = array.getAndMin(index, 2.25);
    }

    @Actor
    public void minHigh(final DDD_Result r) {
        r.r2 = array.getAndMin(index, 4.75);
    }

    @Arbiter
    public void arbiter(final DDD_Result r) {
        Shared.RING.verify(ticket);
        r.r3 = array.getVolatile(index);
    }
}
