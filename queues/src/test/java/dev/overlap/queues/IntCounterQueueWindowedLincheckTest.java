package dev.overlap.queues;

import org.agrona.concurrent.UnsafeBuffer;
import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.junit.jupiter.api.Test;

/**
 * The relaxed guarantee of the Atos block {@link IntCounterQueue} with {@link Publication#WINDOWED} (Listing 6
 * with windows), checked exactly as in {@link IntCounterRingWindowedLincheckTest}: "empty" is accepted only when
 * no push was in progress during the attempt; otherwise it must behave as {@link QueueSpecs.Block4}.
 */
@Param(name = "item", gen = IntGen.class, conf = "1:9")
public class IntCounterQueueWindowedLincheckTest {
    private final IntCounterQueue queue = new IntCounterQueue(
        new UnsafeBuffer(new byte[IntCounterQueue.requiredBytes(4, 2)]), 4, 2, Publication.WINDOWED);
    private final InFlightPushes pushes = new InFlightPushes();

    @Operation
    public boolean offer(@Param(name = "item") final int item) {
        pushes.begin();
        try {
            return queue.offer(item);
        } finally {
            pushes.end();
        }
    }

    @Operation
    public int offerBatch(@Param(name = "item") final int a, @Param(name = "item") final int b) {
        pushes.begin();
        try {
            return queue.offer(new int[] {a, b}, 0, 2);
        } finally {
            pushes.end();
        }
    }

    @Operation
    public int poll() {
        for (;;) {
            final long quiet = pushes.quietSnapshot();
            final int item = queue.poll(-1);
            if (item != -1 || pushes.stayedQuiet(quiet)) {
                return item;
            }
        }
    }

    @Test
    public void stress() {
        LincheckRuns.stress(getClass(), QueueSpecs.Block4.class);
    }
}
