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
 * Proves that {@link LongArray#getAndAdd} never loses an update: two threads add 1 and 2 to the same element
 * (2147483647) at once. The element must end at 2147483650, and each caller gets the value before its own addition
 * in one serial order (the first sees 2147483647, the second sees the first one's sum). A plain read-add-write loses
 * one addition. The sums carry past 32 bits, so a 32-bit addition fails too.
 *
 * <p>Result: previous value returned to add(1), to add(2), final element.
 */
@JCStressTest
@Description("Two racing getAndAdd calls on one LongArray element: no update is lost, previous values form a serial "
    + "order")
@Outcome(id = "2147483647, 2147483648, 2147483650", expect = ACCEPTABLE, desc = "add(1) first, then add(2)")
@Outcome(id = "2147483649, 2147483647, 2147483650", expect = ACCEPTABLE, desc = "add(2) first, then add(1)")
@Outcome(id = "2147483647, 2147483647, 2147483648", expect = FORBIDDEN, desc = "lost update: add(1) overwrote add(2)")
@Outcome(id = "2147483647, 2147483647, 2147483649", expect = FORBIDDEN, desc = "lost update: add(2) overwrote add(1)")
@Outcome(expect = FORBIDDEN,
    desc = "any other result: an addition was lost, duplicated or returned a wrong previous value")
@State
public class LongArrayGetAndAddTest {
    private static final class Shared {
        static final SlotRing RING = new SlotRing();
        static final LongArray ARRAY = StressMesh.device().allocateLongs(SlotRing.SLOTS);
    }

    private final LongArray array = Shared.ARRAY;
    private final long ticket = Shared.RING.claim();
    private final int index = SlotRing.slot(ticket);

    public LongArrayGetAndAddTest() {
        array.set(index, 2147483647L);
    }

    @Actor
    public void add1(final JJJ_Result r) {
        r.r1 = array.getAndAdd(index, 1L);
    }

    @Actor
    public void add2(final JJJ_Result r) {
        r.r2 = array.getAndAdd(index, 2L);
    }

    @Arbiter
    public void arbiter(final JJJ_Result r) {
        Shared.RING.verify(ticket);
        r.r3 = array.getVolatile(index);
    }
}
