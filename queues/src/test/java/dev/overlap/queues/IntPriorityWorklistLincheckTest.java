package dev.overlap.queues;

import org.agrona.concurrent.UnsafeBuffer;
import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.junit.jupiter.api.Test;

/**
 * {@link IntPriorityWorklist} against a bag of entries ({@link EntryBagModel}): every push succeeds (room enough),
 * a poll returns the very entry ({@code item@key}) some push added and no poll returned before, and answers
 * "empty" only when the bag is empty at one instant of the call. Items are distinct ({@link UniqueIntGen}), so an
 * entry returned twice, lost, invented or separated from its key fails. Threshold moves (delta 1, keys 0..5
 * around a start threshold of 2) happen in most scenarios, so entries cross from far to near under test.
 * Stress mode (Agrona buffers, see {@link IntCounterRingLincheckTest}).
 */
@Param(name = "item", gen = UniqueIntGen.class)
@Param(name = "key", gen = IntGen.class, conf = "0:5")
public class IntPriorityWorklistLincheckTest {
    private final IntPriorityWorklist worklist = new IntPriorityWorklist(
        new UnsafeBuffer(new byte[IntPriorityWorklist.requiredBytes(32)]), 32, 2, 1);

    @Operation
    public boolean push(@Param(name = "item") final int item, @Param(name = "key") final int key) {
        return worklist.push(item, key);
    }

    @Operation
    public String poll() {
        final long e = worklist.poll(Long.MIN_VALUE);
        return e == Long.MIN_VALUE ? "empty" : EntryBagModel.entry(IntPriorityWorklist.item(e),
            IntPriorityWorklist.key(e));
    }

    @Test
    public void stress() {
        LincheckRuns.stress(getClass(), EntryBagModel.class, ModelVerifier.class);
    }
}
