package dev.overlap.graph.solo;

/**
 * The over-relaxation factor {@code omega} of in-place PageRank sweeps ({@link SoloPageRank.PullState#inPlace}):
 * a sweep moves each rank from its old value {@code x} to {@code x + omega * (g - x)}, where {@code g} is the
 * Gauss-Seidel update, instead of to {@code g} ({@code omega = 1}). Chosen from the sweeps' L1 changes as they run,
 * by Young's rule for successive over-relaxation: the changes of the sweeps shrink by a ratio {@code lambda} per
 * sweep; at {@code omega = 1} that ratio estimates the square {@code mu^2} of the Jacobi iteration's spectral radius,
 * at another {@code omega} the relation {@code (lambda + omega - 1)^2 = lambda omega^2 mu^2} gives it back, and the
 * best factor is {@code 2 / (1 + sqrt(1 - mu^2))}. The theory holds for consistently ordered matrices (a grid's, rows
 * in order); on other graphs the rule is a heuristic, kept for what it measured.
 *
 * <p>Where it pays: graphs whose Gauss-Seidel sweeps shrink the error slowly, such as grids and road networks, where
 * the factor climbs to its cap and a run needs far fewer sweeps. Where the sweeps already converge fast (Kronecker
 * and uniform random graphs) the ratio is small, the factor stays close to 1 over the sweeps a run needs, and the
 * sweeps are those of Gauss-Seidel. The replays and the figures:
 * {@code bench/results/2026-12-01-pr-float-sum-and-relaxation/}.
 *
 * <p>Guarded against making a run worse than Gauss-Seidel's (on every graph replayed and tested it took no more
 * sweeps; measured, not proven): the first two sweeps run at 1 (the ratio needs two changes); the factor only grows,
 * to at most {@value #MAX}; a ratio that says nothing (not between 0 and 1, or an estimate of {@code mu^2} at 1 or
 * more) leaves it as it is; and if the changes grow while it is above 1, it goes back to 1 for the rest of the run
 * (Gauss-Seidel converges on PageRank's matrix, over-relaxation is not proven to).
 *
 * <p>Deterministic in its inputs: the workers of a cooperative run each keep one and feed it the same summed changes,
 * so all take the same factor. Thread-safety: confined to one thread.
 */
final class Relaxation {
    /** The largest factor. */
    static final double MAX = 1.5;

    private double omega = 1;
    private double previousChange = Double.NaN;
    private boolean backedOff;

    /** @return the factor of the next sweep */
    double omega() {
        return omega;
    }

    /**
     * Takes the L1 change of the sweep just run (at {@link #omega()}) and sets the next sweep's factor.
     *
     * @param change the sweep's L1 change of the ranks
     * @return the factor of the next sweep
     */
    double next(final double change) {
        final double lambda = change / previousChange; // NaN after the first sweep
        previousChange = change;
        if (backedOff || !(lambda > 0)) {
            return omega;
        }
        if (lambda >= 1) {
            if (omega > 1) { // growing changes above 1: Gauss-Seidel from here on
                omega = 1;
                backedOff = true;
            }
            return omega;
        }
        final double root = lambda + omega - 1;
        final double mu2 = root * root / (lambda * omega * omega);
        if (mu2 < 1) {
            omega = Math.min(MAX, Math.max(omega, 2 / (1 + Math.sqrt(1 - mu2))));
        }
        return omega;
    }
}
