package dev.overlap.world;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code overlap node ... bfs}, {@code pr}, {@code sssp} and {@code jacobi} between real processes, each a "host"
 * bound to its own loopback address (127.0.0.1 and .2) with its embedded media driver: the two ranks run the async
 * BFS, the pull PageRank and the async SSSP across hosts on a generated graph, and Jacobi on a generated banded
 * system, both exit 0 and rank 0 prints the report with the answer verified (against the sequential BFS; against
 * power iteration within the tolerance; against Dijkstra; by the host residual); a rank killed mid-run is named
 * by the survivor, which exits non-zero within the detection bound (the peer timeout, a heartbeat period and the
 * closes, each bounded by the peer timeout) plus a margin for this loaded machine; the other time limits are hang
 * guards.
 */
@Tag("slow")
@Timeout(value = 240, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class NodeBfsAcrossProcessesTest {
    private static final long BOUND_SECONDS = 120;
    private static final long PEER_TIMEOUT_MILLIS = 3_000;
    private static final int RANKS = 2;

    @TempDir
    Path tmp;

    private RankProcesses node(final String app, final String... appArgs) throws Exception {
        final Path hosts = RankProcesses.loopbackHostFile(tmp, RANKS);
        return new RankProcesses(RANKS, r -> {
            final List<String> args = new ArrayList<>(List.of("dev.overlap.graph.cli.OverlapCommand", "node",
                "--hosts", hosts.toString(), "--rank", Integer.toString(r), "--peer-timeout",
                Long.toString(PEER_TIMEOUT_MILLIS), app));
            args.addAll(List.of(appArgs));
            return args;
        });
    }

    @Test
    void twoHostsRunTheBfsAndRankZeroVerifiesIt() throws Exception {
        assertBothVerified("bfs");
    }

    /** Runs graph {@code app} twice on a generated graph: see {@link #assertBothVerified(String, String...)}. */
    private void assertBothVerified(final String app) throws Exception {
        assertBothVerified(app, "--generate", "kron:10", "--runs", "2");
    }

    /**
     * Runs {@code app} with {@code appArgs} on two hosts of two devices: both exit 0, rank 0 verified the answer,
     * rank 1 says done.
     */
    private void assertBothVerified(final String app, final String... appArgs) throws Exception {
        final List<String> args = new ArrayList<>(List.of(appArgs));
        args.addAll(List.of("--devices", "2", "--threads-per-device", "1"));
        try (RankProcesses job = node(app, args.toArray(new String[0]))) {
            for (int r = RANKS - 1; r >= 0; r--) {
                final int exit = job.awaitExit(r, BOUND_SECONDS, TimeUnit.SECONDS);
                assertEquals(0, exit, "rank " + r + " exited with " + exit + ": " + job.output(r));
            }
            assertTrue(job.output(0).stream().anyMatch(l -> l.matches("verified\\s+passed")),
                "rank 0 did not print 'verified passed': " + job.output(0));
            assertTrue(job.output(0).stream().anyMatch(l -> l.matches("devices\\s+4")),
                "two hosts of two devices are four devices: " + job.output(0));
            assertTrue(job.output(0).stream().anyMatch(l -> l.matches("hosts\\s+2")),
                "rank 0 did not report the two hosts: " + job.output(0));
            assertTrue(job.output(1).contains("overlap node " + app + ": rank 1 of 2 (devices 2..3) done"),
                "rank 1 did not say it was done: " + job.output(1));
        }
    }

    @Test
    void twoHostsRunPageRankAndRankZeroVerifiesIt() throws Exception {
        assertBothVerified("pr");
    }

    @Test
    void twoHostsRunSsspAndRankZeroVerifiesIt() throws Exception {
        assertBothVerified("sssp");
    }

    @Test
    void twoHostsRunJacobiAndRankZeroVerifiesIt() throws Exception {
        assertBothVerified("jacobi", "--size", "20000", "--band", "4", "--tolerance", "1e-9");
    }

    @Test
    void aKilledHostIsNamedByTheSurvivorWhichExitsNonZeroWithinTheBound() throws Exception {
        try (RankProcesses job = node("bfs", "--generate", "kron:12", "--devices", "1", "--threads-per-device", "1",
            "--warmups", "0", "--runs", "1000")) {
            for (int r = 0; r < RANKS; r++) {
                job.awaitLine(r, "overlap node bfs: rank " + r + " of 2 running", BOUND_SECONDS, TimeUnit.SECONDS);
            }
            final long killed = System.nanoTime();
            job.process(1).destroyForcibly(); // SIGKILL while both run BFS after BFS
            final int exit = job.awaitExit(0, BOUND_SECONDS, TimeUnit.SECONDS);
            final long waitedMillis = (System.nanoTime() - killed) / 1_000_000;
            assertNotEquals(0, exit, "rank 0 exited with 0 although rank 1 died: " + job.output(0));
            assertTrue(job.output(0).stream().anyMatch(l -> l.startsWith("overlap node bfs: rank 1 failed")),
                "rank 0 does not name rank 1: " + job.output(0));
            final long bound = 3 * PEER_TIMEOUT_MILLIS + 10_000;
            assertTrue(waitedMillis < bound, "rank 0 took " + waitedMillis + " ms to exit (bound " + bound + "): "
                + job.output(0));
            System.out.println("rank 0 exited " + exit + " after " + waitedMillis + " ms: " + job.output(0).stream()
                .filter(l -> l.startsWith("overlap node bfs: rank 1")).findFirst().orElseThrow());
        }
    }
}
