package dev.overlap.graph.jacobi;

import dev.overlap.graph.ref.Verification;

import java.util.Locale;

/**
 * Jacobi for a {@link BandedSystem} in one thread on plain Java arrays: the yardstick the mesh solver
 * ({@link JacobiSolver}) is compared with. Same iteration and stopping rule as the solver: step {@code k} computes
 * {@code x_{k+1}} from {@code x_k} and, in the same sweep, the residual of {@code x_k}; it stops at the first
 * {@code x_k} whose relative residual {@code ||b - A x_k|| / ||b||} is below the tolerance (or after
 * {@code maxIterations} steps) and returns that {@code x_k}. The band of {@code A} is generated before the clock
 * starts, as the solver fills device memory before its clock starts.
 *
 * <p>Stateless; thread-safe.
 */
public final class SequentialJacobi {
    private SequentialJacobi() {
    }

    /** The outcome of a solve. Immutable; thread-safe (the vector is owned by the caller). */
    public static final class Result {
        private final double[] x;
        private final int iterations;
        private final double residual;
        private final long nanos;

        Result(final double[] x, final int iterations, final double residual, final long nanos) {
            this.x = x;
            this.iterations = iterations;
            this.residual = residual;
            this.nanos = nanos;
        }

        /** @return the solution (owned by the caller) */
        public double[] x() {
            return x;
        }

        /** @return iterations run (steps before the returned vector) */
        public int iterations() {
            return iterations;
        }

        /** @return relative residual of {@link #x()} */
        public double residual() {
            return residual;
        }

        /** @return time of the iterations (band generation excluded) */
        public long nanos() {
            return nanos;
        }
    }

    /**
     * @param system        the system
     * @param tolerance     relative residual to reach, > 0
     * @param maxIterations cap, >= 1
     * @return the solution and what it took
     */
    public static Result solve(final BandedSystem system, final double tolerance, final int maxIterations) {
        if (!(tolerance > 0)) {
            throw new IllegalArgumentException("tolerance must be > 0, was " + tolerance);
        }
        if (maxIterations < 1) {
            throw new IllegalArgumentException("maxIterations must be >= 1, was " + maxIterations);
        }
        final int n = system.size();
        final int k = system.halfBand();
        final int width = 2 * k + 1;
        final double[] band = new double[Math.multiplyExact(n, width)];
        final double[] b = new double[n];
        double b2 = 0;
        for (int i = 0; i < n; i++) {
            for (int c = 0; c < width; c++) {
                final int j = i - k + c;
                band[i * width + c] = j == i ? system.diagonal(i) : system.offDiagonal(i, j);
            }
            b[i] = system.rhs(i);
            b2 += b[i] * b[i];
        }
        final double bNorm = Math.sqrt(b2);
        double[] x = new double[n];
        double[] next = new double[n];
        final long begin = System.nanoTime();
        int iterations = 0;
        double residual;
        while (true) {
            double r2 = 0;
            for (int i = 0; i < n; i++) {
                final int base = i * width;
                double off = 0;
                for (int j = Math.max(0, i - k), jTo = Math.min(n - 1, i + k); j <= jTo; j++) {
                    if (j != i) {
                        off += band[base + j - i + k] * x[j];
                    }
                }
                final double diag = band[base + k];
                final double res = b[i] - off - diag * x[i];
                r2 += res * res;
                next[i] = (b[i] - off) / diag;
            }
            residual = Math.sqrt(r2) / bNorm;
            if (residual < tolerance || iterations == maxIterations) {
                break;
            }
            final double[] t = x;
            x = next;
            next = t;
            iterations++;
        }
        return new Result(x, iterations, residual, System.nanoTime() - begin);
    }

    /**
     * Checks a solution of another solver against this reference: its relative residual, recomputed here on the
     * host, must be below {@code tolerance}, and it must lie within {@code (res(x) + res(ref)) * ||b||_2} of the
     * reference in the max norm. That bound is exact arithmetic, not a guess: every row of {@code A} has its diagonal
     * exceed its off-diagonal sum by 1, so {@code ||A^-1||_inf <= 1}, and
     * {@code ||x - ref||_inf <= ||A^-1||_inf ||A x - A ref||_inf <= ||r(x)||_2 + ||r(ref)||_2}.
     *
     * @param system    the system both solved
     * @param x         the solution to check
     * @param tolerance relative residual it had to reach
     * @param reference this class's solution of the same system
     * @return the outcome, with the residual and the largest difference
     */
    public static Verification verify(final BandedSystem system, final double[] x, final double tolerance,
        final Result reference) {
        if (x.length != system.size()) {
            return Verification.fail(x.length + " unknowns for a system of " + system.size());
        }
        final double residual = system.relativeResidual(x);
        double b2 = 0;
        double diff = 0;
        for (int i = 0; i < x.length; i++) {
            b2 += system.rhs(i) * system.rhs(i);
            diff = Math.max(diff, Math.abs(x[i] - reference.x()[i]));
        }
        final double bound = (residual + reference.residual()) * Math.sqrt(b2) * (1 + 1e-9) + 1e-300;
        final String text = String.format(Locale.ROOT, "host residual %.3g (tolerance %.3g), max |x - x_seq| %.3g "
            + "(bound %.3g)", residual, tolerance, diff, bound);
        return residual < tolerance && diff <= bound && Double.isFinite(diff) ? Verification.pass(text)
            : Verification.fail(text);
    }
}
