package dev.overlap.queues;

import dev.overlap.core.AlignedHeapBuffer;
import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Linearizability of the Atos one-shot block {@link IntCounterQueue} with {@link Publication#ORDERED} against
 * {@link QueueSpecs.Block4}: single and batch pushes (one getAndAdd each; a batch keeps what fits), single and
 * batch pops, on a block of 4 so that running out of block happens. Stress mode (see
 * {@link IntCounterRingLincheckTest} for why not model checking).
 */
@Param(name = "item", gen = IntGen.class, conf = "1:9")
@Param(name = "max", gen = IntGen.class, conf = "1:3")
@Tag("slow")
public class IntCounterQueueLincheckTest {
    private final IntCounterQueue queue =
        new IntCounterQueue(AlignedHeapBuffer.allocate(IntCounterQueue.requiredBytes(4, 2)), 4, 2, Publication.ORDERED);

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

    @Operation
    public List<Integer> pollBatch(@Param(name = "max") final int max) {
        final int[] out = new int[max];
        final int n = queue.poll(out, 0, max);
        return Arrays.stream(out, 0, n).boxed().collect(Collectors.toList());
    }

    @Test
    public void stress() {
        LincheckRuns.stress(getClass(), QueueSpecs.Block4.class);
    }
}
