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
 * Batch pops of {@link IntCounterRing} ({@link Publication#ORDERED}) against {@link QueueSpecs.Ring32}: a batch pop
 * takes {@code min(max, size)} items atomically, size counted when it reads {@code end}. On a ring that never fills
 * in these scenarios: a "full" answer (or a peek) racing with a batch pop may still count the items the pop is
 * claiming, so the two are checked apart ({@link IntCounterRingLincheckTest} checks "full" with single pops).
 * Stress mode only (see {@link IntCounterRingLincheckTest}).
 */
@Param(name = "item", gen = IntGen.class, conf = "1:9")
@Param(name = "max", gen = IntGen.class, conf = "1:3")
@Tag("slow")
public class IntCounterRingBatchPopLincheckTest {
    private final IntCounterRing ring =
        new IntCounterRing(AlignedHeapBuffer.allocate(IntCounterRing.requiredBytes(32, 4)), 32, 4, Publication.ORDERED);

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

    @Operation
    public List<Integer> pollBatch(@Param(name = "max") final int max) {
        final int[] out = new int[max];
        final int n = ring.poll(out, 0, max);
        return Arrays.stream(out, 0, n).boxed().collect(Collectors.toList());
    }

    @Test
    public void stress() {
        LincheckRuns.stress(getClass(), QueueSpecs.Ring32.class);
    }
}
