package dev.overlap.graph.solo;

import dev.overlap.graph.app.AppResult;
import dev.overlap.graph.app.AppSettings;
import dev.overlap.graph.app.WorkCounts;
import dev.overlap.graph.partition.DeviceGraph;
import dev.overlap.graph.partition.Partition;
import org.agrona.UnsafeApi;

/**
 * Pull PageRank on the calling thread over the device's in-edges (the reverse graph, as the BSP baseline places it): the
 * same model and stopping rule as {@link dev.overlap.graph.ref.PowerIteration} and the BSP pull (an iteration
 * computes every {@code x'[v] = (1-d)/n + d * (sum of c[u] over in-neighbours u + dangling/n)} from the previous
 * contributions {@code c[u] = x[u] / outdeg(u)}, and the run stops once the L1 change times {@code d / (1-d)} is below
 * the tolerance, or after the fixed iterations), so it does the same iterations and the same work per iteration as
 * the other modes. The in-edges are read from device memory without per-access checks ({@link SoloGraph}); the ranks
 * and the two contribution buffers are heap arrays.
 *
 * <p>Thread-safety: one run at a time per placed graph; the arrays are confined to the calling thread.
 */
final class SoloPageRank {
    private SoloPageRank() {
    }

    static AppResult run(final DeviceGraph in, final int[] outDegrees, final AppSettings settings) {
        final SoloGraph g = SoloGraph.of(in);
        final int n = g.vertices();
        final double damping = settings.damping();
        final double bound = damping / (1 - damping);
        final double tolerance = settings.tolerance();
        final int fixed = settings.fixedIterations();
        final int maxIterations = fixed > 0 ? fixed : settings.maxIterations();
        final long start = System.nanoTime();
        final PullState state = PullState.initial(g, outDegrees);
        final int[] degree = state.degree;
        final double[][] contrib = state.contrib;
        double dangling = state.dangling;
        final long off = g.offsetsAt();
        final long tgt = g.targetsAt();
        int iterations = 0;
        int cur = 0;
        double delta = Double.POSITIVE_INFINITY;
        final double[] sums = new double[2];
        while (iterations < maxIterations && (fixed > 0 || !(delta * bound < tolerance))) {
            final double base = (1 - damping) / n + damping * dangling / n;
            rows(0, n, off, tgt, base, damping, contrib[cur], contrib[cur ^ 1], degree, sums);
            delta = sums[0];
            dangling = sums[1];
            cur ^= 1;
            iterations++;
        }
        final double[] rank = PullState.ranks(contrib[cur], degree);
        final long nanos = System.nanoTime() - start;
        final long it = iterations;
        return AppResult.pageRank(g.toOriginal(rank), nanos, new WorkCounts(it, n * it, n * it,
            in.summary().edgeCount() * it, 0, 0, 0, 0, 0));
    }

    /**
     * Rows {@code [from, to)} of one iteration: {@code r = base + damping * (sum of c over v's in-neighbours)}, kept
     * as the next contribution {@code next[v] = r / degree[v]}, or {@code r} itself for a dangling row
     * ({@link PullState}: the ranks are not stored apart, which saves reading and writing 8 bytes per row and
     * iteration; the L1 change reads the old rank back from {@code c}). Leaves the rows' L1 change in
     * {@code sums[0]} and their dangling rank in {@code sums[1]}. Shared with {@link CoopPageRank}.
     */
    static void rows(final int from, final int to, final long off, final long tgt, final double base,
        final double damping, final double[] c, final double[] next, final int[] degree, final double[] sums) {
        double delta = 0;
        double dangling = 0;
        long first = tgt + (UnsafeApi.getLong(null, off + ((long)from << 3)) << 2);
        for (int v = from; v < to; v++) {
            final long last = tgt + (UnsafeApi.getLong(null, off + ((long)(v + 1) << 3)) << 2);
            final double r = base + damping * gather(c, first, last);
            first = last;
            final int k = degree[v];
            if (k == 0) {
                delta += Math.abs(r - c[v]);
                dangling += r;
                next[v] = r;
            } else {
                delta += Math.abs(r - c[v] * k);
                next[v] = r / k;
            }
        }
        sums[0] = delta;
        sums[1] = dangling;
    }

    /**
     * @return the sum of {@code c} over the targets at absolute addresses {@code [at, end)}: one vertex's in-neighbours.
     *         A method of its own, called once per vertex and iteration, so the JIT compiles it within the first
     *         iteration rather than only on-stack inside a method called once per run.
     */
    private static double gather(final double[] c, final long at, final long end) {
        double sum = 0;
        for (int i = 0, k = (int)((end - at) >> 2); i < k; i++) { // int-counted: C2 optimises it fully
            sum += c[UnsafeApi.getInt(null, at + ((long)i << 2))];
        }
        return sum;
    }

    /**
     * The state of a pull run before its first iteration, in internal ids: every rank {@code 1/n}, held as the
     * contributions {@code rank / outdeg} in {@code contrib[0]}, the out-degrees, and the dangling rows' rank. A
     * dangling row (out-degree 0) passes nothing on, so no row ever gathers its slot (a row gathers the slots of
     * its in-neighbours, each of which has an out-edge): that slot holds the row's rank instead, and the ranks are
     * not stored apart until the run ends ({@link #ranks}). Shared by {@link SoloPageRank} and
     * {@link CoopPageRank}; heap arrays, confined to the run.
     */
    static final class PullState {
        final int[] degree;
        final double[][] contrib;
        final double dangling;

        private PullState(final int[] degree, final double[][] contrib, final double dangling) {
            this.degree = degree;
            this.contrib = contrib;
            this.dangling = dangling;
        }

        /**
         * @throws IllegalArgumentException when {@code outDegrees} (original ids) does not cover the graph
         */
        static PullState initial(final SoloGraph g, final int[] outDegrees) {
            final int n = g.vertices();
            if (outDegrees.length != n) {
                throw new IllegalArgumentException(outDegrees.length + " out-degrees for a graph of " + n
                    + " vertices");
            }
            final Partition p = g.partition();
            final int[] degree = new int[n];
            final double[] c0 = new double[n];
            final double initial = 1.0 / n;
            double dangling = 0;
            for (int i = 0; i < n; i++) {
                final int k = outDegrees[p.original(i)];
                degree[i] = k;
                c0[i] = k == 0 ? initial : initial / k;
                dangling += k == 0 ? initial : 0;
            }
            return new PullState(degree, new double[][] {c0, new double[n]}, dangling);
        }

        /**
         * @param c      the contributions of the last iteration (a dangling row's slot holds its rank)
         * @param degree the out-degrees
         * @return the ranks they hold: {@code c[v] * degree[v]}, or {@code c[v]} for a dangling row (a product within
         *         an ulp of the rank the iteration computed)
         */
        static double[] ranks(final double[] c, final int[] degree) {
            final double[] rank = new double[c.length];
            for (int v = 0; v < c.length; v++) {
                final int k = degree[v];
                rank[v] = k == 0 ? c[v] : c[v] * k;
            }
            return rank;
        }
    }
}
