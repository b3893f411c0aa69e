package dev.overlap.graph.async;

/**
 * When an async PageRank run may stop, for both variants: after each quiescent pass the host bounds the L1 distance
 * between the normalised answer and the exact PageRank, stops once the bound is within the tolerance, and otherwise
 * lowers the pass threshold in proportion and runs another pass, at most {@value #MAX_PASSES} of them. The bound is
 * proved in {@code samples/docs/async-pagerank.md} ("The error bound"); this class is its one statement in code.
 * Stateless; thread-safe.
 */
final class PageRankBound {
    /** Passes after which a run gives up: the threshold has then fallen by far more than any bound needs. */
    static final int MAX_PASSES = 64;

    private PageRankBound() {
    }

    /**
     * @param s       the unnormalised rank sum {@code S}
     * @param spread  {@code |r - beta b|_1} for some {@code beta} (push: the residuals, any {@code beta} is valid),
     *                or {@code a |r|_1} (pull: the residuals one Jacobi step further)
     * @param damping the damping factor {@code a}
     * @return the L1 bound {@code 2 spread / ((1-a) S)} on the distance between the normalised answer and the exact
     *         PageRank; infinite when {@code S <= 0}
     */
    static double bound(final double s, final double spread, final double damping) {
        return s > 0 ? 2 * spread / ((1 - damping) * s) : Double.POSITIVE_INFINITY;
    }

    /**
     * The next pass's threshold: the current one times {@code 0.8 tolerance / bound} (how far the bound is off, with
     * a margin), but times 0.9 at most, so every pass lowers it, and 1/64 at least, so one bad bound cannot make a
     * pass do far more work than needed.
     *
     * @return the lowered threshold
     */
    static double lowered(final double eps, final double tolerance, final double bound) {
        return eps * Math.max(1.0 / 64, Math.min(0.9, 0.8 * tolerance / bound));
    }

    /**
     * @param what the variant, for the message
     * @return the failure of a run whose bound is still above the tolerance after {@value #MAX_PASSES} passes
     */
    static IllegalStateException notConverged(final String what, final double bound, final int passes,
        final double eps, final double tolerance) {
        return new IllegalStateException(what + ": the L1 error bound is still " + bound + " after " + passes
            + " passes (threshold " + eps + "); tolerance " + tolerance);
    }
}
