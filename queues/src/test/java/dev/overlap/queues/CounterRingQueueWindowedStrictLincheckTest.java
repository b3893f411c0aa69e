package dev.overlap.queues;

import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Linearizability of the strict calls of {@link CounterRingQueue} with {@link Publication#WINDOWED}: {@code offer},
 * {@code poll} and {@code peek} against a plain bounded FIFO of 3 ({@link QueueSpecs.ObjectQueue3}), by model
 * checking and stress. A strict pop that finds the oldest reserved position unpublished waits for its window's
 * pushes (as {@code MpmcArrayQueue.poll} waits for a claimed head slot), so one thread's offer-then-poll always
 * finds an element and "empty" means empty; the relaxed calls and their bounded lag are
 * {@link CounterRingQueueWindowedLincheckTest}. A strict poll that answers "empty" instead of waiting fails here
 * (mutant {@code mutants/queues-windowed-strict-poll-does-not-wait.patch}).
 */
@Param(name = "item", gen = IntGen.class, conf = "1:9")
@Tag("slow")
public class CounterRingQueueWindowedStrictLincheckTest {
    private final CounterRingQueue<Integer> queue = new CounterRingQueue<>(3, 2, Publication.WINDOWED);

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
