package dev.overlap.core;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;

import static dev.overlap.core.MeshTest.assertMessage;
import static dev.overlap.testing.TestThreads.awaitRelease;
import static dev.overlap.testing.TestThreads.awaitState;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The misuse a tired user makes of the core, each answered by a clear exception (or correct behaviour) instead of
 * a crash, a corruption or a hang. Named after the cases of issue 15; {@code @Timeout} only guards against hangs.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class CoreMisuseTest {
    private static Mesh mesh(final String name) {
        return Mesh.builder().name(name).devices(2).threadsPerDevice(1).memoryPerDevice(1 << 16).build();
    }

    @Test
    void readingAnyViewAfterMeshCloseThrowsNamingTheMesh() {
        final Mesh mesh = mesh("m1");
        final IntArray ints = mesh.device(0).allocateInts(8);
        final LongArray longs = mesh.allocateLongs(8).on(1);
        final DoubleArray doubles = mesh.device(1).allocateDoubles(8);
        ints.set(3, 7);
        mesh.close();
        for (final Runnable access : new Runnable[] {() -> ints.get(3), () -> ints.set(0, 1),
            () -> ints.getAndAdd(0, 1), () -> ints.compareAndSet(0, 0, 1), () -> ints.getAndMin(0, -1),
            () -> longs.getVolatile(0), () -> longs.setRelease(0, 1), () -> longs.getAndMax(0, 9),
            () -> doubles.get(0), () -> doubles.getAndAdd(0, 1.0), ints::clear, () -> longs.fill(3)}) {
            assertMessage(assertThrows(IllegalStateException.class, access::run), "mesh 'm1' was closed");
        }
        assertMessage(assertThrows(IllegalStateException.class, () -> mesh.memory(0).buffer()), "mesh 'm1' is closed");
        assertMessage(assertThrows(IllegalStateException.class, () -> mesh.copy(ints, 0, ints, 1, 1)), "was closed");
        assertEquals(8, ints.length(), "immutable facts stay readable");
    }

    @Test
    void everyAllocationAndDataMovementAfterCloseThrows() {
        final Mesh mesh = mesh("m2");
        final Device device = mesh.device(0);
        mesh.close();
        for (final Runnable call : new Runnable[] {() -> device.allocateInts(1), () -> device.allocateLongs(1),
            () -> device.allocateDoubles(1), () -> device.allocate(64, 8), () -> mesh.allocateInts(1),
            () -> mesh.allocateSymmetric(64, 8), () -> mesh.copy(0, 8, 8), () -> mesh.put(0, new byte[1], 0, 1),
            () -> mesh.get(0, new byte[1], 0, 1), () -> mesh.freeMemory(0), () -> mesh.addDependent(() -> { })}) {
            assertMessage(assertThrows(IllegalStateException.class, call::run), "mesh 'm2'");
        }
    }

    @Test
    void aSecondFreeIsAnErrorAndNeverFreesTheNextOwnersMemory() {
        try (Mesh mesh = mesh("m3")) {
            final Device device = mesh.device(0);
            final IntArray first = device.allocateInts(16);
            device.free(first);
            final IntArray next = device.allocateInts(16);
            assertEquals(first.offset(), next.offset(), "the allocator reuses the range");
            next.set(5, 42);
            assertMessage(assertThrows(IllegalStateException.class, () -> device.free(first)), "already freed");
            assertEquals(42, next.get(5), "the second free left the next owner's data alone");
            assertMessage(assertThrows(IllegalStateException.class, () -> first.get(5)), "freed by Device.free");
            final IntArray third = device.allocateInts(16);
            assertFalse(third.offset() == next.offset(), "the live range was not handed out again");
        }
    }

    @Test
    void freeingAViewOfASymmetricArrayThroughADeviceIsRefused() {
        try (Mesh mesh = mesh("m4"); SymmetricArray<IntArray> sym = mesh.allocateInts(16)) {
            sym.on(0).set(1, 9);
            assertMessage(assertThrows(IllegalArgumentException.class, () -> mesh.device(0).free(sym.on(0))),
                "symmetric");
            assertEquals(9, sym.on(0).get(1));
        }
    }

    @Test
    void freeingAnotherDevicesOrMeshesArrayIsRefused() {
        try (Mesh mesh = mesh("m5"); Mesh other = mesh("other")) {
            final IntArray onOne = mesh.device(1).allocateInts(4);
            final IntArray elsewhere = other.device(0).allocateInts(4);
            assertMessage(assertThrows(IllegalArgumentException.class, () -> mesh.device(0).free(onOne)), "dev0");
            assertMessage(assertThrows(IllegalArgumentException.class, () -> mesh.device(0).free(elsewhere)),
                "mesh 'm5'");
            onOne.set(0, 1);
            elsewhere.set(0, 1);
        }
    }

    @Test
    void closingASymmetricArrayTwiceNeverFreesTheNextOwner() {
        try (Mesh mesh = mesh("m6")) {
            final SymmetricArray<LongArray> a = mesh.allocateLongs(32);
            a.close();
            final SymmetricArray<LongArray> b = mesh.allocateLongs(32);
            assertEquals(a.offset(), b.offset());
            b.on(1).set(3, 77);
            a.close();
            assertEquals(77, b.on(1).get(3));
            assertMessage(assertThrows(IllegalStateException.class, () -> a.on(1).get(3)), "was freed");
        }
    }

    @Test
    void aRegionFreesOnceAndItsBufferIsRefusedAfterwards() {
        try (Mesh mesh = mesh("m7")) {
            final DeviceRegion region = mesh.device(1).allocate(256, 64);
            region.buffer(1).putLong(0, 5);
            assertMessage(assertThrows(IllegalArgumentException.class, () -> region.buffer(0)), "dev1 only");
            region.close();
            region.close();
            assertTrue(region.isFreed());
            assertMessage(assertThrows(IllegalStateException.class, () -> region.buffer(1)), "no longer usable");
            assertMessage(assertThrows(IllegalStateException.class, region::checkLive), "DeviceRegion{dev1");
            final DeviceRegion again = mesh.device(1).allocate(256, 64);
            assertEquals(0, again.buffer(1).getLong(0), "a freed region is zeroed for the next owner");
        }
    }

    @Test
    void aKernelThatJoinsALaunchOnItsOwnDeviceFailsInsteadOfDeadlocking() {
        final Mesh mesh = mesh("m8");
        final Device device = mesh.device(0);
        final AtomicReference<KernelLaunch> inner = new AtomicReference<>();
        final KernelLaunch outer = device.launch(1, (ctx, block) -> {
            final KernelLaunch l = device.launch(1, (c, b) -> { });
            inner.set(l);
            l.join();
        });
        final KernelFailedException e = assertThrows(KernelFailedException.class, outer::join);
        assertInstanceOf(IllegalStateException.class, e.getCause());
        assertMessage(e.getCause(), "cannot wait for work of its own device");
        inner.get().join();
        final KernelLaunch sync = device.launch(1, (ctx, block) -> device.synchronize());
        assertMessage(assertThrows(KernelFailedException.class, sync::join).getCause(), "own device");
        final KernelLaunch close = device.launch(1, (ctx, block) -> mesh.close());
        assertMessage(assertThrows(KernelFailedException.class, close::join).getCause(), "host thread");
        mesh.close();
        assertTrue(mesh.isClosed(), "close returns: nothing is left waiting on itself");
    }

    @Test
    void synchronizeAfterCloseThrowsInsteadOfHanging() {
        final Mesh mesh = mesh("m9");
        mesh.device(0).launch(4, (ctx, block) -> { }).join();
        mesh.close();
        assertMessage(assertThrows(IllegalStateException.class, () -> mesh.device(0).synchronize()), "closed");
        assertMessage(assertThrows(IllegalStateException.class,
            () -> mesh.device(1).synchronize(1, TimeUnit.SECONDS)), "closed");
    }

    @Test
    void aFailedLaunchNobodyJoinedIsReportedByTheNextSynchronizeOnce() {
        try (Mesh mesh = mesh("m10")) {
            final Device device = mesh.device(0);
            device.launch(2, (ctx, block) -> {
                throw new IllegalArgumentException("boom " + block);
            });
            device.launch(1, (ctx, block) -> { });
            final KernelFailedException e = assertThrows(KernelFailedException.class, device::synchronize);
            assertMessage(e, "boom");
            device.synchronize();
            final KernelLaunch joined = device.launch(1, (ctx, block) -> {
                throw new IllegalStateException("seen");
            });
            assertThrows(KernelFailedException.class, joined::join);
            device.synchronize();
        }
    }

    @Test
    void aFailedLaunchNobodyJoinedIsReportedByClose() {
        final Mesh mesh = mesh("m11");
        mesh.device(1).launch(1, (ctx, block) -> {
            throw new UnsupportedOperationException("never joined");
        });
        final KernelFailedException e = assertThrows(KernelFailedException.class, mesh::close);
        assertMessage(e, "never joined");
        assertTrue(mesh.isClosed());
        mesh.close();
    }

    @Test
    void joinAnswersAnInterruptAndTheLaunchGoesOn() throws Exception {
        try (Mesh mesh = mesh("m12")) {
            final CountDownLatch release = new CountDownLatch(1);
            final KernelLaunch slow = mesh.device(0).launch(1, (ctx, block) -> awaitRelease(release));
            final AtomicReference<Throwable> thrown = new AtomicReference<>();
            final AtomicReference<Boolean> statusKept = new AtomicReference<>();
            final Thread joiner = new Thread(() -> {
                try {
                    slow.join();
                } catch (final Throwable t) {
                    thrown.set(t);
                    statusKept.set(Thread.currentThread().isInterrupted());
                }
            });
            joiner.start();
            awaitState(joiner, Thread.State.WAITING);
            joiner.interrupt();
            joiner.join();
            assertInstanceOf(InterruptedWaitException.class, thrown.get());
            assertTrue(statusKept.get(), "the interrupt status is set again");
            assertFalse(slow.isDone(), "the launch is not cancelled by the interrupt");
            release.countDown();
            slow.join();
        }
    }

    @Test
    void aWaitingJoinParksInsteadOfSpinning() throws Exception {
        try (Mesh mesh = mesh("m13")) {
            final CountDownLatch release = new CountDownLatch(1);
            final KernelLaunch slow = mesh.device(0).launch(1, (ctx, block) -> awaitRelease(release));
            final Thread joiner = new Thread(slow::join);
            joiner.start();
            awaitState(joiner, Thread.State.WAITING);
            final Thread syncer = new Thread(() -> mesh.device(0).synchronize());
            syncer.start();
            awaitState(syncer, Thread.State.WAITING);
            release.countDown();
            joiner.join();
            syncer.join();
        }
    }

    @Test
    void timedWaitsGiveUpWithoutDisturbingTheLaunch() throws Exception {
        try (Mesh mesh = mesh("m14")) {
            final CountDownLatch release = new CountDownLatch(1);
            final KernelLaunch slow = mesh.device(0).launch(1, (ctx, block) -> awaitRelease(release));
            assertFalse(slow.join(1, TimeUnit.MILLISECONDS));
            assertThrows(TimeoutException.class, () -> slow.get(1, TimeUnit.MILLISECONDS));
            assertFalse(mesh.device(0).synchronize(1, TimeUnit.MILLISECONDS));
            release.countDown();
            assertTrue(slow.join(30, TimeUnit.SECONDS));
            assertNull(slow.get(0, TimeUnit.SECONDS));
            assertTrue(mesh.device(0).synchronize(0, TimeUnit.SECONDS));
        }
    }

    @Test
    void aLaunchIsAFutureAndAStageWhoseActionsRunOffTheWorkers() throws Exception {
        try (Mesh mesh = mesh("m15")) {
            final KernelLaunch ok = mesh.device(0).launch(8, (ctx, block) -> { });
            final CompletableFuture<String> thread = ok.asStage()
                .thenApply(v -> Thread.currentThread().getName()).toCompletableFuture();
            assertNull(ok.get());
            assertFalse(thread.get().startsWith("m15-dev"), "dependent actions never run on a device worker");
            assertFalse(ok.cancel(true));
            assertFalse(ok.isCancelled());
            final KernelLaunch bad = mesh.device(1).launch(1, (ctx, block) -> {
                throw new IllegalStateException("bad block");
            });
            final ExecutionException e = assertThrows(ExecutionException.class, bad::get);
            assertInstanceOf(KernelFailedException.class, e.getCause());
            final Throwable viaStage = assertThrows(Exception.class,
                () -> bad.asStage().toCompletableFuture().join());
            assertSame(e.getCause(), viaStage.getCause());
        }
    }

    @Test
    void interruptingTheClosingThreadInterruptsBlockedKernelsAndTheCloseFinishes() throws Exception {
        final Mesh mesh = mesh("m16");
        final CountDownLatch never = new CountDownLatch(1);
        final KernelLaunch blocked = mesh.device(0).launch(1, (ctx, block) -> {
            try {
                never.await(30, TimeUnit.SECONDS); // opened only by the close's interrupt (bounded: see TestThreads.awaitRelease)
            } catch (final InterruptedException e) {
                throw new InterruptedWaitException("a latch that never opens");
            }
        });
        blocked.asStage(); // observed: close reports nothing
        final AtomicReference<Boolean> statusKept = new AtomicReference<>();
        final Thread closer = new Thread(() -> {
            mesh.close();
            statusKept.set(Thread.currentThread().isInterrupted());
        });
        closer.start();
        awaitState(closer, Thread.State.WAITING);
        closer.interrupt();
        closer.join();
        assertTrue(mesh.isClosed());
        assertTrue(statusKept.get(), "the closer's interrupt status is set again");
        assertTrue(blocked.isFailed());
    }

    @Test
    void aChunkTrackerRefusesUseAfterClose() {
        final ChunkTracker t = ChunkTracker.builder().regionBytes(64).chunkBytes(32).gridSize(2)
            .mapping(BlockMapping.oneToOne(32)).onReady((c, e) -> { }).build();
        t.blockDone(0);
        t.close();
        t.close();
        assertMessage(assertThrows(IllegalStateException.class, () -> t.blockDone(1)), "closed");
        assertMessage(assertThrows(IllegalStateException.class, () -> t.isReady(0)), "closed");
        assertMessage(assertThrows(IllegalStateException.class, t::rearm), "closed");
    }

    @Test
    void aMeshClosedWithLiveAllocationsStillRefusesThemAndAnOrderlyOneFreesAtOnce() {
        final Mesh sloppy = mesh("sloppy");
        final IntArray leaked = sloppy.device(0).allocateInts(4);
        sloppy.close();
        assertMessage(assertThrows(IllegalStateException.class, () -> leaked.set(0, 1)), "mesh 'sloppy' was closed");
        final Mesh tidy = mesh("tidy");
        final SymmetricArray<IntArray> a = tidy.allocateInts(4);
        a.close();
        tidy.close();
        assertMessage(assertThrows(IllegalStateException.class, () -> a.on(0).get(0)), "was freed");
    }
}
