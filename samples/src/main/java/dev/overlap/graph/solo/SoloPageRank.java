package dev.overlap.graph.solo;

import dev.overlap.graph.app.AppResult;
import dev.overlap.graph.app.AppSettings;
import dev.overlap.graph.app.WorkCounts;
import dev.overlap.graph.partition.DeviceGraph;
import dev.overlap.graph.partition.Partition;
import org.agrona.concurrent.AtomicBuffer;

/**
 * Pull PageRank by one worker over the device's in-edges (the reverse graph, as the BSP baseline places it): the
 * same model and stopping rule as {@link dev.overlap.graph.ref.PowerIteration} and the BSP pull (an iteration
 * computes every {@code x'[v] = (1-d)/n + d * (sum of c[u] over in-neighbours u + dangling/n)} from the previous
 * contributions {@code c[u] = x[u] / outdeg(u)}, and the run stops once the L1 change times {@code d / (1-d)} is below
 * the tolerance, or after the fixed iterations), so it does the same iterations and the same work per iteration as
 * the other modes. The ranks and the two contribution buffers are the worker's own (heap) arrays.
 *
 * <p>Thread-safety: one run at a time per placed graph; the arrays are confined to the worker until the join.
 */
final class SoloPageRank {
    private SoloPageRank() {
    }

    static AppResult run(final DeviceGraph in, final int[] outDegrees, final AppSettings settings) {
        final SoloGraph g = SoloGraph.of(in);
        final int n = g.vertices();
        if (outDegrees.length != n) {
            throw new IllegalArgumentException(outDegrees.length + " out-degrees for a graph of " + n + " vertices");
        }
        final Partition p = g.partition();
        final double damping = settings.damping();
        final double bound = damping / (1 - damping);
        final double tolerance = settings.tolerance();
        final int fixed = settings.fixedIterations();
        final int maxIterations = fixed > 0 ? fixed : settings.maxIterations();
        final double[] rank = new double[n];
        final int[] degree = new int[n];
        final double[][] contrib = {new double[n], new double[n]};
        final long[] iterationsDone = new long[1];
        final AtomicBuffer off = g.offsets();
        final int offBase = g.offsetsBase();
        final AtomicBuffer tgt = g.targets();
        final int tgtBase = g.targetsBase();
        final long start = System.nanoTime();
        g.runOnOneWorker((ctx, block) -> {
            final double initial = 1.0 / n;
            double dangling = 0;
            final double[] c0 = contrib[0];
            for (int i = 0; i < n; i++) {
                final int k = outDegrees[p.original(i)];
                degree[i] = k;
                rank[i] = initial;
                c0[i] = k == 0 ? 0 : initial / k;
                dangling += k == 0 ? initial : 0;
            }
            int iterations = 0;
            int cur = 0;
            double delta = Double.POSITIVE_INFINITY;
            while (iterations < maxIterations && (fixed > 0 || !(delta * bound < tolerance))) {
                final double base = (1 - damping) / n + damping * dangling / n;
                final double[] c = contrib[cur];
                final double[] next = contrib[cur ^ 1];
                delta = 0;
                dangling = 0;
                int from = (int)off.getLong(offBase);
                for (int v = 0; v < n; v++) {
                    final int to = (int)off.getLong(offBase + ((v + 1) << 3));
                    final double r = base + damping * gather(c, tgt, tgtBase + (from << 2), tgtBase + (to << 2));
                    from = to;
                    delta += Math.abs(r - rank[v]);
                    rank[v] = r;
                    final int k = degree[v];
                    if (k == 0) {
                        dangling += r;
                        next[v] = 0;
                    } else {
                        next[v] = r / k;
                    }
                }
                cur ^= 1;
                iterations++;
            }
            iterationsDone[0] = iterations;
        });
        final long nanos = System.nanoTime() - start;
        final long it = iterationsDone[0];
        return AppResult.pageRank(g.toOriginal(rank), nanos, new WorkCounts(it, n * it, n * it,
            in.summary().edgeCount() * it, 0, 0, 0, 0, 0));
    }

    /**
     * @return the sum of {@code c} over the targets in byte range {@code [at, end)} of {@code tgt}: one vertex's
     *         in-neighbours. A method of its own, called once per vertex and iteration, so the JIT compiles it within
     *         the first iteration rather than only on-stack inside the one-shot kernel body.
     */
    private static double gather(final double[] c, final AtomicBuffer tgt, final int at, final int end) {
        double sum = 0;
        for (int i = at; i < end; i += 4) {
            sum += c[tgt.getInt(i)];
        }
        return sum;
    }
}
