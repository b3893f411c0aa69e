package dev.overlap.stress.proact;

import dev.overlap.core.BlockMapping;
import dev.overlap.core.Mesh;
import dev.overlap.transport.proact.ReplicatedRegion;
import dev.overlap.transport.proact.TransferMode;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * A real {@link ReplicatedRegion} (2 devices, 2 workers each, a decoupled transfer thread), one PROACT iteration per
 * jcstress state: the host launches the producing kernel on both devices and calls {@code awaitTransfers()}; then it
 * reads both replicas. Each device's slice is 4 elements in 2 chunks of 2; each of the 4 blocks writes one element
 * with a plain store, so a chunk becomes ready when the second of its two blocks (on either worker) completes, and
 * the transfer thread copies it while the other blocks still write. Values carry the iteration number, so an element
 * copied before its block wrote it (or not copied) still holds the previous iteration's value.
 *
 * <p>Unlike the other tests here the racing threads are the region's own (mesh workers marking chunks ready, the
 * transfer thread claiming and copying them, the host waiting); the jcstress actor is the host. A state cannot build
 * a mesh or a region (jcstress makes thousands of states), so there is one region per fork and per mode, reused one
 * iteration per state, which is how the library reuses it too (the readiness counters re-arm every iteration). The
 * outcome is computed by the actor itself: it is the only thread that drives the region.
 *
 * <p>Results: elements of replica 0 and of replica 1 that hold this iteration's value (8 each: every chunk reached
 * the peer, none before it was written), and chunk copies counted during the iteration (4: each chunk copied exactly
 * once; a late duplicate of the previous iteration shows as 5).
 */
public class ReplicatedRegionTransferTest {
    private static final int ELEMENTS = 8;

    /** The mesh of a fork: 2 devices of 2 workers; never closed (its threads are daemons and die with the fork). */
    private static final class Shared {
        static final Mesh MESH = Mesh.builder().name("jcstress-proact").devices(2).threadsPerDevice(2)
            .memoryPerDevice(1 << 20).build();

        static ReplicatedRegion region(final TransferMode mode) {
            return ReplicatedRegion.builder(MESH).elements(ELEMENTS).mode(mode).chunkBytes(16).gridSize(4)
                .mapping(BlockMapping.oneToOne(8)).transferThreads(1).build();
        }
    }

    static long value(final long iteration, final int element) {
        return iteration << 8 | (element + 1);
    }

    /** One iteration on {@code region}: both producers, await, then count what both replicas hold. */
    static void iterate(final ReplicatedRegion region, final III_Result r) {
        final long iteration = region.iteration();
        final long copiedBefore = region.copiedChunks();
        for (int d = 0; d < 2; d++) {
            final int base = (int)region.sliceStart(d);
            region.launch(d, (ctx, block) -> region.putLong(ctx.deviceId(), base + block,
                value(iteration, base + block)));
        }
        region.awaitTransfers();
        r.r1 = count(region, 0, iteration);
        r.r2 = count(region, 1, iteration);
        r.r3 = (int)(region.copiedChunks() - copiedBefore);
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

    @JCStressTest
    @Description("POLLING: every ready chunk reaches the peer replica exactly once, never before it was written")
    @Outcome(id = "8, 8, 4", expect = ACCEPTABLE, desc = "both replicas complete; each chunk copied once")
    @Outcome(expect = FORBIDDEN, desc = "a chunk copied before it was written, not copied, or copied twice")
    @State
    public static class Polling {
        private static final class Region {
            static final ReplicatedRegion REGION = Shared.region(TransferMode.POLLING);
        }

        @Actor
        public void host(final III_Result r) {
            iterate(Region.REGION, r);
        }
    }

    @JCStressTest
    @Description("TRIGGERED: every ready chunk reaches the peer replica exactly once, never before it was written")
    @Outcome(id = "8, 8, 4", expect = ACCEPTABLE, desc = "both replicas complete; each chunk copied once")
    @Outcome(expect = FORBIDDEN, desc = "a chunk copied before it was written, not copied, or copied twice")
    @State
    public static class Triggered {
        private static final class Region {
            static final ReplicatedRegion REGION = Shared.region(TransferMode.TRIGGERED);
        }

        @Actor
        public void host(final III_Result r) {
            iterate(Region.REGION, r);
        }
    }
}
