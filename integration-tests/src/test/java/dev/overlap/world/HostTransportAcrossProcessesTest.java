package dev.overlap.world;

import dev.overlap.testing.UdpPorts;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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

    private RankProcesses start(final String mode) throws Exception {
        final List<String> lines = new ArrayList<>(List.of("# rank host port: one loopback address per rank"));
        for (int r = 0; r < RANKS; r++) {
            final String address = "127.0.0." + (r + 1);
            lines.add(r + " " + address + " " + UdpPorts.free(address));
        }
        final Path hosts = Files.write(tmp.resolve("hosts.txt"), lines);
        return new RankProcesses(RANKS, r -> List.of(HostTransportProbe.class.getName(), hosts.toString(),
            Integer.toString(r), mode, Long.toString(PEER_TIMEOUT_MILLIS)));
    }

    @Test
    void pushesAtomicsPutsAndGetsBetweenThreeHostsArriveExactlyOnce() throws Exception {
        try (RankProcesses job = start("data")) {
            for (int r = 0; r < RANKS; r++) {
                assertEquals(0, job.awaitExit(r, BOUND_SECONDS, TimeUnit.SECONDS), "rank " + r + ": " + job.output(r));
                assertTrue(job.output(r).contains("rank " + r + " ok"), job.output(r).toString());
            }
        }
    }

    @Test
    void aKilledHostIsNamedByEverySenderWithinTheBound() throws Exception {
        try (RankProcesses job = start("send")) {
            for (int r = 0; r < RANKS; r++) {
                job.awaitLine(r, "rank " + r + " sending", BOUND_SECONDS, TimeUnit.SECONDS);
            }
            job.process(1).destroyForcibly(); // SIGKILL while the others send to it
            for (final int r : new int[] {0, 2}) {
                assertEquals(3, job.awaitExit(r, BOUND_SECONDS, TimeUnit.SECONDS), "rank " + r + ": " + job.output(r));
                assertTrue(job.output(r).stream().anyMatch(l -> l.startsWith("rank " + r + ": rank 1 failed: ")),
                    "rank " + r + " names rank 1: " + job.output(r));
                final long waited = job.output(r).stream().filter(l -> l.startsWith("rank " + r + " waited "))
                    .mapToLong(l -> Long.parseLong(l.split(" ")[3])).findFirst().orElseThrow();
                assertTrue(waited < PEER_TIMEOUT_MILLIS + 5_000, "rank " + r + " waited " + waited + " ms: "
                    + job.output(r));
            }
        }
    }
}
