package dev.overlap.graph.app;

import dev.overlap.graph.Progress;
import dev.overlap.graph.gen.GraphSpec;
import dev.overlap.graph.partition.DeviceGraph;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

class HeapShrinkHoldTest {
    @Test
    void theHeapDoesNotShrinkWhileAnyHoldIsOpenAndTheLastCloseRestoresTheFlag() {
        final String before = HeapShrinkHold.current();
        assumeTrue(before != null, "a JVM that shows MaxHeapFreeRatio");
        assertNotEquals(HeapShrinkHold.NEVER_SHRINK, before, "the test JVM's own ratio lets the heap shrink");
        final HeapShrinkHold first = HeapShrinkHold.open();
        assertEquals(HeapShrinkHold.NEVER_SHRINK, HeapShrinkHold.current(), "held");
        final HeapShrinkHold second = HeapShrinkHold.open();
        first.close();
        assertEquals(HeapShrinkHold.NEVER_SHRINK, HeapShrinkHold.current(), "still held by the second");
        first.close(); // a second close of the same hold does not let go of the other
        assertEquals(HeapShrinkHold.NEVER_SHRINK, HeapShrinkHold.current(), "a hold closed twice counts once");
        second.close();
        assertEquals(before, HeapShrinkHold.current(), "the last close restores what the first open found");
        final HeapShrinkHold again = HeapShrinkHold.open();
        assertEquals(HeapShrinkHold.NEVER_SHRINK, HeapShrinkHold.current(), "held again after all were closed");
        again.close();
        assertEquals(before, HeapShrinkHold.current());
    }

    @Test
    void theRunsOfAMeasurementHoldTheHeapAndThePlacementDoesNot() {
        final String before = HeapShrinkHold.current();
        assumeTrue(before != null, "a JVM that shows MaxHeapFreeRatio");
        final List<String> seen = new ArrayList<>();
        final GraphAlgorithms recording = new BfsOnly("solo") {
            @Override
            public AppResult bfs(final DeviceGraph g, final int source, final AppSettings settings) {
                seen.add(HeapShrinkHold.current());
                return delegate.bfs(g, source, settings);
            }
        };
        final AppRunner runner = AppRunner.builder().warmups(1).runs(2).build();
        runner.measure(HostGraph.of(GraphSpec.parse("grid:8x8").build(1, false, Progress.none())), GraphApp.BFS,
            recording, 0, AppSettings.defaults());
        assertEquals(List.of(HeapShrinkHold.NEVER_SHRINK, HeapShrinkHold.NEVER_SHRINK, HeapShrinkHold.NEVER_SHRINK),
            seen, "the warm-up and both timed runs");
        assertEquals(before, HeapShrinkHold.current(), "let go once the runs end");
        seen.clear();
        // a caller's own runs on a placed graph: no collections between them, so nothing to hold
        try (AppRunner.Placed placed = runner.place(HostGraph.of(GraphSpec.parse("grid:8x8").build(1, false,
            Progress.none())), GraphApp.BFS, recording, AppSettings.defaults())) {
            placed.run(0);
        }
        assertEquals(List.of(before), seen);
    }
}
