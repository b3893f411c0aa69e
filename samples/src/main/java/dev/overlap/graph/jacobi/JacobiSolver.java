package dev.overlap.graph.jacobi;

import dev.overlap.core.BlockMapping;
import dev.overlap.core.DoubleArray;
import dev.overlap.core.Kernel;
import dev.overlap.core.Mesh;
import dev.overlap.core.SymmetricArray;
import dev.overlap.core.World;
import dev.overlap.replication.ReplicatedRegion;
import dev.overlap.replication.TransferConfig;
import dev.overlap.replication.TransferMode;

/**
 * Jacobi iteration for a {@link BandedSystem} on the mesh, with the solution vector replicated on every device in
 * PROACT {@link ReplicatedRegion}s and moved by the chosen {@link TransferMode}.
 *
 * <p>Each device owns the rows of its region slice and keeps their band of {@code A} and their {@code b} in its
 * memory. Two regions alternate (one holds {@code x_k}, read from the local replica; the other receives
 * {@code x_{k+1}}, written by the producing blocks and replicated as chunks become ready). The kernel that computes
 * {@code x_{k+1}} also computes the residual {@code b - A x_k} of its rows for free, as per-block partial sums of
 * squares; the host sums them (in a fixed order) after {@code awaitTransfers()} and stops when
 * {@code ||b - A x_k|| / ||b||} is below the tolerance, returning {@code x_k}.
 *
 * <p><b>Across processes</b> (a mesh with a {@link dev.overlap.core.World} of several ranks; SPMD, every rank calls
 * {@link #solve} with the same system and settings): each rank keeps the band and {@code b} of its own devices'
 * rows and launches only them; the regions replicate across the processes and end every iteration with a world
 * barrier ({@link ReplicatedRegion#awaitTransfers()}); the partial sums are a symmetric allocation, two sets used in
 * turn, so every rank sums every device's partials in the same order after that barrier and every rank stops at the
 * same iteration. Each rank returns the whole solution, read from a replica of its own.
 *
 * <p>Thread-safety: one solve at a time per mesh, driven by the calling host thread.
 */
public final class JacobiSolver {
    /** Rows per kernel block. */
    public static final int ROWS_PER_BLOCK = 2048;

    private JacobiSolver() {
    }

    /** The outcome of a solve (here, and across hosts by {@code dev.overlap.graph.node.NodeJacobi}). */
    public static final class Result {
        private final double[] x;
        private final int iterations;
        private final double residual;
        private final long nanos;
        private final long copiedBytes;
        private final long copiedChunks;

        /**
         * @param x            the solution
         * @param iterations   iterations run
         * @param residual     relative residual of {@code x} as measured on the devices
         * @param nanos        solve time
         * @param copiedBytes  bytes that moved the vector between devices
         * @param copiedChunks copies (or puts) that moved them
         */
        public Result(final double[] x, final int iterations, final double residual, final long nanos,
            final long copiedBytes, final long copiedChunks) {
            this.x = x;
            this.iterations = iterations;
            this.residual = residual;
            this.nanos = nanos;
            this.copiedBytes = copiedBytes;
            this.copiedChunks = copiedChunks;
        }

        /** @return the solution (owned by the caller) */
        public double[] x() {
            return x;
        }

        /** @return iterations run */
        public int iterations() {
            return iterations;
        }

        /** @return relative residual of {@link #x()} as measured on the devices */
        public double residual() {
            return residual;
        }

        /** @return solve time (iterations only; set-up excluded) */
        public long nanos() {
            return nanos;
        }

        /** @return bytes the regions copied between devices (across hosts: the bytes this rank put to others) */
        public long copiedBytes() {
            return copiedBytes;
        }

        /** @return chunk copies the regions made (across hosts: the puts this rank sent) */
        public long copiedChunks() {
            return copiedChunks;
        }
    }

    /** @return device bytes per device for {@code system} on {@code devices} devices, regions included */
    public static long bytesPerDevice(final BandedSystem system, final int devices) {
        final long rows = (system.size() + devices - 1L) / devices;
        final long blocks = (rows + ROWS_PER_BLOCK - 1) / ROWS_PER_BLOCK + 1;
        return 2 * (system.size() * 8L + 64) + rows * (2L * system.halfBand() + 2) * 8 + 64 + 2 * blocks * 8 + 64;
    }

    /**
     * @param mesh          the mesh (every device produces a slice)
     * @param system        the system
     * @param config        transfer mode, chunk size, transfer threads (NONE and TRACK_ONLY do not replicate and
     *                      are refused)
     * @param tolerance     relative residual to reach, > 0
     * @param maxIterations cap, >= 1
     * @return the solution and what it took
     */
    public static Result solve(final Mesh mesh, final BandedSystem system, final TransferConfig config,
        final double tolerance, final int maxIterations) {
        if (!config.mode().replicates()) {
            throw new IllegalArgumentException("transfer mode " + config.mode() + " does not replicate the vector: "
                + "Jacobi needs INLINE, POLLING, TRIGGERED or BULK");
        }
        final int devices = mesh.deviceCount();
        final int n = system.size();
        final int k = system.halfBand();
        final int width = 2 * k + 1;
        final int grid = (int)(((n + devices - 1L) / devices + ROWS_PER_BLOCK - 1) / ROWS_PER_BLOCK);
        final ReplicatedRegion[] x = new ReplicatedRegion[2];
        final World world = mesh.world();
        final DoubleArray[] band = new DoubleArray[devices];
        final DoubleArray[] rhs = new DoubleArray[devices];
        final DoubleArray[] partial = new DoubleArray[devices];
        SymmetricArray<DoubleArray> partials = null;
        try {
            for (int r = 0; r < 2; r++) {
                x[r] = config.applyTo(ReplicatedRegion.builder(mesh)).elements(n).gridSize(grid)
                    .mapping(BlockMapping.oneToOne(ROWS_PER_BLOCK * 8L)).build();
            }
            // two sets of per-block partials, used in turn: symmetric, so every rank reads every device's
            partials = mesh.allocateDoubles(2L * grid);
            double b2 = 0;
            for (int i = 0; i < n; i++) {
                b2 += system.rhs(i) * system.rhs(i);
            }
            final double bNorm = Math.sqrt(b2);
            final dev.overlap.core.KernelLaunch[] fills = new dev.overlap.core.KernelLaunch[devices];
            for (int d = 0; d < devices; d++) {
                partial[d] = partials.on(d);
                if (!world.isLocal(d)) {
                    continue;
                }
                final int start = (int)x[0].sliceStart(d);
                final int rows = (int)x[0].sliceLength(d);
                band[d] = mesh.device(d).allocateDoubles(Math.max(1L, (long)rows * width));
                rhs[d] = mesh.device(d).allocateDoubles(Math.max(1, rows));
                final DoubleArray a = band[d];
                final DoubleArray bv = rhs[d];
                fills[d] = mesh.device(d).launch(grid, (ctx, block) -> JacobiRows.fill(system, a, bv, start, rows,
                    block));
            }
            for (final dev.overlap.core.KernelLaunch f : fills) {
                if (f != null) {
                    f.join();
                }
            }
            final long begin = System.nanoTime();
            int cur = 0;
            int iterations = 0;
            double residual = Double.POSITIVE_INFINITY;
            while (true) {
                final ReplicatedRegion src = x[cur];
                final ReplicatedRegion dst = x[cur ^ 1];
                final int part = (iterations & 1) * grid;
                for (int d = world.firstLocalDevice(), end = d + world.localDeviceCount(); d < end; d++) {
                    dst.launch(d, kernel(src, dst, d, band[d], rhs[d], partial[d], part, n, k));
                }
                dst.awaitTransfers(); // across processes also the barrier after which every partial is readable
                double r2 = 0;
                for (int d = 0; d < devices; d++) {
                    for (int b = 0; b < grid; b++) {
                        r2 += partial[d].get(part + b);
                    }
                }
                residual = Math.sqrt(r2) / bNorm;
                if (residual < tolerance || iterations == maxIterations) {
                    break;
                }
                cur ^= 1;
                iterations++;
            }
            final long nanos = System.nanoTime() - begin;
            final double[] out = new double[n];
            final int own = world.firstLocalDevice();
            for (int i = 0; i < n; i++) {
                out[i] = x[cur].getDouble(own, i);
            }
            return new Result(out, iterations, residual, nanos, copied(world, x[0].copiedBytes() + x[1].copiedBytes()),
                copied(world, x[0].copiedChunks() + x[1].copiedChunks()));
        } finally {
            for (final ReplicatedRegion r : x) {
                if (r != null) {
                    r.close();
                }
            }
            if (!mesh.isClosed()) {
                for (int d = 0; d < devices; d++) {
                    if (band[d] != null) {
                        mesh.device(d).free(band[d]);
                    }
                    if (rhs[d] != null) {
                        mesh.device(d).free(rhs[d]);
                    }
                }
                if (partials != null) {
                    partials.close();
                }
            }
        }
    }

    /** @return {@code local} summed over the ranks (collective across processes; in one process itself) */
    private static long copied(final World world, final long local) {
        return world.allReduceSum(local);
    }

    /** One iteration's block: {@code x_{k+1}} of the block's rows into {@code dst}, residual of {@code x_k}. */
    static Kernel kernel(final ReplicatedRegion src, final ReplicatedRegion dst, final int d, final DoubleArray band,
        final DoubleArray rhs, final DoubleArray partial, final int part, final int n, final int k) {
        final int start = (int)src.sliceStart(d);
        final int rows = (int)src.sliceLength(d);
        final dev.overlap.core.LongArray xs = src.replica(d);
        final JacobiRows.Sink out = (i, xi) -> dst.putDouble(d, i, xi);
        return (ctx, block) -> partial.set(part + block, JacobiRows.block(band, rhs, xs, start, rows, block, n, k, out));
    }
}
