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
 * <p><b>Algorithm.</b> It solves {@code y = b + M y} with {@code b = (1-a)/n} everywhere and
 * {@code M = a A^T D^-1} over the out-edges (dangling vertices pass nothing on; see below), keeping an estimate
 * {@code x} and the residual {@code r = b + M x - x}, so that {@code y = x + (I - M)^-1 r} at every quiescent
 * moment. A task {@code v} takes its residual {@code rv} (atomic exchange with 0), adds it to {@code x[v]} and adds
 * {@code a*rv/outdeg(v)} to the residual of every out-neighbour {@code w} (a CAS on the IEEE bits, on this device's
 * memory or straight on the owner's: one address space), pushing {@code w} to its owner exactly when
 * {@code |r[w]|} crossed its threshold {@code t[w] = eps * max(1, outdeg(w))} from below. Every rise of
 * {@code |r[w]|} to {@code t[w]} or more pushes {@code w}, so <em>a vertex whose residual is at least its threshold
 * in magnitude is always queued or being run</em>, and a quiescent worklist means every residual is below its
 * threshold. The idle function (Atos' {@code f2}) is the scan that starts each pass: a worker's first idle poll
 * pushes the vertices of its share of the device whose residual is at least their threshold; later calls find
 * nothing the crossing rule has not already pushed and return at once. A task that finds its residual below its
 * threshold (a duplicate of a scan and a crossing, or a residual that shrank again) does nothing.
 *
 * <p><b>Degree-scaled thresholds</b> (Andersen, Chung and Lang's push rule): expanding {@code v} costs
 * {@code outdeg(v)} atomics, so a vertex waits until its residual pays for them. With one threshold for all, a hub
 * of a scale-free graph crosses it again after every few in-neighbour pushes and is expanded over and over with
 * small residuals (kron:18 did 3.6x the edge work of power iteration that way). Each vertex's factor
 * {@code max(1, outdeg)} sits next to its residual (16 bytes per vertex, one cache line), so the crossing test
 * costs no extra memory access.
 *
 * <p><b>Warm start.</b> Starting from {@code x = 0} ({@code r = b}) every pass must build the whole rank mass, which
 * only grows by a factor {@code a} per round, whatever the graph: about {@code log(1/eps)/log(1/a)} expansions of
 * every vertex (35 per vertex on a 1000x1000 grid). Instead {@code x} starts where power iteration starts, at
 * {@code 1/n}, and one parallel scatter pass computes the residual of that start exactly; residuals are then signed
 * and small, and zero wherever the uniform vector is already right (inside a mesh: one expansion per vertex on a
 * 500x500 grid). A degree-proportional start looked closer for undirected graphs but is worse: on a grid its
 * interior is off by the boundary's share of the degrees, a mode that decays only by {@code a} per round (12
 * expansions per vertex). The start only changes the work, never the answer: the invariant above holds for any
 * {@code x}.
 *
 * <p><b>Dangling vertices.</b> A vertex without out-edges passes nothing on, so the run computes the solution
 * {@code y} of the system without the dangling links. Because dangling rank is spread uniformly, exactly like the
 * teleport, the PageRank vector is {@code y / |y|_1} (substitute {@code x = c y} into the PageRank equation: the
 * dangling and teleport terms are both multiples of the uniform vector). So the answer is the computed ranks
 * normalised to sum 1, with no O(n) broadcast per dangling vertex.
 *
 * <p><b>Error bound and {@code eps}.</b> After a pass the exact solution is {@code y = x + e} with
 * {@code e = (I - M)^-1 r}, and the answer is {@code x / S} ({@code S = sum x}) against the exact PageRank
 * {@code x* = y / a} ({@code a = sum y}). For any number {@code beta}, {@code (I - M)^-1 (beta b) = beta y}, so
 * {@code e = beta y + f} with {@code |f|_1 <= |r - beta b|_1 / (1-a)} (the column sums of {@code M} are at most
 * {@code a}); substituting gives {@code S (x/S - x*) = (sum f) x* - f}, hence
 * <pre>{@code |x/S - x*|_1 <= 2 |r - beta b|_1 / ((1-a) S)}</pre>
 * for signed ranks and residuals and any graph. The part of the residuals common to all vertices only rescales
 * {@code y}, which the normalisation removes: the host takes the better of {@code beta = 0} ({@code |r|_1}) and the
 * mean residual, which matters when residuals drift together (a mesh-like graph's interior). Since
 * {@code |r|_1 < eps F} with {@code F = sum max(1, outdeg)}, the first pass uses {@code eps = tolerance (1-a) / F};
 * the host then computes the bound and, while it exceeds {@link AppSettings#tolerance()}, lowers {@code eps} in
 * proportion and runs another pass (the idle scans pick up the residuals between the two thresholds). The reported
 * ranks are therefore within the tolerance of the exact PageRank (up to floating-point rounding, orders of
 * magnitude below). Async PageRank has no iterations: {@link AppSettings#fixedIterations()} and
 * {@link AppSettings#maxIterations()} do not apply; {@code iterations} reports the passes.
 *
 * <p><b>Priority.</b> With {@link AppSettings.Queue#PRIORITY} a pushed vertex's priority is its pusher's plus one
 * (the number of pushes since a scan), so the worklist approaches a round-by-round order; FIFO does that by itself
 * and is the default.
 *
 * <p><b>Counts.</b> {@code visited} = expansions (tasks that moved a residual), {@code ideal} = {@code n} (so
 * {@code normalizedWork} is the mean number of expansions per vertex), {@code edgesScanned} = out-edges of the
 * expansions and of the start's scatter, {@code remoteAtomics} = residual additions on other devices' memory.
 *
 * <p>Thread-safety: one run at a time per mesh, driven by the calling host thread.
 */
final class AsyncPageRank {
    private static final int MAX_PASSES = 64;
    private static final int SCATTER_PER_BLOCK = 2048;
    /** Edges whose residuals a scatter loads before it CASes them. */
    private static final int CHUNK = 64;
    private static final int STRIDE = 16;

    private AsyncPageRank() {
    }

    static long stateBytesPerDevice(final int maxOwned) {
        return 3 * (Math.max(1L, maxOwned) * 8 + 256);
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
                residual[d] = mesh.device(d).allocateDoubles(2L * Math.max(1, p.size(d)));
            }
            final Kernel kernel = new Kernel(g, owners, rank, residual, counters, damping, workers,
                settings.queue() == AppSettings.Queue.PRIORITY);
            final Worklists.Traffic traffic = new Worklists.Traffic();
            final long start = System.nanoTime();
            warmStart(g, kernel, rank, residual, damping);
            double factors = 0;
            for (int d = 0; d < devices; d++) {
                factors += g.localEdges(d);
                for (int i = 0, size = p.size(d); i < size; i++) {
                    factors += g.offsets(d).get(i + 1) == g.offsets(d).get(i) ? 1 : 0;
                }
            }
            double eps = Math.min(Math.min(tolerance, 1.0) * looseness, 1.0) * (1 - damping) / factors;
            int passes = 0;
            double ranks;
            for (;;) {
                kernel.startPass(eps);
                final WorklistStats st = wl.run(Worklists.shape(settings), Worklists.mode(settings), kernel, kernel);
                traffic.add(st);
                passes++;
                ranks = 0;
                double left = 0;
                double leftSum = 0;
                for (int d = 0; d < devices; d++) {
                    for (int i = 0, size = p.size(d); i < size; i++) {
                        ranks += rank[d].get(i);
                        final double r = residual[d].get(2 * i);
                        left += Math.abs(r);
                        leftSum += r;
                    }
                }
                final double mean = leftSum / n;
                double spread = 0;
                for (int d = 0; d < devices; d++) {
                    for (int i = 0, size = p.size(d); i < size; i++) {
                        spread += Math.abs(residual[d].get(2 * i) - mean);
                    }
                }
                final double bound = bound(ranks, Math.min(left, spread), damping);
                if (bound <= tolerance) {
                    break;
                }
                if (passes == MAX_PASSES) {
                    throw new IllegalStateException("async PageRank: the L1 error bound is still " + bound
                        + " after " + passes + " passes (threshold " + eps + "); tolerance " + tolerance);
                }
                eps *= Math.max(1.0 / 64, Math.min(0.9, 0.8 * tolerance / bound));
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

    /**
     * @param s      the rank sum {@code S}
     * @param spread {@code |r - beta b|_1} for some {@code beta} (any gives a valid bound; the caller tries 0 and
     *               the mean residual)
     * @return the L1 bound {@code 2 spread / ((1-a) S)} on the distance between {@code x / S} and the exact
     *         PageRank; infinite when {@code S <= 0}
     */
    static double bound(final double s, final double spread, final double damping) {
        return s > 0 ? 2 * spread / ((1 - damping) * s) : Double.POSITIVE_INFINITY;
    }

    /**
     * The warm start: {@code x = 1/n}, {@code r = b - x} and the threshold factors on every device,
     * then (after a join, so every residual is set) each device scatters {@code a*x[u]/outdeg(u)} of its vertices into their out-neighbours'
     * residuals, which makes {@code r = b + M x - x} exactly.
     */
    private static void warmStart(final DeviceGraph g, final Kernel kernel, final DoubleArray[] rank,
        final DoubleArray[] residual, final double damping) {
        final Mesh mesh = g.mesh();
        final int devices = rank.length;
        final int n = g.partition().vertexCount();
        final double x0 = 1.0 / n;
        final double r0 = (1 - damping) / n - x0;
        final KernelLaunch[] launches = new KernelLaunch[devices];
        for (int d = 0; d < devices; d++) {
            final DoubleArray x = rank[d];
            final DoubleArray r = residual[d];
            final dev.overlap.core.LongArray off = g.offsets(d);
            final int size = g.partition().size(d);
            launches[d] = mesh.device(d).launch(Math.max(1, (size + 65535) >> 16), (ctx, b) -> {
                for (int i = b << 16, end = Math.min(size, (b + 1) << 16); i < end; i++) {
                    x.set(i, x0);
                    r.set(2 * i, r0);
                    r.set(2 * i + 1, Math.max(1, off.get(i + 1) - off.get(i)));
                }
            });
        }
        AsyncBfs.join(launches);
        for (int d = 0; d < devices; d++) {
            final int dev = d;
            final int size = g.partition().size(d);
            launches[d] = mesh.device(d).launch(Math.max(1, (size + SCATTER_PER_BLOCK - 1) / SCATTER_PER_BLOCK),
                (ctx, b) -> kernel.scatterStart(dev, ctx.workerIndex(), b * SCATTER_PER_BLOCK,
                    Math.min(size, (b + 1) * SCATTER_PER_BLOCK)));
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
        /** Per worker: the scatter's chunk buffers. */
        private final Scratch[] scratch;
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
            this.scratch = new Scratch[devices * workers];
            for (int i = 0; i < scratch.length; i++) {
                scratch[i] = new Scratch();
            }
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
                final int at = base + (v << 4);
                if (Math.abs(Double.longBitsToDouble(rb.getLongVolatile(at))) >= threshold * rb.getDouble(at + 8)) {
                    ctx.push(v, 0);
                }
            }
        }

        @Override
        public void run(final int v, final TaskContext ctx) {
            final int d = ctx.device();
            final double threshold = eps;
            final AtomicBuffer mine = resBuf[d];
            final int ri = resBase[d] + (v << 4);
            if (Math.abs(Double.longBitsToDouble(mine.getLongVolatile(ri))) < threshold * mine.getDouble(ri + 8)) {
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
            final long atomics = scatter(d, worker, begin, end, share, threshold, ctx, prio);
            counters.add(d, worker, WorkerCounters.EDGES, end - begin);
            if (atomics != 0) {
                counters.add(d, worker, WorkerCounters.REMOTE_ATOMICS, atomics);
            }
        }

        /**
         * Adds {@code share} to the residuals of the targets of device {@code d}'s edges {@code [begin, end)} and,
         * with a context, pushes those whose residual crossed its threshold.
         *
         * <p>In chunks of {@value #CHUNK} edges: first plain loads of every target's residual (independent loads, so
         * their cache misses overlap), then the CASes with those values as the expected ones. A CAS is a full fence
         * on x86: CASing straight away would make every edge wait out its own miss; this way the CASes mostly hit
         * lines the loads brought in (a failed CAS re-reads and retries, so a stale load costs a retry, never an
         * error).
         *
         * @return the additions on other devices' memory
         */
        private long scatter(final int d, final int worker, final int begin, final int end, final double share,
            final double threshold, final TaskContext ctx, final int prio) {
            final Scratch sc = scratch[d * workers + worker];
            final int[] dev = sc.dev;
            final int[] slot = sc.slot;
            final long[] bits = sc.bits;
            final AtomicBuffer tb = tgtBuf[d];
            final int tBase = tgtBase[d];
            long atomics = 0;
            for (int e = begin; e < end; e += CHUNK) {
                final int n = Math.min(CHUNK, end - e);
                for (int j = 0, at = tBase + (e << 2); j < n; j++, at += 4) {
                    final int w = tb.getInt(at);
                    final int o = owners.of(w);
                    final int wi = resBase[o] + ((w - lo[o]) << 4);
                    dev[j] = o;
                    slot[j] = wi;
                    bits[j] = resBuf[o].getLong(wi);
                }
                for (int j = 0; j < n; j++) {
                    final int o = dev[j];
                    final int wi = slot[j];
                    final AtomicBuffer rb = resBuf[o];
                    long b = bits[j];
                    double old = Double.longBitsToDouble(b);
                    while (!rb.compareAndSetLong(wi, b, Double.doubleToRawLongBits(old + share))) {
                        b = rb.getLongVolatile(wi);
                        old = Double.longBitsToDouble(b);
                    }
                    if (o != d) {
                        atomics++;
                    }
                    if (ctx != null) {
                        final double t = threshold * rb.getDouble(wi + 8);
                        if (Math.abs(old) < t && Math.abs(old + share) >= t) {
                            final int lw = (wi - resBase[o]) >> 4;
                            if (o == d) {
                                ctx.push(lw, prio);
                            } else {
                                ctx.pushTo(o, lw, prio);
                            }
                        }
                    }
                }
            }
            return atomics;
        }

        /**
         * The warm start's scatter of device {@code d}'s vertices {@code [from, to)}: adds {@code a*x[u]/outdeg(u)}
         * to every out-neighbour's residual. Runs as a plain kernel before the worklist, pushes nothing.
         */
        void scatterStart(final int d, final int worker, final int from, final int to) {
            final AtomicBuffer ob = offBuf[d];
            final AtomicBuffer xb = rankBuf[d];
            long edges = 0;
            long atomics = 0;
            for (int u = from; u < to; u++) {
                final int oi = offBase[d] + (u << 3);
                final int begin = (int)ob.getLong(oi);
                final int end = (int)ob.getLong(oi + 8);
                if (begin == end) {
                    continue;
                }
                final double share = damping * xb.getDouble(rankBase[d] + (u << 3)) / (end - begin);
                atomics += scatter(d, worker, begin, end, share, 0, null, 0);
                edges += end - begin;
            }
            counters.add(d, worker, WorkerCounters.EDGES, edges);
            counters.add(d, worker, WorkerCounters.REMOTE_ATOMICS, atomics);
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

    /** One worker's chunk buffers for {@link Kernel#scatter}; confined to that worker. */
    private static final class Scratch {
        final int[] dev = new int[CHUNK];
        final int[] slot = new int[CHUNK];
        final long[] bits = new long[CHUNK];
    }
}
