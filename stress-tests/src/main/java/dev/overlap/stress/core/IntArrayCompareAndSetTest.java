package dev.overlap.stress.core;

import dev.overlap.core.IntArray;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.ZZI_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Proves that {@link IntArray#compareAndSet} is a strong, atomic CAS: two threads both try to replace 7 (the current
 * value) with 1 and 2 at once. Exactly one succeeds and the element holds the winner's value. Two successes mean the
 * compare and the set are not one atomic step (the loser's write clobbers the winner); two failures mean a spurious
 * failure, which a strong CAS must not have.
 *
 * <p>Result: success of CAS to 1, success of CAS to 2, final element.
 */
@JCStressTest
@Description("Two racing compareAndSet calls from the same expected value on one IntArray element: exactly one wins")
@Outcome(id = "true, false, 1", expect = ACCEPTABLE, desc = "CAS to 1 won, CAS to 2 saw 1 and failed")
@Outcome(id = "false, true, 2", expect = ACCEPTABLE, desc = "CAS to 2 won, CAS to 1 saw 2 and failed")
@Outcome(id = "true, true, 1", expect = FORBIDDEN, desc = "both CAS succeeded: not atomic")
@Outcome(id = "true, true, 2", expect = FORBIDDEN, desc = "both CAS succeeded: not atomic")
@Outcome(id = "false, false, 7", expect = FORBIDDEN,
    desc = "both CAS failed although the element held the expected value")
@Outcome(expect = FORBIDDEN, desc = "any other result breaks compare-and-set semantics")
@State
public class IntArrayCompareAndSetTest {
    private static final class Shared {
        static final SlotRing RING = new SlotRing();
        static final IntArray ARRAY = StressMesh.device().allocateInts(SlotRing.SLOTS);
    }

    private final IntArray array = Shared.ARRAY;
    private final long ticket = Shared.RING.claim();
    private final int index = SlotRing.slot(ticket);

    public IntArrayCompareAndSetTest() {
        array.set(index, 7);
    }

    @Actor
    public void casTo1(final ZZI_Result r) {
        r.r1 = array.compareAndSet(index, 7, 1);
    }

    @Actor
    public void casTo2(final ZZI_Result r) {
        r.r2 = array.compareAndSet(index, 7, 2);
    }

    @Arbiter
    public void arbiter(final ZZI_Result r) {
        Shared.RING.verify(ticket);
        r.r3 = array.getVolatile(index);
    }
}
