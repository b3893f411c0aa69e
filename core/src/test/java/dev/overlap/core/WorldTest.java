package dev.overlap.core;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.UnaryOperator;

import static dev.overlap.core.MeshTest.assertMessage;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A mesh across processes, with the ranks as meshes of one JVM (each joins the world from its own thread, as the
 * processes would): the join, the shared memory, the barrier, the symmetric-allocation check, the refusals and the
 * failure detection. {@code MultiProcessWorldTest} (integration-tests) runs real processes, killed ones included.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class WorldTest {
    /** A thread per task: the ranks block in their joins and barriers, which a small pool would serialise. */
    private static final Executor THREADS = task -> {
        final Thread t = new Thread(task, "world-test-rank");
        t.setDaemon(true);
        t.start();
    };

    @TempDir
    Path tmp;

    private WorldConfig.Builder config(final String job, final int ranks, final int rank) {
        return WorldConfig.sharedMemory(tmp.resolve(job), ranks, rank).joinTimeout(20, TimeUnit.SECONDS);
    }

    private static Mesh mesh(final WorldConfig config, final int devices) {
        return Mesh.builder().name("r" + config.rank()).devices(devices).threadsPerDevice(1)
            .memoryPerDevice(1 << 20).world(config).build();
    }

    /** Builds one mesh per rank, each from its own thread (a build returns once every rank has joined). */
    private Mesh[] join(final String job, final int ranks, final int devices,
        final UnaryOperator<WorldConfig.Builder> tune) throws Exception {
        final List<CompletableFuture<Mesh>> builds = new java.util.ArrayList<>();
        for (int r = 0; r < ranks; r++) {
            final WorldConfig c = tune.apply(config(job, ranks, r)).build();
            builds.add(CompletableFuture.supplyAsync(() -> mesh(c, devices), THREADS));
        }
        final Mesh[] meshes = new Mesh[ranks];
        for (int r = 0; r < ranks; r++) {
            meshes[r] = builds.get(r).get(30, TimeUnit.SECONDS);
        }
        return meshes;
    }

    private static void barrierAll(final Mesh... meshes) throws Exception {
        final CompletableFuture<?>[] waits = new CompletableFuture<?>[meshes.length];
        for (int r = 0; r < meshes.length; r++) {
            final World w = meshes[r].world();
            waits[r] = CompletableFuture.runAsync(w::barrier, THREADS);
        }
        CompletableFuture.allOf(waits).get(30, TimeUnit.SECONDS);
    }

    @Test
    void ranksOwnTheirDevicesAndShareEveryDevicesMemory() throws Exception {
        final Mesh[] m = join("share", 2, 4, c -> c);
        final Path dir = m[0].world().directory();
        final World w0 = m[0].world();
        assertTrue(w0.isDistributed());
        assertEquals(2, w0.ranks());
        assertEquals(List.of(m[0].device(0), m[0].device(1)), m[0].localDevices());
        assertEquals(List.of(m[1].device(2), m[1].device(3)), m[1].localDevices());
        assertEquals(1, w0.rankOf(3));
        assertTrue(m[0].device(1).isLocal());
        assertFalse(m[0].device(2).isLocal());

        final SymmetricArray<IntArray> a0 = m[0].allocateInts(64);
        final SymmetricArray<IntArray> a1 = m[1].allocateInts(64);
        assertEquals(a0.on(0).address(0), a1.on(0).address(0), "symmetric: the same offsets on every rank");
        m[0].device(0).launch(64, (ctx, block) -> a0.on(3).setRelease(block, 100 + block)).join(); // into rank 1's
        m[1].device(3).launch(64, (ctx, block) -> a1.on(0).setRelease(block, 200 + block)).join(); // into rank 0's
        barrierAll(m);
        for (int i = 0; i < 64; i++) {
            assertEquals(100 + i, a1.on(3).getAcquire(i), "rank 1 reads what rank 0 put into its device");
            assertEquals(200 + i, a0.on(0).getAcquire(i), "rank 0 reads what rank 1 put into its device");
        }
        final CompletableFuture<?> free0 = CompletableFuture.runAsync(a0::close, THREADS);
        a1.close(); // collective: each free waits for the other rank's
        free0.get(30, TimeUnit.SECONDS);
        assertTrue(Files.exists(dir.resolve("dev3.mem")));
        m[0].close();
        assertTrue(Files.exists(dir), "rank 1 is still there");
        m[1].close();
        assertFalse(Files.exists(dir), "the last rank to leave deletes the job directory");
    }

    @Test
    void allReduceSumGivesEveryRankTheSameSumsRoundAfterRound() throws Exception {
        final Mesh[] m = join("reduce", 3, 3, c -> c);
        try {
            final List<CompletableFuture<long[]>> sums = new java.util.ArrayList<>();
            for (int r = 0; r < 3; r++) {
                final World w = m[r].world();
                final int rank = r;
                sums.add(CompletableFuture.supplyAsync(() -> {
                    final long[] seen = new long[6];
                    for (int round = 0; round < 3; round++) {
                        final long[] v = {rank + 1, 10L * (rank + 1) * (round + 1)};
                        w.allReduceSum(v);
                        seen[2 * round] = v[0];
                        seen[2 * round + 1] = v[1];
                    }
                    return seen;
                }, THREADS));
            }
            for (int r = 0; r < 3; r++) {
                assertEquals(List.of(6L, 60L, 6L, 120L, 6L, 180L), java.util.Arrays.stream(sums.get(r)
                    .get(30, TimeUnit.SECONDS)).boxed().toList(), "rank " + r);
            }
        } finally {
            closeAll(m);
        }
    }

    @Test
    void aRemoteDeviceRefusesLaunchesAndLocalAllocationsNamingItsRank() throws Exception {
        final Mesh[] m = join("refuse", 2, 2, c -> c);
        try {
            assertMessage(assertThrows(IllegalStateException.class, () -> m[0].device(1).launch(1, (c, b) -> { })),
                "dev1 runs in rank 1");
            assertMessage(assertThrows(IllegalStateException.class, () -> m[0].device(1).launchPersistent(c -> 0)),
                "dev1 runs in rank 1");
            assertMessage(assertThrows(IllegalStateException.class, () -> m[0].device(1).allocateInts(4)),
                "dev1 belongs to rank 1");
            m[0].device(1).synchronize(); // nothing was launched there from here: returns at once
        } finally {
            closeAll(m);
        }
    }

    @Test
    void symmetricAllocationsThatDifferAcrossRanksAreRefusedNamingBoth() throws Exception {
        final Mesh[] m = join("differ", 2, 2, c -> c);
        try {
            m[0].allocateInts(100);
            final IllegalStateException e = assertThrows(IllegalStateException.class, () -> m[1].allocateInts(200));
            assertMessage(e, "symmetric allocation #1 differs across ranks: rank 0 made it 400 bytes");
            assertMessage(e, "rank 1 made it 800 bytes");
        } finally {
            closeAll(m);
        }
    }

    @Test
    void localAllocationsDoNotMoveSymmetricOffsets() throws Exception {
        final Mesh[] m = join("locals", 2, 2, c -> c);
        try {
            m[0].device(0).allocateLongs(1000); // rank 0 only: from the top of its device's memory
            final SymmetricArray<LongArray> s0 = m[0].allocateLongs(10);
            final SymmetricArray<LongArray> s1 = m[1].allocateLongs(10); // checked against rank 0's: no exception
            assertEquals(s0.on(1).address(0), s1.on(1).address(0));
        } finally {
            closeAll(m);
        }
    }

    @Test
    void aJoinThatMissesARankTimesOutNamingIt() {
        final WorldConfig c = config("missing", 3, 0).joinTimeout(300, TimeUnit.MILLISECONDS).build();
        final IllegalStateException e = assertThrows(IllegalStateException.class, () -> mesh(c, 3));
        assertMessage(e, "ranks [1, 2] did not join the world");
        assertFalse(Files.exists(tmp.resolve("missing")), "nobody else joined: the directory goes with rank 0");
    }

    @Test
    void aRankWithoutRankZeroTimesOutNamingIt() {
        final WorldConfig c = config("norank0", 2, 1).joinTimeout(300, TimeUnit.MILLISECONDS).build();
        assertMessage(assertThrows(IllegalStateException.class, () -> mesh(c, 2)), "rank 0 did not create the world");
    }

    @Test
    void ranksStartedWithDifferentSettingsAreRefused() throws Exception {
        final CompletableFuture<Mesh> r0 = CompletableFuture.supplyAsync(() -> mesh(config("settings", 2, 0)
            .joinTimeout(2, TimeUnit.SECONDS).build(), 2), THREADS);
        final WorldConfig c1 = config("settings", 2, 1).build();
        final IllegalStateException e = assertThrows(IllegalStateException.class, () -> Mesh.builder().devices(2)
            .threadsPerDevice(1).memoryPerDevice(1 << 21).world(c1).build());
        assertMessage(e, "was made for 2 ranks, 2 devices and 1048576 bytes per device");
        assertMessage(e, "2097152 bytes per device");
        final Exception rank0 = assertThrows(Exception.class, () -> r0.get(30, TimeUnit.SECONDS));
        assertMessage(rank0.getCause(), "ranks [1] did not join");
    }

    @Test
    void aSecondJobInTheSameDirectoryIsRefused() throws Exception {
        final Mesh[] m = join("busy", 1, 1, c -> c);
        try {
            final WorldConfig again = config("busy", 1, 0).build();
            assertMessage(assertThrows(IllegalStateException.class, () -> mesh(again, 1)), "is in use by a running job");
        } finally {
            closeAll(m);
        }
    }

    @Test
    void aRankThatLeavesBreaksTheBarrierOfTheOthers() throws Exception {
        final Mesh[] m = join("leaves", 2, 2, c -> c);
        final CompletableFuture<?> waiting = CompletableFuture.runAsync(() -> m[0].world().barrier(), THREADS);
        m[1].close();
        final Exception e = assertThrows(Exception.class, () -> waiting.get(30, TimeUnit.SECONDS));
        assertInstanceOf(PeerFailedException.class, e.getCause());
        assertEquals(1, ((PeerFailedException)e.getCause()).rank());
        assertMessage(e.getCause(), "left the world");
        m[0].close();
    }

    @Test
    void aPeerThatStopsBeatingIsDeclaredFailedByEveryRank() throws Exception {
        final AtomicReference<PeerFailedException> heard = new AtomicReference<>();
        final Mesh[] m = join("silent", 2, 2, c -> c.peerTimeout(300, TimeUnit.MILLISECONDS)
            .onPeerFailure(f -> heard.compareAndSet(null, f)));
        try {
            m[1].world().monitorForTest().stop(); // rank 1's process lives on, its heartbeat stops
            final PeerFailedException e = assertThrows(PeerFailedException.class, () -> m[0].world().barrier());
            assertEquals(1, e.rank());
            assertMessage(e, "wrote no heartbeat");
            assertNotNull(heard.get(), "the listener heard it");
            m[1].world().adoptRecorded();
            final PeerFailedException seenBy1 = assertThrows(PeerFailedException.class, m[1].world()::checkPeers);
            assertEquals(1, seenBy1.rank(), "both ranks report the same rank");
            assertMessage(seenBy1, "this process, declared failed by a peer");
        } finally {
            closeAll(m);
        }
    }

    @Test
    void anInterruptedOrTimedOutBarrierTakesItsArrivalBackAndStaysUsable() throws Exception {
        final Mesh[] m = join("withdraw", 2, 2, c -> c);
        try {
            assertFalse(m[0].world().barrier(50, TimeUnit.MILLISECONDS), "rank 1 never came");
            Thread.currentThread().interrupt();
            assertThrows(InterruptedWaitException.class, () -> m[0].world().barrier());
            assertTrue(Thread.interrupted(), "the interrupt status is kept");
            barrierAll(m); // neither arrival was counted: a full barrier still needs both ranks, and completes
            barrierAll(m);
        } finally {
            closeAll(m);
        }
    }

    @Test
    void removeStaleDeletesOnlyDirectoriesWhoseProcessesAreAllGone() throws Exception {
        final Process gone = new ProcessBuilder("true").start();
        gone.waitFor();
        final Path dead = Files.createDirectories(tmp.resolve("overlap-dead"));
        final WorldSegment s = WorldSegment.create(dead, 1, 1, 4096, gone.pid(), 0);
        s.unmap();
        Files.writeString(dead.resolve("dev0.mem"), "x");
        final Mesh[] live = join("overlap-live", 1, 1, c -> c);
        try {
            assertEquals(List.of(dead), World.removeStale(tmp));
            assertFalse(Files.exists(dead));
            assertTrue(Files.exists(tmp.resolve("overlap-live")), "a running job's directory stays");
        } finally {
            closeAll(live);
        }
    }

    @Test
    void removeStaleKeepsAnOldDirectoryWithoutASegmentUnlessItHoldsOnlyAWorldsFiles() throws Exception {
        final java.nio.file.attribute.FileTime old = java.nio.file.attribute.FileTime.fromMillis(
            System.currentTimeMillis() - 3_600_000);
        final Path counters = Files.createDirectories(tmp.resolve("overlap-someone")); // overlap stat's directory
        Files.writeString(counters.resolve("overlap-42.counters"), "x");
        final Path orphan = Files.createDirectories(tmp.resolve("overlap-orphan")); // its rank 0 never came
        Files.writeString(orphan.resolve("dev1.mem"), "x");
        Files.writeString(orphan.resolve("world.ctl.tmp-42"), "x");
        final Path empty = Files.createDirectories(tmp.resolve("overlap-empty"));
        for (final Path d : List.of(counters, orphan, empty)) {
            Files.setLastModifiedTime(d, old);
        }
        final List<Path> removed = new java.util.ArrayList<>(World.removeStale(tmp));
        removed.sort(null);
        assertEquals(List.of(empty, orphan), removed);
        assertTrue(Files.exists(counters.resolve("overlap-42.counters")), "not a world's directory: kept");
    }

    @Test
    void aMeshOfOneProcessHasTheTrivialWorld() {
        try (Mesh mesh = Mesh.builder().devices(2).threadsPerDevice(1).memoryPerDevice(1 << 16).build()) {
            final World w = mesh.world();
            assertFalse(w.isDistributed());
            assertEquals(1, w.ranks());
            assertTrue(w.isLocal(1));
            w.barrier();
            assertTrue(w.barrier(1, TimeUnit.MILLISECONDS));
            assertEquals(5, w.allReduceSum(5), "one process: its own value");
            assertEquals(2, mesh.localDevices().size());
        }
    }

    @Test
    void aMeshAcrossProcessesTakesNoOtherBacking() {
        final WorldConfig c = config("backing", 1, 0).build();
        assertMessage(assertThrows(IllegalArgumentException.class, () -> Mesh.builder().devices(1)
            .backing(MemoryBacking.direct()).world(c).build()), "do not also set backing()");
        assertMessage(assertThrows(IllegalArgumentException.class, () -> Mesh.builder().devices(1)
            .world(config("few", 2, 0).build()).build()), "needs at least as many devices");
    }

    private static void closeAll(final Mesh... meshes) throws Exception {
        final CompletableFuture<?>[] closes = new CompletableFuture<?>[meshes.length];
        for (int r = 0; r < meshes.length; r++) {
            closes[r] = CompletableFuture.runAsync(meshes[r]::close, THREADS);
        }
        CompletableFuture.allOf(closes).get(30, TimeUnit.SECONDS);
    }
}
