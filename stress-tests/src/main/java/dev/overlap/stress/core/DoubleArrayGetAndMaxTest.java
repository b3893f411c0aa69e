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
 * Proves that {@link DoubleArray#getAndMax} is an atomic, linearizable maximum: two threads raise the same element
 * (-1.5) to 4.5 and to 2.5 at once. Whatever the order, the element ends at 4.5 and the previous values returned are
 * those of one serial order. A non-atomic read-compare-write loses an update (final 2.5) or lets both callers see
 * -1.5. (DoubleArray's max is a CAS loop on the IEEE-754 bits.)
 *
 * <p>Result: previous value returned to max(4.5), to max(2.5), final element.
 */
@JCStressTest
@Description("Two racing getAndMax calls on one DoubleArray element: final value is the maximum, previous values "
    + "form a serial order")
@Outcome(id = "-1.5, 4.5, 4.5", expect = ACCEPTABLE, desc = "max(4.5) first, then max(2.5) saw 4.5 and changed nothing")
@Outcome(id = "2.5, -1.5, 4.5", expect = ACCEPTABLE, desc = "max(2.5) first, then max(4.5) saw 2.5 and raised it")
@Outcome(id = "-1.5, -1.5, 4.5", expect = FORBIDDEN,
    desc = "both saw the initial value: the read and the write are not one atomic step")
@Outcome(id = "-1.5, -1.5, 2.5", expect = FORBIDDEN, desc = "lost update: max(4.5) overwritten by max(2.5)")
@Outcome(expect = FORBIDDEN, desc = "any other result breaks atomic-maximum semantics")
@State
public class DoubleArrayGetAndMaxTest {
    private static final class Shared {
        static final SlotRing RING = new SlotRing();
        static final DoubleArray ARRAY = StressMesh.device().allocateDoubles(SlotRing.SLOTS);
    }

    private final DoubleArray array = Shared.ARRAY;
    private final long ticket = Shared.RING.claim();
    private final int index = SlotRing.slot(ticket);

    public DoubleArrayGetAndMaxTest() {
        array.set(index, -1.5);
    }

    @Actor
    public void maxHigh(final DDD_Result r) {
        r.r1 = array.getAndMax(index, 4.5);
    }

    @Actor
    public void maxLow(final DDD_Result r) {
        r.r2 = array.getAndMax(index, 2.5);
    }

    @Arbiter
    public void arbiter(final DDD_Result r) {
        Shared.RING.verify(ticket);
        r.r3 = array.getVolatile(index);
    }
}
