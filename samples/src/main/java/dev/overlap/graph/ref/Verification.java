package dev.overlap.graph.ref;

/**
 * The outcome of checking an answer against a reference: passed or not, with a one-line detail (the first
 * mismatch, or the measured error). Helpers compare BFS depths and SSSP distances exactly and PageRank vectors in
 * the L1 norm. Immutable; thread-safe.
 */
public final class Verification {
    private final boolean passed;
    private final boolean skipped;
    private final String detail;

    private Verification(final boolean passed, final boolean skipped, final String detail) {
        this.passed = passed;
        this.skipped = skipped;
        this.detail = detail;
    }

    /** @return a passed check */
    public static Verification pass(final String detail) {
        return new Verification(true, false, detail);
    }

    /** @return a failed check */
    public static Verification fail(final String detail) {
        return new Verification(false, false, detail);
    }

    /** @return a check that was not run (opted out) */
    public static Verification skipped() {
        return new Verification(true, true, "skipped (--no-verify)");
    }

    /** @return true unless the check failed */
    public boolean passed() {
        return passed;
    }

    /** @return true when the check was not run */
    public boolean isSkipped() {
        return skipped;
    }

    /** @return what was found */
    public String detail() {
        return detail;
    }

    /** BFS depths must be equal vertex by vertex ({@code -1} for unreached). */
    public static Verification depths(final int[] expected, final int[] actual) {
        if (expected.length != actual.length) {
            return fail(actual.length + " depths for " + expected.length + " vertices");
        }
        long reached = 0;
        for (int v = 0; v < expected.length; v++) {
            if (expected[v] != actual[v]) {
                return fail("vertex " + v + " has depth " + actual[v] + ", sequential BFS says " + expected[v]);
            }
            if (expected[v] >= 0) {
                reached++;
            }
        }
        return pass("depths equal a sequential BFS (" + reached + " vertices reached)");
    }

    /** SSSP distances must be equal vertex by vertex ({@link Dijkstra#UNREACHED} for unreached). */
    public static Verification distances(final long[] expected, final long[] actual) {
        if (expected.length != actual.length) {
            return fail(actual.length + " distances for " + expected.length + " vertices");
        }
        long reached = 0;
        for (int v = 0; v < expected.length; v++) {
            if (expected[v] != actual[v]) {
                return fail("vertex " + v + " has distance " + show(actual[v]) + ", Dijkstra says " + show(expected[v]));
            }
            if (expected[v] != Dijkstra.UNREACHED) {
                reached++;
            }
        }
        return pass("distances equal Dijkstra (" + reached + " vertices reached)");
    }

    private static String show(final long d) {
        return d == Dijkstra.UNREACHED ? "unreached" : Long.toString(d);
    }

    /** @return the L1 distance between two vectors */
    public static double l1(final double[] a, final double[] b) {
        double s = 0;
        for (int i = 0; i < a.length; i++) {
            s += Math.abs(a[i] - b[i]);
        }
        return s;
    }

    /** PageRank vectors must be within {@code tolerance} in the L1 norm. */
    public static Verification ranks(final double[] expected, final double[] actual, final double tolerance) {
        if (expected.length != actual.length) {
            return fail(actual.length + " ranks for " + expected.length + " vertices");
        }
        for (int v = 0; v < actual.length; v++) {
            if (!Double.isFinite(actual[v])) {
                return fail("vertex " + v + " has rank " + actual[v]);
            }
        }
        final double d = l1(expected, actual);
        final String text = String.format(java.util.Locale.ROOT, "L1 distance to power iteration %.3g (tolerance %.3g)",
            d, tolerance);
        return d <= tolerance ? pass(text) : fail(text);
    }
}
