package dev.overlap.queues;

import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The relaxed calls of {@link Publication#WINDOWED} ({@code relaxedPoll}, {@code relaxedPeek}), model-checked on the
 * heap queue (and stressed) against {@link WindowedQueueModel}: a push is a reservation and then a write per window
 * it touches, and "empty" may hide the oldest element only while its window holds a position some push has
 * reserved and not yet written. Nothing lost, duplicated, invented or reordered; "full" counts reservations. Items
 * are distinct ({@link UniqueIntGen}). A queue that hides published windows whenever any push is running fails here
 * (mutant {@code mutants/queues-windowed-hides-published-while-any-push-runs.patch}). The strict {@code poll} and
 * {@code peek} of the same mode are linearizable: {@link CounterRingQueueWindowedStrictLincheckTest}.
 */
@Param(name = "item", gen = UniqueIntGen.class)
@Tag("slow")
public class CounterRingQueueWindowedLincheckTest {
    private final CounterRingQueue<Integer> queue = new CounterRingQueue<>(3, 2, Publication.WINDOWED);

    @Operation
    public boolean offer(@Param(name = "item") final int item) {
        return queue.offer(item);
    }

    /** Named as the model's pop: the relaxed call is the one whose lag the model states. */
    @Operation
    public Integer poll() {
        return queue.relaxedPoll();
    }

    @Operation
    public Integer peek() {
        return queue.relaxedPeek();
    }

    @Test
    public void modelChecking() {
        LincheckRuns.modelCheck(getClass(), WindowedQueueModel.ObjectRing3Window2.class, ModelVerifier.class);
    }

    @Test
    public void stress() {
        LincheckRuns.stress(getClass(), WindowedQueueModel.ObjectRing3Window2.class, ModelVerifier.class);
    }
}
