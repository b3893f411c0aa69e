package dev.overlap.hosts;

import dev.overlap.worklist.DistributedWorklist;
import dev.overlap.worklist.KernelMode;
import dev.overlap.worklist.RankLink;
import dev.overlap.worklist.TaskFailedException;
import dev.overlap.worklist.TaskFunction;
import dev.overlap.worklist.WorkerShape;
import dev.overlap.worklist.WorklistStats;
import org.agrona.DirectBuffer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The distributed worklist across hosts ({@link HostWorklistLink}): two ranks as threads of this JVM on 127.0.0.1 and
 * .2, each with its own mesh of two devices, transport, host transport and worklist. Tasks hop between the ranks;
 * every task must run exactly once, on its owner, and both ranks' runs must end together, never early.
 */
class HostWorklistTest {
    private static final int RANKS = 2;
    private static TestMediaDriver driver;
    private static Path driverDir;

    @BeforeAll
    static void startDriver() throws Exception {
        driver = TestMediaDriver.start("overlap-hosts-worklist-test-");
        driverDir = driver.dir;
    }

    @AfterAll
    static void stopDriver() {
        driver.close();
    }

    /** Tree task {@code i}'s owner: the rank alternates with every task, the device with every other. */
    private static int ownerRank(final int task) {
        return task & 1;
    }

    private static int ownerDevice(final int task) {
        return (task >> 1) & 1;
    }

    /** Each rank's worklist (built concurrently: the build is collective). */
    private static List<DistributedWorklist> worklists(final HostCluster c, final Wrap wrap) throws Exception {
        final DistributedWorklist[] wls = new DistributedWorklist[RANKS];
        assertNoneThrew(c.onEveryRank(r -> wls[r] = DistributedWorklist.builder(c.meshes.get(r))
            .transport(c.transports.get(r)).queueCapacity(1 << 14).ranks(wrap.wrap(new HostWorklistLink(c.rank(r))))
            .build()));
        return List.of(wls);
    }

    private interface Wrap {
        RankLink wrap(RankLink link);
    }

    private static void assertNoneThrew(final List<Throwable> thrown) {
        for (final Throwable t : thrown) {
            if (t != null) {
                throw new AssertionError("a rank threw", t);
            }
        }
    }

    /** A binary tree of tasks 1..n-1 (children 2i and 2i+1), each pushed to its owner on either rank. */
    private static TaskFunction tree(final int n, final AtomicIntegerArray runs, final AtomicLong misplaced) {
        return (task, ctx) -> {
            runs.incrementAndGet(task);
            if (ctx.rank() != ownerRank(task) || ctx.device() != ownerDevice(task)) {
                misplaced.incrementAndGet();
            }
            for (int child = 2 * task; child <= 2 * task + 1; child++) {
                if (child < n) {
                    ctx.pushToRank(ownerRank(child), ownerDevice(child), child);
                }
            }
        };
    }

    private static void assertTreeRan(final int n, final AtomicIntegerArray runs, final AtomicLong misplaced,
        final WorklistStats[] stats) {
        for (int t = 1; t < n; t++) {
            assertEquals(1, runs.get(t), "task " + t + " ran " + runs.get(t) + " times");
        }
        assertEquals(0, misplaced.get(), "tasks ran away from their owner");
        long tasks = 0;
        for (final WorklistStats s : stats) {
            assertFalse(s.stopped());
            tasks += s.tasks();
        }
        assertEquals(n - 1, tasks);
    }

    @Test
    void aTreeOfTasksAcrossRanksRunsEveryTaskOnceOnItsOwner() throws Exception {
        try (HostCluster c = new HostCluster(driverDir, RANKS, false, t -> { })) {
            final List<DistributedWorklist> wls = worklists(c, link -> link);
            for (final WorkerShape shape : new WorkerShape[] {WorkerShape.THREAD, WorkerShape.WARP}) {
                for (int run = 0; run < 3; run++) {
                    final int n = 1 << 13;
                    final AtomicIntegerArray runs = new AtomicIntegerArray(n);
                    final AtomicLong misplaced = new AtomicLong();
                    final WorklistStats[] stats = new WorklistStats[RANKS];
                    final TaskFunction f = tree(n, runs, misplaced);
                    assertNoneThrew(c.onEveryRank(r -> {
                        if (r == ownerRank(1)) {
                            wls.get(r).seed(ownerDevice(1), 1);
                        }
                        stats[r] = wls.get(r).run(shape, KernelMode.PERSISTENT, f);
                    }));
                    assertTreeRan(n, runs, misplaced, stats);
                }
            }
            closeAll(c, wls);
        }
    }

    /**
     * The termination rule across ranks: a task for another rank is counted created when it enters the worker's
     * batch, not when the batch is sent. Every send here first waits until the hosts have completed three more
     * termination rounds, so a batched task is never sent before several global checks ran while it waited (its
     * parent already completed, its worker idle): a count taken at the send would let those checks see every rank
     * quiescent and end the run with the chain unfinished.
     */
    @Test
    void aChainAcrossRanksNeverEndsWhileItsNextTaskWaitsInABatch() throws Exception {
        final AtomicLong rounds = new AtomicLong();
        final AtomicLong vainWaits = new AtomicLong();
        try (HostCluster c = new HostCluster(driverDir, RANKS, false, t -> { })) {
            final List<DistributedWorklist> wls = worklists(c, link -> new SlowSends(link, rounds, vainWaits));
            final int hops = 24;
            final AtomicIntegerArray runs = new AtomicIntegerArray(hops);
            final WorklistStats[] stats = new WorklistStats[RANKS];
            final TaskFunction chain = (task, ctx) -> {
                runs.incrementAndGet(task);
                if (task + 1 < hops) {
                    ctx.pushToRank(ownerRank(task + 1), 0, task + 1);
                }
            };
            assertNoneThrew(c.onEveryRank(r -> {
                if (r == ownerRank(0)) {
                    wls.get(r).seed(0, 0);
                }
                stats[r] = wls.get(r).run(WorkerShape.THREAD, KernelMode.PERSISTENT, chain);
            }));
            for (int t = 0; t < hops; t++) {
                assertEquals(1, runs.get(t), "chain task " + t + " ran " + runs.get(t) + " times (the run ended early)");
            }
            assertEquals(0, vainWaits.get(), "a send waited for termination rounds that never came");
            assertEquals(hops, stats[0].tasks() + stats[1].tasks());
            closeAll(c, wls);
        }
    }

    @Test
    void aStopOnOneRankStopsEveryRankAndLeavesTheWorklistsUsable() throws Exception {
        try (HostCluster c = new HostCluster(driverDir, RANKS, false, t -> { })) {
            final List<DistributedWorklist> wls = worklists(c, link -> link);
            final WorklistStats[] stats = new WorklistStats[RANKS];
            // an endless ping-pong between the ranks, stopped by rank 1 at its 500th task
            final AtomicLong rank1Tasks = new AtomicLong();
            assertNoneThrew(c.onEveryRank(r -> {
                if (r == 0) {
                    wls.get(r).seed(0, 0);
                }
                stats[r] = wls.get(r).run(WorkerShape.THREAD, KernelMode.PERSISTENT, (task, ctx) -> {
                    ctx.pushToRank(1 - ctx.rank(), ctx.device(), task + 1);
                    ctx.pushToRank(1 - ctx.rank(), 1 - ctx.device(), task + 1);
                    if (ctx.rank() == 1 && rank1Tasks.incrementAndGet() == 500) {
                        ctx.stop();
                    }
                });
            }));
            assertTrue(stats[0].stopped() && stats[1].stopped(), "both ranks report the stop");
            runTreeAgain(c, wls);
            closeAll(c, wls);
        }
    }

    @Test
    void aTaskThatFailsOnOneRankFailsTheRunOnEveryRank() throws Exception {
        try (HostCluster c = new HostCluster(driverDir, RANKS, false, t -> { })) {
            final List<DistributedWorklist> wls = worklists(c, link -> link);
            final List<Throwable> thrown = c.onEveryRank(r -> {
                if (r == 0) {
                    wls.get(r).seed(1, 7);
                }
                wls.get(r).run(WorkerShape.THREAD, KernelMode.PERSISTENT, (task, ctx) -> {
                    if (task == 12) {
                        throw new IllegalStateException("task twelve broke");
                    }
                    ctx.pushToRank(1 - ctx.rank(), 0, task + 1);
                });
            });
            final TaskFailedException own = assertInstanceOf(TaskFailedException.class, thrown.get(1)); // 12 is on 1
            assertEquals(12, own.task());
            assertTrue(own.getCause().getMessage().contains("task twelve broke"), own.getMessage());
            final TaskFailedException other = assertInstanceOf(TaskFailedException.class, thrown.get(0));
            assertTrue(other.getMessage().contains("a task failed on rank 1"), other.getMessage());
            runTreeAgain(c, wls);
            closeAll(c, wls);
        }
    }

    @Test
    void aRunThatTimesOutOnOneRankStopsEveryRank() throws Exception {
        try (HostCluster c = new HostCluster(driverDir, RANKS, false, t -> { })) {
            final List<DistributedWorklist> wls = worklists(c, link -> link);
            final WorklistStats[] stats = new WorklistStats[RANKS];
            final List<Throwable> thrown = c.onEveryRank(r -> {
                if (r == 0) {
                    wls.get(r).seed(0, 0);
                }
                final TaskFunction pingPong = (task, ctx) -> ctx.pushToRank(1 - ctx.rank(), 0, task + 1);
                if (r == 0) {
                    wls.get(r).run(WorkerShape.THREAD, KernelMode.PERSISTENT, pingPong, null, 200,
                        TimeUnit.MILLISECONDS);
                } else {
                    stats[r] = wls.get(r).run(WorkerShape.THREAD, KernelMode.PERSISTENT, pingPong);
                }
            });
            assertInstanceOf(java.util.concurrent.TimeoutException.class, thrown.get(0));
            assertNull(thrown.get(1));
            assertTrue(stats[1].stopped(), "rank 1's run stopped with rank 0's");
            runTreeAgain(c, wls);
            closeAll(c, wls);
        }
    }

    @Test
    void aRankThatLeavesEndsTheOthersRunNamingIt() throws Exception {
        final java.util.concurrent.ExecutorService rank1Run = java.util.concurrent.Executors.newSingleThreadExecutor();
        try (HostCluster c = new HostCluster(driverDir, RANKS, false, t -> { })) {
            final List<DistributedWorklist> wls = worklists(c, link -> link);
            final java.util.concurrent.CountDownLatch running = new java.util.concurrent.CountDownLatch(1);
            final Throwable[] rank1Threw = new Throwable[1];
            final List<Throwable> thrown = c.onEveryRank(r -> {
                if (r == 0) {
                    wls.get(r).seed(0, 0);
                    wls.get(r).run(WorkerShape.THREAD, KernelMode.PERSISTENT, (task, ctx) -> {
                        running.countDown();
                        ctx.push(task + 1); // endless on rank 0: only rank 1's departure ends it
                    });
                } else { // rank 1's group closes while both run (its run fails with it)
                    final java.util.concurrent.Future<?> run = rank1Run.submit(() -> wls.get(1).run(
                        WorkerShape.THREAD, KernelMode.PERSISTENT, (t, ctx) -> { }));
                    assertTrue(running.await(HostCluster.BOUND_SECONDS, TimeUnit.SECONDS));
                    c.groups.get(1).close();
                    try {
                        run.get(HostCluster.BOUND_SECONDS, TimeUnit.SECONDS);
                    } catch (final java.util.concurrent.ExecutionException e) {
                        rank1Threw[0] = e.getCause();
                    }
                }
            });
            // rank 0 learns of it either as the departure itself, or, when rank 1's run failed on its closing
            // group first and said so in a termination round, as that rank's failure: either way naming rank 1
            final Throwable seen = thrown.get(0);
            if (seen instanceof dev.overlap.core.PeerFailedException) {
                assertEquals(1, ((dev.overlap.core.PeerFailedException)seen).rank(), seen.getMessage());
            } else {
                final dev.overlap.worklist.TaskFailedException failed = assertInstanceOf(
                    dev.overlap.worklist.TaskFailedException.class, seen);
                assertEquals("a task failed on rank 1: this rank's run stopped with it",
                    failed.getCause().getMessage());
            }
            assertNull(thrown.get(1));
            assertTrue(rank1Threw[0] != null, "rank 1's run went on after its group closed");
            assertThrows(RuntimeException.class,
                () -> wls.get(0).run(WorkerShape.THREAD, KernelMode.PERSISTENT, (t, ctx) -> { }));
            wls.get(0).close();
            wls.get(1).close();
        } finally {
            rank1Run.shutdownNow();
        }
    }

    @Test
    void misuseIsRefusedNamingWhatWasWrong() throws Exception {
        try (HostCluster c = new HostCluster(driverDir, RANKS, false, t -> { })) {
            final List<DistributedWorklist> wls = worklists(c, link -> link);
            final DistributedWorklist wl = wls.get(0);
            final IllegalArgumentException discrete = assertThrows(IllegalArgumentException.class,
                () -> wl.run(WorkerShape.THREAD, KernelMode.DISCRETE, (t, ctx) -> { }));
            assertTrue(discrete.getMessage().contains("PERSISTENT"), discrete.getMessage());
            final IllegalArgumentException idle = assertThrows(IllegalArgumentException.class,
                () -> wl.run(WorkerShape.THREAD, KernelMode.PERSISTENT, (t, ctx) -> { }, ctx -> { }));
            assertTrue(idle.getMessage().contains("idle function"), idle.getMessage());
            final List<Throwable> thrown = c.onEveryRank(r -> {
                if (r == 0) {
                    wls.get(r).seed(0, 1);
                }
                wls.get(r).run(WorkerShape.THREAD, KernelMode.PERSISTENT, (t, ctx) -> ctx.pushToRank(2, 0, t));
            });
            final TaskFailedException badRank = assertInstanceOf(TaskFailedException.class, thrown.get(0));
            assertTrue(badRank.getCause().getMessage().contains("rank 2 outside 0..1"), badRank.getMessage());
            assertInstanceOf(TaskFailedException.class, thrown.get(1));
            final List<Throwable> thrown2 = c.onEveryRank(r -> {
                if (r == 0) {
                    wls.get(r).seed(0, 1);
                }
                wls.get(r).run(WorkerShape.THREAD, KernelMode.PERSISTENT, (t, ctx) -> ctx.pushToRank(1, 2, t));
            });
            final TaskFailedException badDevice = assertInstanceOf(TaskFailedException.class, thrown2.get(0));
            assertTrue(badDevice.getCause().getMessage().contains("device 2 outside 0..1"), badDevice.getMessage());
            runTreeAgain(c, wls);
            closeAll(c, wls);
        }
        try (HostCluster c = new HostCluster(driverDir, RANKS, false, t -> { });
             dev.overlap.core.Mesh three = dev.overlap.core.Mesh.builder().devices(3).threadsPerDevice(1)
                 .memoryPerDevice(HostCluster.MEMORY).build()) {
            final IllegalArgumentException devices = assertThrows(IllegalArgumentException.class,
                () -> DistributedWorklist.builder(three).queueCapacity(1 << 10).ringCapacity(1 << 16)
                    .ranks(new HostWorklistLink(c.rank(0))).build());
            assertTrue(devices.getMessage().contains("2 devices per rank, the mesh 3"), devices.getMessage());
        }
    }

    /** After a stop or failure: a new tree runs exactly (the leftovers were discarded and the counts rebalanced). */
    private static void runTreeAgain(final HostCluster c, final List<DistributedWorklist> wls) throws Exception {
        final int n = 1 << 10;
        final AtomicIntegerArray runs = new AtomicIntegerArray(n);
        final AtomicLong misplaced = new AtomicLong();
        final WorklistStats[] stats = new WorklistStats[RANKS];
        final TaskFunction f = tree(n, runs, misplaced);
        assertNoneThrew(c.onEveryRank(r -> {
            assertEquals(0, wls.get(r).queuedTasks(0) + wls.get(r).queuedTasks(1), "leftovers on rank " + r);
            if (r == ownerRank(1)) {
                wls.get(r).seed(ownerDevice(1), 1);
            }
            stats[r] = wls.get(r).run(WorkerShape.WARP, KernelMode.PERSISTENT, f);
        }));
        assertTreeRan(n, runs, misplaced, stats);
    }

    private static void closeAll(final HostCluster c, final List<DistributedWorklist> wls) throws Exception {
        final List<Throwable> thrown = new ArrayList<>(c.onEveryRank(r -> wls.get(r).close()));
        thrown.forEach(t -> assertNull(t));
    }

    /**
     * A link whose senders wait, before every send, until this JVM's hosts completed three more termination rounds
     * (each rank's rounds are counted; bounded: a wait that outlives the test's bound is counted in vain and sends).
     */
    private static final class SlowSends implements RankLink {
        private final RankLink link;
        private final AtomicLong rounds;
        private final AtomicLong vainWaits;

        SlowSends(final RankLink link, final AtomicLong rounds, final AtomicLong vainWaits) {
            this.link = link;
            this.rounds = rounds;
            this.vainWaits = vainWaits;
        }

        @Override
        public int rank() {
            return link.rank();
        }

        @Override
        public int ranks() {
            return link.ranks();
        }

        @Override
        public int devicesPerRank() {
            return link.devicesPerRank();
        }

        @Override
        public boolean allReduceSum(final long[] values, final long timeout, final TimeUnit unit) {
            final boolean done = link.allReduceSum(values, timeout, unit);
            if (done) {
                rounds.incrementAndGet();
            }
            return done;
        }

        @Override
        public void barrier() {
            link.barrier();
        }

        @Override
        public void checkPeers() {
            link.checkPeers();
        }

        @Override
        public RankSender sender(final int homeDevice) {
            final RankSender s = link.sender(homeDevice);
            return new RankSender() {
                @Override
                public int maxBatchItems(final int itemBytes) {
                    return s.maxBatchItems(itemBytes);
                }

                @Override
                public void send(final int rank, final int device, final int queueId, final int itemBytes,
                    final DirectBuffer items, final int count) {
                    final long target = rounds.get() + RANKS * 3; // three rounds of every rank
                    final long bound = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                    while (rounds.get() < target) {
                        if (System.nanoTime() - bound > 0) {
                            vainWaits.incrementAndGet();
                            break;
                        }
                        Thread.yield();
                    }
                    s.send(rank, device, queueId, itemBytes, items, count);
                }

                @Override
                public void quiet() {
                    s.quiet();
                }
            };
        }
    }
}
