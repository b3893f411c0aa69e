package dev.overlap.queues;

import dev.overlap.core.AlignedHeapBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The relaxed guarantee of {@link IntCounterRing} with {@link Publication#WINDOWED}, checked against
 * {@link WindowedQueueModel} (capacity 3, windows of 2): every push is a reservation followed by a write per window
 * it touches, and a pop may answer "empty" only when nothing is held or the window of the oldest item holds a
 * position a push has reserved and not yet written; otherwise the ring is a bounded FIFO in reservation order
 * (nothing lost, duplicated, invented or reordered; "full" counts reservations). Items are distinct
 * ({@link UniqueIntGen}). Batch pops are left to jcstress: they may also come up short while another thread is
 * between two steps of moving {@code end} (documented in {@link Publication#WINDOWED}).
 *
 * <p>Stress mode only: Lincheck 3.7's model checker fails inside Agrona's {@code UnsafeBuffer} (a Lincheck bug:
 * {@code NoSuchFieldException: SHOULD_BOUNDS_CHECK}). The counter algorithm itself ({@link CounterSequencer}) is
 * model-checked against the same model through the on-heap {@link CounterRingQueue}
 * ({@link CounterRingQueueWindowedLincheckTest}).
 */
@Param(name = "item", gen = UniqueIntGen.class)
@Tag("slow")
public class IntCounterRingWindowedLincheckTest {
    private final IntCounterRing ring =
        new IntCounterRing(AlignedHeapBuffer.allocate(IntCounterRing.requiredBytes(3, 2)), 3, 2, Publication.WINDOWED);

    @Operation
    public boolean offer(@Param(name = "item") final int item) {
        return ring.offer(item) >= 0; // a position, or a code: not taken
    }

    @Operation
    public boolean offerAll(@Param(name = "item") final int a, @Param(name = "item") final int b) {
        return ring.offerAll(new int[] {a, b}, 0, 2) >= 0; // all taken, or a code: none
    }

    @Operation
    public int poll() {
        return ring.poll(-1);
    }

    @Test
    public void stress() {
        LincheckRuns.stress(getClass(), WindowedQueueModel.IntRing3Window2.class, ModelVerifier.class);
    }
}
