package dev.overlap.bench.graph;

import dev.overlap.graph.CsrGraph;

import java.util.Arrays;
import java.util.Locale;

/**
 * GAP's PageRank as its source documents it ({@code src/pr.cc}, {@code PageRankPullGS}), replayed here on one thread
 * to know how accurate GAP's answer is: GAP prints its five largest scores ({@code -a}) and a pass/fail verdict
 * ({@code -v}), never the whole vector, so its L1 error against the converged reference cannot be read from its
 * output. The replay follows the documented algorithm step for step: {@code float} scores starting at {@code 1/n},
 * damping {@code 0.85f}, base score {@code (1 - 0.85f) / n}, and one Gauss-Seidel sweep per iteration in vertex order
 * (each vertex sums its in-neighbours' current contributions, stores its new score and contribution at once); the
 * iteration's "error" is the sum of the absolute score changes, and GAP stops after the first iteration whose error is
 * below its tolerance {@code -t}. A vertex without edges keeps {@code (1 - d) / n} and passes nothing on, so GAP's
 * scores are the reference's scaled by {@link PageRankReference#unnormalizedSum}; errors here are measured after
 * dividing by that sum, in the reference's units.
 *
 * <p>What the replay cannot know: GAP's threads sweep chunks of 16384 vertices at once ({@code schedule(dynamic,
 * 16384)}), so on more than one thread a vertex sometimes reads a neighbour's contribution from before the sweep
 * instead of after; the iterations GAP needs can then differ by one and its error slightly. The comparison therefore
 * reads the iterations GAP actually ran from its {@code -l} log and reports the replay's error after that many
 * iterations, as an estimate, and checks GAP's printed top scores against the reference.
 *
 * <p>Stateless; thread-safe.
 */
final class GapPageRankModel {
    /** GAP's damping factor ({@code kDamp}), a float. */
    static final float DAMPING = 0.85f;
    /** The iteration cap passed to GAP ({@code -i}), as GAP's own benchmark scripts do. */
    static final int MAX_ITERATIONS = 1000;

    private GapPageRankModel() {
    }

    /** The replay's figures per iteration (index {@code k - 1} for iteration {@code k}). Immutable. */
    static final class Replay {
        private final double[] changes;
        private final double[] errors;

        Replay(final double[] changes, final double[] errors) {
            this.changes = changes;
            this.errors = errors;
        }

        /** @return iterations replayed */
        int iterations() {
            return changes.length;
        }

        /** @return GAP's "error" (sum of score changes, GAP's units) of iteration {@code k}, 1-based */
        double change(final int k) {
            return changes[k - 1];
        }

        /** @return the L1 error against the reference after iteration {@code k}, 1-based, in the reference's units */
        double error(final int k) {
            return errors[Math.min(k, errors.length) - 1];
        }
    }

    /**
     * Replays until the error is below {@code target / 8} (so that one or two iterations more than planned still have
     * a figure), the changes stop, or {@link #MAX_ITERATIONS}.
     *
     * @param g   the graph GAP loaded (symmetric: in-neighbours are the neighbours)
     * @param ref the converged reference of the same graph
     * @return changes and errors per iteration
     */
    static Replay replay(final CsrGraph g, final PageRankReference ref, final double target) {
        final int n = g.vertexCount();
        final double[] y = ref.ranks();
        final double scale = ref.unnormalizedSum(DAMPING);
        final float init = 1.0f / n;
        final float base = (1.0f - DAMPING) / n;
        final float[] scores = new float[n];
        final float[] contrib = new float[n];
        Arrays.fill(scores, init);
        for (int v = 0; v < n; v++) {
            contrib[v] = init / g.degree(v);
        }
        final double[] changes = new double[MAX_ITERATIONS];
        final double[] errors = new double[MAX_ITERATIONS];
        int k = 0;
        while (k < MAX_ITERATIONS) {
            double change = 0;
            for (int u = 0; u < n; u++) {
                float incoming = 0;
                for (long e = g.edgeStart(u), end = g.edgeEnd(u); e < end; e++) {
                    incoming += contrib[g.target(e)];
                }
                final float old = scores[u];
                scores[u] = base + DAMPING * incoming;
                change += Math.abs(scores[u] - old);
                contrib[u] = scores[u] / g.degree(u);
            }
            double err = 0;
            for (int v = 0; v < n; v++) {
                err += Math.abs(scores[v] / scale - y[v]);
            }
            changes[k] = change;
            errors[k] = err;
            k++;
            if (err < target / 8 || change == 0) {
                break;
            }
        }
        return new Replay(Arrays.copyOf(changes, k), Arrays.copyOf(errors, k));
    }

    /**
     * GAP's tolerance for an answer within {@code target}: GAP stops after the first iteration whose change is below
     * its tolerance, so the tolerance is put between the change of the first iteration whose error is within
     * {@code target} and the smallest change before it (their geometric mean: a margin on both sides for the small
     * differences of a parallel run).
     *
     * @param target the L1 error wanted, in the reference's units
     * @return the tolerance and the iterations and error the replay expects of it
     */
    static Plan plan(final Replay r, final double target) {
        int k = 1;
        int best = 1;
        while (k <= r.iterations() && r.error(k) > target) {
            best = r.error(k) < r.error(best) ? k : best;
            k++;
        }
        final boolean reached = k <= r.iterations();
        if (!reached) {
            k = best;
        }
        double before = Double.POSITIVE_INFINITY;
        for (int j = 1; j < k; j++) {
            before = Math.min(before, r.change(j));
        }
        final double at = r.change(k);
        final double tolerance = before == Double.POSITIVE_INFINITY ? Math.max(2 * at, Double.MIN_NORMAL)
            : at < before ? Math.sqrt(Math.max(at, Double.MIN_NORMAL) * before) : Math.nextUp(at);
        return new Plan(tolerance, k, r.error(k), reached);
    }

    /**
     * GAP's settings for one accuracy.
     *
     * @param tolerance  {@code -t}
     * @param iterations the iterations the replay expects GAP to run with it
     * @param error      the replay's L1 error after them
     * @param reached    false when GAP's float scores never get within the target (then the best iteration is used)
     */
    record Plan(double tolerance, int iterations, double error, boolean reached) {
        /** @return the tolerance as passed on GAP's command line (enough digits to be exact in a double) */
        String toleranceArgument() {
            return String.format(Locale.ROOT, "%.17g", tolerance);
        }
    }
}
