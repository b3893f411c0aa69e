package dev.overlap.queues;

import org.agrona.concurrent.UnsafeBuffer;
import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.junit.jupiter.api.Test;

/**
 * {@link LongPriorityWorklist} against {@link IntPriorityWorklistLincheckTest.Bag}, as for the int worklist: every
 * push succeeds, a poll finds an entry exactly when the bag is non-empty, and entries keep their keys (two-long
 * entries must never be split by a band or a move). Stress mode.
 */
@Param(name = "key", gen = IntGen.class, conf = "0:5")
public class LongPriorityWorklistLincheckTest {
    private final LongPriorityWorklist worklist = new LongPriorityWorklist(
        new UnsafeBuffer(new byte[LongPriorityWorklist.requiredBytes(32)]), 32, 2, 1);

    @Operation
    public boolean push(@Param(name = "key") final int key) {
        return worklist.push(100L + key, key);
    }

    @Operation
    public boolean poll() {
        final long[] e = new long[2];
        final boolean got = worklist.poll(e);
        if (got && e[1] != 100L + e[0]) {
            throw new AssertionError("entry lost its key: " + e[0] + "/" + e[1]);
        }
        return got;
    }

    @Test
    public void stress() {
        LincheckRuns.stress(getClass(), IntPriorityWorklistLincheckTest.Bag.class);
    }
}
