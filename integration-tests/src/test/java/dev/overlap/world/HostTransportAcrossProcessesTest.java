package dev.overlap.world;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * The transport across hosts between real processes, each a "host" bound to its own loopback address (127.0.0.1, .2,
 * .3) with its embedded media driver ({@link HostTransportProbe} is each rank): every rank pushes items to every
 * device of the others, adds to their counters, puts and gets bytes, and each checks that nothing was lost or
 * duplicated and everything arrived in order; a rank killed while the others send to it is named by every survivor,
 * whose send or {@code quiet()} ends with the failure within the detection bound (the peer timeout and a heartbeat
 * period) plus a margin for this loaded machine; the other time limits are hang guards.
 */
@Tag("slow")
@Timeout(value = 240, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class HostTransportAcrossProcessesTest {
    private static final long BOUND_SECONDS = 120;
    private static final long PEER_TIMEOUT_MILLIS = 3_000;
    private static final int RANKS = 3;

    @TempDir
    Path tmp;

    @Test
    void pushesAtomicsPutsAndGetsBetweenThreeHostsArriveExactlyOnce() throws Exception {
        try (RankProcesses job = RankProcesses.onLoopbackHosts(tmp, RANKS, HostTransportProbe.class, "data",
            PEER_TIMEOUT_MILLIS)) {
            job.assertEveryRankOk(BOUND_SECONDS, TimeUnit.SECONDS);
        }
    }

    @Test
    void aKilledHostIsNamedByEverySenderWithinTheBound() throws Exception {
        try (RankProcesses job = RankProcesses.onLoopbackHosts(tmp, RANKS, HostTransportProbe.class, "send",
            PEER_TIMEOUT_MILLIS)) {
            for (int r = 0; r < RANKS; r++) {
                job.awaitLine(r, "rank " + r + " sending", BOUND_SECONDS, TimeUnit.SECONDS);
            }
            job.process(1).destroyForcibly(); // SIGKILL while the others send to it
            for (final int r : new int[] {0, 2}) {
                job.assertNamedWithinBound(r, 1, PEER_TIMEOUT_MILLIS + 5_000, BOUND_SECONDS, TimeUnit.SECONDS);
            }
        }
    }
}
