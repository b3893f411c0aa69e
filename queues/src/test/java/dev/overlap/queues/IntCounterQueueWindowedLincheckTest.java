package dev.overlap.queues;

import dev.overlap.core.AlignedHeapBuffer;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The relaxed guarantee of the Atos block {@link IntCounterQueue} with {@link Publication#WINDOWED} (Listing 6
 * with windows), checked against {@link WindowedQueueModel} as in {@link IntCounterRingWindowedLincheckTest}: a
 * one-shot block of 4 with windows of 2 whose pushes reserve with a {@code getAndAdd} (past the end too, keeping
 * what fits), and whose pops may answer "empty" only while the oldest item's window holds a reserved, unwritten
 * position. Items are distinct ({@link UniqueIntGen}). Stress mode (Agrona buffer).
 */
@Param(name = "item", gen = UniqueIntGen.class)
@Tag("slow")
public class IntCounterQueueWindowedLincheckTest {
    private final IntCounterQueue queue = new IntCounterQueue(
        AlignedHeapBuffer.allocate(IntCounterQueue.requiredBytes(4, 2)), 4, 2, Publication.WINDOWED);

    @Operation
    public boolean offer(@Param(name = "item") final int item) {
        return queue.offer(item) >= 0; // a position, or a code: not taken
    }

    @Operation
    public int offerBatch(@Param(name = "item") final int a, @Param(name = "item") final int b) {
        return Math.max(0, queue.offer(new int[] {a, b}, 0, 2)); // a count, or a code: none taken
    }

    @Operation
    public int poll() {
        return queue.poll(-1);
    }

    @Test
    public void stress() {
        LincheckRuns.stress(getClass(), WindowedQueueModel.IntBlock4Window2.class, ModelVerifier.class);
    }
}
