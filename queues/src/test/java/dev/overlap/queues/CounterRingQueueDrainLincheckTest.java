package dev.overlap.queues;

import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

/**
 * Batch {@link CounterRingQueue#drain(java.util.function.Consumer, int)} ({@link Publication#ORDERED}) against
 * {@link QueueSpecs.ObjectQueue32}, model-checked and stressed on a queue that never fills in these scenarios
 * (see {@link dev.overlap.queues.IntCounterRingBatchPopLincheckTest} for why "full" and peeks are checked apart).
 */
@Param(name = "item", gen = IntGen.class, conf = "1:9")
@Param(name = "max", gen = IntGen.class, conf = "1:3")
@Tag("slow")
public class CounterRingQueueDrainLincheckTest {
    private final CounterRingQueue<Integer> queue = new CounterRingQueue<>(32, 4, Publication.ORDERED);

    @Operation
    public boolean offer(@Param(name = "item") final int item) {
        return queue.offer(item);
    }

    @Operation
    public Integer poll() {
        return queue.poll();
    }

    @Operation
    public List<Integer> drain(@Param(name = "max") final int max) {
        final List<Integer> out = new ArrayList<>();
        queue.drain(out::add, max);
        return out;
    }

    @Test
    public void modelChecking() {
        LincheckRuns.modelCheck(getClass(), QueueSpecs.ObjectQueue32.class);
    }

    @Test
    public void stress() {
        LincheckRuns.stress(getClass(), QueueSpecs.ObjectQueue32.class);
    }
}
