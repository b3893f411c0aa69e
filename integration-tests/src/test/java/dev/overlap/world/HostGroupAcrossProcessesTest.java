package dev.overlap.world;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * A host group of real processes, each a "host" of its own: bound to its own loopback address (127.0.0.1, .2, .3)
 * and port, each with its embedded Aeron media driver, talking UDP ({@link HostGroupProbe} is each rank). They join,
 * agree on every barrier and reduction, and leave; a rank killed mid-run is named by every survivor, which exits
 * instead of hanging. The peer timeout is 3 s; each survivor reports how long it waited after its last completed
 * barrier, which must stay within the detection bound (the peer timeout and a heartbeat period) plus a margin for
 * this loaded machine; the other time limits are hang guards.
 */
@Tag("slow")
@Timeout(value = 180, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class HostGroupAcrossProcessesTest {
    private static final long BOUND_SECONDS = 60;
    private static final long PEER_TIMEOUT_MILLIS = 3_000;
    private static final int RANKS = 3;

    @TempDir
    Path tmp;

    @Test
    void threeHostsJoinAgreeOnEveryBarrierAndReductionAndLeave() throws Exception {
        try (RankProcesses job = RankProcesses.onLoopbackHosts(tmp, RANKS, HostGroupProbe.class, "collectives",
            PEER_TIMEOUT_MILLIS)) {
            job.assertEveryRankOk(BOUND_SECONDS, TimeUnit.SECONDS);
        }
    }

    @Test
    void aKilledHostIsNamedByEverySurvivorWithinTheBound() throws Exception {
        try (RankProcesses job = RankProcesses.onLoopbackHosts(tmp, RANKS, HostGroupProbe.class, "barriers",
            PEER_TIMEOUT_MILLIS)) {
            for (int r = 0; r < RANKS; r++) {
                job.awaitLine(r, "rank " + r + " checked", BOUND_SECONDS, TimeUnit.SECONDS);
            }
            job.process(1).destroyForcibly(); // SIGKILL mid-run: no goodbye, its media driver dies with it
            for (final int r : new int[] {0, 2}) {
                job.assertNamedWithinBound(r, 1, PEER_TIMEOUT_MILLIS + 5_000, BOUND_SECONDS, TimeUnit.SECONDS);
            }
        }
    }
}
