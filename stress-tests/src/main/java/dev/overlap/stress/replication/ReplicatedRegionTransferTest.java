package dev.overlap.stress.replication;

import dev.overlap.core.BlockMapping;
import dev.overlap.core.Mesh;
import dev.overlap.replication.ReplicatedRegion;
import dev.overlap.replication.TransferMode;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIIIII_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Real {@link ReplicatedRegion}s, one PROACT iteration per jcstress state, in the two decoupled modes at once:
 * {@code POLLING} (the completion that makes a chunk ready sets its bit, a transfer thread polls and copies) and
 * {@code TRIGGERED} (that completion hands the chunk to a transfer thread's queue). Both regions live on one mesh of
 * 2 devices with 2 workers each; for each region in turn the host launches the producing kernels on both devices,
 * calls {@code awaitTransfers()} and reads both replicas. Each device's slice is 4 elements in 2 chunks of 2; each
 * of the 4 blocks writes one element with a plain store, so a chunk becomes ready when the second of its two blocks
 * (on either worker) completes, and a transfer thread copies it while other blocks still write. Values carry the
 * iteration number, so an element copied before its block wrote it (or not copied) holds the previous iteration's.
 *
 * <p>Unlike the other tests here the racing threads are the regions' own (mesh workers marking chunks ready, transfer
 * threads claiming and copying them, the host waiting); the jcstress actor is the host. A state cannot build a mesh
 * or a region (jcstress makes thousands of states), so there is one region per mode and fork, reused one iteration
 * per state, which is how the library reuses it too (the readiness counters re-arm every iteration). The outcome is
 * computed by the actor itself: it is the only thread that drives the regions.
 *
 * <p>Results, {@code POLLING} then {@code TRIGGERED}: elements of replica 0 and of replica 1 that hold this
 * iteration's value (8 each: every chunk reached the peer, none before it was written), and chunk copies counted
 * during the iteration (4: each chunk copied exactly once; a late duplicate of the previous iteration shows as 5).
 */
@JCStressTest
@Description("PROACT transfers: every ready chunk reaches the peer replica exactly once, never before it was written")
@Outcome(id = "8, 8, 4, 8, 8, 4", expect = ACCEPTABLE, desc = "both modes: replicas complete, each chunk copied once")
@Outcome(expect = FORBIDDEN, desc = "a chunk copied before it was written, not copied, or copied twice")
@State
public class ReplicatedRegionTransferTest {
    private static final int ELEMENTS = 8;

    /**
     * The regions of a fork, one per mode, on one mesh of 2 devices of 2 workers; never closed (their threads are
     * daemons and die with the fork).
     */
    private static final class Regions {
        static final Mesh MESH = Mesh.builder().name("jcstress-proact").devices(2).threadsPerDevice(2)
            .memoryPerDevice(1 << 20).build();
        static final ReplicatedRegion POLLING = region(TransferMode.POLLING);
        static final ReplicatedRegion TRIGGERED = region(TransferMode.TRIGGERED);

        private static ReplicatedRegion region(final TransferMode mode) {
            return ReplicatedRegion.builder(MESH).elements(ELEMENTS).mode(mode).chunkBytes(16).gridSize(4)
                .mapping(BlockMapping.oneToOne(8)).transferThreads(1).build();
        }
    }

    static long value(final long iteration, final int element) {
        return iteration << 8 | (element + 1);
    }

    @Actor
    public void host(final IIIIII_Result r) {
        final int[] polling = iterate(Regions.POLLING);
        final int[] triggered = iterate(Regions.TRIGGERED);
        r.r1 = polling[0];
        r.r2 = polling[1];
        r.r3 = polling[2];
        r.r4 = triggered[0];
        r.r5 = triggered[1];
        r.r6 = triggered[2];
    }

    /**
     * One iteration: the producing kernels on both devices, {@code awaitTransfers()}, then a look at both replicas
     * (at once, so a copy still running after the wait returned has little time to finish).
     *
     * @return elements of replica 0 and of replica 1 holding this iteration's values, chunk copies counted
     */
    private static int[] iterate(final ReplicatedRegion region) {
        final long iteration = region.iteration();
        final long copied = region.copiedChunks();
        for (int d = 0; d < 2; d++) {
            final int base = (int)region.sliceStart(d);
            region.launch(d, (ctx, block) -> region.putLong(ctx.deviceId(), base + block,
                value(iteration, base + block)));
        }
        region.awaitTransfers();
        return new int[] {count(region, 0, iteration), count(region, 1, iteration),
            (int)(region.copiedChunks() - copied)};
    }

    private static int count(final ReplicatedRegion region, final int device, final long iteration) {
        int n = 0;
        for (int i = 0; i < ELEMENTS; i++) {
            if (region.getLong(device, i) == value(iteration, i)) {
                n++;
            }
        }
        return n;
    }
}
