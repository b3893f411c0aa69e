package dev.overlap.graph.async;

import dev.overlap.core.Mesh;
import dev.overlap.graph.app.AppResult;
import dev.overlap.graph.app.AppSettings;
import dev.overlap.graph.app.WorkerCounters;
import dev.overlap.graph.partition.DeviceGraph;
import dev.overlap.graph.partition.Partition;
import dev.overlap.worklist.DistributedWorklist;
import dev.overlap.worklist.WorklistStats;

/**
 * The push variant's host side: builds the worklist and the kernel, sets the warm start, and runs passes until
 * {@link PageRankBound} proves the tolerance. A pass runs the worklist with threshold {@code eps} until it is
 * quiescent; the host then sums ranks and residuals on the devices ({@link ResidualSums}) and either stops or lowers
 * {@code eps} (the next pass's idle scans pick up the residuals between the two thresholds).
 *
 * <p>The first threshold: since {@code |r|_1 < eps F} with {@code F = sum max(1, outdeg)},
 * {@code eps = tolerance (1-a) / F} would be safe in the worst case; the first pass bets on {@value #FIRST_LOOSENESS}
 * times that, because a quiescent pass leaves most residuals far below their thresholds (from the warm start most are
 * exactly 0). A pass that stops short costs one more scan; its work is not lost, the next pass continues from its
 * residuals. How the factor was chosen: {@code bench/results/2026-11-25-async-tuning.md}.
 *
 * <p>Thread-safety: one run at a time per mesh, driven by the calling host thread.
 */
final class PushPageRank {
    /** Factor on the first pass's worst-case threshold (see the class comment). */
    static final double FIRST_LOOSENESS = 16;

    private PushPageRank() {
    }

    /**
     * @param looseness factor on the first pass's threshold (1 in production; tests raise it to make the refinement
     *                  passes run)
     */
    static AppResult run(final DeviceGraph g, final int[] outDegrees, final AppSettings settings,
        final double looseness) {
        final Partition p = g.partition();
        final Mesh mesh = g.mesh();
        final int devices = p.devices();
        final int n = p.vertexCount();
        AsyncPageRank.checkOutEdges(g, outDegrees);
        final double damping = settings.damping();
        final double tolerance = settings.tolerance();
        final int workers = WorkerCounters.workersPerDevice(mesh);
        final WorkerCounters counters = WorkerCounters.of(mesh);
        double factors = 0; // sum of max(1, outdeg): from the host's degrees, the same on every rank
        for (final int k : outDegrees) {
            factors += Math.max(1, k);
        }
        DistributedWorklist wl = null;
        PushKernel kernel = null;
        try {
            wl = Worklists.build(mesh, settings, AsyncBfs.maxOwned(p), 1, 1);
            final boolean priority = settings.queue() == AppSettings.Queue.PRIORITY;
            kernel = workers == 1 ? new SoloPushKernel(g, counters, damping, priority)
                : new AtomicPushKernel(g, counters, damping, workers, priority);
            final ResidualSums residuals = new ResidualSums(p, kernel);
            final Worklists.Traffic traffic = new Worklists.Traffic();
            final long start = System.nanoTime();
            PushWarmStart.run(g, kernel);
            double eps = Math.min(Math.min(tolerance, 1.0) * looseness * FIRST_LOOSENESS, 1.0) * (1 - damping)
                / factors;
            int passes = 0;
            double ranks;
            for (;;) {
                kernel.startPass(eps);
                final WorklistStats st = wl.run(Worklists.shape(settings), Worklists.mode(settings), kernel, kernel);
                traffic.add(st);
                passes++;
                final double[] sums = residuals.of(Double.NaN);
                ranks = sums[ResidualSums.RANKS];
                double bound = PageRankBound.bound(ranks, sums[ResidualSums.ABS], damping);
                if (bound > tolerance) { // the residuals relative to their mean may still prove it
                    final double mean = sums[ResidualSums.SUM] / n;
                    bound = Math.min(bound, PageRankBound.bound(ranks, residuals.of(mean)[ResidualSums.ABS],
                        damping));
                }
                if (bound <= tolerance) {
                    break;
                }
                if (passes == PageRankBound.MAX_PASSES) {
                    throw PageRankBound.notConverged("async PageRank", bound, passes, eps, tolerance);
                }
                eps = PageRankBound.lowered(eps, tolerance, bound);
            }
            final long nanos = System.nanoTime() - start;
            final double[] out = new double[n];
            for (int d = 0; d < devices; d++) { // every device's ranks, this process's and (mapped) the others'
                final int lo = p.lo(d);
                for (int i = 0, size = p.size(d); i < size; i++) {
                    out[p.original(lo + i)] = kernel.rank(d, i) / ranks;
                }
            }
            // summed over the ranks: also the barrier before anyone frees what the others read
            return AppResult.pageRank(out, nanos, traffic.counts(mesh.world(), passes, n, counters));
        } finally {
            if (kernel != null && !mesh.isClosed()) {
                kernel.free();
            }
            if (wl != null) {
                wl.close();
            }
        }
    }
}
