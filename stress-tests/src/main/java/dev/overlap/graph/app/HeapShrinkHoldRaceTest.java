package dev.overlap.graph.app;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * {@link HeapShrinkHold} (in this package because it is package-private): two threads each open a hold, read the
 * JVM's {@code MaxHeapFreeRatio} while they hold it, and close it, as two measurements in one JVM do around their runs.
 * The flag is the JVM's, so every state of this test (and every concurrent state jcstress runs) shares it: the one
 * promise that holds whatever the other states do is that while a hold is open the flag reads
 * {@link HeapShrinkHold#NEVER_SHRINK}. A close that restored the flag while another hold was still open (a count lost
 * between two opens or two closes, or a restore that ignores the count) lets the other thread read the ratio it found.
 * That the last close restores the ratio is a single-thread property, tested by {@code HeapShrinkHoldTest}.
 *
 * <p>Results: 1 when the thread read {@link HeapShrinkHold#NEVER_SHRINK} inside its hold, else 0.
 */
@JCStressTest
@Description("HeapShrinkHold: no close lets the heap shrink under another thread's open hold")
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "each thread saw the heap held while it held it")
@Outcome(expect = FORBIDDEN, desc = "a thread's hold was undone by the other's close")
@State
public class HeapShrinkHoldRaceTest {
    @Actor
    public void first(final II_Result r) {
        r.r1 = heldWhileHolding();
    }

    @Actor
    public void second(final II_Result r) {
        r.r2 = heldWhileHolding();
    }

    private static int heldWhileHolding() {
        final HeapShrinkHold hold = HeapShrinkHold.open();
        try {
            return HeapShrinkHold.NEVER_SHRINK.equals(HeapShrinkHold.current()) ? 1 : 0;
        } finally {
            hold.close();
        }
    }
}
