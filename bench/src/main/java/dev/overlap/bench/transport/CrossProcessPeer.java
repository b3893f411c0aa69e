package dev.overlap.bench.transport;

import dev.overlap.core.DeviceRegion;
import dev.overlap.core.LongArray;
import dev.overlap.core.Mesh;
import dev.overlap.core.SymmetricArray;
import dev.overlap.core.WorldConfig;
import dev.overlap.transport.ItemType;
import dev.overlap.transport.Transport;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Rank 1 of {@link CrossProcessBenchmark}'s {@code SHARED_MEMORY} placement, a process of its own:
 * {@code CrossProcessPeer DIR BATCH_BYTES RING}. It joins the benchmark's world, builds the same transport (its
 * progress thread drains dev1, whose handler counts the items), meets rank 0 once the handlers are registered, and
 * at the trial's end writes the count it received into the shared statistics array and leaves.
 */
public final class CrossProcessPeer {
    private CrossProcessPeer() {
    }

    /** Starts the peer process for a trial (its output goes to the benchmark's). */
    static Process start(final Path dir, final int batchBytes, final int ring) throws IOException {
        final List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(CrossProcessBenchmark.peerJvmArgs());
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(CrossProcessPeer.class.getName());
        cmd.add(dir.toString());
        cmd.add(Integer.toString(batchBytes));
        cmd.add(Integer.toString(ring));
        return new ProcessBuilder(cmd).inheritIO().start();
    }

    /** The transport both sides build (collective across the processes): its progress thread drains at once. */
    static Transport transport(final Mesh mesh, final int ring) {
        return Transport.builder().mesh(mesh).ringCapacity(ring).progressThread(true)
            .helpAfter(0, TimeUnit.MICROSECONDS).idleStrategy(TransportBenchSupport::spinThenYield)
            .progressIdleStrategy(TransportBenchSupport::spinThenYield).build();
    }

    public static void main(final String[] args) {
        final Path dir = Path.of(args[0]);
        final int ring = Integer.parseInt(args[2]);
        final TransportBenchSupport.CountHandler received = new TransportBenchSupport.CountHandler();
        try (Mesh mesh = Mesh.builder().name("xp-r1").devices(2).threadsPerDevice(1)
            .memoryPerDevice(CrossProcessBenchmark.MEMORY).world(WorldConfig.sharedMemory(dir, 2, 1)
                .joinTimeout(60, TimeUnit.SECONDS).build()).build();
             SymmetricArray<LongArray> stats = mesh.allocateLongs(8);
             DeviceRegion putTarget = mesh.allocateSymmetric(Integer.parseInt(args[1]), 64);
             Transport transport = transport(mesh, ring)) {
            for (int d = 0; d < 2; d++) {
                transport.registerHandler(d, CrossProcessBenchmark.QUEUE, ItemType.INT, received);
            }
            mesh.world().barrier(); // both ranks' handlers are registered; rank 0 puts into putTarget's dev1 part
            mesh.world().barrier(transport::drainAll); // the trial ended: rank 0's items are all applied
            putTarget.checkLive();
            stats.on(1).setRelease(0, received.items);
            mesh.world().barrier();
        }
    }
}
