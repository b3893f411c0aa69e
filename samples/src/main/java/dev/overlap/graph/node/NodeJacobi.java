package dev.overlap.graph.node;

import dev.overlap.core.DoubleArray;
import dev.overlap.core.GlobalAddress;
import dev.overlap.core.KernelLaunch;
import dev.overlap.core.LongArray;
import dev.overlap.core.Mesh;
import dev.overlap.graph.jacobi.BandedSystem;
import dev.overlap.graph.jacobi.JacobiRows;
import dev.overlap.graph.jacobi.JacobiSolver;
import dev.overlap.hosts.HostEndpoint;
import dev.overlap.hosts.HostGroup;
import dev.overlap.hosts.HostTransport;

/**
 * Jacobi on a {@link BandedSystem} across hosts, the iteration of {@link JacobiSolver} (same row kernel,
 * {@link JacobiRows}; same start {@code x_0 = 0}, same stop rule) with the vector exchanged by one-sided puts instead
 * of PROACT regions. Every rank builds the same system (the caller checks it); the global devices are ranks x
 * devices, global device {@code g} owning the rows {@code [g n / G, (g + 1) n / G)} ({@link NodeBfs#bounds}), so
 * rank {@code r} owns the contiguous rows of its devices. Each device keeps its rows' band and {@code b} in its
 * memory and runs the kernel over them with its workers.
 *
 * <p><b>State.</b> On device 0 of every rank, at the same offsets on every rank (the constructor checks): two copies
 * of the whole vector (double-buffered, {@code double} bits), {@code x_k} in {@code x[k mod 2]}.
 *
 * <p><b>Iteration {@code k}</b> ({@link #solve}): the devices' kernels read {@code x[k mod 2]}, write this rank's
 * rows of {@code x[(k + 1) mod 2]} and the squared residuals of {@code x_k} per block; the host sums its blocks
 * (devices, then blocks, in order), puts its rows of {@code x[(k + 1) mod 2]} into every other rank's copy
 * (one-sided {@link HostEndpoint#put}), waits for {@link HostEndpoint#quiet} (applied on every peer), then joins one
 * {@link HostGroup#allReduceSum(long[])} carrying every rank's squared residual. Every rank computes the same
 * residual {@code ||b - A x_k|| / ||b||} and stops in the same iteration, returning {@code x_k} (complete on every
 * rank: its rows were put during iteration {@code k - 1}).
 *
 * <p><b>Why two vectors suffice (the barrier argument of {@link NodePageRank}).</b> A rank enters the all-reduce of
 * iteration {@code k} only after its kernels of {@code k} joined (its reads of {@code x[k mod 2]} are over) and after
 * its puts into the peers' {@code x[(k + 1) mod 2]} were applied there (quiet). No rank leaves that all-reduce before
 * every rank entered it. So when any rank starts iteration {@code k + 1}, every put of iteration {@code k} is in its
 * {@code x[(k + 1) mod 2]}, and no rank still reads {@code x[k mod 2]}, the vector its puts of iteration
 * {@code k + 1} overwrite on the peers. The applied puts are visible to the next kernels by the chain
 * {@link NodeBfs#gather} relies on: applied by the peer's receiver before it reports the position {@code quiet}
 * waits for, then the all-reduce, then the kernel launch. A solve ends with a barrier, so the next solve's puts
 * never overwrite a vector a slow rank still copies out.
 *
 * <p><b>Exactness of the reduction.</b> The stop decision must be the same on every rank, so the residual must be
 * the same double everywhere. Rather than rounding to fixed point as {@link NodePageRank} does (a squared residual
 * near {@code (tolerance ||b||)^2}, e.g. 1e-16, would keep only a few bits of a fixed-point scale that also holds
 * {@code ||b||^2}), each rank sends the bits of its own sum in its own slot of a vector of {@code ranks} longs, the
 * other slots 0: the all-reduce's sums are exactly every rank's bits (one non-zero term per slot, in
 * {@value HostGroup#MAX_VALUES}-slot pieces), and every rank adds them in rank order, so every rank computes the
 * identical double with no rounding bound to state.
 *
 * <p>Thread-safety: host calls from one thread per rank; the ranks call {@link #solve} together.
 */
public final class NodeJacobi {
    private final Mesh mesh;
    private final HostGroup group;
    private final HostTransport hostTransport;
    private final BandedSystem system;
    private final int rank;
    private final int ranks;
    private final int devices;
    private final int n;
    private final int[] bounds;
    private final int grid;
    private final LongArray[] x = new LongArray[2];
    private final DoubleArray[] band;
    private final DoubleArray[] rhs;
    private final DoubleArray[] partials;
    private final KernelLaunch[] launches;
    private final double bNorm;

    /**
     * Collective: every rank builds it with the same system and device count, on a mesh of {@link #bytesPerDevice}
     * bytes per device.
     *
     * @param system        the system (the same on every rank: the caller checks it)
     * @param mesh          this rank's mesh (its devices, as many on every rank)
     * @param group         this rank's host group
     * @param hostTransport the host transport over the mesh's transport
     */
    public NodeJacobi(final BandedSystem system, final Mesh mesh, final HostGroup group,
        final HostTransport hostTransport) {
        this.mesh = mesh;
        this.group = group;
        this.hostTransport = hostTransport;
        this.system = system;
        this.rank = hostTransport.rank();
        this.ranks = hostTransport.ranks();
        this.devices = mesh.deviceCount();
        this.n = system.size();
        this.bounds = NodeBfs.bounds(n, ranks * devices);
        this.grid = blocks(bounds);
        x[0] = mesh.device(0).allocateLongs(n);
        x[1] = mesh.device(0).allocateLongs(n);
        group.checkSame("offset of the jacobi vector 0", x[0].offset());
        group.checkSame("offset of the jacobi vector 1", x[1].offset());
        final int width = 2 * system.halfBand() + 1;
        band = new DoubleArray[devices];
        rhs = new DoubleArray[devices];
        partials = new DoubleArray[devices];
        launches = new KernelLaunch[devices];
        for (int d = 0; d < devices; d++) {
            final int start = bounds[rank * devices + d];
            final int rows = bounds[rank * devices + d + 1] - start;
            band[d] = mesh.device(d).allocateDoubles(Math.max(1L, (long)rows * width));
            rhs[d] = mesh.device(d).allocateDoubles(Math.max(1, rows));
            partials[d] = mesh.device(d).allocateDoubles(Math.max(1, grid));
            final DoubleArray a = band[d];
            final DoubleArray b = rhs[d];
            launches[d] = rows == 0 ? null
                : mesh.device(d).launch(grid, (ctx, block) -> JacobiRows.fill(system, a, b, start, rows, block));
        }
        joinAll();
        double b2 = 0;
        for (int i = 0; i < n; i++) {
            b2 += system.rhs(i) * system.rhs(i);
        }
        this.bNorm = Math.sqrt(b2);
    }

    /** @return kernel blocks per device: enough for the largest device's rows */
    private static int blocks(final int[] bounds) {
        int most = 0;
        for (int g = 0; g + 1 < bounds.length; g++) {
            most = Math.max(most, bounds[g + 1] - bounds[g]);
        }
        return Math.max(1, (most + JacobiSolver.ROWS_PER_BLOCK - 1) / JacobiSolver.ROWS_PER_BLOCK);
    }

    /**
     * Bytes each device's memory needs (the same on every rank): the largest device's band, {@code b} and partials,
     * plus the two vectors of device 0, plus slack for the allocator.
     *
     * @param system  the system
     * @param ranks   ranks in the group
     * @param devices devices per rank
     * @return the memory per device to build the mesh with
     */
    public static long bytesPerDevice(final BandedSystem system, final int ranks, final int devices) {
        final int[] b = NodeBfs.bounds(system.size(), ranks * devices);
        int most = 0;
        for (int g = 0; g + 1 < b.length; g++) {
            most = Math.max(most, b[g + 1] - b[g]);
        }
        final long width = 2L * system.halfBand() + 1;
        return 2 * 8L * system.size() + 8L * Math.max(1, most) * (width + 1) + 8L * blocks(b) + (8 << 20);
    }

    /**
     * One solve on every rank (collective).
     *
     * @param tolerance     relative residual to reach, > 0
     * @param maxIterations cap, >= 1
     * @return the solution {@code x_k} of the first {@code k} whose residual is below the tolerance, or of
     *         {@code k = maxIterations} (the whole vector, on every rank), and what it took on this rank (its time,
     *         the puts it sent and their bytes)
     */
    public JacobiSolver.Result solve(final double tolerance, final int maxIterations) {
        if (!(tolerance > 0)) {
            throw new IllegalArgumentException("tolerance must be > 0, was " + tolerance);
        }
        if (maxIterations < 1) {
            throw new IllegalArgumentException("maxIterations must be >= 1, was " + maxIterations);
        }
        final long start = System.nanoTime();
        for (int i = 0; i < n; i++) { // x_0 = 0 on every rank
            x[0].set(i, Double.doubleToRawLongBits(0.0));
        }
        final int k = system.halfBand();
        final int lo = bounds[rank * devices];
        final int hi = bounds[(rank + 1) * devices];
        final long[] slots = new long[Math.min(ranks, HostGroup.MAX_VALUES)];
        final double[] rankSums = new double[ranks];
        long puts = 0;
        int iterations = 0;
        double residual;
        try (HostEndpoint ep = hostTransport.newEndpoint(0)) {
            while (true) {
                final LongArray src = x[iterations & 1];
                final LongArray dst = x[(iterations + 1) & 1];
                final JacobiRows.Sink out = (i, xi) -> dst.set(i, Double.doubleToRawLongBits(xi));
                for (int d = 0; d < devices; d++) {
                    final int first = bounds[rank * devices + d];
                    final int rows = bounds[rank * devices + d + 1] - first;
                    final DoubleArray a = band[d];
                    final DoubleArray b = rhs[d];
                    final DoubleArray p = partials[d];
                    launches[d] = rows == 0 ? null : mesh.device(d).launch(grid, (ctx, block) ->
                        p.set(block, JacobiRows.block(a, b, src, first, rows, block, n, k, out)));
                }
                joinAll();
                double local = 0;
                for (int d = 0; d < devices; d++) {
                    final int rows = bounds[rank * devices + d + 1] - bounds[rank * devices + d];
                    for (int b = 0, used = (rows + JacobiSolver.ROWS_PER_BLOCK - 1) / JacobiSolver.ROWS_PER_BLOCK;
                         b < used; b++) {
                        local += partials[d].get(b);
                    }
                }
                if (hi > lo) {
                    for (int peer = 0; peer < ranks; peer++) {
                        if (peer != rank) {
                            final long offset = dst.offset() + 8L * lo;
                            ep.put(peer, GlobalAddress.of(0, offset), dst.memory().buffer(), (int)offset,
                                8 * (hi - lo));
                            puts++;
                        }
                    }
                }
                ep.quiet();
                reduceExactly(local, slots, rankSums);
                double r2 = 0;
                for (final double s : rankSums) {
                    r2 += s;
                }
                residual = Math.sqrt(r2) / bNorm;
                if (residual < tolerance || iterations == maxIterations) {
                    break;
                }
                iterations++;
            }
        }
        final long nanos = System.nanoTime() - start;
        final LongArray result = x[iterations & 1];
        final double[] out = new double[n];
        for (int i = 0; i < n; i++) {
            out[i] = Double.longBitsToDouble(result.getVolatile(i));
        }
        group.barrier(); // every rank copied its result out before any rank's next solve puts into it
        return new JacobiSolver.Result(out, iterations, residual, nanos, puts * 8L * (hi - lo), puts);
    }

    /**
     * Every rank's {@code local}, by rank, in {@code rankSums} (collective): each rank's bits in its own slot, the
     * others 0, summed by the group in pieces of at most {@link HostGroup#MAX_VALUES} slots.
     */
    private void reduceExactly(final double local, final long[] slots, final double[] rankSums) {
        for (int from = 0; from < ranks; from += slots.length) {
            final int count = Math.min(slots.length, ranks - from);
            java.util.Arrays.fill(slots, 0L);
            if (rank >= from && rank < from + count) {
                slots[rank - from] = Double.doubleToRawLongBits(local);
            }
            final long[] piece = count == slots.length ? slots : java.util.Arrays.copyOf(slots, count);
            group.allReduceSum(piece);
            for (int r = 0; r < count; r++) {
                rankSums[from + r] = Double.longBitsToDouble(piece[r]);
            }
        }
    }

    private void joinAll() {
        for (int d = 0; d < devices; d++) {
            if (launches[d] != null) {
                launches[d].join();
                launches[d] = null;
            }
        }
    }
}
