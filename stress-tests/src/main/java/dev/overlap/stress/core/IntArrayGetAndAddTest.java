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
 * Proves that {@link IntArray#getAndAdd} never loses an update: two threads add 1 and 2 to the same element (100) at
 * once. The element must end at 103, and each caller gets the value before its own addition in one serial order (the
 * first sees 100, the second sees the first one's sum). A plain read-add-write loses one addition.
 *
 * <p>Result: previous value returned to add(1), to add(2), final element.
 */
@JCStressTest
@Description("Two racing getAndAdd calls on one IntArray element: no update is lost, previous values form a serial "
    + "order")
@Outcome(id = "100, 101, 103", expect = ACCEPTABLE, desc = "add(1) first, then add(2)")
@Outcome(id = "102, 100, 103", expect = ACCEPTABLE, desc = "add(2) first, then add(1)")
@Outcome(id = "100, 100, 101", expect = FORBIDDEN, desc = "lost update: add(1) overwrote add(2)")
@Outcome(id = "100, 100, 102", expect = FORBIDDEN, desc = "lost update: add(2) overwrote add(1)")
@Outcome(expect = FORBIDDEN,
    desc = "any other result: an addition was lost, duplicated or returned a wrong previous value")
@State
public class IntArrayGetAndAddTest {
    private static final class Shared {
        static final SlotRing RING = new SlotRing();
        static final IntArray ARRAY = StressMesh.device().allocateInts(SlotRing.SLOTS);
    }

    private final IntArray array = Shared.ARRAY;
    private final long ticket = Shared.RING.claim();
    private final int index = SlotRing.slot(ticket);

    public IntArrayGetAndAddTest() {
        array.set(index, 100);
    }

    @Actor
    public void add1(final III_Result r) {
        r.r1 = array.getAndAdd(index, 1);
    }

    @Actor
    public void add2(final III_Result r) {
        r.r2 = array.getAndAdd(index, 2);
    }

    @Arbiter
    public void arbiter(final III_Result r) {
        Shared.RING.verify(ticket);
        r.r3 = array.getVolatile(index);
    }
}
