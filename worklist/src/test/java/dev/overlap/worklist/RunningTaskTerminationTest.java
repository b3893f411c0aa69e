package dev.overlap.worklist;

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

/**
 * A task that is running keeps its run alive, however long it runs, until it has pushed its children: the worklist
 * counts a task completed only after its function returned. Each run is a chain of {@value #CHAIN} tasks, each pushing
 * its successor, and each task, before it pushes, waits until another worker has finished two polls that found
 * nothing to do ({@link EmptyPolls}): so at least one whole termination check of an idle worker falls inside every
 * task, deterministically, with no timing involved. A worklist that counted the task completed when it took it (the
 * counts balance for the whole task) ends the run at that check, and the successor the task pushes next never runs:
 * mutant {@code mutants/worklist-complete-before-run.patch} fails here on the first task of the first run, every
 * time.
 *
 * <p>Persistent kernels only: in discrete mode the host checks termination between rounds, after every task of the
 * round returned, and an idle worker waits at the round's barrier instead of polling. Two meshes (one device with two
 * workers: the idle worker shares the queue; two devices with one worker each: the idle worker is on the other
 * device), successors pushed locally (staged, published at the end of the fetch) or to the other device (through the
 * worker's aggregator and the other device's inbox).
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class RunningTaskTerminationTest {
    private static final int CHAIN = 4;
    private static final int RUNS = 3;

    private static final EmptyPolls ONE_DEVICE_POLLS = new EmptyPolls();
    private static final EmptyPolls TWO_DEVICE_POLLS = new EmptyPolls();
    private static Mesh oneDeviceTwoWorkers;
    private static Mesh twoDevicesOneWorker;

    @BeforeAll
    static void meshes() {
        oneDeviceTwoWorkers = Mesh.builder().devices(1).threadsPerDevice(2).memoryPerDevice(8 << 20)
            .idleStrategy(ONE_DEVICE_POLLS.idleStrategy()).name("running-task-1x2").build();
        twoDevicesOneWorker = Mesh.builder().devices(2).threadsPerDevice(1).memoryPerDevice(8 << 20)
            .idleStrategy(TWO_DEVICE_POLLS.idleStrategy()).name("running-task-2x1").build();
    }

    @AfterAll
    static void close() {
        oneDeviceTwoWorkers.close();
        twoDevicesOneWorker.close();
    }

    static Stream<Arguments> configurations() {
        return Stream.of(
            Arguments.of("1x2", WorkerShape.THREAD, false, AggregatorConfig.eager()),
            Arguments.of("1x2", WorkerShape.WARP, false, AggregatorConfig.eager()),
            Arguments.of("2x1", WorkerShape.THREAD, false, AggregatorConfig.eager()),
            Arguments.of("2x1", WorkerShape.THREAD, true, AggregatorConfig.eager()),
            Arguments.of("2x1", WorkerShape.WARP, true, AggregatorConfig.batched(64, 8)));
    }

    @ParameterizedTest(name = "{0} {1}, remote successors: {2}, {3}")
    @MethodSource("configurations")
    void aRunningTaskKeepsItsRunAliveUntilItsSuccessorRan(final String meshName, final WorkerShape shape,
        final boolean remote, final AggregatorConfig aggregator) {
        final boolean oneDevice = meshName.equals("1x2");
        final Mesh mesh = oneDevice ? oneDeviceTwoWorkers : twoDevicesOneWorker;
        final EmptyPolls polls = oneDevice ? ONE_DEVICE_POLLS : TWO_DEVICE_POLLS;
        try (DistributedWorklist wl = DistributedWorklist.builder(mesh).queueCapacity(64).ringCapacity(1 << 14)
            .remote(aggregator).build()) {
            for (int run = 0; run < RUNS; run++) {
                final AtomicIntegerArray ran = new AtomicIntegerArray(CHAIN);
                final AtomicIntegerArray ranOn = new AtomicIntegerArray(CHAIN);
                final AtomicInteger inFunction = new AtomicInteger();
                final AtomicInteger foreign = new AtomicInteger();
                final int base = run * CHAIN;
                wl.seed(0, base);
                final WorklistStats stats = wl.run(shape, KernelMode.PERSISTENT, (task, ctx) -> {
                    inFunction.incrementAndGet();
                    final int k = task - base;
                    if (k < 0 || k >= CHAIN) {
                        foreign.incrementAndGet();
                    } else {
                        ran.incrementAndGet(k);
                        ranOn.set(k, ctx.device());
                        if (k + 1 < CHAIN) {
                            polls.awaitTwoOthers();
                            if (remote) {
                                ctx.pushTo(1 - ctx.device(), task + 1);
                            } else {
                                ctx.push(task + 1);
                            }
                        }
                    }
                    inFunction.decrementAndGet();
                });
                assertEquals(0, inFunction.get(), "run " + run + " returned while a function was running");
                assertEquals(0, foreign.get(), "run " + run + " ran tasks left over from an earlier run");
                for (int k = 0; k < CHAIN; k++) {
                    assertEquals(1, ran.get(k), "run " + run + ": task " + k + " of the chain ran " + ran.get(k)
                        + " times" + (k > 0 && ran.get(k) == 0 ? " (the run ended while task " + (k - 1) + " was"
                        + " running, before it pushed task " + k + ": premature termination)" : ""));
                    assertEquals(remote ? k & 1 : 0, ranOn.get(k), "run " + run + ": device of task " + k);
                }
                assertEquals(CHAIN, stats.tasks(), "run " + run + " statistics");
                for (int d = 0; d < mesh.deviceCount(); d++) {
                    assertEquals(0, wl.queuedTasks(d), "run " + run + " left tasks queued on dev" + d);
                }
            }
        }
    }
}
