package dev.overlap.core;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link KernelLaunch#syncWorkers}: the barrier of a persistent launch's workers. Its memory ordering under races is
 * {@code KernelLaunchSyncWorkersTest} of the jcstress suite, and its sleep and wake-up handshake
 * {@code KernelLaunchBarrierSleepTest}; these cover rounds, stopping, a worker asleep in the barrier, and misuse.
 */
@Timeout(60)
class KernelLaunchSyncWorkersTest {
    private static final int WORKERS = 3;
    private Mesh mesh;

    @BeforeEach
    void setUp() {
        mesh = Mesh.builder().name("sync").devices(1).threadsPerDevice(WORKERS).memoryPerDevice(1 << 20).build();
    }

    @AfterEach
    void tearDown() {
        mesh.close();
    }

    @Test
    void everyRoundSeesEveryWorkersWritesOfThatRoundAndNoneOfTheNext() {
        final int rounds = 2_000;
        final IntArray cells = mesh.device(0).allocateInts(WORKERS);
        final AtomicInteger wrong = new AtomicInteger();
        final AtomicReference<String> first = new AtomicReference<>();
        mesh.device(0).launchPersistent(ctx -> {
            final int w = ctx.workerIndex();
            for (int r = 1; r <= rounds; r++) {
                cells.set(w, r); // plain store: the barrier alone must publish it
                assertTrue(ctx.syncWorkers());
                for (int o = 0; o < WORKERS; o++) {
                    final int seen = cells.get(o);
                    if (seen != r) { // nobody writes round r + 1 before everyone has read round r (next barrier)
                        wrong.incrementAndGet();
                        first.compareAndSet(null, "round " + r + ": worker " + w + " saw " + seen + " in cell " + o);
                    }
                }
                assertTrue(ctx.syncWorkers());
            }
            ctx.stopLaunch();
            return 1;
        }).join();
        assertEquals(0, wrong.get(), first.get());
    }

    @Test
    void aWorkerThatFailsStopsTheLaunchAndTheWaitingWorkersGetFalseInsteadOfWaitingForever() {
        final AtomicInteger entered = new AtomicInteger();
        final AtomicInteger falses = new AtomicInteger();
        final KernelLaunch launch = mesh.device(0).launchPersistent(ctx -> {
            if (ctx.workerIndex() == 0) {
                throw new IllegalStateException("worker 0 gives up");
            }
            entered.incrementAndGet(); // a worker that starts after the stop never polls: it is not counted
            if (!ctx.syncWorkers()) {
                falses.incrementAndGet();
            }
            assertFalse(ctx.syncWorkers(), "a stopping launch's barrier stays open");
            return 1;
        });
        final KernelFailedException e = assertThrows(KernelFailedException.class, launch::join);
        assertTrue(e.getMessage().contains("worker 0 gives up"), e.getMessage());
        assertEquals(entered.get(), falses.get(), "every worker that reached the barrier was let go with false");
    }

    @Test
    void aStopFromTheHostReleasesWorkersWaitingForOneThatNeverArrives() {
        final AtomicInteger waiting = new AtomicInteger();
        final AtomicInteger falses = new AtomicInteger();
        final KernelLaunch launch = mesh.device(0).launchPersistent(ctx -> {
            if (ctx.workerIndex() == 0) {
                return 0; // never arrives: polls idly until the stop
            }
            waiting.incrementAndGet();
            if (!ctx.syncWorkers()) {
                falses.incrementAndGet();
                return 1;
            }
            throw new AssertionError("the round completed without worker 0");
        });
        while (waiting.get() < WORKERS - 1) {
            Thread.onSpinWait();
        }
        launch.stop();
        launch.join();
        assertEquals(WORKERS - 1, falses.get());
    }

    @Test
    @Timeout(20)
    void aWorkerThatWaitsLongParksAndTheLastArrivalWakesIt() {
        roundWithASleeper(false);
    }

    @Test
    @Timeout(20)
    void aStopWakesAWorkerAsleepInTheBarrier() {
        try (Mesh two = twoWorkers()) {
            final AtomicInteger falses = new AtomicInteger();
            final Sleeper sleeper = new Sleeper();
            final KernelLaunch launch = two.device(0).launchPersistent(ctx -> {
                if (ctx.workerIndex() == 1 || !sleeper.firstPoll(ctx)) {
                    return 0; // worker 1 never arrives: polls idly until the stop
                }
                if (!ctx.syncWorkers()) {
                    falses.incrementAndGet();
                }
                return 1;
            });
            sleeper.awaitAsleepIn(launch);
            launch.stop();
            assertTrue(launch.join(10, TimeUnit.SECONDS), "the stop did not wake the worker asleep in the barrier");
            assertEquals(1, falses.get(), "the sleeper was let go with false");
        }
    }

    @Test
    @Timeout(20)
    void anInterruptedSleeperKeepsWaitingForTheRoundAndKeepsItsInterrupt() {
        assertTrue(roundWithASleeper(true), "the barrier must not swallow the worker's interrupt status");
    }

    /**
     * One barrier round on two workers in which worker 0 arrives first and goes to sleep, then (interrupted first when
     * {@code interrupt}) is woken by worker 1's arrival; asserts that the round ends and that both workers pass it
     * with {@code true} (an interrupt does not end the wait).
     *
     * @return whether worker 0's interrupt status was set after the round
     */
    private static boolean roundWithASleeper(final boolean interrupt) {
        try (Mesh two = twoWorkers()) {
            final CountDownLatch arrive = new CountDownLatch(1);
            final AtomicInteger trues = new AtomicInteger();
            final AtomicBoolean stillInterrupted = new AtomicBoolean();
            final Sleeper sleeper = new Sleeper();
            final KernelLaunch launch = two.device(0).launchPersistent(ctx -> {
                if (!sleeper.firstPoll(ctx)) {
                    return 0;
                }
                if (ctx.workerIndex() == 1) {
                    awaitUninterruptibly(arrive); // arrives only once worker 0 is asleep
                }
                if (ctx.syncWorkers()) {
                    trues.incrementAndGet();
                }
                if (ctx.workerIndex() == 0) {
                    stillInterrupted.set(Thread.currentThread().isInterrupted());
                    ctx.stopLaunch();
                }
                return 1;
            });
            try {
                sleeper.awaitAsleepIn(launch);
                if (interrupt) {
                    sleeper.thread.interrupt();
                }
            } finally {
                arrive.countDown(); // also when the test fails: worker 1 must not wait past the mesh's close
            }
            assertTrue(launch.join(10, TimeUnit.SECONDS), "the last arrival did not wake the worker asleep in the "
                + "barrier");
            assertEquals(2, trues.get(), "both workers passed the round");
            return stillInterrupted.get();
        }
    }

    /** A mesh of one device with two workers that park after 100 microseconds of waiting (the default). */
    private static Mesh twoWorkers() {
        return Mesh.builder().name("sleep").devices(1).threadsPerDevice(2).memoryPerDevice(1 << 20).build();
    }

    private static void awaitUninterruptibly(final CountDownLatch latch) {
        while (true) {
            try {
                latch.await();
                return;
            } catch (final InterruptedException e) {
                Thread.currentThread().interrupt(); // kept; the wait goes on
            }
        }
    }

    /** Worker 0's thread, and each worker's first poll (the tests' kernels enter the barrier once). */
    private static final class Sleeper {
        volatile Thread thread;
        private final AtomicBoolean[] polled = {new AtomicBoolean(), new AtomicBoolean()};

        /** @return true on the calling worker's first poll; records worker 0's thread */
        boolean firstPoll(final WorkerContext ctx) {
            if (ctx.workerIndex() == 0) {
                thread = Thread.currentThread();
            }
            return polled[ctx.workerIndex()].compareAndSet(false, true);
        }

        /**
         * Waits until worker 0 is parked with the launch as its blocker: asleep in the launch's barrier. A thread's
         * state has nothing to wait on, so this polls; the test's {@code @Timeout} interrupts it when the worker
         * never goes to sleep, and the poll then fails the test.
         */
        void awaitAsleepIn(final KernelLaunch launch) {
            while (thread == null || thread.getState() != Thread.State.WAITING
                || LockSupport.getBlocker(thread) != launch) {
                if (Thread.currentThread().isInterrupted()) {
                    throw new AssertionError("worker 0 never went to sleep in the barrier (still "
                        + (thread == null ? "not started" : thread.getState()) + ")");
                }
                Thread.yield();
            }
        }
    }

    @Test
    void onlyAPersistentLaunchsOwnWorkersMayWait() {
        final AtomicReference<Throwable> inDiscrete = new AtomicReference<>();
        mesh.device(0).launch(1, (ctx, block) -> {
            try {
                ctx.syncWorkers();
            } catch (final IllegalStateException e) {
                inDiscrete.set(e);
            }
        }).join();
        assertTrue(inDiscrete.get() != null && inDiscrete.get().getMessage().contains("is not persistent"),
            String.valueOf(inDiscrete.get()));
        final KernelLaunch persistent = mesh.device(0).launchPersistent(ctx -> 0);
        try {
            final IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> persistent.syncWorkers(null));
            assertTrue(e.getMessage().contains("outside one of its workers"), e.getMessage());
        } finally {
            persistent.stop();
            persistent.join();
        }
    }
}
