package dev.overlap.queues;

import dev.overlap.core.AlignedHeapBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Linearizability of {@link LongCounterRing} (the long twin of {@link IntCounterRing}) with {@link Publication#ORDERED}: single and all-or-nothing batch
 * pushes, single pops, on a ring of 3 (windows of 2) so that full rings and wrap-around happen.
 * The specification is {@link QueueSpecs.Ring3}.
 *
 * <p>Stress mode only: Lincheck 3.7's model checker fails inside Agrona's {@code UnsafeBuffer} (a Lincheck bug:
 * {@code NoSuchFieldException: SHOULD_BOUNDS_CHECK}). The counter algorithm itself ({@link CounterSequencer}) is
 * model-checked through the on-heap {@link CounterRingQueue} ({@link CounterRingQueueLincheckTest}).
 */
@Param(name = "item", gen = IntGen.class, conf = "1:9")
@Tag("slow")
public class LongCounterRingLincheckTest {
    private final LongCounterRing ring =
        new LongCounterRing(AlignedHeapBuffer.allocate(LongCounterRing.requiredBytes(3, 2)), 3, 2, Publication.ORDERED);

    @Operation
    public boolean offer(@Param(name = "item") final int item) {
        return ring.offer((long)item) >= 0; // a position, or a code: not taken
    }

    @Operation
    public boolean offerAll(@Param(name = "item") final int a, @Param(name = "item") final int b) {
        return ring.offerAll(new long[] {a, b}, 0, 2) >= 0; // all taken, or a code: none
    }

    @Operation
    public int poll() {
        return (int)ring.poll(-1);
    }

    @Test
    public void stress() {
        LincheckRuns.stress(getClass(), QueueSpecs.Ring3.class);
    }
}
