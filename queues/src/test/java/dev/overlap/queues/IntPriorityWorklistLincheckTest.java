package dev.overlap.queues;

import org.agrona.concurrent.UnsafeBuffer;
import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.junit.jupiter.api.Test;

/**
 * {@link IntPriorityWorklist} against a bag ({@link Bag}): every push succeeds (room enough), a poll finds an entry
 * exactly when the bag is non-empty, and the entry it finds was pushed and not found before (checked by the key
 * band it reports). Threshold moves (delta 1, keys 0..5 around a start threshold of 2) happen in most scenarios.
 * Stress mode (Agrona buffers, see {@link IntCounterRingLincheckTest}); jcstress checks exact items.
 */
@Param(name = "key", gen = IntGen.class, conf = "0:5")
public class IntPriorityWorklistLincheckTest {
    private final IntPriorityWorklist worklist = new IntPriorityWorklist(
        new UnsafeBuffer(new byte[IntPriorityWorklist.requiredBytes(32)]), 32, 2, 1);

    @Operation
    public boolean push(@Param(name = "key") final int key) {
        return worklist.push(key, key);
    }

    @Operation
    public boolean poll() {
        final long e = worklist.poll(Long.MIN_VALUE);
        if (e != Long.MIN_VALUE && IntPriorityWorklist.item(e) != IntPriorityWorklist.key(e)) {
            throw new AssertionError("entry lost its key: " + Long.toHexString(e));
        }
        return e != Long.MIN_VALUE;
    }

    @Test
    public void stress() {
        LincheckRuns.stress(getClass(), Bag.class);
    }

    /** The sequential specification: a counter of entries. */
    public static final class Bag {
        private int size;

        public boolean push(final int key) {
            size++;
            return true;
        }

        public boolean poll() {
            if (size == 0) {
                return false;
            }
            size--;
            return true;
        }
    }
}
