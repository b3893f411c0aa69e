package dev.overlap.queues;

import dev.overlap.core.Device;
import dev.overlap.core.Mesh;
import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Queues allocated in a device's memory, used by that device's kernels, and freed. */
public class DeviceAllocationTest {
    @Test
    void kernelsPushAndPopThroughDeviceMemory() {
        try (Mesh mesh = Mesh.builder().devices(1).threadsPerDevice(2).memoryPerDevice(8 << 20).build()) {
            final Device device = mesh.device(0);
            final long free = mesh.freeMemory(0);
            final IntCounterQueue block = IntCounterQueue.allocate(device, 4096);
            final LongCounterRing ring = LongCounterRing.allocate(device, 256);
            final IntPriorityWorklist worklist = IntPriorityWorklist.allocate(device, 256, 10, 10);
            final AtomicLong sum = new AtomicLong();
            device.launch(64, (ctx, b) -> {
                final int[] items = new int[32];
                for (int i = 0; i < 32; i++) {
                    items[i] = b * 32 + i;
                }
                assertEquals(32, block.offer(items, 0, 32));
                while (ring.offer(b) < 0) { // BACK_PRESSURED: full for now
                    Thread.onSpinWait();
                }
                worklist.push(b, b);
                final long e = worklist.poll(Long.MIN_VALUE);
                if (e != Long.MIN_VALUE) {
                    sum.addAndGet(IntPriorityWorklist.item(e));
                }
                long v;
                while ((v = ring.poll(-1)) != -1) {
                    sum.addAndGet(v);
                }
            }).join();
            long v;
            while ((v = ring.poll(-1)) != -1) {
                sum.addAndGet(v);
            }
            long e;
            while ((e = worklist.poll(Long.MIN_VALUE)) != Long.MIN_VALUE) {
                sum.addAndGet(IntPriorityWorklist.item(e));
            }
            assertEquals(2L * (63 * 64 / 2), sum.get());
            assertEquals(2048, block.size());
            block.free();
            ring.free();
            worklist.free();
            assertTrue(mesh.freeMemory(0) >= free - 4096, "memory returned");
        }
    }
}
