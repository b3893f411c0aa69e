package dev.overlap.stress.core;

import dev.overlap.core.LongArray;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.JJJ_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Proves that {@link LongArray#getAndMax} is an atomic, linearizable maximum: two threads raise the same element
 * (10000000000) to 30000000000 and to 20000000000 at once. Whatever the order, the element ends at 30000000000 and
 * the previous values returned are those of one serial order. A non-atomic read-compare-write loses an update (final
 * 20000000000) or lets both callers see 10000000000. The values exceed 32 bits and their low halves order
 * differently from the full values, so an implementation that compares or stores only 32 bits fails too.
 *
 * <p>Result: previous value returned to max(30000000000), to max(20000000000), final element.
 */
@JCStressTest
@Description("Two racing getAndMax calls on one LongArray element: final value is the maximum, previous values form "
    + "a serial order")
@Outcome(id = "10000000000, 30000000000, 30000000000", expect = ACCEPTABLE,
    desc = "max(30000000000) first, then max(20000000000) saw 30000000000 and changed nothing")
@Outcome(id = "20000000000, 10000000000, 30000000000", expect = ACCEPTABLE,
    desc = "max(20000000000) first, then max(30000000000) saw 20000000000 and raised it")
@Outcome(id = "10000000000, 10000000000, 30000000000", expect = FORBIDDEN,
    desc = "both saw the initial value: the read and the write are not one atomic step")
@Outcome(id = "10000000000, 10000000000, 20000000000", expect = FORBIDDEN,
    desc = "lost update: max(30000000000) overwritten by max(20000000000)")
@Outcome(expect = FORBIDDEN, desc = "any other result breaks atomic-maximum semantics")
@State
public class LongArrayGetAndMaxTest {
    private static final class Shared {
        static final SlotRing RING = new SlotRing();
        static final LongArray ARRAY = StressMesh.device().allocateLongs(SlotRing.SLOTS);
    }

    private final LongArray array = Shared.ARRAY;
    private final long ticket = Shared.RING.claim();
    private final int index = SlotRing.slot(ticket);

    public LongArrayGetAndMaxTest() {
        array.set(index, 10000000000L);
    }

    @Actor
    public void maxHigh(final JJJ_Result r) {
        r.r1 = array.getAndMax(index, 30000000000L);
    }

    @Actor
    public void maxLow(final JJJ_Result r) {
        r.r2 = array.getAndMax(index, 20000000000L);
    }

    @Arbiter
    public void arbiter(final JJJ_Result r) {
        Shared.RING.verify(ticket);
        r.r3 = array.getVolatile(index);
    }
}
