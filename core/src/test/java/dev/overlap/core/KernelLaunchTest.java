package dev.overlap.core;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import static dev.overlap.core.MeshTest.assertMessage;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(60)
class KernelLaunchTest {
    private Mesh mesh;

    @BeforeEach
    void setUp() {
        mesh = Mesh.builder().devices(2).threadsPerDevice(3).memoryPerDevice(1 << 20).build();
    }

    @AfterEach
    void tearDown() {
        mesh.close();
    }

    @Test
    void everyBlockRunsExactlyOnceAndItsWritesAreVisibleAfterJoin() {
        final int grid = 10_000;
        final IntArray hits = mesh.device(0).allocateInts(grid);
        final IntArray values = mesh.device(0).allocateInts(grid);
        final KernelLaunch launch = mesh.device(0).launch(grid, (ctx, block) -> {
            hits.getAndAdd(block, 1);
            values.set(block, block * 3 + 1);
        });
        launch.join();
        assertTrue(launch.isDone());
        assertFalse(launch.isFailed());
        assertEquals(grid, launch.gridSize());
        for (int i = 0; i < grid; i++) {
            assertEquals(1, hits.get(i), "block " + i);
            assertEquals(i * 3 + 1, values.get(i), "block " + i);
        }
    }

    @Test
    void launchesOnOneDeviceRunInStreamOrder() {
        final IntArray data = mesh.device(1).allocateInts(1000);
        final AtomicInteger violations = new AtomicInteger();
        KernelLaunch last = null;
        for (int round = 1; round <= 50; round++) {
            final int r = round;
            last = mesh.device(1).launch(1000, (ctx, block) -> {
                if (data.get(block) != r - 1) {
                    violations.incrementAndGet();
                }
                data.set(block, r);
            });
        }
        last.join();
        assertEquals(0, violations.get(), "a launch saw blocks of the previous one unfinished");
        mesh.device(1).synchronize();
    }

    @Test
    void allWorkersTakePartInALaunch() {
        final AtomicLong workersSeen = new AtomicLong();
        final CyclicBarrier allThree = new CyclicBarrier(3);
        // Each block waits (bounded) until three blocks run at once: only possible if every worker took one.
        mesh.device(0).launch(3, (ctx, block) -> {
            workersSeen.getAndAccumulate(1L << ctx.workerIndex(), (a, b) -> a | b);
            allThree.await(10, TimeUnit.SECONDS);
        }).join();
        assertEquals(0b111, workersSeen.get());
    }

    @Test
    void aThrowingBlockFailsTheLaunchWithItsIndexAndTheDeviceStaysUsable() {
        final Device device = mesh.device(1);
        final IllegalStateException boom = new IllegalStateException("boom");
        final KernelLaunch launch = device.launch(100, (ctx, block) -> {
            if (block == 42) {
                throw boom;
            }
        });
        final KernelFailedException e = assertThrows(KernelFailedException.class, launch::join);
        assertSame(boom, e.getCause());
        assertEquals(42, e.block());
        assertEquals(1, e.device());
        assertMessage(e, "block 42 of 100");
        assertMessage(e, "dev1");
        assertTrue(launch.isFailed());
        assertThrows(KernelFailedException.class, () -> launch.join(1, TimeUnit.SECONDS));

        final AtomicInteger ran = new AtomicInteger();
        device.launch(100, (ctx, block) -> ran.incrementAndGet()).join();
        assertEquals(100, ran.get());
    }

    @Test
    void gridSizeAndKernelAreValidated() {
        assertMessage(assertThrows(IllegalArgumentException.class, () -> mesh.device(0).launch(0, (c, b) -> { })),
            "gridSize");
        assertThrows(NullPointerException.class, () -> mesh.device(0).launch(1, null));
        assertThrows(NullPointerException.class, () -> mesh.device(0).launchPersistent(null));
    }

    @Test
    void persistentKernelLoopsOnEveryWorkerUntilStopped() {
        final AtomicLong polls = new AtomicLong();
        final AtomicInteger workersSeen = new AtomicInteger();
        final KernelLaunch launch = mesh.device(0).launchPersistent(ctx -> {
            workersSeen.getAndAccumulate(1 << ctx.workerIndex(), (a, b) -> a | b);
            polls.incrementAndGet();
            return 1;
        });
        final KernelLaunch after = mesh.device(0).launch(1, (c, b) -> assertTrue(launch.isDone()));
        while (workersSeen.get() != 0b111 || polls.get() < 1000) {
            Thread.onSpinWait();
        }
        assertFalse(launch.isDone());
        assertFalse(after.isDone(), "a later launch waits for the persistent one");
        launch.stop();
        launch.join();
        after.join();
        assertTrue(launch.isPersistent());
    }

    @Test
    void aKernelCanStopItsOwnPersistentLaunch() {
        final AtomicInteger countdown = new AtomicInteger(500);
        mesh.device(1).launchPersistent(ctx -> {
            if (countdown.decrementAndGet() <= 0) {
                ctx.stopLaunch();
            }
            return 0;
        }).join();
        assertTrue(countdown.get() <= 0);
    }

    @Test
    void aThrowingPollStopsAndFailsThePersistentLaunch() {
        final KernelLaunch launch = mesh.device(0).launchPersistent(ctx -> {
            if (ctx.workerIndex() == 1) {
                throw new IllegalArgumentException("bad task");
            }
            return 0;
        });
        final KernelFailedException e = assertThrows(KernelFailedException.class, launch::join);
        assertMessage(e, "worker 1 of a persistent kernel");
        assertEquals(-1, e.block());
        mesh.device(0).launch(1, (c, b) -> { }).join();
    }

    @Test
    void joinWithTimeoutReportsAnUnfinishedLaunch() {
        final KernelLaunch resident = mesh.device(1).launchPersistent(ctx -> 0);
        assertFalse(resident.join(10, TimeUnit.MILLISECONDS));
        resident.stop();
        assertTrue(resident.join(10, TimeUnit.SECONDS));
    }

    @Test
    void manyThreadsCanLaunchOnOneDeviceConcurrently() throws InterruptedException {
        final AtomicInteger blocks = new AtomicInteger();
        final Thread[] launchers = new Thread[4];
        for (int t = 0; t < launchers.length; t++) {
            launchers[t] = new Thread(() -> {
                for (int i = 0; i < 200; i++) {
                    mesh.device(0).launch(8, (ctx, b) -> blocks.incrementAndGet()).join();
                }
            });
            launchers[t].start();
        }
        for (final Thread t : launchers) {
            t.join();
        }
        assertEquals(4 * 200 * 8, blocks.get());
    }

    /**
     * A device keeps its last launch until the next one: what the kernels captured must still become garbage once the
     * launch is done (a placed graph's fill kernels captured the whole host graph).
     */
    @Test
    void aCompletedLaunchKeepsNothingItsKernelCaptured() {
        final java.lang.ref.WeakReference<long[]> discrete = captureAndJoin(false);
        final java.lang.ref.WeakReference<long[]> persistent = captureAndJoin(true);
        // a full collection on the JDK's collectors clears weak references; a few, in case one is cut short
        for (int i = 0; i < 20 && (discrete.get() != null || persistent.get() != null); i++) {
            System.gc();
        }
        assertTrue(discrete.get() == null, "a discrete launch's captured array stayed reachable");
        assertTrue(persistent.get() == null, "a persistent launch's captured array stayed reachable");
    }

    private java.lang.ref.WeakReference<long[]> captureAndJoin(final boolean persistent) {
        final long[] payload = new long[1 << 16];
        final KernelLaunch launch = persistent
            ? mesh.device(1).launchPersistent(ctx -> {
                payload[ctx.workerIndex()]++;
                ctx.stopLaunch();
                return 1;
            })
            : mesh.device(1).launch(4, (ctx, block) -> payload[block]++);
        launch.join();
        assertTrue(launch.isDone());
        assertEquals(persistent, launch.isPersistent(), "still says what it was");
        return new java.lang.ref.WeakReference<>(payload);
    }
}
