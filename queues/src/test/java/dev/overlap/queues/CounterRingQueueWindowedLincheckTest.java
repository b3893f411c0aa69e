package dev.overlap.queues;

import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.junit.jupiter.api.Test;

/**
 * The relaxed guarantee of {@link Publication#WINDOWED}, model-checked on the heap queue (and stressed): with
 * "empty" accepted only when no push was in progress during the attempt ({@link InFlightPushes}), the queue must
 * be a linearizable bounded FIFO (nothing lost, duplicated, invented or reordered; "full" counts reservations).
 */
@Param(name = "item", gen = IntGen.class, conf = "1:9")
public class CounterRingQueueWindowedLincheckTest {
    private final CounterRingQueue<Integer> queue = new CounterRingQueue<>(3, 2, Publication.WINDOWED);
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
    public Integer poll() {
        for (;;) {
            final long quiet = pushes.quietSnapshot();
            final Integer item = queue.poll();
            if (item != null || pushes.stayedQuiet(quiet)) {
                return item;
            }
        }
    }

    @Test
    public void modelChecking() {
        LincheckRuns.modelCheck(getClass(), QueueSpecs.ObjectQueue3.class);
    }

    @Test
    public void stress() {
        LincheckRuns.stress(getClass(), QueueSpecs.ObjectQueue3.class);
    }
}
