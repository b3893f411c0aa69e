package dev.overlap.graph.async;

import dev.overlap.core.DoubleArray;
import dev.overlap.core.Mesh;
import dev.overlap.core.World;
import dev.overlap.graph.app.WorkerCounters;
import dev.overlap.graph.partition.DeviceGraph;
import dev.overlap.graph.partition.Owners;
import dev.overlap.graph.partition.Partition;
import dev.overlap.worklist.IdleFunction;
import dev.overlap.worklist.TaskContext;
import dev.overlap.worklist.TaskFunction;
import org.agrona.concurrent.AtomicBuffer;

/**
 * The device state and task function of push PageRank, the part both residual layouts share: the CSR slices and the
 * ranks per device (raw buffers and byte offsets, as in {@link AsyncBfs}), the pass threshold, the warm start of a
 * range of vertices and the idle scan (Atos' {@code f2}). The residual layout, the task function and the scatter are
 * the subclasses': {@link AtomicPushKernel} (several workers per device, CAS on every residual) and
 * {@link SoloPushKernel} (one worker per device, no read-modify-writes).
 *
 * <p>Invariant of a pass: a vertex whose residual is at least its threshold {@code eps * max(1, outdeg)} in
 * magnitude is queued or being run (the atomic kernel keeps it exactly; the solo kernel keeps it per part of the
 * residual, and the host's exact error bound catches what a race lets through). A quiescent worklist therefore
 * leaves every residual (or part) below its threshold.
 *
 * <p><b>Across processes</b> (SPMD): the ranks and every residual slot another device updates are symmetric
 * allocations ({@link #state}), so a scatter reaches a device of another process with the same atomics or stores;
 * each rank runs, warms up and scans its own devices only, and reads every device's ranks after the last run.
 *
 * <p>Thread-safety: the host sets the threshold and reads ranks and residuals between worklist runs (the run
 * publishes them); during a run each worker scans only its own share of its device.
 */
abstract class PushKernel implements TaskFunction, IdleFunction {
    /**
     * {@code 1/k} for the degrees most vertices have: the warm start's gather adds one per edge (a division costs
     * more).
     */
    private static final double[] RECIPROCALS = new double[64];
    /** Longs between two workers' scan marks: one cache line each. */
    private static final int STRIDE = 16;

    static {
        for (int k = 1; k < RECIPROCALS.length; k++) {
            RECIPROCALS[k] = 1.0 / k;
        }
    }

    final Mesh mesh;
    final World world;
    final int devices;
    /** Most vertices a device owns: the length of the symmetric per-vertex state. */
    final int maxOwned;
    /** The symmetric state (the ranks and the subclass's shared slots), freed together by {@link #free()}. */
    final SymmetricState state;
    final Owners owners;
    final int[] lo;
    final int[] size;
    final AtomicBuffer[] offBuf;
    final int[] offBase;
    final AtomicBuffer[] tgtBuf;
    final int[] tgtBase;
    /** {@code x - x0} per vertex: zero, the uniform start, as allocated. */
    final DoubleArray[] rank;
    final AtomicBuffer[] rankBuf;
    final int[] rankBase;
    final WorkerCounters counters;
    final double damping;
    final boolean priority;
    final int workers;
    /** Per worker (padded): the pass whose scan it has done; written and read by that worker only. */
    private final long[] scanned;
    /** Set by the host between passes; the worklist run publishes it to the workers. */
    double eps;
    /** The uniform start {@code 1/n}. */
    final double start;
    /**
     * Whether each worker's first scan computes the warm start of its share ({@link #start} with a context)
     * instead of the host's launches: only where no other thread writes a slot of that share before its worker
     * has started it (one worker per device, which runs no task before its scan, and a symmetric graph).
     */
    final boolean startsInScan;
    private long pass;

    PushKernel(final DeviceGraph g, final WorkerCounters counters, final double damping, final int workers,
        final boolean priority, final boolean startsInScan) {
        this.mesh = g.mesh();
        this.world = mesh.world();
        this.devices = g.devices();
        final Partition p = g.partition();
        this.maxOwned = Math.max(1, AsyncBfs.maxOwned(p));
        this.state = new SymmetricState(mesh);
        this.owners = new Owners(p.bounds());
        this.lo = new int[devices];
        this.size = new int[devices];
        this.offBuf = new AtomicBuffer[devices];
        this.offBase = new int[devices];
        this.tgtBuf = new AtomicBuffer[devices];
        this.tgtBase = new int[devices];
        this.rank = new DoubleArray[devices];
        this.rankBuf = new AtomicBuffer[devices];
        this.rankBase = new int[devices];
        for (int d = 0; d < devices; d++) {
            lo[d] = p.lo(d);
            size[d] = p.size(d);
            offBuf[d] = g.offsets(d).memory().buffer();
            offBase[d] = (int)g.offsets(d).offset();
            tgtBuf[d] = g.targets(d).memory().buffer();
            tgtBase[d] = (int)g.targets(d).offset();
        }
        this.counters = counters;
        this.damping = damping;
        this.priority = priority;
        this.workers = workers;
        this.scanned = new long[(devices * workers + 1) * STRIDE];
        this.start = 1.0 / Math.max(1, p.vertexCount());
        this.startsInScan = startsInScan;
    }

    /** @return device bytes of the ranks for a device owning {@code owned} vertices */
    static long rankBytes(final long owned) {
        return 8 * owned;
    }

    /**
     * Allocates the ranks, symmetric so that every rank can read the answer (called first by subclass constructors,
     * which free everything if they fail; collective across processes).
     */
    final void allocateRanks() {
        final DoubleArray[] views = state.doubles(maxOwned);
        for (int d = 0; d < devices; d++) {
            rank[d] = views[d];
            rankBuf[d] = rank[d].memory().buffer();
            rankBase[d] = (int)rank[d].offset();
        }
    }

    /** @return {@code max(1, outdeg)} of device {@code d}'s vertex {@code v}, from its offsets */
    final double factor(final int d, final int v) {
        final int oi = offBase[d] + (v << 3);
        return Math.max(1, offBuf[d].getLong(oi + 8) - offBuf[d].getLong(oi));
    }

    /** Host, between runs: the next pass uses threshold {@code eps}. */
    final void startPass(final double threshold) {
        this.eps = threshold;
        this.pass++;
    }

    /** @return the rank of device {@code d}'s vertex {@code i} (host, between runs) */
    final double rank(final int d, final int i) {
        return start + rankBuf[d].getDouble(rankBase[d] + (i << 3));
    }

    /**
     * Warm start for device {@code d}'s vertices {@code [from, to)}: {@code x = x0} (the stored difference
     * stays the allocated 0) and, with {@code gather}, the exact residual of that start from the neighbours'
     * degrees (symmetric graphs), else {@code r = b - x0} (the scatter adds the rest); with a context (the first
     * scan) it also pushes the vertices at or above their threshold. Slots it does not set are zero: device memory
     * is allocated zeroed.
     */
    final void start(final int d, final int worker, final int from, final int to, final boolean gather,
        final TaskContext ctx) {
        final AtomicBuffer ob = offBuf[d];
        final AtomicBuffer tb = tgtBuf[d];
        final int oBase = offBase[d];
        final int tBase = tgtBase[d];
        final int myLo = lo[d];
        final int mySize = size[d];
        final double a = damping;
        final double x0 = start;
        final double threshold = eps;
        long edges = 0;
        for (int i = from; i < to; i++) {
            final int oi = oBase + (i << 3);
            final int begin = (int)ob.getLong(oi);
            final int end = (int)ob.getLong(oi + 8);
            double inverseDegrees = 0;
            if (gather) {
                for (int at = tBase + (begin << 2), stop = tBase + (end << 2); at < stop; at += 4) {
                    final int w = tb.getInt(at);
                    final int lw = w - myLo;
                    final int k;
                    if (lw >= 0 && lw < mySize) {
                        final int wi = oBase + (lw << 3);
                        k = (int)(ob.getLong(wi + 8) - ob.getLong(wi));
                    } else {
                        final int o = owners.of(w);
                        final int wi = offBase[o] + ((w - lo[o]) << 3);
                        k = (int)(offBuf[o].getLong(wi + 8) - offBuf[o].getLong(wi));
                    }
                    inverseDegrees += k < RECIPROCALS.length ? RECIPROCALS[k] : 1.0 / k;
                }
                edges += end - begin;
            }
            final double r = a * x0 * (inverseDegrees - 1);
            final int factor = Math.max(1, end - begin);
            startVertex(d, i, r, factor);
            if (ctx != null && Math.abs(r) >= threshold * factor && scanPush(d, i)) {
                ctx.push(i, 0);
            }
        }
        counters.add(d, worker, WorkerCounters.EDGES, edges);
    }

    /** Sets device {@code d}'s vertex {@code i}'s residual and threshold factor {@code max(1, outdeg)}. */
    abstract void startVertex(int d, int i, double r, int factor);

    /** Warm start, second kernel: scatters {@code a*x[u]/outdeg(u)} for device {@code d}'s {@code [from, to)}. */
    abstract void scatterStart(int d, int worker, int from, int to);

    /** @return the whole residual of device {@code d}'s vertex {@code v} (host between runs, or its owner) */
    abstract double residual(int d, int v);

    /**
     * Frees the device arrays; host only, after the last run (collective across processes: after a barrier that
     * follows every rank's last read). Subclasses free their local arrays first.
     */
    void free() {
        state.close();
    }

    /**
     * Atos' {@code f2}: the first idle poll of a worker in a pass pushes the vertices of its share of the device
     * whose residual is at least their threshold; later calls return at once (the crossing rules push the rest).
     */
    @Override
    public final void onIdle(final TaskContext ctx) {
        if (!scanned(ctx)) {
            scan(ctx);
        }
    }

    /** @return whether the calling worker has done this pass's scan (cheap: one load of its own slot) */
    final boolean scanned(final TaskContext ctx) {
        return scanned[(ctx.device() * workers + ctx.worker() + 1) * STRIDE] == pass;
    }

    /**
     * The calling worker's scan of its share of the device. In the first pass of a kernel whose
     * {@link #startsInScan} is set it is the warm start itself, pushing what it finds above threshold.
     */
    final void scan(final TaskContext ctx) {
        final int d = ctx.device();
        final int w = ctx.worker();
        scanned[(d * workers + w + 1) * STRIDE] = pass;
        final int owned = size[d];
        final int from = (int)((long)owned * w / workers);
        final int to = (int)((long)owned * (w + 1) / workers);
        if (pass == 1 && startsInScan) {
            start(d, w, from, to, true, ctx);
            return;
        }
        final double threshold = eps;
        for (int v = from; v < to; v++) {
            if (Math.abs(residual(d, v)) >= threshold * factor(d, v) && scanPush(d, v)) {
                ctx.push(v, 0);
            }
        }
    }

    /** @return whether the idle scan should push device {@code d}'s vertex {@code v} (above its threshold) */
    boolean scanPush(final int d, final int v) {
        return true;
    }

    /** @return the priority of the tasks a task pushes */
    final int childPriority(final TaskContext ctx) {
        return priority ? Math.min(ctx.priority() + 1, Integer.MAX_VALUE - 1) : 0;
    }
}
