package dev.overlap.hosts;

import dev.overlap.core.InterruptedWaitException;
import dev.overlap.core.PeerFailedException;
import dev.overlap.testing.TestThreads;
import dev.overlap.testing.UdpPorts;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.function.Executable;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.UnaryOperator;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Host groups whose ranks are threads of this JVM, on loopback ports, sharing one media driver the test starts (the
 * external-driver path; the embedded one and real processes are checked by the integration tests): the collectives'
 * results, pending collectives after a timeout or an interrupt, a peer that left, a join that times out, use after
 * close and the builder's checks. Every wait of the test's own is bounded.
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class HostGroupTest {
    private static final long BOUND_SECONDS = 60;
    private static TestMediaDriver driver;
    private static Path driverDir;

    @BeforeAll
    static void startDriver() throws Exception {
        driver = TestMediaDriver.start("overlap-hosts-test-");
        driverDir = driver.dir;
    }

    @AfterAll
    static void stopDriver() {
        driver.close();
    }

    private static HostFile hostFile(final int ranks) {
        final List<String> lines = new ArrayList<>();
        for (int r = 0; r < ranks; r++) {
            lines.add(r + " 127.0.0.1 " + UdpPorts.free("127.0.0.1"));
        }
        return HostFile.parse("test-hosts", lines);
    }

    /** The ranks of a group, joined concurrently (each join waits for the others), closed together. */
    private static final class Ranks implements AutoCloseable {
        final List<HostGroup> groups = new ArrayList<>();
        final ExecutorService pool;

        Ranks(final HostFile hosts, final int started, final UnaryOperator<HostGroup.Builder> settings)
            throws Exception {
            pool = Executors.newFixedThreadPool(hosts.ranks());
            final List<Future<HostGroup>> joins = new ArrayList<>();
            for (int r = 0; r < started; r++) {
                final int rank = r;
                joins.add(pool.submit(() -> settings.apply(HostGroup.builder(hosts, rank).aeronDirectory(driverDir)
                    .peerTimeout(5, TimeUnit.SECONDS)).join()));
            }
            ExecutionException failed = null;
            for (final Future<HostGroup> join : joins) {
                try {
                    groups.add(join.get(BOUND_SECONDS, TimeUnit.SECONDS));
                } catch (final ExecutionException e) {
                    failed = failed == null ? e : failed;
                }
            }
            if (failed != null) {
                close();
                throw failed;
            }
        }

        HostGroup rank(final int r) {
            return groups.get(r);
        }

        /** Runs {@code body} on every rank at once; returns what each threw (null: nothing). */
        List<Throwable> onEveryRank(final RankBody body) throws Exception {
            return HostCluster.onEveryRank(pool, groups.size(), r -> body.run(groups.get(r)));
        }

        @Override
        public void close() {
            for (final HostGroup g : groups) {
                g.close();
            }
            pool.shutdownNow();
        }
    }

    @FunctionalInterface
    private interface RankBody {
        void run(HostGroup group) throws Exception;
    }

    private static void assertNoneThrew(final List<Throwable> thrown) {
        for (final Throwable t : thrown) {
            if (t != null) {
                throw new AssertionError("a rank threw", t);
            }
        }
    }

    @Test
    void everyRankGetsTheSameSumsAndMaximaRoundAfterRound() throws Exception {
        try (Ranks ranks = new Ranks(hostFile(3), 3, b -> b)) {
            assertNoneThrew(ranks.onEveryRank(g -> {
                final int r = g.rank();
                for (int round = 0; round < 100; round++) {
                    g.barrier();
                    assertEquals(3L * round + 6, g.allReduceSum(round + r + 1), "round " + round);
                    assertEquals(round + 20L, g.allReduceMax(round + 10L * r), "round " + round);
                    final long[] v = {r, -r, round};
                    g.allReduceSum(v);
                    assertArrayEquals(new long[] {3, -3, 3L * round}, v, "round " + round);
                    final long[] m = {r, -r};
                    assertTrue(g.allReduceMax(m, BOUND_SECONDS, TimeUnit.SECONDS));
                    assertArrayEquals(new long[] {2, 0}, m);
                    g.checkSame("the round", round);
                    assertTrue(g.checkSame("the round, timed", round, BOUND_SECONDS, TimeUnit.SECONDS));
                }
                assertNull(g.failure());
                g.checkPeers();
            }));
        }
    }

    @Test
    void checkSameNamesEveryRanksValue() throws Exception {
        try (Ranks ranks = new Ranks(hostFile(2), 2, b -> b)) {
            final List<Throwable> thrown = ranks.onEveryRank(g -> g.checkSame("the graph's edge count",
                g.rank() == 0 ? 5 : 7));
            for (final Throwable t : thrown) {
                assertInstanceOf(IllegalStateException.class, t);
                assertTrue(t.getMessage().contains("the graph's edge count differs across the ranks of HostGroup{")
                    && t.getMessage().contains("rank 0 5, rank 1 7"), t.getMessage());
            }
            assertNoneThrew(ranks.onEveryRank(g -> assertEquals(2, g.allReduceSum(1)))); // still in step
        }
    }

    @Test
    void ranksThatMakeDifferentCollectivesAreToldBothSides() throws Exception {
        try (Ranks ranks = new Ranks(hostFile(2), 2, b -> b)) {
            final List<Throwable> thrown = ranks.onEveryRank(g -> {
                if (g.rank() == 0) {
                    g.barrier();
                } else {
                    g.allReduceSum(new long[] {1, 2});
                }
            });
            for (final Throwable t : thrown) {
                assertInstanceOf(IllegalStateException.class, t);
                assertTrue(t.getMessage().contains("differs across the ranks") && t.getMessage().contains("a barrier")
                    && t.getMessage().contains("allReduceSum of 2 values"), t.getMessage());
            }
            final IllegalStateException again = assertThrows(IllegalStateException.class, ranks.rank(0)::barrier);
            assertTrue(again.getMessage().contains("out of step"), again.getMessage());
        }
    }

    @Test
    void aTimedOutBarrierStaysPendingAndTheNextBarrierCompletesIt() throws Exception {
        try (Ranks ranks = new Ranks(hostFile(2), 2, b -> b)) {
            final HostGroup g0 = ranks.rank(0);
            assertFalse(g0.barrier(20, TimeUnit.MILLISECONDS), "rank 1 has not arrived");
            final IllegalStateException other = assertThrows(IllegalStateException.class, () -> g0.allReduceSum(1));
            assertTrue(other.getMessage().contains("a barrier (collective #1)") && other.getMessage().contains(
                "still pending"), other.getMessage());
            final long[] unchanged = {4};
            assertThrows(IllegalStateException.class, () -> g0.allReduceMax(unchanged, 1, TimeUnit.MILLISECONDS));
            assertArrayEquals(new long[] {4}, unchanged);
            assertNoneThrew(ranks.onEveryRank(HostGroup::barrier)); // one barrier on each rank, not two on rank 0
            assertNoneThrew(ranks.onEveryRank(g -> assertEquals(1, g.allReduceSum(g.rank()))));
        }
    }

    @Test
    void anInterruptEndsTheWaitKeepsTheStatusAndLeavesTheReductionPending() throws Exception {
        try (Ranks ranks = new Ranks(hostFile(2), 2, b -> b)) {
            final AtomicReference<Throwable> seen = new AtomicReference<>();
            final AtomicReference<Boolean> stillInterrupted = new AtomicReference<>();
            final Thread waiter = new Thread(() -> {
                try {
                    ranks.rank(0).allReduceSum(10);
                } catch (final Throwable t) {
                    seen.set(t);
                    stillInterrupted.set(Thread.currentThread().isInterrupted());
                }
            });
            waiter.start();
            TestThreads.awaitParked(waiter);
            waiter.interrupt();
            waiter.join(TimeUnit.SECONDS.toMillis(BOUND_SECONDS));
            assertInstanceOf(InterruptedWaitException.class, seen.get());
            assertTrue(stillInterrupted.get());
            // the pending reduction completes with the values rank 0 sent first, whatever it passes now
            assertNoneThrew(ranks.onEveryRank(g -> assertEquals(10 + 1, g.allReduceSum(g.rank() == 0 ? 99 : 1))));
        }
    }

    @Test
    void aPeerThatLeftIsNamedByAWaitThatNeedsIt() throws Exception {
        try (Ranks ranks = new Ranks(hostFile(2), 2, b -> b)) {
            ranks.rank(1).close();
            final PeerFailedException e = assertThrows(PeerFailedException.class, ranks.rank(0)::barrier);
            assertEquals(1, e.rank());
            assertTrue(e.getMessage().contains("left the group"), e.getMessage());
        }
    }

    @Test
    void aPeerWhoseConnectionClosesWithoutAGoodbyeHasFailed() throws Exception {
        try (Ranks ranks = new Ranks(hostFile(2), 2, b -> b.peerTimeout(30, TimeUnit.SECONDS))) {
            ranks.rank(1).abandonForTest(); // its Aeron client closes: its publication ends, no goodbye
            final PeerFailedException e = assertThrows(PeerFailedException.class, ranks.rank(0)::barrier);
            assertEquals(1, e.rank());
            assertTrue(e.getMessage().contains("closed (Aeron image unavailable) without a goodbye"), "noticed by "
                + "its connection, not by the 30 s of silence: " + e.getMessage());
            assertEquals(1, ranks.rank(0).failure().rank());
        }
    }

    @Test
    void aJoinThatTimesOutNamesTheRanksThatNeverCame() throws Exception {
        final HostFile hosts = hostFile(3);
        final ExecutionException e = assertThrows(ExecutionException.class, () -> new Ranks(hosts, 2,
            b -> b.joinTimeout(1, TimeUnit.SECONDS)).close());
        assertInstanceOf(IllegalStateException.class, e.getCause());
        assertTrue(e.getCause().getMessage().contains("ranks did not join") && e.getCause().getMessage().contains(
            hosts.member(2).toString()), e.getCause().getMessage());
        assertFalse(e.getCause().getMessage().contains(hosts.member(1) + " ("), "rank 1 came: "
            + e.getCause().getMessage());
    }

    @Test
    void afterCloseEveryMethodNamesTheGroupAndCloseIsIdempotent() throws Exception {
        try (Ranks ranks = new Ranks(hostFile(2), 2, b -> b)) {
            final HostGroup g = ranks.rank(0);
            final String name = g.toString();
            g.close();
            g.close();
            final List<Executable> calls = Arrays.asList(g::rank, g::ranks, g::hosts, g::failure, g::checkPeers,
                g::barrier, () -> g.barrier(1, TimeUnit.SECONDS), () -> g.allReduceSum(1), () -> g.allReduceMax(1),
                () -> g.allReduceSum(new long[1]), () -> g.allReduceMax(new long[1]),
                () -> g.allReduceSum(new long[1], 1, TimeUnit.SECONDS),
                () -> g.allReduceMax(new long[1], 1, TimeUnit.SECONDS), () -> g.checkSame("x", 1),
                () -> g.checkSame("x", 1, 1, TimeUnit.SECONDS));
            for (final Executable call : calls) {
                final IllegalStateException e = assertThrows(IllegalStateException.class, call);
                assertEquals(name + " is closed", e.getMessage());
            }
        }
    }

    @Test
    void theBuilderRefusesWrongSettingsByName() throws Exception {
        final HostFile hosts = hostFile(2);
        assertTrue(assertThrows(IllegalArgumentException.class, () -> HostGroup.builder(hosts, 2)).getMessage()
            .contains("rank 2 is not in host file test-hosts"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> HostGroup.builder(hosts, 0)
            .peerTimeout(10, TimeUnit.MILLISECONDS)).getMessage().contains("peerTimeout must be in 100 ms"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> HostGroup.builder(hosts, 0)
            .joinTimeout(0, TimeUnit.SECONDS)).getMessage().contains("joinTimeout"));
        final Path empty = Files.createTempDirectory("overlap-hosts-nodriver-");
        try {
            assertTrue(assertThrows(IllegalArgumentException.class, () -> HostGroup.builder(hosts, 0)
                .aeronDirectory(empty)).getMessage().contains("no Aeron media driver runs in " + empty));
        } finally {
            Files.delete(empty);
        }
        try (Ranks ranks = new Ranks(hosts, 2, b -> b)) {
            assertTrue(assertThrows(IllegalArgumentException.class, () -> ranks.rank(0).allReduceSum(
                new long[HostGroup.MAX_VALUES + 1])).getMessage().contains("at most " + HostGroup.MAX_VALUES));
        }
    }

    @Test
    void anEndpointThatCannotBeBoundIsNamed() throws Exception {
        final HostFile hosts = HostFile.parse("test-hosts", List.of("0 127.0.0.1 " + UdpPorts.free("127.0.0.1"),
            "1 192.0.2.1 40100")); // TEST-NET-1: resolves, but is no address of this host
        final IllegalStateException e = assertThrows(IllegalStateException.class, () -> HostGroup.builder(hosts, 1)
            .aeronDirectory(driverDir).joinTimeout(5, TimeUnit.SECONDS).join());
        assertTrue(e.getMessage().contains("rank 1 cannot receive on 192.0.2.1:40100"), e.getMessage());
    }
}
