package dev.overlap.graph.jacobi;

import dev.overlap.core.DoubleArray;
import dev.overlap.core.LongArray;

/**
 * The Jacobi row kernel shared by the one-JVM solver ({@link JacobiSolver}) and the solver across hosts
 * ({@code dev.overlap.graph.node.NodeJacobi}): a device's rows keep their band of {@code A} ({@code 2k + 1} entries
 * per row, column {@code c} holding {@code A[i][i - k + c]}) and their {@code b} in its memory; one block of
 * {@link JacobiSolver#ROWS_PER_BLOCK} rows computes {@code x_{k+1}} from {@code x_k} (a vector of {@code double} bits)
 * and the squared residual {@code b - A x_k} of its rows.
 *
 * <p>Thread-safety: stateless; blocks of one launch touch disjoint rows of the band, {@code b} and the output.
 */
public final class JacobiRows {
    private JacobiRows() {
    }

    /** Where a block's new values go: row {@code i}'s {@code x_{k+1}}. */
    @FunctionalInterface
    public interface Sink {
        /**
         * @param i  the row (global index)
         * @param xi its new value
         */
        void put(int i, double xi);
    }

    /**
     * Fills one block of a device's band and {@code b} from the system.
     *
     * @param system the system
     * @param band   the device's band ({@code rows x (2k + 1)})
     * @param rhs    the device's {@code b} ({@code rows})
     * @param start  the device's first row
     * @param rows   the device's rows
     * @param block  the block
     */
    public static void fill(final BandedSystem system, final DoubleArray band, final DoubleArray rhs, final int start,
        final int rows, final int block) {
        final int k = system.halfBand();
        final int width = 2 * k + 1;
        for (int r = block * JacobiSolver.ROWS_PER_BLOCK, end = Math.min(rows, r + JacobiSolver.ROWS_PER_BLOCK);
             r < end; r++) {
            final int i = start + r;
            for (int c = 0; c < width; c++) {
                final int j = i - k + c;
                band.set(r * width + c, j == i ? system.diagonal(i) : system.offDiagonal(i, j));
            }
            rhs.set(r, system.rhs(i));
        }
    }

    /**
     * One block of a Jacobi iteration.
     *
     * @param band  the device's band
     * @param rhs   the device's {@code b}
     * @param xs    {@code x_k}, all {@code n} rows as {@code double} bits
     * @param start the device's first row
     * @param rows  the device's rows
     * @param block the block
     * @param n     unknowns
     * @param k     half band
     * @param out   receives {@code x_{k+1}} of the block's rows
     * @return the sum of the squared residuals of {@code x_k} over the block's rows
     */
    public static double block(final DoubleArray band, final DoubleArray rhs, final LongArray xs, final int start,
        final int rows, final int block, final int n, final int k, final Sink out) {
        final int width = 2 * k + 1;
        double r2 = 0;
        for (int r = block * JacobiSolver.ROWS_PER_BLOCK, end = Math.min(rows, r + JacobiSolver.ROWS_PER_BLOCK);
             r < end; r++) {
            final int i = start + r;
            final int base = r * width;
            double off = 0;
            final int jFrom = Math.max(0, i - k);
            final int jTo = Math.min(n - 1, i + k);
            for (int j = jFrom; j <= jTo; j++) {
                if (j != i) {
                    off += band.get(base + j - i + k) * Double.longBitsToDouble(xs.get(j));
                }
            }
            final double diag = band.get(base + k);
            final double b = rhs.get(r);
            final double xi = Double.longBitsToDouble(xs.get(i));
            final double res = b - off - diag * xi;
            r2 += res * res;
            out.put(i, (b - off) / diag);
        }
        return r2;
    }
}
