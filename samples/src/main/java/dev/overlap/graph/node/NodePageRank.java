package dev.overlap.graph.node;

import dev.overlap.core.DoubleArray;
import dev.overlap.core.GlobalAddress;
import dev.overlap.core.IntArray;
import dev.overlap.core.KernelLaunch;
import dev.overlap.core.LongArray;
import dev.overlap.core.Mesh;
import dev.overlap.graph.CsrGraph;
import dev.overlap.graph.app.AppResult;
import dev.overlap.graph.app.AppSettings;
import dev.overlap.graph.app.WorkCounts;
import dev.overlap.graph.bsp.PullRows;
import dev.overlap.hosts.HostEndpoint;
import dev.overlap.hosts.HostGroup;
import dev.overlap.hosts.HostTransport;

/**
 * Pull PageRank across hosts, the model of {@link dev.overlap.graph.ref.PowerIteration} (dangling rank spread
 * evenly; ranks sum to 1). Every rank holds the same graph; the global devices are ranks x devices, global device
 * {@code g} owning the id range {@code [g n / G, (g + 1) n / G)} (as {@link NodeBfs}), so rank {@code r} owns the
 * contiguous range of its devices. Each device keeps its rows' in-edges in its memory and runs the one-JVM pull
 * kernel ({@link PullRows}) over them with its workers.
 *
 * <p><b>State.</b> On device 0 of every rank, at the same offsets on every rank (the constructor checks): two
 * contribution vectors {@code c[u] = x[u] / outdeg(u)} of all {@code n} vertices (double-buffered) and the ranks of
 * all {@code n} vertices (a rank writes its own range; rank 0 gathers the others' into it).
 *
 * <p><b>Iteration {@code k}</b> ({@link #run}): the devices' kernels read {@code c[k mod 2]} and write this rank's
 * range of {@code c[(k + 1) mod 2]} and its ranks; the host sums the blocks' partials (L1 change, dangling rank),
 * puts its range of {@code c[(k + 1) mod 2]} into every other rank's copy (one-sided {@link HostEndpoint#put}, split
 * by the endpoint into messages it accepts), waits for {@link HostEndpoint#quiet} (applied on every peer), then
 * joins one {@link HostGroup#allReduceSum(long[])} of the change and the dangling rank. Every rank computes the next
 * base and the stop decision from the same two sums: all ranks stop in the same iteration, on the rule of the
 * one-JVM modes ({@code delta * d / (1 - d)} below the tolerance, or the fixed iterations).
 *
 * <p><b>Why two contribution vectors suffice (the barrier argument).</b> A rank enters the all-reduce of iteration
 * {@code k} only after its kernels of {@code k} joined (its reads of {@code c[k mod 2]} are over) and after its
 * puts into the peers' {@code c[(k + 1) mod 2]} were applied there (quiet). No rank leaves that all-reduce before
 * every rank entered it. So when any rank starts iteration {@code k + 1}: every put of iteration {@code k} is in its
 * {@code c[(k + 1) mod 2]} (it reads a complete vector), and no rank still reads {@code c[k mod 2]}, the vector its
 * puts of iteration {@code k + 1} overwrite on the peers. A fast rank is at most one iteration ahead, and one
 * iteration ahead it writes only the buffer nobody reads. The visibility of the applied puts to the next kernels is
 * the chain {@link NodeBfs#gather} relies on too: applied by the peer's receiver before it reports the position
 * {@code quiet} waits for, then the all-reduce, then the kernel launch.
 *
 * <p><b>Exactness of the reduction.</b> The all-reduce sums {@code long}s: each rank sends its change and its
 * dangling rank rounded to multiples of 2<sup>-{@value #SCALE_BITS}</sup> ({@link #toFixed}), so the sums are exact,
 * the same on every rank whatever the order the messages arrive in, and every rank takes the same decision. The
 * rounding moves each sum by at most ranks x 2<sup>-{@value #SCALE_BITS}</sup> / 2 (below 1e-15 for 256 ranks),
 * far below any tolerance the command accepts; no value overflows: the change of a step is at most 2 (the L1
 * distance of two vectors of sum 1) and the dangling rank at most 1, 2<sup>{@value #SCALE_BITS}</sup> times which is
 * far below {@code Long.MAX_VALUE}.
 *
 * <p>Thread-safety: host calls from one thread per rank; the ranks call {@link #run} and {@link #gather} together.
 */
public final class NodePageRank {
    /** The fixed-point scale of the reduced sums: 2^59 units per 1.0. */
    static final int SCALE_BITS = 59;
    private static final double SCALE = Math.scalb(1.0, SCALE_BITS);

        private final Mesh mesh;
    private final HostGroup group;
    private final HostTransport hostTransport;
    private final int rank;
    private final int ranks;
    private final int devices;
    private final int n;
    private final int[] bounds;
    private final int[] outDegrees;
    private final long danglingCount;
    private final DoubleArray[] contrib = new DoubleArray[2];
    private final DoubleArray rankVector;
    private final PullRows[] rows;
    private final DoubleArray[] partials;
    private final KernelLaunch[] launches;
    /** In-edges of this rank's vertices (edges scanned per iteration). */
    private final long inEdges;
    private long puts;
    private long putBytes;

    /**
     * Collective: every rank builds it with the same graph and device count, on a mesh of
     * {@link #memoryPerDevice} bytes per device.
     *
     * @param g             the graph (the same on every rank: the caller checks its fingerprint)
     * @param in            {@code g.transpose()} (the in-edges; the caller's, shared with {@link #memoryPerDevice})
     * @param mesh          this rank's mesh (its devices, as many on every rank)
     * @param group         this rank's host group
     * @param hostTransport the host transport over the mesh's transport
     */
    public NodePageRank(final CsrGraph g, final CsrGraph in, final Mesh mesh, final HostGroup group, final HostTransport hostTransport) {
        this.mesh = mesh;
        this.group = group;
        this.hostTransport = hostTransport;
        this.rank = hostTransport.rank();
        this.ranks = hostTransport.ranks();
        this.devices = mesh.deviceCount();
        this.n = g.vertexCount();
        this.bounds = NodeBfs.bounds(n, ranks * devices);
        this.outDegrees = new int[n];
        long dangling = 0;
        for (int v = 0; v < n; v++) {
            outDegrees[v] = g.degree(v);
            if (outDegrees[v] == 0) {
                dangling++;
            }
        }
        this.danglingCount = dangling;
        contrib[0] = mesh.device(0).allocateDoubles(Math.max(1, n));
        contrib[1] = mesh.device(0).allocateDoubles(Math.max(1, n));
        rankVector = mesh.device(0).allocateDoubles(Math.max(1, n));
        final long[] offsets = {contrib[0].offset(), contrib[1].offset(), rankVector.offset()};
        for (int i = 0; i < offsets.length; i++) {
            group.checkSame("offset of the pagerank vector " + i, offsets[i]);
        }
        long scanned = 0;
        rows = new PullRows[devices];
        partials = new DoubleArray[devices];
        launches = new KernelLaunch[devices];
        for (int d = 0; d < devices; d++) {
            final int gd = rank * devices + d;
            final int lo = bounds[gd];
            final int owned = bounds[gd + 1] - lo;
            final long first = owned == 0 ? 0 : in.edgeStart(lo);
            final long edges = owned == 0 ? 0 : in.edgeEnd(lo + owned - 1) - first;
            final LongArray off = mesh.device(d).allocateLongs(owned + 1L);
            final IntArray targets = mesh.device(d).allocateInts(Math.max(1, edges));
            final IntArray deg = mesh.device(d).allocateInts(Math.max(1, owned));
            for (int i = 0; i <= owned; i++) {
                off.set(i, i == owned ? edges : in.edgeStart(lo + i) - first);
            }
            for (long e = 0; e < edges; e++) {
                targets.set((int)e, in.target(first + e));
            }
            for (int i = 0; i < owned; i++) {
                deg.set(i, outDegrees[lo + i]);
            }
            rows[d] = new PullRows(off, targets, rankVector, lo, deg, owned);
            scanned += edges;
            partials[d] = mesh.device(d).allocateDoubles(2L * rows[d].blocks());
        }
        this.inEdges = scanned;
    }

    /**
     * Bytes each device's memory needs (the same on every rank: the largest device's slice of all ranks, plus the
     * three vectors of device 0).
     *
     * @param in      the graph's in-edges ({@code g.transpose()})
     * @param ranks   ranks in the group
     * @param devices devices per rank
     * @return the memory per device to build the mesh with
     */
    public static long memoryPerDevice(final CsrGraph in, final int ranks, final int devices) {
        final int n = in.vertexCount();
        final int[] b = NodeBfs.bounds(n, ranks * devices);
        long slice = 0;
        for (int gd = 0; gd < ranks * devices; gd++) {
            final int owned = b[gd + 1] - b[gd];
            final long edges = owned == 0 ? 0 : in.edgeEnd(b[gd + 1] - 1) - in.edgeStart(b[gd]);
            final long blocks = Math.max(1, (owned + PullRows.ROWS_PER_BLOCK - 1) / PullRows.ROWS_PER_BLOCK);
            slice = Math.max(slice, 8L * (owned + 1) + 4 * Math.max(1, edges) + 4L * Math.max(1, owned) + 16 * blocks);
        }
        return 3 * 8L * Math.max(1, n) + slice + (8 << 20);
    }

    /**
     * One PageRank on every rank (collective).
     *
     * @param settings damping, tolerance, the iteration cap or the fixed iterations
     * @return the result: this rank's ranks only (the whole vector after {@link #gather}), the time and the work
     *         counts of this rank (iterations, the puts it sent and their bytes)
     */
    public AppResult run(final AppSettings settings) {
        final long start = System.nanoTime();
        final double damping = settings.damping();
        final double bound = damping / (1 - damping);
        final int fixed = settings.fixedIterations();
        final int maxIterations = fixed > 0 ? fixed : settings.maxIterations();
        final double initial = 1.0 / n;
        final int lo = bounds[rank * devices];
        final int hi = bounds[(rank + 1) * devices];
        for (int v = 0; v < n; v++) { // every rank starts from the same vector
            contrib[0].set(v, outDegrees[v] == 0 ? 0 : initial / outDegrees[v]);
        }
        for (int v = lo; v < hi; v++) {
            rankVector.set(v, initial);
        }
        puts = 0;
        putBytes = 0;
        double dangling = danglingCount * initial;
        double delta = Double.POSITIVE_INFINITY;
        int iterations = 0;
        final long[] sums = new long[2];
        try (HostEndpoint ep = hostTransport.newEndpoint(0)) {
            while (iterations < maxIterations && (fixed > 0 || !(delta * bound < settings.tolerance()))) {
                final double base = (1 - damping) / n + damping * dangling / n;
                final DoubleArray c = contrib[iterations & 1];
                final DoubleArray next = contrib[(iterations + 1) & 1];
                for (int d = 0; d < devices; d++) {
                    final PullRows r = rows[d];
                    final DoubleArray p = partials[d];
                    final int at = bounds[rank * devices + d];
                    launches[d] = r.rows() == 0 ? null : mesh.device(d).launch(r.blocks(),
                        (ctx, block) -> r.block(block, c, next, at, p, 0, base, damping));
                }
                double localDelta = 0;
                double localDangling = 0;
                for (int d = 0; d < devices; d++) {
                    if (launches[d] == null) {
                        continue;
                    }
                    launches[d].join();
                    for (int b = 0, blocks = rows[d].blocks(); b < blocks; b++) {
                        localDelta += partials[d].get(2 * b);
                        localDangling += partials[d].get(2 * b + 1);
                    }
                }
                for (int peer = 0; peer < ranks; peer++) {
                    if (peer != rank) {
                        putRange(ep, peer, next, lo, hi - lo);
                    }
                }
                ep.quiet();
                sums[0] = toFixed(localDelta);
                sums[1] = toFixed(localDangling);
                group.allReduceSum(sums);
                delta = sums[0] / SCALE;
                dangling = sums[1] / SCALE;
                iterations++;
            }
        }
        final long nanos = System.nanoTime() - start;
        final double[] mine = new double[n];
        for (int v = lo; v < hi; v++) {
            mine[v] = rankVector.get(v);
        }
        final long owned = hi - lo;
        return AppResult.pageRank(mine, nanos, new WorkCounts(iterations, owned * iterations, owned * iterations,
            inEdges * iterations, 0, 0, 0, puts, putBytes));
    }

    /** @return {@code x} (in 0..4) in units of 2^-{@value #SCALE_BITS}, rounded to nearest */
    static long toFixed(final double x) {
        return Math.round(x * SCALE);
    }

    /** Puts {@code count} elements of {@code a} from {@code from} into the same elements of rank {@code peer}'s copy. */
    private void putRange(final HostEndpoint ep, final int peer, final DoubleArray a, final int from, final int count) {
        if (count == 0) {
            return;
        }
        final long offset = a.offset() + 8L * from;
        ep.put(peer, GlobalAddress.of(0, offset), a.memory().buffer(), (int)offset, 8 * count);
        puts++;
        putBytes += 8L * count;
    }

    /**
     * Collective, after a {@link #run}: every rank puts its ranks into rank 0's vector (one-sided, then quiet and a
     * barrier).
     *
     * @return on rank 0, the rank of every vertex; null on the other ranks
     */
    public double[] gather() {
        if (rank != 0) {
            try (HostEndpoint ep = hostTransport.newEndpoint(0)) {
                putRange(ep, 0, rankVector, bounds[rank * devices], bounds[(rank + 1) * devices]
                    - bounds[rank * devices]);
                ep.quiet();
            }
        }
        group.barrier(); // every put applied on rank 0
        if (rank != 0) {
            return null;
        }
        final double[] out = new double[n];
        for (int v = 0; v < n; v++) {
            out[v] = rankVector.getVolatile(v);
        }
        return out;
    }

}
