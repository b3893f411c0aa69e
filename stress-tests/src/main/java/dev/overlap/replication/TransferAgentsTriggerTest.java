package dev.overlap.replication;

import dev.overlap.core.IdleStrategies;
import dev.overlap.core.Mesh;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * {@link TransferAgents} in {@link TransferMode#TRIGGERED} mode, tested directly (hence this package: the class is
 * package-private): a triggered chunk is copied exactly once, its copy holds what was written before the trigger,
 * and a trigger submitted while the agents sleep wakes one of them.
 *
 * <p>Two agent threads serve one fork-wide {@link ReplicatedRegion} of 2 devices (its own triggered copying is
 * inline, {@code transferThreads(0)}, and never used: the region only supplies the replicas and the copy). Each chunk
 * is one element of device 0's slice, and each state owns two chunks (the fork's states take them round-robin). The
 * single actor is the producer: it writes the state's value into both chunks of replica 0 with plain stores and
 * submits one job per chunk, as the readiness listener does; the agents take the jobs from their queue and copy the
 * chunks to replica 1. The actor waits (yielding: two agents and the actor share two cores) until the region's copy
 * counter has grown by two, at most {@value #TIMEOUT_MS} ms (a copy takes microseconds), then reads replica 1. Every
 * {@value #PAUSE_EVERY}th state first leaves the agents idle for longer than their park threshold (200 us), so its
 * jobs go to parked agents and must wake one. A copy counted twice shows up as a third copy, in this state or the
 * next.
 *
 * <p>Results: copies counted for this state's two jobs (2; a duplicate makes it 3, a job lost or left asleep less);
 * chunks of replica 1 that hold this state's value; 1 if the copies were late (the wait timed out).
 */
@JCStressTest
@Description("TRIGGERED transfer agents: every submitted chunk is copied exactly once, also to parked agents")
@Outcome(id = "2, 2, 0", expect = ACCEPTABLE, desc = "both chunks copied once each, holding the values written")
@Outcome(expect = FORBIDDEN, desc = "a chunk copied twice, never copied (lost or left with a sleeping agent), or "
    + "copied without the value written before its trigger")
@State
public class TransferAgentsTriggerTest {
    static final long TIMEOUT_MS = 1_000;
    static final int PAUSE_EVERY = 64;
    private static final int CHUNKS = 4096;

    /** The fork's mesh, region and agents; never closed (daemon threads die with the fork). */
    private static final class Shared {
        static final Mesh MESH = Mesh.builder().name("jcstress-xfer").devices(2).threadsPerDevice(1)
            .memoryPerDevice(1 << 20).build();
        static final ReplicatedRegion REGION = ReplicatedRegion.builder(MESH).elements(2 * CHUNKS)
            .mode(TransferMode.TRIGGERED).transferThreads(0).chunkBytes(8).gridSize(1).build();
        static final TransferAgents AGENTS = new TransferAgents(REGION, TransferMode.TRIGGERED, 2, null, 1024,
            IdleStrategies.parse("yield"), "jcstress-xfer");
        static final TransferAgents.ChunkJob[] JOBS = new TransferAgents.ChunkJob[CHUNKS];
        static long rounds;

        static {
            for (int c = 0; c < CHUNKS; c++) {
                JOBS[c] = new TransferAgents.ChunkJob(0, c);
            }
        }
    }

    @Actor
    public void producer(final III_Result r) {
        final ReplicatedRegion region = Shared.REGION;
        final long round = ++Shared.rounds;
        final long value = round << 1 | 1;
        final int first = (int)(2 * round % CHUNKS);
        final long before = region.copiedChunks();
        if (round % PAUSE_EVERY == 0) {
            LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(400)); // past the agents' park threshold (200 us)
        }
        for (int c = first; c < first + 2; c++) {
            region.putLong(0, c, value);
            Shared.AGENTS.submit(Shared.JOBS[c]);
        }
        final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(TIMEOUT_MS);
        long copied;
        while ((copied = region.copiedChunks() - before) < 2 && System.nanoTime() - deadline < 0) {
            Thread.yield(); // two agents and this thread on two cores: leave the agents the cores
        }
        int seen = 0;
        for (int c = first; c < first + 2; c++) {
            seen += region.getLong(1, c) == value ? 1 : 0;
        }
        r.r1 = (int)(region.copiedChunks() - before);
        r.r2 = seen;
        r.r3 = copied < 2 ? 1 : 0;
    }
}
