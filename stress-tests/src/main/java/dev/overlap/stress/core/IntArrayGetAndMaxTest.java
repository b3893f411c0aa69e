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
 * Proves that {@link IntArray#getAndMax} is an atomic, linearizable maximum: two threads raise the same element (10)
 * to 30 and to 20 at once. Whatever the order, the element ends at 30 and the previous values returned are those of
 * one serial order. A non-atomic read-compare-write loses an update (final 20) or lets both callers see 10.
 *
 * <p>Result: previous value returned to max(30), to max(20), final element.
 */
@JCStressTest
@Description("Two racing getAndMax calls on one IntArray element: final value is the maximum, previous values form a "
    + "serial order")
@Outcome(id = "10, 30, 30", expect = ACCEPTABLE, desc = "max(30) first, then max(20) saw 30 and changed nothing")
@Outcome(id = "20, 10, 30", expect = ACCEPTABLE, desc = "max(20) first, then max(30) saw 20 and raised it")
@Outcome(id = "10, 10, 30", expect = FORBIDDEN,
    desc = "both saw the initial value: the read and the write are not one atomic step")
@Outcome(id = "10, 10, 20", expect = FORBIDDEN, desc = "lost update: max(30) overwritten by max(20)")
@Outcome(expect = FORBIDDEN, desc = "any other result breaks atomic-maximum semantics")
@State
public class IntArrayGetAndMaxTest {
    private static final class Shared {
        static final SlotRing RING = new SlotRing();
        static final IntArray ARRAY = StressMesh.device().allocateInts(SlotRing.SLOTS);
    }

    private final IntArray array = Shared.ARRAY;
    private final long ticket = Shared.RING.claim();
    private final int index = SlotRing.slot(ticket);

    public IntArrayGetAndMaxTest() {
        array.set(index, 10);
    }

    @Actor
    public void maxHigh(final III_Result r) {
        r.r1 = array.getAndMax(index, 30);
    }

    @Actor
    public void maxLow(final III_Result r) {
        r.r2 = array.getAndMax(index, 20);
    }

    @Arbiter
    public void arbiter(final III_Result r) {
        Shared.RING.verify(ticket);
        r.r3 = array.getVolatile(index);
    }
}
