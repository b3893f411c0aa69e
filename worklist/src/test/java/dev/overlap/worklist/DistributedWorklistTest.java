package dev.overlap.worklist;

import dev.overlap.core.IntArray;
import dev.overlap.core.Mesh;
import dev.overlap.core.SymmetricArray;
import dev.overlap.transport.AggregatorConfig;
import dev.overlap.transport.DirectPolicy;
import dev.overlap.transport.RemoteAtomic;
import dev.overlap.transport.Transport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Termination, exactly-once execution, stop and failure of the distributed worklist on 4 devices. */
@Timeout(value = 120, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class DistributedWorklistTest {
    private static Mesh mesh;

    @BeforeAll
    static void mesh() {
        mesh = Mesh.builder().devices(4).threadsPerDevice(1).memoryPerDevice(32 << 20).name("worklist-test").build();
    }

    @AfterAll
    static void close() {
        mesh.close();
    }

    private static DistributedWorklist.Builder builder() {
        return DistributedWorklist.builder(mesh).queueCapacity(1 << 12).ringCapacity(64 << 10)
            .remote(AggregatorConfig.batched(4096, 64));
    }

    static Stream<Arguments> configurations() {
        return Stream.of(
            Arguments.of(KernelMode.PERSISTENT, WorkerShape.THREAD, AggregatorConfig.batched(4096, 32)),
            Arguments.of(KernelMode.PERSISTENT, WorkerShape.WARP, AggregatorConfig.eager()),
            Arguments.of(KernelMode.PERSISTENT, WorkerShape.block(100), AggregatorConfig.batched(1024, 1_000_000)),
            Arguments.of(KernelMode.DISCRETE, WorkerShape.THREAD, AggregatorConfig.eager()),
            Arguments.of(KernelMode.DISCRETE, WorkerShape.WARP, AggregatorConfig.batched(4096, 32)));
    }

    @ParameterizedTest
    @MethodSource("configurations")
    void anEmptyStartTerminatesAtOnce(final KernelMode mode, final WorkerShape shape, final AggregatorConfig remote) {
        try (DistributedWorklist wl = builder().remote(remote).build()) {
            final WorklistStats stats = wl.run(shape, mode, (t, ctx) -> {
                throw new AssertionError("no task was seeded, yet task " + t + " ran");
            });
            assertEquals(0, stats.tasks());
            assertTrue(!stats.stopped());
        }
    }

    @ParameterizedTest
    @MethodSource("configurations")
    void aSingleTaskRunsOnceOnItsDevice(final KernelMode mode, final WorkerShape shape, final AggregatorConfig remote) {
        try (DistributedWorklist wl = builder().remote(remote).build()) {
            final AtomicInteger ranOn = new AtomicInteger(-1);
            final AtomicInteger runs = new AtomicInteger();
            wl.seed(2, 42);
            final WorklistStats stats = wl.run(shape, mode, (t, ctx) -> {
                assertEquals(42, t);
                runs.incrementAndGet();
                ranOn.set(ctx.device());
            });
            assertEquals(1, runs.get());
            assertEquals(2, ranOn.get());
            assertEquals(1, stats.tasks());
            assertEquals(1, stats.tasks(2));
        }
    }

    /**
     * A complete binary tree of {@code n} tasks; task {@code t} spawns {@code 2t+1} and {@code 2t+2} on device
     * {@code child % 4}. Every task must run exactly once, and the run must not return before the last one has.
     */
    @ParameterizedTest
    @MethodSource("configurations")
    void aFanOutTreeAcrossFourDevicesRunsEveryTaskExactlyOnce(final KernelMode mode, final WorkerShape shape,
        final AggregatorConfig remote) {
        final int n = 50_000;
        try (DistributedWorklist wl = builder().remote(remote).build()) {
            for (int run = 0; run < 3; run++) {
                final AtomicIntegerArray seen = new AtomicIntegerArray(n);
                wl.seed(0, 0);
                final WorklistStats stats = wl.run(shape, mode, (t, ctx) -> {
                    seen.incrementAndGet(t);
                    assertEquals(t % 4, ctx.device(), "task ran on the wrong device");
                    for (int c = 2 * t + 1; c <= 2 * t + 2 && c < n; c++) {
                        ctx.pushTo(c % 4, c);
                    }
                });
                for (int t = 0; t < n; t++) {
                    assertEquals(1, seen.get(t), "task " + t + " ran " + seen.get(t) + " times in run " + run);
                }
                assertEquals(n, stats.tasks());
                assertEquals(n - 1, stats.localPushes() + stats.remotePushes());
                assertTrue(stats.remotePushes() > 0);
                assertTrue(stats.messagesSent() > 0, stats::toString);
                if (mode == KernelMode.DISCRETE) {
                    assertTrue(stats.rounds() >= 15, "a tree of depth 15 needs at least 15 rounds: " + stats);
                }
            }
        }
    }

    /**
     * Local pushes are staged and published once per fetch: a task that pushes several stages' worth, and tasks
     * that push one each across fetch boundaries, must lose and duplicate nothing, in either kernel mode.
     */
    @ParameterizedTest
    @MethodSource("configurations")
    void stagedLocalPushesBeyondOneStageRunExactlyOnce(final KernelMode mode, final WorkerShape shape,
        final AggregatorConfig remote) {
        final int wide = 3 * TaskContext.STAGE + 17;
        final int chain = 2_000;
        final int n = wide + 1 + chain;
        try (DistributedWorklist wl = builder().remote(remote).build()) {
            final AtomicIntegerArray seen = new AtomicIntegerArray(n);
            wl.seed(1, 0);
            final WorklistStats stats = wl.run(shape, mode, (t, ctx) -> {
                seen.incrementAndGet(t);
                if (t == 0) {
                    for (int c = 1; c <= wide; c++) {
                        ctx.push(c);
                    }
                    ctx.push(wide + 1);
                } else if (t > wide && t + 1 < n) {
                    ctx.push(t + 1);
                }
            });
            for (int t = 0; t < n; t++) {
                assertEquals(1, seen.get(t), "task " + t + " ran " + seen.get(t) + " times");
            }
            assertEquals(n, stats.tasks());
            assertEquals(n, stats.tasks(1));
            assertEquals(n - 1, stats.localPushes());
        }
    }

    /**
     * One task of a discrete round sends far more than the destination's inbox holds to a device whose round is
     * over (nobody there polls): the host must drain the inbox while it waits for the round, or the sender waits
     * forever.
     */
    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void aDiscreteRoundMaySendMoreThanAnIdleDevicesInboxHolds() {
        final int n = 20_000;
        for (final AggregatorConfig remote : new AggregatorConfig[] {AggregatorConfig.eager(),
            AggregatorConfig.batched(1024, 4)}) {
            try (DistributedWorklist wl = builder().remote(remote).queueCapacity(1 << 15).build()) {
                final AtomicInteger ran = new AtomicInteger();
                wl.seed(0, -1);
                final WorklistStats stats = wl.run(WorkerShape.WARP, KernelMode.DISCRETE, (t, ctx) -> {
                    if (t == -1) {
                        for (int i = 0; i < n; i++) {
                            ctx.pushTo(1, i);
                        }
                    } else {
                        ran.incrementAndGet();
                    }
                });
                assertEquals(n, ran.get());
                assertEquals(n + 1, stats.tasks());
            }
        }
    }

    /**
     * Chains that hop to another device at every step, so queues are empty most of the time and the only task is
     * in an aggregator, a ring or a function: the run must never end before every chain has reached its length.
     */
    @ParameterizedTest
    @MethodSource("configurations")
    void chainsThatHopDevicesAsQueuesDrainNeverTerminateEarly(final KernelMode mode, final WorkerShape shape,
        final AggregatorConfig remote) {
        final int chains = 8;
        final int length = 300;
        try (DistributedWorklist wl = builder().remote(remote).build()) {
            for (int run = 0; run < 5; run++) {
                final AtomicInteger done = new AtomicInteger();
                for (int c = 0; c < chains; c++) {
                    wl.seed(c % 4, c * length);
                }
                wl.run(shape, mode, (t, ctx) -> {
                    final int step = t % length;
                    if (step == length - 1) {
                        done.incrementAndGet();
                    } else {
                        ctx.pushTo((ctx.device() + 1 + step % 3) % 4, t + 1);
                    }
                });
                assertEquals(chains, done.get(), "run " + run + " returned before every chain finished");
            }
        }
    }

    /**
     * Tiny inboxes (512 bytes: a handful of messages) and all-to-all eager pushes: senders keep finding full inboxes.
     * Discrete rounds end at a barrier where workers keep draining, so a worker waiting for space in the inbox of a
     * device whose round is over still gets through; both kernel modes must finish with every task run once.
     */
    @ParameterizedTest
    @MethodSource("kernelModes")
    void tinyInboxesWithAllToAllPushesNeverDeadlock(final KernelMode mode) {
        final int n = 30_000;
        try (DistributedWorklist wl = DistributedWorklist.builder(mesh).queueCapacity(1 << 12).ringCapacity(512)
            .remote(AggregatorConfig.eager()).build()) {
            final AtomicIntegerArray seen = new AtomicIntegerArray(n);
            wl.seed(0, 0);
            wl.run(WorkerShape.WARP, mode, (t, ctx) -> {
                seen.incrementAndGet(t);
                for (int c = 4 * t + 1; c <= 4 * t + 4 && c < n; c++) {
                    ctx.pushTo(c % 4, c);
                }
            });
            for (int t = 0; t < n; t++) {
                assertEquals(1, seen.get(t), "task " + t);
            }
        }
    }

    static Stream<KernelMode> kernelModes() {
        return Stream.of(KernelMode.values());
    }

    @Test
    void aPriorityWorklistRunsEveryTaskOnceWithItsPriority() {
        final int n = 20_000;
        try (DistributedWorklist wl = builder().priority(4, 4).build()) {
            final AtomicIntegerArray seen = new AtomicIntegerArray(n);
            wl.seed(1, 1, 0);
            final WorklistStats stats = wl.run(WorkerShape.WARP, KernelMode.PERSISTENT, (t, ctx) -> {
                seen.incrementAndGet(t);
                assertEquals(depth(t), ctx.priority(), "task " + t + " lost its priority");
                for (int c = 2 * t; c <= 2 * t + 1 && c < n; c++) {
                    ctx.pushTo(c % 4, c, depth(c));
                }
            });
            for (int t = 1; t < n; t++) {
                assertEquals(1, seen.get(t), "task " + t);
            }
            assertEquals(n - 1, stats.tasks());
        }
    }

    private static int depth(final int t) {
        return 31 - Integer.numberOfLeadingZeros(t);
    }

    @Test
    void aFullRingSpillsToTheOverflowAndLosesNothing() {
        final int n = 20_000;
        try (DistributedWorklist wl = builder().queueCapacity(16).build()) {
            final AtomicIntegerArray seen = new AtomicIntegerArray(n);
            wl.seed(0, 0);
            final WorklistStats stats = wl.run(WorkerShape.THREAD, KernelMode.PERSISTENT, (t, ctx) -> {
                seen.incrementAndGet(t);
                if (t == 0) {
                    for (int c = 1; c < n; c++) {
                        ctx.pushTo(c % 4, c);
                    }
                }
            });
            for (int t = 0; t < n; t++) {
                assertEquals(1, seen.get(t), "task " + t);
            }
            assertTrue(stats.overflowPushes() > 0, "16-slot rings must have spilled: " + stats);
        }
    }

    @Test
    void anExceptionStopsTheRunAndNamesTheTaskAndDevice() {
        try (DistributedWorklist wl = builder().build()) {
            wl.seed(0, 0);
            final TaskFailedException e = assertThrows(TaskFailedException.class,
                () -> wl.run(WorkerShape.WARP, KernelMode.PERSISTENT, (t, ctx) -> {
                    if (t == 777) {
                        throw new IllegalStateException("boom at 777");
                    }
                    for (int c = 2 * t + 1; c <= 2 * t + 2 && c < 100_000; c++) {
                        ctx.pushTo(c % 4, c);
                    }
                }));
            assertEquals(777, e.task());
            assertEquals(777 % 4, e.device());
            assertTrue(e.getMessage().contains("task 777 failed on dev1"), e.getMessage());
            assertEquals("boom at 777", e.getCause().getMessage());
            for (int d = 0; d < 4; d++) {
                assertEquals(0, wl.queuedTasks(d), "leftovers on dev" + d);
            }
            wl.seed(3, 5);
            assertEquals(1, wl.run(WorkerShape.THREAD, KernelMode.PERSISTENT, (t, ctx) -> { }).tasks(),
                "the worklist must be usable after a failed run");
        }
    }

    @Test
    void anExceptionInADiscreteRunSurfacesToo() {
        try (DistributedWorklist wl = builder().build()) {
            wl.seed(1, 9);
            final TaskFailedException e = assertThrows(TaskFailedException.class,
                () -> wl.run(WorkerShape.THREAD, KernelMode.DISCRETE, (t, ctx) -> {
                    throw new java.io.IOException("disk gone");
                }));
            assertEquals(9, e.task());
            assertEquals(1, e.device());
        }
    }

    @Test
    void theApplicationCanStopARun() {
        try (DistributedWorklist wl = builder().build()) {
            final AtomicLong ran = new AtomicLong();
            wl.seed(0, 0);
            final WorklistStats stats = wl.run(WorkerShape.THREAD, KernelMode.PERSISTENT, (t, ctx) -> {
                if (ran.incrementAndGet() == 1000) {
                    ctx.stop();
                }
                ctx.pushTo((ctx.device() + 1) % 4, t + 1);   // endless without the stop
                ctx.push(t + 1);
            });
            assertTrue(stats.stopped());
            assertTrue(stats.tasks() >= 1000, stats::toString);
            wl.seed(2, 1);
            final WorklistStats next = wl.run(WorkerShape.THREAD, KernelMode.DISCRETE, (t, ctx) -> { });
            assertEquals(1, next.tasks(), "leftovers of the stopped run must be gone");
            assertTrue(!next.stopped());
        }
    }

    /**
     * The idle function hands out 200 late tasks one at a time, only when its worker is idle: the run must not end
     * while the pool still has some, and must end once the idle functions find nothing.
     */
    @Test
    void theIdleFunctionKeepsTheRunAliveUntilItFindsNothing() {
        for (final KernelMode mode : KernelMode.values()) {
            try (DistributedWorklist wl = builder().build()) {
                final AtomicInteger pool = new AtomicInteger(200);
                final AtomicInteger ran = new AtomicInteger();
                final WorklistStats stats = wl.run(WorkerShape.THREAD, mode, (t, ctx) -> ran.incrementAndGet(),
                    ctx -> {
                        if (pool.getAndUpdate(v -> Math.max(0, v - 1)) > 0) {
                            ctx.pushTo((ctx.device() + 1) % 4, 7);
                        }
                    });
                assertEquals(0, pool.get(), mode + ": the run ended with late tasks still in the pool");
                assertEquals(200, ran.get(), mode.toString());
                assertTrue(stats.idleSweeps() >= 1, stats::toString);
            }
        }
    }

    /**
     * Fire-and-forget atomics forced through the rings ({@link DirectPolicy#NEVER}): the run must not end before
     * every one of them is applied.
     */
    @Test
    void remoteAtomicsAreAppliedBeforeTheRunEnds() {
        try (Transport transport = Transport.builder().mesh(mesh).ringCapacity(64 << 10)
            .directPolicy(DirectPolicy.NEVER).build();
             SymmetricArray<IntArray> counters = mesh.allocateInts(4);
             DistributedWorklist wl = builder().transport(transport).build()) {
            for (int run = 0; run < 3; run++) {
                for (int d = 0; d < 4; d++) {
                    counters.on(d).set(0, 0);
                    wl.seed(d, d);
                }
                final int perTask = 50;
                final WorklistStats stats = wl.run(WorkerShape.THREAD, KernelMode.PERSISTENT, (t, ctx) -> {
                    for (int i = 0; i < perTask; i++) {
                        ctx.atomic(RemoteAtomic.INT_ADD, counters.on((t + 1) % 4).address(0), 1);
                    }
                    if (t < 400) {
                        ctx.pushTo((t + 4) % 4, t + 4);
                    }
                });
                long sum = 0;
                for (int d = 0; d < 4; d++) {
                    sum += counters.on(d).getVolatile(0);
                }
                assertEquals(stats.tasks() * perTask, sum, "atomics still in flight when the run returned");
                assertEquals(stats.tasks() * perTask, stats.remoteAtomics());
            }
        }
    }

    @Test
    void badConfigurationAndMisuseFailClearly() {
        assertEquals("queue capacity must be in 1..268435456, was 0",
            assertThrows(IllegalArgumentException.class, () -> builder().queueCapacity(0)).getMessage());
        assertEquals("delta must be >= 1, was 0",
            assertThrows(IllegalArgumentException.class, () -> builder().priority(0, 0)).getMessage());
        assertEquals("fetch size must be in 1..65536, was 0",
            assertThrows(IllegalArgumentException.class, () -> WorkerShape.block(0)).getMessage());
        try (DistributedWorklist wl = builder().build()) {
            assertEquals("device 4 outside 0..3",
                assertThrows(IllegalArgumentException.class, () -> wl.seed(4, 1)).getMessage());
            assertEquals("priority must be >= 0, was -1",
                assertThrows(IllegalArgumentException.class, () -> wl.seed(0, 1, -1)).getMessage());
            wl.seed(0, 1);
            final TaskFailedException e = assertThrows(TaskFailedException.class,
                () -> wl.run(WorkerShape.THREAD, KernelMode.PERSISTENT, (t, ctx) -> wl.seed(0, 2)));
            assertTrue(e.getCause() instanceof IllegalStateException, e.toString());
            assertTrue(e.getCause().getMessage().contains("cannot seed during a run"), e.getCause().getMessage());
            wl.seed(0, 1);
            final TaskFailedException bad = assertThrows(TaskFailedException.class,
                () -> wl.run(WorkerShape.THREAD, KernelMode.PERSISTENT, (t, ctx) -> ctx.pushTo(9, 1)));
            assertEquals("device 9 outside 0..3", bad.getCause().getMessage());
        }
        assertEquals("remote batchBytes 16384 exceeds the largest message dev0's inbox accepts (8192 bytes, ring "
            + "capacity / 8): use a smaller batch or a ring of at least 131072 bytes",
            assertThrows(IllegalArgumentException.class,
                () -> builder().remote(AggregatorConfig.batched(16 << 10, 64)).build()).getMessage());
        final DistributedWorklist closed = builder().build();
        closed.close();
        assertThrows(IllegalStateException.class, () -> closed.seed(0, 1));
        assertThrows(IllegalStateException.class,
            () -> closed.run(WorkerShape.THREAD, KernelMode.PERSISTENT, (t, ctx) -> { }));
    }
}
