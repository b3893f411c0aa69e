package dev.overlap.worklist;

import dev.overlap.core.Mesh;
import dev.overlap.core.counters.CounterTypes;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.CountersManager;
import org.agrona.concurrent.status.CountersReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link WorklistCounter}s: per worker, in the mesh's counters store, totals over runs, freed by the close. */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class WorklistCountersTest {
    private static Map<String, Long> worklistCounters(final CountersReader reader) {
        final Map<String, Long> byLabel = new HashMap<>();
        reader.forEach((id, typeId, key, label) -> {
            if (typeId >= CounterTypes.WORKLIST && typeId <= CounterTypes.WORKLIST + 99) {
                assertEquals(typeId, WorklistCounter.values()[typeId - CounterTypes.WORKLIST].typeId());
                byLabel.put(key.getInt(CounterTypes.KEY_DEVICE_OFFSET) + "/" + key.getInt(CounterTypes.KEY_INDEX_OFFSET)
                    + " " + label, reader.getCounterValue(id));
            }
        });
        return byLabel;
    }

    @Test
    void everyWorkerCountsItsTasksAcrossRunsAndTheCloseFreesTheCounters() {
        final CountersManager mine = new CountersManager(
            new UnsafeBuffer(ByteBuffer.allocateDirect(256 * CountersReader.METADATA_LENGTH)),
            new UnsafeBuffer(ByteBuffer.allocateDirect(256 * CountersReader.COUNTER_LENGTH)));
        try (Mesh mesh = Mesh.builder().name("wc").devices(2).threadsPerDevice(1).memoryPerDevice(8 << 20)
            .counters(mine).build()) {
            try (DistributedWorklist wl = DistributedWorklist.builder(mesh).queueCapacity(1 << 10)
                .ringCapacity(64 << 10).build()) {
                for (int run = 0; run < 2; run++) {
                    wl.seed(0, 10);
                    final WorklistStats stats = wl.run(WorkerShape.THREAD, KernelMode.PERSISTENT, (t, ctx) -> {
                        if (t > 0) {
                            ctx.pushTo(t % 2, t - 1); // alternate devices: local and remote pushes
                        }
                    });
                    assertEquals(11, stats.tasks());
                }
                final Map<String, Long> c = worklistCounters(mine);
                assertEquals(2 * WorklistCounter.values().length, c.size(), c.toString());
                final long tasks = c.get("0/0 wc worklist dev0 worker 0: tasks run")
                    + c.get("1/0 wc worklist dev1 worker 0: tasks run");
                assertEquals(22, tasks, "totals over both runs: " + c);
                final long pushes = c.get("0/0 wc worklist dev0 worker 0: local pushes")
                    + c.get("1/0 wc worklist dev1 worker 0: local pushes")
                    + c.get("0/0 wc worklist dev0 worker 0: remote pushes")
                    + c.get("1/0 wc worklist dev1 worker 0: remote pushes");
                assertEquals(20, pushes, c.toString());
                assertTrue(c.get("0/0 wc worklist dev0 worker 0: remote pushes") > 0, c.toString());
            }
            assertEquals(Map.of(), worklistCounters(mine), "freed by the worklist's close");
        }
    }
}
