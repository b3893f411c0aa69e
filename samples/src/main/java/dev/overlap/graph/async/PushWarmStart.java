package dev.overlap.graph.async;

import dev.overlap.core.KernelLaunch;
import dev.overlap.core.Mesh;
import dev.overlap.core.World;
import dev.overlap.graph.partition.DeviceGraph;

/**
 * The set-up of push PageRank's device state before the first pass: the estimate starts where power iteration
 * starts, {@code x = 1/n}, and the residuals are made exactly {@code r = b + M x - x} for that start, so that they are
 * signed and small (zero wherever the uniform vector is already right). Why this start and not zero or the degrees:
 * {@code samples/docs/async-pagerank.md}, "The warm start". Stateless; thread-safe.
 */
final class PushWarmStart {
    /** Vertices per kernel block of the gather (and of the first kernel otherwise). */
    private static final int GATHER_PER_BLOCK = 1 << 13;
    /** Vertices per kernel block of the scatter. */
    private static final int SCATTER_PER_BLOCK = 2048;

    private PushWarmStart() {
    }

    /**
     * Sets the warm start in {@link #GATHER_PER_BLOCK}-vertex blocks per device. On a symmetric graph a vertex's
     * in-neighbours are its out-neighbours, so one kernel gathers {@code r[v] = a x0 (sum over v's edges of
     * 1/outdeg(u) - 1)} (since {@code b = (1-a) x0}) from the degrees alone, exactly 0 where every neighbour has v's
     * degree, and writes each residual once, with no read-modify-writes. Otherwise the first kernel sets
     * {@code r = b - x} and, after a join so that every residual is set, the second scatters {@code a*x[u]/outdeg(u)}
     * of every vertex into its out-neighbours' residuals. With one worker per device on a symmetric graph the gather
     * is each worker's first scan instead ({@link PushKernel#startsInScan}), and this does nothing.
     *
     * <p>Across processes each rank starts its own devices; before the scatter the ranks meet, so that every
     * residual is set before any rank scatters into it (the worklist run that follows starts with a barrier too).
     */
    static void run(final DeviceGraph g, final PushKernel kernel) {
        final Mesh mesh = g.mesh();
        final World world = mesh.world();
        final int devices = g.devices();
        if (kernel.startsInScan) {
            return;
        }
        final boolean gather = g.summary().isSymmetric();
        final KernelLaunch[] launches = new KernelLaunch[devices];
        for (int d = world.firstLocalDevice(), last = d + world.localDeviceCount(); d < last; d++) {
            final int dev = d;
            final int size = g.partition().size(d);
            launches[d] = mesh.device(d).launch(Math.max(1, (size + GATHER_PER_BLOCK - 1) / GATHER_PER_BLOCK),
                (ctx, b) -> kernel.start(dev, ctx.workerIndex(), b * GATHER_PER_BLOCK,
                    Math.min(size, (b + 1) * GATHER_PER_BLOCK), gather, null));
        }
        AsyncBfs.join(launches);
        if (gather) {
            return;
        }
        world.barrier();
        for (int d = world.firstLocalDevice(), last = d + world.localDeviceCount(); d < last; d++) {
            final int dev = d;
            final int size = g.partition().size(d);
            launches[d] = mesh.device(d).launch(Math.max(1, (size + SCATTER_PER_BLOCK - 1) / SCATTER_PER_BLOCK),
                (ctx, b) -> kernel.scatterStart(dev, ctx.workerIndex(), b * SCATTER_PER_BLOCK,
                    Math.min(size, (b + 1) * SCATTER_PER_BLOCK)));
        }
        AsyncBfs.join(launches);
    }
}
