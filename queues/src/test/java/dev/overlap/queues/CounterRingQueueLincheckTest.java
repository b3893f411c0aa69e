package dev.overlap.queues;

import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Linearizability of {@link CounterRingQueue} with {@link Publication#ORDERED} (offer, poll, peek; batch drain in {@link CounterRingQueueDrainLincheckTest})
 * on a queue of 3 with windows of 2, by model checking (every interleaving Lincheck explores, sequentially
 * consistent) and stress. The queue runs the same {@link CounterSequencer} as the device-memory queues, on heap
 * counters, so this is also the model check of the shared counter algorithm.
 */
@Param(name = "item", gen = IntGen.class, conf = "1:9")
@Tag("slow")
public class CounterRingQueueLincheckTest {
    private final CounterRingQueue<Integer> queue = new CounterRingQueue<>(3, 2, Publication.ORDERED);

    @Operation
    public boolean offer(@Param(name = "item") final int item) {
        return queue.offer(item);
    }

    @Operation
    public Integer poll() {
        return queue.poll();
    }

    @Operation
    public Integer peek() {
        return queue.peek();
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
