package dev.overlap.queues;

import org.agrona.concurrent.UnsafeBuffer;
import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.junit.jupiter.api.Test;

/**
 * {@link LongPriorityWorklist} against a bag of entries ({@link EntryBagModel}), as for the int worklist: every
 * push succeeds, a poll returns the very {@code item@key} entry some push added and no poll returned before
 * (two-long entries must never be split or recombined by a band or a move), "empty" only when the bag is empty.
 * Items are distinct ({@link UniqueIntGen}, widened to {@code long} beyond the {@code int} range). Stress mode.
 */
@Param(name = "item", gen = UniqueIntGen.class)
@Param(name = "key", gen = IntGen.class, conf = "0:5")
public class LongPriorityWorklistLincheckTest {
    private static final long ITEM_BASE = 1L << 40;
    private final LongPriorityWorklist worklist = new LongPriorityWorklist(
        new UnsafeBuffer(new byte[LongPriorityWorklist.requiredBytes(32)]), 32, 2, 1);

    @Operation
    public boolean push(@Param(name = "item") final int item, @Param(name = "key") final int key) {
        return worklist.push(ITEM_BASE + item, key);
    }

    @Operation
    public String poll() {
        final long[] e = new long[2];
        return worklist.poll(e) ? EntryBagModel.entry(e[1] - ITEM_BASE, e[0]) : "empty";
    }

    @Test
    public void stress() {
        LincheckRuns.stress(getClass(), EntryBagModel.class, ModelVerifier.class);
    }
}
