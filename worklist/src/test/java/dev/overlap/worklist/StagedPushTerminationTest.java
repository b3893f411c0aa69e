package dev.overlap.worklist;

import dev.overlap.core.IdleStrategies;
import dev.overlap.core.Mesh;
import dev.overlap.transport.AggregatorConfig;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Termination of runs whose only task at almost every moment is a worker's <em>staged</em> local push: a chain in
 * which each task pushes its successor with {@link TaskContext#push}, so the successor sits in the worker's staging
 * array (invisible to everyone else) between the end of the function and the publication of the fetch. Meanwhile
 * the other workers are idle and check termination as often as they can (a yielding idle strategy). The run must
 * count the staged task created before it counts the pushing task completed; in the other order the counts balance
 * for a moment with the chain alive, an idle worker's check can fall in that moment, and the run returns with the
 * chain cut short.
 *
 * <p>That moment lasts a few nanoseconds per task once the code is compiled: with the order reversed in the library
 * (mutant {@code mutants/worklist-complete-before-publish.patch}), warmed-up 2,000-task chains ended early in about 1
 * run of 300 here, 100,000-task chains in most runs. So the persistent configurations run long chains, repeated on one
 * worklist run after run (as applications reuse a worklist); the discrete ones, where the host checks between rounds
 * and each round runs one task of the chain, run short ones. After every run: each task ran exactly once, no function
 * was still running when {@code run} returned, nothing is left queued, and the statistics count every task. Two
 * meshes: one device with two workers (the idle worker shares the busy one's queue) and two devices with one worker
 * each (the idle worker is on another device).
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class StagedPushTerminationTest {
    /** Chain length of persistent runs: long, since each task opens the window only for a few nanoseconds. */
    private static final int LONG_CHAIN = Integer.getInteger("overlap.worklist.chainLength", 100_000);
    /** Chain length of discrete runs, one task per round (the host checks termination between rounds). */
    private static final int SHORT_CHAIN = 2_000;
    private static final int RUNS = Integer.getInteger("overlap.worklist.chainRuns", 16);

    private static Mesh oneDeviceTwoWorkers;
    private static Mesh twoDevicesOneWorker;

    @BeforeAll
    static void meshes() {
        final String idle = System.getProperty("overlap.worklist.chainIdle", "yield");
        oneDeviceTwoWorkers = Mesh.builder().devices(1).threadsPerDevice(2).memoryPerDevice(8 << 20)
            .idleStrategy(IdleStrategies.parse(idle)).name("staged-1x2").build();
        twoDevicesOneWorker = Mesh.builder().devices(2).threadsPerDevice(1).memoryPerDevice(8 << 20)
            .idleStrategy(IdleStrategies.parse(idle)).name("staged-2x1").build();
    }

    @AfterAll
    static void close() {
        oneDeviceTwoWorkers.close();
        twoDevicesOneWorker.close();
    }

    static Stream<Arguments> configurations() {
        return Stream.of(
            Arguments.of("1x2", KernelMode.PERSISTENT, WorkerShape.THREAD, LONG_CHAIN, RUNS),
            Arguments.of("1x2", KernelMode.PERSISTENT, WorkerShape.WARP, LONG_CHAIN, RUNS),
            Arguments.of("2x1", KernelMode.PERSISTENT, WorkerShape.THREAD, LONG_CHAIN, RUNS),
            Arguments.of("1x2", KernelMode.DISCRETE, WorkerShape.THREAD, SHORT_CHAIN, 2),
            Arguments.of("2x1", KernelMode.DISCRETE, WorkerShape.WARP, SHORT_CHAIN, 2));
    }

    @ParameterizedTest(name = "{0} {1} {2}, chain of {3}, {4} runs")
    @MethodSource("configurations")
    void aChainOfStagedLocalPushesRunsToItsEndEveryRun(final String meshName, final KernelMode mode,
        final WorkerShape shape, final int chain, final int runs) {
        final Mesh mesh = meshName.equals("1x2") ? oneDeviceTwoWorkers : twoDevicesOneWorker;
        final int device = mesh.deviceCount() - 1;
        try (DistributedWorklist wl = DistributedWorklist.builder(mesh).queueCapacity(1 << 10).ringCapacity(1 << 14)
            .remote(AggregatorConfig.eager()).build()) {
            for (int run = 0; run < runs; run++) {
                final AtomicIntegerArray ran = new AtomicIntegerArray(chain);
                final AtomicInteger inFunction = new AtomicInteger();
                final AtomicInteger foreign = new AtomicInteger();
                final int base = run * chain;
                wl.seed(device, base);
                final WorklistStats stats = wl.run(shape, mode, (task, ctx) -> {
                    inFunction.incrementAndGet();
                    final int k = task - base;
                    if (k < 0 || k >= chain) {
                        foreign.incrementAndGet();
                    } else {
                        ran.incrementAndGet(k);
                        if (k + 1 < chain) {
                            ctx.push(task + 1);
                        }
                    }
                    inFunction.decrementAndGet();
                });
                assertEquals(0, inFunction.get(), "run " + run + " returned while a function was running");
                assertEquals(0, foreign.get(), "run " + run + " ran tasks left over from an earlier run");
                int missing = 0;
                int firstMissing = -1;
                for (int k = 0; k < chain; k++) {
                    final int n = ran.get(k);
                    if (n > 1) {
                        fail("run " + run + ": task " + k + " of the chain ran " + n + " times");
                    }
                    if (n == 0 && missing++ == 0) {
                        firstMissing = k;
                    }
                }
                assertEquals(0, missing, "run " + run + " returned before the chain ended: " + missing + " of "
                    + chain + " tasks never ran, from task " + firstMissing + " on (premature termination)");
                assertEquals(chain, stats.tasks(), "run " + run + " statistics");
                assertEquals(chain - 1, stats.localPushes(), "run " + run + " statistics");
                assertEquals(0, wl.queuedTasks(device), "run " + run + " left tasks queued");
            }
        }
    }
}
