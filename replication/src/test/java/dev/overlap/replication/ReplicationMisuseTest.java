package dev.overlap.replication;

import dev.overlap.core.BlockMapping;
import dev.overlap.core.InterruptedWaitException;
import dev.overlap.core.KernelFailedException;
import dev.overlap.core.KernelLaunch;
import dev.overlap.core.Mesh;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static dev.overlap.testing.TestThreads.awaitParked;
import static dev.overlap.testing.TestThreads.awaitRelease;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Misuse of the replicated region (issue 15's cases): a kernel failing on one device while the others still run,
 * interrupts and timeouts of its waits, a region left open when its mesh closes. Each gets a clear exception or the
 * right behaviour, never a crash or a hang ({@code @Timeout} guards against hangs only).
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ReplicationMisuseTest {
    private static Mesh mesh(final String name) {
        return Mesh.builder().name(name).devices(2).threadsPerDevice(1).memoryPerDevice(4 << 20).build();
    }

    @Test
    void aRegionWhoseKernelFailedOnOneDeviceWaitsForTheOtherBeforeThrowingAndClosesSafely() throws Exception {
        final Mesh mesh = mesh("broken");
        final ReplicatedRegion region = ReplicatedRegion.builder(mesh).elements(1 << 14).gridSize(16)
            .mode(TransferMode.TRIGGERED).chunkBytes(4096).transferThreads(1)
            .mapping(BlockMapping.oneToOne(4096)).build();
        final CountDownLatch release = new CountDownLatch(1);
        final KernelLaunch failed = region.launch(0, (ctx, block) -> {
            throw new IllegalStateException("block " + block + " fails on dev0");
        });
        region.launch(1, (ctx, block) -> {
            awaitRelease(release);
            region.putLong(1, (int)region.sliceStart(1) + block, block);
        });
        // dev0's failure is in before the wait starts, so a wait that threw at the first failure would end at once
        while (!failed.isDone()) {
            Thread.onSpinWait();
            Thread.yield();
        }
        final AtomicReference<Throwable> thrown = new AtomicReference<>();
        final Thread host = new Thread(() -> {
            try {
                region.awaitTransfers();
            } catch (final Throwable e) {
                thrown.set(e);
            }
        }, "host");
        host.start();
        awaitParked(host); // waiting for dev1's blocks, not thrown yet although dev0 failed
        assertEquals(null, thrown.get());
        release.countDown();
        host.join();
        assertInstanceOf(KernelFailedException.class, thrown.get());
        final IllegalStateException broken = assertThrows(IllegalStateException.class,
            () -> region.launch(0, (ctx, block) -> { }));
        assertTrue(broken.getMessage().contains("broken"), broken.getMessage());
        region.close();
        assertThrows(IllegalStateException.class, () -> region.getLong(1, 0));
        mesh.close();
    }

    @Test
    void awaitTransfersAnswersAnInterruptAndHasATimedForm() throws Exception {
        try (Mesh mesh = mesh("interrupted")) {
            final ReplicatedRegion region = ReplicatedRegion.builder(mesh).elements(1 << 12).gridSize(4)
                .mode(TransferMode.TRIGGERED).chunkBytes(4096).build();
            final CountDownLatch release = new CountDownLatch(1);
            region.launch(0, (ctx, block) -> awaitRelease(release));
            region.launch(1, (ctx, block) -> { });
            assertFalse(region.awaitTransfers(1, TimeUnit.MILLISECONDS));
            Thread.currentThread().interrupt();
            assertThrows(InterruptedWaitException.class, region::awaitTransfers);
            assertTrue(Thread.interrupted(), "status kept");
            release.countDown();
            assertTrue(region.awaitTransfers(30, TimeUnit.SECONDS), "the iteration was still there to finish");
            assertEquals(1, region.iteration());
            // left open on purpose: the mesh's close closes it
        }
    }
}
