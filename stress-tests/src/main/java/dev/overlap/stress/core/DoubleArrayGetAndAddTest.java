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
 * Proves that {@link DoubleArray#getAndAdd} never loses an update: two threads add 1.0 and 2.0 to the same element
 * (0.5) at once. The element must end at 3.5, and each caller gets the value before its own addition in one serial
 * order (the first sees 0.5, the second sees the first one's sum). A plain read-add-write loses one addition.
 * DoubleArray's add is a CAS loop on the IEEE-754 bits (all values here are exact in binary), so this also proves
 * the loop retries with the fresh value after a failed CAS.
 *
 * <p>Result: previous value returned to add(1.0), to add(2.0), final element.
 */
@JCStressTest
@Description("Two racing getAndAdd calls on one DoubleArray element: no update is lost, previous values form a "
    + "serial order")
@Outcome(id = "0.5, 1.5, 3.5", expect = ACCEPTABLE, desc = "add(1.0) first, then add(2.0)")
@Outcome(id = "2.5, 0.5, 3.5", expect = ACCEPTABLE, desc = "add(2.0) first, then add(1.0)")
@Outcome(id = "0.5, 0.5, 1.5", expect = FORBIDDEN, desc = "lost update: add(1.0) overwrote add(2.0)")
@Outcome(id = "0.5, 0.5, 2.5", expect = FORBIDDEN, desc = "lost update: add(2.0) overwrote add(1.0)")
@Outcome(expect = FORBIDDEN,
    desc = "any other result: an addition was lost, duplicated or returned a wrong previous value")
@State
public class DoubleArrayGetAndAddTest {
    private static final class Shared {
        static final SlotRing RING = new SlotRing();
        static final DoubleArray ARRAY = StressMesh.device().allocateDoubles(SlotRing.SLOTS);
    }

    private final DoubleArray array = Shared.ARRAY;
    private final long ticket = Shared.RING.claim();
    private final int index = SlotRing.slot(ticket);

    public DoubleArrayGetAndAddTest() {
        array.set(index, 0.5);
    }

    @Actor
    public void add1(final DDD_Result r) {
        r.r1 = array.getAndAdd(index, 1.0);
    }

    @Actor
    public void add2(final DDD_Result r) {
        r.r2 = array.getAndAdd(index, 2.0);
    }

    @Arbiter
    public void arbiter(final DDD_Result r) {
        Shared.RING.verify(ticket);
        r.r3 = array.getVolatile(index);
    }
}
