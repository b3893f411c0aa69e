package dev.overlap.graph.node;

import dev.overlap.core.GlobalAddress;
import dev.overlap.core.IntArray;
import dev.overlap.core.KernelLaunch;
import dev.overlap.core.Mesh;
import dev.overlap.graph.CsrGraph;
import dev.overlap.graph.partition.Owners;
import dev.overlap.hosts.HostEndpoint;
import dev.overlap.hosts.HostGroup;
import dev.overlap.hosts.HostTransport;
import dev.overlap.hosts.HostWorklistLink;
import dev.overlap.transport.Transport;
import dev.overlap.queues.IntPriorityWorklist;
import dev.overlap.transport.Inbox;
import dev.overlap.worklist.DistributedWorklist;
import dev.overlap.worklist.KernelMode;
import dev.overlap.worklist.TaskContext;
import dev.overlap.worklist.TaskFunction;
import dev.overlap.worklist.WorkerShape;
import dev.overlap.worklist.WorklistStats;

/**
 * Asynchronous BFS across hosts, or SSSP on the edge weights (built with a {@code delta > 0}: BFS is SSSP with unit
 * weights; "depth" below is the distance then, and {@code d + 1} is {@code d + weight}), owner-compute (Atos' form
 * for a network): every rank holds the same graph (on the heap) and owns the vertices of its devices; the global devices are ranks x devices, global device {@code g} owning
 * the id range {@code [g n / G, (g + 1) n / G)} and living on rank {@code g / devices} as its device
 * {@code g % devices}. A task is a vertex (its index on its device) with its candidate depth as the priority of a
 * priority worklist (shallower first; for SSSP in bands of {@code delta}, delta-stepping style). The priority is an
 * {@code int}, so SSSP refuses a graph whose longest possible distance (the largest weight times {@code n - 1}) does
 * not fit one. Expanding a vertex at depth {@code d}: a neighbour on this rank gets
 * {@code d + 1} by an atomic minimum on its depth (this process's memory) and is pushed to its device when the
 * minimum lowered it; a neighbour on another rank is pushed there as (vertex, {@code d + 1}) with the
 * {@link #APPLY} bit, and its owner applies the minimum itself when the task runs, expanding only if it lowered the
 * depth. A per-rank filter (the smallest depth this rank already sent for each vertex of other ranks) drops pushes
 * that cannot improve on one already sent.
 *
 * <p><b>Exactness</b> as in the one-process async BFS: depths only fall, every fall is followed by an expansion at
 * that depth (locally by the pusher's push, remotely by the owner's own task), and the run ends only when no task
 * exists on any rank ({@link DistributedWorklist} across ranks); so at the end every edge {@code u -> w} has
 * {@code depth[w] <= depth[u] + 1}. The filter only drops a push whose depth was already sent to the same owner,
 * which will apply it.
 *
 * <p>After a run rank 0 gathers every rank's depths with one-sided puts into a region of its device 0
 * ({@link #gather}). Thread-safety: host calls from one thread per rank; the ranks call {@link #run} together.
 */
public final class NodeBfs implements AutoCloseable {
    /** Depth of a vertex not reached. */
    public static final int INF = Integer.MAX_VALUE;
    /** The task bit that says: pushed from another rank, the owner applies the minimum. */
    static final int APPLY = 1 << 31;
    /** Longs between two workers' counts in {@link #work}: 128 bytes, no false sharing. */
    private static final int STRIDE = 16;

    private final CsrGraph g;
    private final Mesh mesh;
    private final HostGroup group;
    private final HostTransport hostTransport;
    private final int rank;
    private final int devices;
    private final int[] bounds;
    private final IntArray[] depth;
    /** Per vertex of other ranks: the smallest depth this rank sent for it (INF: none). On device 0. */
    private final IntArray sent;
    /** Rank 0: the whole answer, written by every rank's puts; null elsewhere. */
    private final IntArray gathered;
    private final DistributedWorklist worklist;
    /** Per device, per worker (16 longs apart: no false sharing): expansions, then edges scanned, of the last run. */
    private final long[][] work;
    /** SSSP (the edge weights), or BFS (unit weights). */
    private final boolean weighted;

    /**
     * Device bytes each device of a rank needs for a {@code NodeBfs} (sized here, beside the allocations, so that the
     * command's mesh cannot drift from them): the depths of the vertices it owns, on device 0 the per-vertex filter
     * and rank 0's gather region, the priority worklist's queue at {@code queueCapacity}, the transport's inbox ring
     * of {@code ringBytes}, and slack for alignment and the transport's counters.
     *
     * @param n the graph's vertices
     * @param ranks ranks in the group
     * @param devices devices per rank
     * @param queueCapacity tasks per device queue (as given to the constructor)
     * @param ringBytes the transport's inbox ring capacity
     * @param workers the workers of a rank's mesh (the transport gives each an endpoint, and 16 more)
     * @return bytes per device (the same on every rank: the host transport checks that the meshes match)
     */
    public static long bytesPerDevice(final int n, final int ranks, final int devices, final int queueCapacity,
        final int ringBytes, final int workers) {
        final long owned = (n + (long)ranks * devices - 1) / ((long)ranks * devices);
        final long depths = 4 * Math.max(1, owned) + 128;
        final long device0 = 2 * (4L * Math.max(1, n) + 128);
        final long queue = IntPriorityWorklist.requiredBytes(queueCapacity) + 256;
        final long inbox = Inbox.requiredBytes(ringBytes, workers + 16) + 4096;
        return depths + device0 + queue + inbox + (1 << 20);
    }

    /**
     * Collective: every rank builds it with the same graph and device count.
     *
     * @param g the graph (the same on every rank: the caller checks its fingerprint)
     * @param mesh this rank's mesh (its devices, as many on every rank)
     * @param transport the mesh's transport
     * @param group this rank's host group
     * @param hostTransport the host transport over {@code transport}
     * @param queueCapacity tasks per device queue
     * @param delta         0: BFS; otherwise SSSP on {@code g}'s weights, with priority bands this wide
     * @throws IllegalArgumentException for SSSP on a graph whose distances may not fit an {@code int}
     */
    public NodeBfs(final CsrGraph g, final Mesh mesh, final Transport transport, final HostGroup group,
        final HostTransport hostTransport, final int queueCapacity, final int delta) {
        if (delta < 0) {
            throw new IllegalArgumentException("delta must be >= 0 (0: BFS), was " + delta);
        }
        this.weighted = delta > 0;
        if (weighted) {
            long maxWeight = 0;
            for (long e = 0, m = g.edgeCount(); e < m; e++) {
                maxWeight = Math.max(maxWeight, g.weight(e));
            }
            final long longest = maxWeight * Math.max(0, g.vertexCount() - 1L);
            if (longest >= INF) {
                throw new IllegalArgumentException("SSSP across hosts carries distances as int priorities: the "
                    + "largest weight " + maxWeight + " times " + (g.vertexCount() - 1) + " hops is " + longest
                    + ", above " + (INF - 1));
            }
        }
        this.g = g;
        this.mesh = mesh;
        this.hostTransport = hostTransport;
        this.group = group;
        this.rank = hostTransport.rank();
        this.devices = mesh.deviceCount();
        final int global = hostTransport.ranks() * devices;
        final int n = g.vertexCount();
        this.bounds = bounds(n, global);
        this.depth = new IntArray[devices];
        for (int d = 0; d < devices; d++) {
            depth[d] = mesh.device(d).allocateInts(Math.max(1, size(rank * devices + d)));
        }
        this.sent = mesh.device(0).allocateInts(Math.max(1, n));
        this.gathered = rank == 0 ? mesh.device(0).allocateInts(Math.max(1, n)) : null;
        this.work = new long[devices][];
        for (int d = 0; d < devices; d++) {
            work[d] = new long[(mesh.device(d).workerCount() + 1) * STRIDE];
        }
        this.worklist = DistributedWorklist.builder(mesh).transport(transport)
            .priority(weighted ? delta : 1, weighted ? delta : 1)
            .queueCapacity(queueCapacity).ranks(new HostWorklistLink(hostTransport)).build();
    }

    /**
     * The id ranges of {@code global} devices over {@code n} vertices.
     *
     * @return {@code global + 1} bounds, global device {@code g} owning {@code [b[g], b[g + 1])}
     */
    static int[] bounds(final int n, final int global) {
        final int[] b = new int[global + 1];
        for (int d = 0; d <= global; d++) {
            b[d] = (int)((long)d * n / global);
        }
        return b;
    }

    /** @return the vertices global device {@code gd} owns */
    private int size(final int gd) {
        return bounds[gd + 1] - bounds[gd];
    }

    /** @return the global device that owns vertex {@code v} */
    int owner(final int v) {
        return Owners.of(bounds, v);
    }

    /**
     * One BFS from {@code source} on every rank (collective).
     *
     * @return this rank's run statistics
     */
    public WorklistStats run(final int source) {
        for (final long[] w : work) {
            java.util.Arrays.fill(w, 0);
        }
        fill();
        final int o = owner(source);
        if (o / devices == rank) {
            final int v = source - bounds[o];
            depth[o % devices].setVolatile(v, 0);
            worklist.seed(o % devices, v, 0);
        }
        return worklist.run(WorkerShape.WARP, KernelMode.PERSISTENT, new Kernel());
    }

    /** @return vertices this rank expanded in the last run (a vertex expanded again after a better depth counts twice) */
    public long expansions() {
        return sum(0);
    }

    /** @return edges this rank scanned in the last run */
    public long edgesScanned() {
        return sum(1);
    }

    /** Host, after a run (its join ordered the workers' plain writes before this). */
    private long sum(final int field) {
        long total = 0;
        for (final long[] w : work) {
            for (int i = field; i < w.length; i += STRIDE) {
                total += w[i];
            }
        }
        return total;
    }

    /** Resets the depths and the sent filter of this rank's devices (one kernel per device). */
    private void fill() {
        final KernelLaunch[] launches = new KernelLaunch[devices];
        for (int d = 0; d < devices; d++) {
            final IntArray a = depth[d];
            final IntArray s = d == 0 ? sent : null;
            launches[d] = mesh.device(d).launch(1, (ctx, b) -> {
                a.fill(INF);
                if (s != null) {
                    s.fill(INF);
                }
            });
        }
        for (final KernelLaunch l : launches) {
            l.join();
        }
    }

    /**
     * Collective: every rank puts its depths into rank 0's gathering region (one-sided, then quiet and a barrier).
     *
     * @return on rank 0, the depth of every vertex ({@code -1}: not reached); null on the other ranks
     */
    public int[] gather() {
        final long[] where = {gathered != null ? gathered.offset() : 0};
        group.allReduceMax(where); // rank 0's offset of the gathering region, to every rank
        if (rank != 0) {
            try (HostEndpoint ep = hostTransport.newEndpoint(0)) {
                for (int d = 0; d < devices; d++) {
                    final int gd = rank * devices + d;
                    final int bytes = size(gd) * 4;
                    if (bytes > 0) {
                        ep.put(0, GlobalAddress.of(0, where[0] + 4L * bounds[gd]), depth[d].region().buffer(d), 0,
                            bytes);
                    }
                }
                ep.quiet();
            }
        } else {
            for (int d = 0; d < devices; d++) {
                final int lo = bounds[d];
                for (int i = 0, s = size(d); i < s; i++) {
                    gathered.set(lo + i, depth[d].get(i));
                }
            }
        }
        group.barrier(); // every put applied on rank 0
        if (rank != 0) {
            return null;
        }
        final int[] out = new int[g.vertexCount()];
        for (int v = 0; v < out.length; v++) {
            final int x = gathered.getVolatile(v);
            out[v] = x == INF ? -1 : x;
        }
        return out;
    }

    @Override
    public void close() {
        worklist.close();
    }

    /** The task function (see the class comment); no allocation per task. */
    private final class Kernel implements TaskFunction {
        @Override
        public void run(final int task, final TaskContext ctx) {
            final int d = ctx.device();
            final IntArray mine = depth[d];
            final int v = task & ~APPLY;
            final int cand = ctx.priority();
            if ((task & APPLY) != 0) { // from another rank: the owner applies the minimum
                if (!lower(mine, v, cand)) {
                    return;
                }
            } else if (cand > mine.getVolatile(v)) {
                return; // stale: a later push carries the better depth
            }
            final int u = bounds[rank * devices + d] + v;
            final long[] counts = work[d];
            final int at = ctx.worker() * STRIDE;
            counts[at]++;
            counts[at + 1] += g.degree(u);
            for (long e = g.edgeStart(u), end = g.edgeEnd(u); e < end; e++) {
                final int w = g.target(e);
                final int next = cand + (weighted ? g.weight(e) : 1); // below INF: the constructor's check
                final int o = owner(w);
                final int r = o / devices;
                final int od = o - r * devices;
                final int lw = w - bounds[o];
                if (r == rank) {
                    if (lower(depth[od], lw, next)) {
                        ctx.pushTo(od, lw, next);
                    }
                } else if (lower(sent, w, next)) {
                    ctx.pushToRank(r, od, lw | APPLY, next);
                }
            }
        }
    }

    /** Atomic minimum: @return true if it lowered {@code a[i]} to {@code value} */
    private static boolean lower(final IntArray a, final int i, final int value) {
        int cur = a.getVolatile(i);
        while (value < cur) {
            if (a.compareAndSet(i, cur, value)) {
                return true;
            }
            cur = a.getVolatile(i);
        }
        return false;
    }
}
