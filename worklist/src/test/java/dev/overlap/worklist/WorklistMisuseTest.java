package dev.overlap.worklist;

import dev.overlap.core.InterruptedWaitException;
import dev.overlap.core.Mesh;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Issue 15: a worklist run answers interrupts and deadlines, and a worklist left open goes with its mesh. */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
public class WorklistMisuseTest {
    private static Mesh mesh() {
        return Mesh.builder().devices(2).threadsPerDevice(1).memoryPerDevice(16 << 20).build();
    }

    private static DistributedWorklist worklist(final Mesh mesh) {
        return DistributedWorklist.builder(mesh).queueCapacity(1 << 12).ringCapacity(64 << 10).build();
    }

    /** A task that never ends its chain: every task pushes a successor to the other device. */
    private static final TaskFunction ENDLESS = (task, ctx) -> ctx.pushTo(1 - ctx.device(), task + 1);

    @ParameterizedTest
    @EnumSource(KernelMode.class)
    void interruptingARunStopsItAndLeavesTheWorklistUsable(final KernelMode mode) throws Exception {
        try (Mesh mesh = mesh(); DistributedWorklist wl = worklist(mesh)) {
            wl.seed(0, 1);
            final AtomicReference<Throwable> thrown = new AtomicReference<>();
            final AtomicReference<Boolean> statusKept = new AtomicReference<>();
            final Thread host = new Thread(() -> {
                try {
                    wl.run(WorkerShape.THREAD, mode, ENDLESS);
                } catch (final Throwable t) {
                    thrown.set(t);
                    statusKept.set(Thread.currentThread().isInterrupted());
                }
            }, "host");
            host.start();
            while (wl.queuedTasks(0) + wl.queuedTasks(1) == 0 && host.isAlive()) {
                Thread.onSpinWait();
            }
            host.interrupt();
            host.join();
            assertInstanceOf(InterruptedWaitException.class, thrown.get());
            assertTrue(statusKept.get(), "the interrupt status is set again");
            assertEquals(0, wl.queuedTasks(0) + wl.queuedTasks(1), "the stopped run left nothing behind");
            wl.seed(1, 7);
            final WorklistStats again = wl.run(WorkerShape.THREAD, mode, (task, ctx) -> {
                if (task < 100) {
                    ctx.pushTo(1 - ctx.device(), task + 1);
                }
            });
            assertEquals(94, again.tasks(), "a fresh run after the interrupted one runs exactly its own chain");
        }
    }

    @ParameterizedTest
    @EnumSource(KernelMode.class)
    void aTimedRunIsStoppedAtItsDeadline(final KernelMode mode) {
        try (Mesh mesh = mesh(); DistributedWorklist wl = worklist(mesh)) {
            wl.seed(0, 1);
            final TimeoutException e = assertThrows(TimeoutException.class,
                () -> wl.run(WorkerShape.THREAD, mode, ENDLESS, null, 20, TimeUnit.MILLISECONDS));
            assertTrue(e.getMessage().contains("stopped"), e.getMessage());
            assertEquals(0, wl.queuedTasks(0) + wl.queuedTasks(1));
        }
    }

    @Test
    void aWorklistLeftOpenIsClosedWithItsMesh() {
        final Mesh mesh = mesh();
        final DistributedWorklist wl = worklist(mesh);
        wl.seed(0, 1);
        mesh.close();
        assertThrows(IllegalStateException.class, () -> wl.seed(0, 2));
        assertThrows(IllegalStateException.class, () -> wl.run(WorkerShape.THREAD, KernelMode.PERSISTENT, ENDLESS));
        assertTrue(wl.transport().isClosed(), "the transport it created is closed too");
        wl.close();
    }
}
