package dev.overlap.core;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link KernelLaunch#syncWorkers}: the barrier of a persistent launch's workers. Its memory ordering under races is
 * {@code KernelLaunchSyncWorkersTest} of the jcstress suite; these cover rounds, stopping and misuse.
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
