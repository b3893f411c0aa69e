package dev.overlap.worklist;

import dev.overlap.core.Mesh;
import dev.overlap.core.WorldConfig;
import dev.overlap.transport.AggregatorConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;

import static dev.overlap.testing.TestThreads.inParallel;
import static dev.overlap.testing.TestThreads.runInParallel;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The distributed worklist over a mesh across processes, the two ranks played by meshes of one JVM (each rank has its
 * own worklist object, queues and workers; the detector's counters and the run's control words are shared memory, as
 * between processes): tasks hop between the ranks' devices and the run ends on both ranks exactly when the last task
 * has run, in both kernel modes, with sweeps of an idle function, and a failure on one rank ends both.
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class WorklistWorldTest {
    private static final int DEVICES = 4;
    private static final int CHAIN = 2_000;

    @TempDir
    Path tmp;

    private Mesh[] meshes(final String job) {
        return inParallel(2, r -> Mesh.builder().name("wl-r" + r).devices(DEVICES).threadsPerDevice(1)
            .memoryPerDevice(16 << 20).world(WorldConfig.sharedMemory(tmp.resolve(job), 2, r)
                .joinTimeout(30, TimeUnit.SECONDS).build()).build()).toArray(new Mesh[0]);
    }

    private static DistributedWorklist worklist(final Mesh mesh) {
        return DistributedWorklist.builder(mesh).queueCapacity(1 << 12).ringCapacity(64 << 10)
            .remote(AggregatorConfig.batched(1024, 8)).build();
    }

    @ParameterizedTest
    @EnumSource(KernelMode.class)
    void aChainOfTasksHoppingBetweenProcessesRunsEachTaskOnceAndEndsOnBothRanks(final KernelMode mode) {
        final Mesh[] m = meshes("chain-" + mode);
        final AtomicIntegerArray runs = new AtomicIntegerArray(CHAIN + 1);
        final List<Long> tasks = inParallel(2, r -> {
            try (DistributedWorklist wl = worklist(m[r])) {
                long total = 0;
                for (int rep = 0; rep < 2; rep++) {
                    if (r == 0) {
                        wl.seed(0, 0);
                    }
                    total += wl.run(WorkerShape.THREAD, mode, (task, ctx) -> {
                        runs.incrementAndGet(task);
                        if (task < CHAIN) {
                            ctx.pushTo((task + 1) % DEVICES, task + 1); // every hop to the next device, half of them
                        }                                               // to the other process
                    }).tasks();
                }
                return total;
            }
        });
        for (int t = 0; t <= CHAIN; t++) {
            assertEquals(2, runs.get(t), "task " + t + " ran once per run");
        }
        assertEquals(2L * (CHAIN + 1), tasks.get(0) + tasks.get(1), "the ranks' statistics add up to every task");
        runInParallel(2, r -> m[r].close());
    }

    @Test
    void aFanOutSeededOnEveryRankTerminatesExactlyWithSweepsOfTheIdleFunction() {
        final Mesh[] m = meshes("sweeps");
        final AtomicLong ran = new AtomicLong();
        final AtomicLong idleTasks = new AtomicLong();
        final List<Long> sweeps = inParallel(2, r -> {
            try (DistributedWorklist wl = worklist(m[r])) {
                for (final var d : m[r].localDevices()) {
                    wl.seed(d.id(), 1);
                }
                final boolean[] pushedOnce = new boolean[DEVICES];
                final WorklistStats stats = wl.run(WorkerShape.WARP, KernelMode.PERSISTENT, (task, ctx) -> {
                    ran.incrementAndGet();
                    if (task < 512) { // a binary tree of depth 9 under every seed, spread over every device
                        ctx.pushTo((task * 7) % DEVICES, 2 * task);
                        ctx.pushTo((task * 3 + 1) % DEVICES, 2 * task + 1);
                    }
                }, ctx -> {
                    if (!pushedOnce[ctx.device()]) { // the first sweep finds more work once per device
                        pushedOnce[ctx.device()] = true;
                        idleTasks.incrementAndGet();
                        ctx.pushTo((ctx.device() + 1) % DEVICES, 1000);
                    }
                });
                return stats.idleSweeps(); // counted by the rank whose worker opened the sweep
            }
        });
        assertTrue(sweeps.get(0) + sweeps.get(1) >= 1, "the run ended through a sweep");
        assertEquals(DEVICES * 1023L + idleTasks.get(), ran.get(), "every tree node of every seed once, plus the "
            + "idle function's tasks");
        assertEquals(DEVICES, idleTasks.get());
        runInParallel(2, r -> m[r].close());
    }

    /**
     * Discrete rounds whose sweeps find work again and again: after every quiescent round each rank's host decides
     * whether to sweep from the detector's counts, and a rank's sweep pushes tasks (counts them created) at once. The
     * hosts must all have read the counts before any rank's sweep starts, or a slower rank reads the counts a faster
     * rank's sweep already changed, decides against the sweep, and waits at another barrier than the faster one:
     * both hang. Every sweep here makes that race possible; the run must end on both ranks with every task run once.
     */
    @Test
    void discreteRoundsWhoseSweepsFindWorkAgainAndAgainEndOnBothRanks() {
        final Mesh[] m = meshes("discrete-sweeps");
        final int sweepsWithWork = 40;
        final AtomicLong ran = new AtomicLong();
        final List<Long> sweeps = inParallel(2, r -> {
            try (DistributedWorklist wl = worklist(m[r])) {
                for (final var d : m[r].localDevices()) {
                    wl.seed(d.id(), 0);
                }
                final int[] found = new int[DEVICES]; // per device, touched by its one worker only
                return wl.run(WorkerShape.THREAD, KernelMode.DISCRETE, (task, ctx) -> ran.incrementAndGet(), ctx -> {
                    if (found[ctx.device()] < sweepsWithWork) {
                        found[ctx.device()]++;
                        ctx.pushTo((ctx.device() + 1) % DEVICES, found[ctx.device()]);
                    }
                }).idleSweeps();
            }
        });
        assertEquals(DEVICES * (1L + sweepsWithWork), ran.get(), "the seeds and every sweep's tasks, once each");
        assertEquals(sweeps.get(0), sweeps.get(1), "the hosts run the same sweeps");
        assertTrue(sweeps.get(0) > sweepsWithWork, "a sweep per round that found work, and the last one: "
            + sweeps.get(0));
        runInParallel(2, r -> m[r].close());
    }

    @Test
    void aTaskThatFailsOnOneRankEndsTheRunOnBothNamingIt() {
        final Mesh[] m = meshes("failure");
        final List<String> errors = inParallel(2, r -> {
            try (DistributedWorklist wl = worklist(m[r])) {
                if (r == 0) {
                    wl.seed(0, 0);
                }
                final TaskFailedException e = assertThrows(TaskFailedException.class, () -> wl.run(WorkerShape.THREAD,
                    KernelMode.PERSISTENT, (task, ctx) -> {
                        if (task == 30) {
                            throw new IllegalArgumentException("task thirty");
                        }
                        ctx.pushTo((task + 1) % DEVICES, task + 1);
                    }));
                assertEquals(30, e.task());
                assertEquals(2, e.device(), "task 30 runs on dev2, rank 1's");
                // the worklist is empty and usable again on both ranks
                if (r == 1) {
                    wl.seed(2, 5);
                }
                assertEquals(r == 1 ? 1 : 0, wl.run(WorkerShape.THREAD, KernelMode.PERSISTENT, (task, ctx) -> { })
                    .tasks(), "the next run works: rank 1 runs the one seed");
                return e.getMessage();
            }
        });
        assertTrue(errors.get(1).contains("task thirty"), errors.get(1));
        assertTrue(errors.get(0).contains("on rank 1") && errors.get(0).contains("task thirty"), errors.get(0));
        runInParallel(2, r -> m[r].close());
    }

    @Test
    void seedingAnotherRanksDeviceIsRefusedNamingTheRank() {
        final Mesh[] m = meshes("seed");
        runInParallel(2, r -> {
            try (DistributedWorklist wl = worklist(m[r])) {
                final int other = r == 0 ? DEVICES - 1 : 0;
                final IllegalStateException e = assertThrows(IllegalStateException.class, () -> wl.seed(other, 1));
                assertTrue(e.getMessage().contains("runs in rank " + (1 - r)), e.getMessage());
            }
        });
        runInParallel(2, r -> m[r].close());
    }
}
