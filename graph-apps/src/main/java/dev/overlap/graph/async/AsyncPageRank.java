package dev.overlap.graph.async;

import dev.overlap.core.DoubleArray;
import dev.overlap.core.KernelLaunch;
import dev.overlap.core.Mesh;
import dev.overlap.graph.app.AppResult;
import dev.overlap.graph.app.AppSettings;
import dev.overlap.graph.app.WorkerCounters;
import dev.overlap.graph.partition.DeviceGraph;
import dev.overlap.graph.partition.Owners;
import dev.overlap.graph.partition.Partition;
import dev.overlap.queues.worklist.DistributedWorklist;
import dev.overlap.queues.worklist.IdleFunction;
import dev.overlap.queues.worklist.TaskContext;
import dev.overlap.queues.worklist.TaskFunction;
import dev.overlap.queues.worklist.WorklistStats;
import org.agrona.concurrent.AtomicBuffer;

/**
 * Asynchronous push PageRank with residuals (Atos; Chen et al.'s single-GPU formulation) on the out-edges, the same
 * model as {@link dev.overlap.graph.ref.PowerIteration} (damping {@code a}, a vertex without out-edges links to every
 * vertex, ranks sum to 1).
 *
 * <p><b>Algorithm.</b> Every vertex starts with rank 0 and residual {@code (1-a)/n}. A task {@code v} takes its
 * residual {@code r} (atomic exchange with 0), adds it to {@code rank[v]} and adds {@code a*r/outdeg(v)} to the
 * residual of every out-neighbour {@code w} (a CAS on the IEEE bits, on this device's memory or straight on the
 * owner's: one address space), pushing {@code w} to its owner exactly when its residual crossed the threshold
 * {@code eps} from below ({@code old < eps <= new}). Residuals only grow between the exchanges that empty them, so
 * <em>a vertex whose residual is at least {@code eps} is always queued or being run</em>, and a quiescent worklist
 * means every residual is below {@code eps}. The idle function (Atos' {@code f2}) is the scan that starts each pass:
 * a worker's first idle poll pushes the vertices of its share of the device whose residual is at least {@code eps}
 * (all of them in the first pass); later calls find nothing the crossing rule has not already pushed and return at
 * once. A task that finds its residual below {@code eps} (a duplicate of a scan and a crossing) does nothing.
 *
 * <p><b>Dangling vertices.</b> A vertex without out-edges keeps its residual as rank and pushes nothing: the run
 * computes {@code y = (1-a)/n (I - a A^T D^-1)^-1 1} without the dangling links. Because dangling rank is spread
 * uniformly, exactly like the teleport, the PageRank vector is {@code x = y / |y|_1} (substitute {@code x = c y}
 * into the PageRank equation: the dangling and teleport terms are both multiples of the uniform vector). So the
 * answer is the computed ranks normalised to sum 1, with no O(n) broadcast per dangling vertex.
 *
 * <p><b>Error bound and {@code eps}.</b> With {@code R} the sum of the residuals left and {@code S} the sum of the
 * computed ranks, the exact {@code y} exceeds the computed one by {@code (I - a A^T D^-1)^-1 r >= 0}, whose L1 norm
 * is at most {@code E = R / (1-a)}; after normalising, the L1 distance to the exact PageRank is at most
 * {@code 2E / (S + E) <= 2R / ((1-a) S)}. Since {@code R < n eps} and {@code S} is 1 without dangling vertices, the
 * first pass uses {@code eps = tolerance (1-a) / (2n)}; the host then computes {@code R}, {@code S} and the bound,
 * and while the bound exceeds {@link AppSettings#tolerance()} (many dangling vertices make {@code S} small) it lowers
 * {@code eps} in proportion and runs another pass (the idle scans pick up the residuals between the two thresholds).
 * The reported ranks are therefore within the tolerance of the exact PageRank (up to floating-point rounding, orders
 * of magnitude below). Async PageRank has no iterations: {@link AppSettings#fixedIterations()} and
 * {@link AppSettings#maxIterations()} do not apply; {@code iterations} reports the passes.
 *
 * <p><b>Priority.</b> With {@link AppSettings.Queue#PRIORITY} a pushed vertex's priority is its pusher's plus one
 * (the number of pushes since a scan), so the worklist approaches a round-by-round order; FIFO does that by itself
 * and is the default.
 *
 * <p><b>Counts.</b> {@code visited} = expansions (tasks that moved a residual), {@code ideal} = {@code n} (so
 * {@code normalizedWork} is the mean number of expansions per vertex), {@code edgesScanned} = out-edges of the
 * expansions, {@code remoteAtomics} = residual additions on other devices' memory.
 *
 * <p>Thread-safety: one run at a time per mesh, driven by the calling host thread.
 */
final class AsyncPageRank {
    private static final int MAX_PASSES = 64;
    private static final int STRIDE = 16;

    private AsyncPageRank() {
    }

    static long stateBytesPerDevice(final int maxOwned) {
        return 2 * (Math.max(1L, maxOwned) * 8 + 256);
    }

    static AppResult run(final DeviceGraph g, final int[] outDegrees, final AppSettings settings) {
        return run(g, outDegrees, settings, 1.0);
    }

    /**
     * @param looseness factor on the first pass's threshold (1 in production; tests raise it to make the refinement
     *                  passes run)
     */
    static AppResult run(final DeviceGraph g, final int[] outDegrees, final AppSettings settings,
        final double looseness) {
        final Partition p = g.partition();
        final Mesh mesh = g.mesh();
        final int devices = p.devices();
        final int n = p.vertexCount();
        checkOutEdges(g, outDegrees);
        final double damping = settings.damping();
        final double tolerance = settings.tolerance();
        final Owners owners = new Owners(p.bounds());
        final int workers = mesh.device(0).workerCount();
        final WorkerCounters counters = new WorkerCounters(devices, workers);
        final DoubleArray[] rank = new DoubleArray[devices];
        final DoubleArray[] residual = new DoubleArray[devices];
        DistributedWorklist wl = null;
        try {
            wl = Worklists.build(mesh, settings, AsyncBfs.maxOwned(p), 1, 1);
            for (int d = 0; d < devices; d++) {
                rank[d] = mesh.device(d).allocateDoubles(Math.max(1, p.size(d)));
                residual[d] = mesh.device(d).allocateDoubles(Math.max(1, p.size(d)));
            }
            final Kernel kernel = new Kernel(g, owners, rank, residual, counters, damping, workers,
                settings.queue() == AppSettings.Queue.PRIORITY);
            final Worklists.Traffic traffic = new Worklists.Traffic();
            final long start = System.nanoTime();
            init(mesh, rank, residual, (1 - damping) / n);
            double eps = Math.min(Math.min(tolerance, 1.0) * looseness, 1.0) * (1 - damping) / (2.0 * n);
            int passes = 0;
            double ranks;
            for (;;) {
                kernel.startPass(eps);
                final WorklistStats st = wl.run(Worklists.shape(settings), Worklists.mode(settings), kernel, kernel);
                traffic.add(st);
                passes++;
                ranks = 0;
                double left = 0;
                for (int d = 0; d < devices; d++) {
                    for (int i = 0, size = p.size(d); i < size; i++) {
                        ranks += rank[d].get(i);
                        left += residual[d].get(i);
                    }
                }
                final double bound = ranks > 0 ? 2 * left / ((1 - damping) * ranks) : Double.POSITIVE_INFINITY;
                if (bound <= tolerance) {
                    break;
                }
                if (passes == MAX_PASSES) {
                    throw new IllegalStateException("async PageRank: the L1 error bound is still " + bound
                        + " after " + passes + " passes (threshold " + eps + "); tolerance " + tolerance);
                }
                eps *= Math.max(1.0 / 64, Math.min(0.5, 0.5 * tolerance / bound));
            }
            final long nanos = System.nanoTime() - start;
            final double[] out = new double[n];
            for (int d = 0; d < devices; d++) {
                final int lo = p.lo(d);
                for (int i = 0, size = p.size(d); i < size; i++) {
                    out[p.original(lo + i)] = rank[d].get(i) / ranks;
                }
            }
            return AppResult.pageRank(out, nanos, traffic.counts(passes, n, counters));
        } finally {
            if (!mesh.isClosed()) {
                AsyncBfs.free(mesh, rank);
                AsyncBfs.free(mesh, residual);
            }
            if (wl != null) {
                wl.close();
            }
        }
    }

    /**
     * Push PageRank needs out-edges: a graph placed the other way round (the pull baselines' reverse graph) would
     * silently compute the PageRank of the reversed graph, so the device degrees must match {@code outDegrees}.
     */
    private static void checkOutEdges(final DeviceGraph g, final int[] outDegrees) {
        final Partition p = g.partition();
        if (outDegrees.length != p.vertexCount()) {
            throw new IllegalArgumentException(outDegrees.length + " out-degrees for " + p.vertexCount() + " vertices");
        }
        for (int d = 0; d < p.devices(); d++) {
            final int lo = p.lo(d);
            long prev = g.offsets(d).get(0);
            for (int i = 0, size = p.size(d); i < size; i++) {
                final long next = g.offsets(d).get(i + 1);
                if (next - prev != outDegrees[p.original(lo + i)]) {
                    throw new IllegalArgumentException("async PageRank pushes along out-edges, but vertex "
                        + p.original(lo + i) + " has " + (next - prev) + " edges on the mesh and out-degree "
                        + outDegrees[p.original(lo + i)] + ": place the graph itself, not its reverse "
                        + "(GraphAlgorithms.pageRankEdges() is OUT)");
                }
                prev = next;
            }
        }
    }

    private static void init(final Mesh mesh, final DoubleArray[] rank, final DoubleArray[] residual,
        final double initial) {
        final KernelLaunch[] launches = new KernelLaunch[rank.length];
        for (int d = 0; d < rank.length; d++) {
            final DoubleArray x = rank[d];
            final DoubleArray r = residual[d];
            final int size = x.length();
            launches[d] = mesh.device(d).launch(Math.max(1, (size + 65535) >> 16), (ctx, b) -> {
                for (int i = b << 16, end = Math.min(size, (b + 1) << 16); i < end; i++) {
                    x.set(i, 0);
                    r.set(i, initial);
                }
            });
        }
        AsyncBfs.join(launches);
    }

    /** The task and idle functions; raw buffers and byte offsets per device as in {@link AsyncBfs.Kernel}. */
    static final class Kernel implements TaskFunction, IdleFunction {
        private final Owners owners;
        private final int[] lo;
        private final int[] size;
        private final AtomicBuffer[] offBuf;
        private final int[] offBase;
        private final AtomicBuffer[] tgtBuf;
        private final int[] tgtBase;
        private final AtomicBuffer[] rankBuf;
        private final int[] rankBase;
        private final AtomicBuffer[] resBuf;
        private final int[] resBase;
        private final WorkerCounters counters;
        private final double damping;
        private final boolean priority;
        private final int workers;
        /** Per worker (padded): the pass whose scan it has done; written and read by that worker only. */
        private final long[] scanned;
        /** Set by the host between passes; the worklist run publishes it to the workers. */
        private double eps;
        private long pass;

        Kernel(final DeviceGraph g, final Owners owners, final DoubleArray[] rank, final DoubleArray[] residual,
            final WorkerCounters counters, final double damping, final int workers, final boolean priority) {
            final int devices = g.devices();
            this.owners = owners;
            this.lo = new int[devices];
            this.size = new int[devices];
            this.offBuf = new AtomicBuffer[devices];
            this.offBase = new int[devices];
            this.tgtBuf = new AtomicBuffer[devices];
            this.tgtBase = new int[devices];
            this.rankBuf = new AtomicBuffer[devices];
            this.rankBase = new int[devices];
            this.resBuf = new AtomicBuffer[devices];
            this.resBase = new int[devices];
            for (int d = 0; d < devices; d++) {
                lo[d] = g.partition().lo(d);
                size[d] = g.partition().size(d);
                offBuf[d] = g.offsets(d).memory().buffer();
                offBase[d] = (int)g.offsets(d).offset();
                tgtBuf[d] = g.targets(d).memory().buffer();
                tgtBase[d] = (int)g.targets(d).offset();
                rankBuf[d] = rank[d].memory().buffer();
                rankBase[d] = (int)rank[d].offset();
                resBuf[d] = residual[d].memory().buffer();
                resBase[d] = (int)residual[d].offset();
            }
            this.counters = counters;
            this.damping = damping;
            this.priority = priority;
            this.workers = workers;
            this.scanned = new long[(devices * workers + 1) * STRIDE];
        }

        /** Host, between runs: the next pass uses threshold {@code eps}. */
        void startPass(final double threshold) {
            this.eps = threshold;
            this.pass++;
        }

        @Override
        public void onIdle(final TaskContext ctx) {
            final int d = ctx.device();
            final int w = ctx.worker();
            final int slot = (d * workers + w + 1) * STRIDE;
            if (scanned[slot] == pass) {
                return;
            }
            scanned[slot] = pass;
            final int owned = size[d];
            final int from = (int)((long)owned * w / workers);
            final int to = (int)((long)owned * (w + 1) / workers);
            final AtomicBuffer rb = resBuf[d];
            final int base = resBase[d];
            final double threshold = eps;
            for (int v = from; v < to; v++) {
                if (Double.longBitsToDouble(rb.getLongVolatile(base + (v << 3))) >= threshold) {
                    ctx.push(v, 0);
                }
            }
        }

        @Override
        public void run(final int v, final TaskContext ctx) {
            final int d = ctx.device();
            final double threshold = eps;
            final AtomicBuffer mine = resBuf[d];
            final int ri = resBase[d] + (v << 3);
            if (Double.longBitsToDouble(mine.getLongVolatile(ri)) < threshold) {
                return;
            }
            final double r = Double.longBitsToDouble(mine.getAndSetLong(ri, 0L));
            add(rankBuf[d], rankBase[d] + (v << 3), r);
            final AtomicBuffer ob = offBuf[d];
            final int oi = offBase[d] + (v << 3);
            final int begin = (int)ob.getLong(oi);
            final int end = (int)ob.getLong(oi + 8);
            final int worker = ctx.worker();
            counters.add(d, worker, WorkerCounters.VISITED, 1);
            if (begin == end) {
                return;
            }
            final double share = damping * r / (end - begin);
            final int prio = priority ? Math.min(ctx.priority() + 1, Integer.MAX_VALUE - 1) : 0;
            final AtomicBuffer tb = tgtBuf[d];
            final int tBase = tgtBase[d];
            long atomics = 0;
            for (int at = tBase + (begin << 2), stop = tBase + (end << 2); at < stop; at += 4) {
                final int w = tb.getInt(at);
                final int o = owners.of(w);
                final int lw = w - lo[o];
                final double old = add(resBuf[o], resBase[o] + (lw << 3), share);
                if (old < threshold && old + share >= threshold) {
                    if (o == d) {
                        ctx.push(lw, prio);
                    } else {
                        ctx.pushTo(o, lw, prio);
                    }
                }
                if (o != d) {
                    atomics++;
                }
            }
            counters.add(d, worker, WorkerCounters.EDGES, end - begin);
            if (atomics != 0) {
                counters.add(d, worker, WorkerCounters.REMOTE_ATOMICS, atomics);
            }
        }

        /** Atomically adds {@code x} to the double at {@code index}; @return the previous value. */
        private static double add(final AtomicBuffer buf, final int index, final double x) {
            for (;;) {
                final long bits = buf.getLongVolatile(index);
                final double old = Double.longBitsToDouble(bits);
                if (buf.compareAndSetLong(index, bits, Double.doubleToRawLongBits(old + x))) {
                    return old;
                }
            }
        }
    }
}
