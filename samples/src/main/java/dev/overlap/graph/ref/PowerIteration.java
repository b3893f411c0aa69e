package dev.overlap.graph.ref;

import dev.overlap.graph.Csr;

/**
 * PageRank by sequential power iteration (push along out-edges), the reference for every PageRank here.
 *
 * <p>Model: {@code x'[v] = (1 - d) / n + d * (sum over u -> v of x[u] / outdeg(u) + dangling / n)}, where
 * {@code dangling} is the total rank of vertices without out-edges: a dangling vertex is treated as linking to
 * every vertex, so ranks always sum to 1. Start: {@code 1/n} everywhere.
 *
 * <p>Stopping: the iteration is a contraction with factor {@code d} in the L1 norm, so after a step that changed
 * the vector by {@code delta} (L1), the distance to the true PageRank is at most {@code delta * d / (1 - d)}.
 * {@link #ranks(Csr, double, double, int)} stops once that bound is below the tolerance, so its answer is
 * within {@code tolerance} (L1) of the exact PageRank. Stateless; thread-safe.
 */
public final class PowerIteration {
    /** The usual damping factor. */
    public static final double DAMPING = 0.85;

    private PowerIteration() {
    }

    /** Result: ranks and the iterations it took. */
    public static final class Result {
        private final double[] ranks;
        private final int iterations;
        private final double errorBound;

        Result(final double[] ranks, final int iterations, final double errorBound) {
            this.ranks = ranks;
            this.iterations = iterations;
            this.errorBound = errorBound;
        }

        /** @return the ranks (owned by the caller) */
        public double[] ranks() {
            return ranks;
        }

        /** @return iterations done */
        public int iterations() {
            return iterations;
        }

        /** @return the L1 bound on the distance to the exact PageRank after the last iteration */
        public double errorBound() {
            return errorBound;
        }
    }

    /**
     * Iterates until the L1 error bound is below {@code tolerance}, or {@code maxIterations} steps.
     *
     * @param g             the graph (edges {@code u -> v} pass rank from u to v)
     * @param damping       damping factor in (0, 1)
     * @param tolerance     L1 distance to the exact PageRank wanted, > 0
     * @param maxIterations cap on steps
     * @return ranks summing to 1
     */
    public static Result ranks(final Csr g, final double damping, final double tolerance,
        final int maxIterations) {
        return run(g, damping, tolerance, maxIterations);
    }

    /** Exactly {@code iterations} steps (the fixed-iteration mode). */
    public static Result fixed(final Csr g, final double damping, final int iterations) {
        return run(g, damping, 0, iterations);
    }

    private static Result run(final Csr g, final double damping, final double tolerance, final int maxIterations) {
        final int n = g.vertexCount();
        double[] x = new double[n];
        double[] next = new double[n];
        java.util.Arrays.fill(x, 1.0 / n);
        final double bound = damping / (1 - damping);
        int it = 0;
        double err = Double.POSITIVE_INFINITY;
        while (it < maxIterations && !(err < tolerance)) {
            double dangling = 0;
            java.util.Arrays.fill(next, 0);
            for (int u = 0; u < n; u++) {
                final int deg = g.degree(u);
                if (deg == 0) {
                    dangling += x[u];
                    continue;
                }
                final double share = x[u] / deg;
                for (long e = g.edgeStart(u), end = g.edgeEnd(u); e < end; e++) {
                    next[g.target(e)] += share;
                }
            }
            final double base = (1 - damping) / n + damping * dangling / n;
            double delta = 0;
            for (int v = 0; v < n; v++) {
                final double r = base + damping * next[v];
                delta += Math.abs(r - x[v]);
                next[v] = r;
            }
            final double[] t = x;
            x = next;
            next = t;
            it++;
            err = delta * bound;
        }
        return new Result(x, it, err);
    }
}
