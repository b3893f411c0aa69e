package dev.overlap.queues;

import org.agrona.concurrent.UnsafeBuffer;
import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.junit.jupiter.api.Test;

/**
 * The relaxed guarantee of {@link IntCounterRing} with {@link Publication#WINDOWED}, checked exactly: a pop may
 * report "empty" only while some push is in progress, and otherwise the ring is a linearizable bounded FIFO whose
 * pushes take effect at their reservation. The test's {@code poll} therefore retries an empty answer unless no
 * push was in progress during the whole attempt (counted by {@link InFlightPushes}); everything else (order, loss,
 * duplication, invention, full) is checked against {@link QueueSpecs.Ring3}. Batch pops are left to jcstress:
 * while pushes are in progress they may take fewer items than are reserved, which is the relaxation itself.
 * The specification is {@link QueueSpecs.Ring3}.
 *
 * <p>Stress mode only: Lincheck 3.7's model checker fails inside Agrona's {@code UnsafeBuffer} (a Lincheck bug:
 * {@code NoSuchFieldException: SHOULD_BOUNDS_CHECK}). The counter algorithm itself ({@link CounterSequencer}) is
 * model-checked through the on-heap {@link CounterRingQueue} ({@link CounterRingQueueLincheckTest}).
 */
@Param(name = "item", gen = IntGen.class, conf = "1:9")
public class IntCounterRingWindowedLincheckTest {
    private final IntCounterRing ring =
        new IntCounterRing(new UnsafeBuffer(new byte[IntCounterRing.requiredBytes(3, 2)]), 3, 2, Publication.WINDOWED);

    private final InFlightPushes pushes = new InFlightPushes();

    @Operation
    public boolean offer(@Param(name = "item") final int item) {
        pushes.begin();
        try {
            return ring.offer(item);
        } finally {
            pushes.end();
        }
    }

    @Operation
    public boolean offerAll(@Param(name = "item") final int a, @Param(name = "item") final int b) {
        pushes.begin();
        try {
            return ring.offerAll(new int[] {a, b}, 0, 2);
        } finally {
            pushes.end();
        }
    }

    @Operation
    public int poll() {
        for (;;) {
            final long quiet = pushes.quietSnapshot();
            final int item = ring.poll(-1);
            if (item != -1 || pushes.stayedQuiet(quiet)) {
                return item;
            }
        }
    }

    @Test
    public void stress() {
        LincheckRuns.stress(getClass(), QueueSpecs.Ring3.class);
    }
}
