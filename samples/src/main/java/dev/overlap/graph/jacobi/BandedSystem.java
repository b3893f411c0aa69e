package dev.overlap.graph.jacobi;

/**
 * A generated banded linear system {@code A x = b}: {@code n} unknowns, {@code A[i][j]} non-zero only for
 * {@code |i - j| <= halfBand}. Off-diagonal entries are uniform in {@code [-1, 1)} and the diagonal is the row's
 * absolute off-diagonal sum plus 1, so {@code A} is strictly diagonally dominant and Jacobi converges. Entries come
 * from a hash of {@code (seed, i, j)}, so any row can be generated anywhere, in any order, identically.
 *
 * <p>Thread-safety: immutable; thread-safe.
 */
public final class BandedSystem {
    private final int n;
    private final int halfBand;
    private final long seed;

    /**
     * @param n        unknowns, >= 1
     * @param halfBand non-zeros on each side of the diagonal, 0..1024
     * @param seed     the seed
     */
    public BandedSystem(final int n, final int halfBand, final long seed) {
        if (n < 1) {
            throw new IllegalArgumentException("size must be >= 1, was " + n);
        }
        if (halfBand < 0 || halfBand > 1024) {
            throw new IllegalArgumentException("half band must be in 0..1024, was " + halfBand);
        }
        this.n = n;
        this.halfBand = halfBand;
        this.seed = seed;
    }

    /** @return unknowns */
    public int size() {
        return n;
    }

    /** @return non-zeros on each side of the diagonal */
    public int halfBand() {
        return halfBand;
    }

    /** @return the seed */
    public long seed() {
        return seed;
    }

    private static double unit(final long x) {
        long z = x;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        z ^= z >>> 31;
        return (z >>> 11) * 0x1.0p-53;
    }

    /** @return {@code A[i][j]} for {@code j != i} inside the band and the matrix, else 0 */
    public double offDiagonal(final int i, final int j) {
        if (i == j || j < 0 || j >= n || Math.abs(i - j) > halfBand) {
            return 0;
        }
        return unit(seed * 0x9E3779B97F4A7C15L + (long)i * 0x632BE59BD9B4E019L + j) * 2 - 1;
    }

    /** @return {@code A[i][i]} */
    public double diagonal(final int i) {
        double s = 1;
        for (int j = i - halfBand; j <= i + halfBand; j++) {
            s += Math.abs(offDiagonal(i, j));
        }
        return s;
    }

    /** @return {@code b[i]}, uniform in {@code [-1, 1)} */
    public double rhs(final int i) {
        return unit(~seed * 0xD1B54A32D192ED03L + i) * 2 - 1;
    }

    /** @return {@code ||b - A x||_2 / ||b||_2}, computed sequentially on the host */
    public double relativeResidual(final double[] x) {
        double r2 = 0;
        double b2 = 0;
        for (int i = 0; i < n; i++) {
            double ax = diagonal(i) * x[i];
            for (int j = Math.max(0, i - halfBand); j <= Math.min(n - 1, i + halfBand); j++) {
                ax += offDiagonal(i, j) * x[j];
            }
            final double b = rhs(i);
            r2 += (b - ax) * (b - ax);
            b2 += b * b;
        }
        return Math.sqrt(r2) / Math.sqrt(b2);
    }

    @Override
    public String toString() {
        return "banded n=" + n + " half-band=" + halfBand + " seed=" + seed;
    }
}
