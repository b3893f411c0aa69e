package dev.overlap.graph.bsp;

import dev.overlap.core.DeviceArray;
import dev.overlap.core.DoubleArray;
import dev.overlap.core.IntArray;
import dev.overlap.core.KernelLaunch;
import dev.overlap.core.Mesh;
import dev.overlap.core.SymmetricArray;
import dev.overlap.core.World;
import dev.overlap.graph.app.AppResult;
import dev.overlap.graph.app.AppSettings;
import dev.overlap.graph.app.WorkCounts;
import dev.overlap.graph.app.WorkerCounters;
import dev.overlap.graph.partition.DeviceGraph;
import dev.overlap.graph.partition.Partition;

import java.util.ArrayList;
import java.util.List;

/**
 * Pull PageRank on the mesh (the BSP baseline), the same model as
 * {@link dev.overlap.graph.ref.PowerIteration} (dangling rank spread evenly; ranks sum to 1).
 *
 * <p>Every device holds a full replica of the contribution vector {@code c[u] = x[u] / outdeg(u)} (double-buffered:
 * an iteration reads one buffer and writes the other; in {@code float} for a run to a tolerance that leaves room for
 * the rounding, whose bound the stopping test then adds to the change, else in {@code double}: see {@link PullRows}).
 * Iteration: a kernel on each device computes, for each vertex it owns ({@link PullRows}),
 * {@code x'[v] = (1-d)/n + d * (sum of c[u] over in-neighbours u + dangling/n)} from its own replica, writes
 * {@code c'[v]} into its replica, and leaves per-block partial sums of the change and of the dangling rank; a
 * second, stream-ordered kernel copies the device's slice of {@code c'} to every peer's replica (bulk one-sided
 * puts). The host barrier then sums the partials (in block order: deterministic), and stops when
 * {@code delta * d / (1 - d)} (the L1 error bound, see {@code PowerIteration}; with {@code float} contributions
 * {@code (delta + PullRows.FLOAT_ROUNDING) * d / (1 - d)}) is below the tolerance, or after the fixed number of
 * iterations.
 *
 * <p><b>Across processes</b> (SPMD): each rank launches its own devices; the replicas, the ranks and the partial sums
 * are symmetric allocations, so the copy kernels put slices straight into the other processes' replicas and every
 * rank reads every device's partials after the iteration's barrier, summing them in the same order as one process
 * does: every rank computes the same delta and stops at the same iteration, with the same answer bit for bit. Two
 * sets of partials are used in turn, so a rank that starts the next iteration does not overwrite values a slower
 * rank is still summing.
 *
 * <p>Thread-safety: one run at a time per mesh, driven by the calling host thread.
 */
final class BspPageRank {
    private static final int ROWS_PER_BLOCK = PullRows.ROWS_PER_BLOCK;
    private static final int COPY_PER_BLOCK = 16384;

    private BspPageRank() {
    }

    static long stateBytesPerDevice(final int vertices, final int maxOwned) {
        final long blocks = (maxOwned + ROWS_PER_BLOCK - 1) / ROWS_PER_BLOCK + 1;
        return 2 * (Math.max(1L, vertices) * 8 + 64) + Math.max(1L, maxOwned) * 12 + 2 * blocks * 16 + 384;
    }

    static AppResult run(final DeviceGraph in, final int[] outDegrees, final AppSettings settings) {
        final Partition p = in.partition();
        final Mesh mesh = in.mesh();
        final World world = mesh.world();
        final int devices = p.devices();
        final int n = p.vertexCount();
        final double damping = settings.damping();
        final double bound = damping / (1 - damping);
        final int fixed = settings.fixedIterations();
        final int maxIterations = fixed > 0 ? fixed : settings.maxIterations();
        final WorkerCounters counters = WorkerCounters.of(mesh);
        final DoubleArray[] rank = new DoubleArray[devices];
        final IntArray[] outDeg = new IntArray[devices];
        final DoubleArray[] partials = new DoubleArray[devices];
        final int[] blocks = new int[devices];
        final KernelLaunch[] launches = new KernelLaunch[devices];
        final KernelLaunch[] copies = new KernelLaunch[devices];
        final List<SymmetricArray<?>> state = new ArrayList<>(4);
        // float contributions when the tolerance leaves room for their rounding (see PullRows); the stopping test
        // then adds the rounding bound to the change
        final boolean single = fixed == 0 && PullRows.floatFits(damping, settings.tolerance());
        final double rounding = single ? PullRows.FLOAT_ROUNDING : 0;
        @SuppressWarnings({"unchecked", "rawtypes"}) // a generic array: Java has no other way to make one
        final SymmetricArray<? extends DeviceArray>[] contrib = new SymmetricArray[2];
        try {
            int maxOwned = 1;
            int maxBlocks = 1;
            for (int d = 0; d < devices; d++) {
                blocks[d] = Math.max(1, (p.size(d) + ROWS_PER_BLOCK - 1) / ROWS_PER_BLOCK);
                maxOwned = Math.max(maxOwned, p.size(d));
                maxBlocks = Math.max(maxBlocks, blocks[d]);
            }
            for (int k = 0; k < 2; k++) {
                contrib[k] = single ? BspBfs.keep(state, mesh.allocateInts(Math.max(1, n)))
                    : BspBfs.keep(state, mesh.allocateDoubles(Math.max(1, n)));
            }
            // Symmetric, so every rank can read them: the ranks (the answer) and the per-block partial sums, two
            // sets of partials used in turn (a rank may write the next iteration's while another still reads these)
            final SymmetricArray<DoubleArray> ranks = BspBfs.keep(state, mesh.allocateDoubles(maxOwned));
            final SymmetricArray<DoubleArray> sums = BspBfs.keep(state, mesh.allocateDoubles(4L * maxBlocks));
            final int half = 2 * maxBlocks;
            for (int d = 0; d < devices; d++) {
                rank[d] = ranks.on(d);
                partials[d] = sums.on(d);
                if (world.isLocal(d)) {
                    outDeg[d] = mesh.device(d).allocateInts(Math.max(1, p.size(d)));
                }
            }
            final long start = System.nanoTime();
            final double initial = 1.0 / n;
            for (int d = world.firstLocalDevice(), end = d + world.localDeviceCount(); d < end; d++) {
                final DeviceArray c0 = contrib[0].on(d);
                final DoubleArray x = rank[d];
                final IntArray deg = outDeg[d];
                final int lo = p.lo(d);
                final int owned = p.size(d);
                launches[d] = mesh.device(d).launch(Math.max(1, (n + 65535) >> 16), (ctx, b) -> {
                    for (int i = b << 16, stop = Math.min(n, (b + 1) << 16); i < stop; i++) {
                        final int k = outDegrees[p.original(i)];
                        PullRows.setContribution(c0, i, k == 0 ? 0 : initial / k);
                        if (i >= lo && i < lo + owned) {
                            x.set(i - lo, initial);
                            deg.set(i - lo, k);
                        }
                    }
                });
            }
            BspBfs.joinAll(launches);
            long danglingCount = 0;
            for (final int k : outDegrees) {
                if (k == 0) {
                    danglingCount++;
                }
            }
            double dangling = danglingCount * initial;
            int iterations = 0;
            int cur = 0;
            double delta = Double.POSITIVE_INFINITY;
            while (iterations < maxIterations && (fixed > 0 || !((delta + rounding) * bound < settings.tolerance()))) {
                final double base = (1 - damping) / n + damping * dangling / n;
                final int at = (iterations & 1) * half;
                for (int d = world.firstLocalDevice(), end = d + world.localDeviceCount(); d < end; d++) {
                    launches[d] = iterate(in, d, contrib[cur].on(d), contrib[cur ^ 1].on(d), rank[d], outDeg[d],
                        partials[d], at, base, damping);
                    copies[d] = exchange(in, d, contrib[cur ^ 1], counters);
                }
                BspBfs.joinAll(launches);
                BspBfs.joinAll(copies);
                // every rank's slices are in every replica, and its partials written: every rank sums the same
                // values in the same order (device, then block), so every rank takes the same decision
                world.barrier();
                delta = 0;
                dangling = 0;
                for (int d = 0; d < devices; d++) {
                    if (p.size(d) == 0) {
                        continue;
                    }
                    for (int b = 0; b < blocks[d]; b++) {
                        delta += partials[d].get(at + 2 * b);
                        dangling += partials[d].get(at + 2 * b + 1);
                    }
                }
                cur ^= 1;
                iterations++;
            }
            final long nanos = System.nanoTime() - start;
            final double[] out = new double[n];
            for (int d = 0; d < devices; d++) { // every device's ranks, this process's and (mapped) the others'
                final int lo = p.lo(d);
                for (int i = 0, size = p.size(d); i < size; i++) {
                    out[p.original(lo + i)] = rank[d].get(i);
                }
            }
            final long[] t = counters.totals(world); // also the barrier before anyone frees what the others read
            final long edges = in.summary().edgeCount() * iterations;
            final WorkCounts wc = new WorkCounts(iterations, (long)n * iterations, (long)n * iterations, edges, 0, 0,
                0, t[WorkerCounters.MESSAGES], t[WorkerCounters.BYTES]);
            return AppResult.pageRank(out, nanos, wc);
        } finally {
            if (!mesh.isClosed()) {
                for (int d = 0; d < devices; d++) {
                    if (outDeg[d] != null) {
                        mesh.device(d).free(outDeg[d]);
                    }
                }
            }
            BspBfs.release(mesh, state);
        }
    }

    private static KernelLaunch iterate(final DeviceGraph in, final int d, final DeviceArray c, final DeviceArray next,
        final DoubleArray rank, final IntArray outDeg, final DoubleArray partials, final int part, final double base,
        final double damping) {
        final int owned = in.partition().size(d);
        if (owned == 0) {
            return null;
        }
        final int lo = in.partition().lo(d);
        final PullRows rows = PullRows.of(in, d, rank, 0, outDeg);
        return in.mesh().device(d).launch(rows.blocks(),
            (ctx, block) -> rows.block(block, c, next, lo, partials, part, base, damping));
    }

    private static KernelLaunch exchange(final DeviceGraph in, final int d,
        final SymmetricArray<? extends DeviceArray> next,
        final WorkerCounters c) {
        final int owned = in.partition().size(d);
        final int devices = in.devices();
        if (owned == 0 || devices == 1) {
            return null;
        }
        final int lo = in.partition().lo(d);
        final Mesh mesh = in.mesh();
        final DeviceArray src = next.on(d);
        final int size = src.elementBytes();
        return mesh.device(d).launch((owned + COPY_PER_BLOCK - 1) / COPY_PER_BLOCK, (ctx, block) -> {
            final int from = lo + block * COPY_PER_BLOCK;
            final int count = Math.min(lo + owned, from + COPY_PER_BLOCK) - from;
            for (int t = 0; t < devices; t++) {
                if (t != d) {
                    mesh.copy(src, from, next.on(t), from, count);
                }
            }
            c.add(d, ctx.workerIndex(), WorkerCounters.MESSAGES, devices - 1);
            c.add(d, ctx.workerIndex(), WorkerCounters.BYTES, (devices - 1) * count * (long)size);
        });
    }
}
