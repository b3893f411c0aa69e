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
import dev.overlap.worklist.DistributedWorklist;
import dev.overlap.worklist.IdleFunction;
import dev.overlap.worklist.TaskContext;
import dev.overlap.worklist.TaskFunction;
import dev.overlap.worklist.WorklistStats;
import org.agrona.concurrent.AtomicBuffer;

import java.util.concurrent.atomic.DoubleAdder;

/**
 * Asynchronous push PageRank with residuals (Atos; Chen et al.'s single-GPU formulation) on the out-edges, the same
 * model as {@link dev.overlap.graph.ref.PowerIteration} (damping {@code a}, a vertex without out-edges links to every
 * vertex, ranks sum to 1).
 *
 * <p><b>Two variants</b> ({@link Variant}, chosen per run by {@link AppSettings#pageRankVariant()}, the CLI's
 * {@code pr --async-variant push|pull|auto}, default {@code auto}): this push formulation, for any graph, and {@link AsyncPullPageRank}'s
 * Gauss-Seidel pull with block activation, for symmetric graphs. {@code auto} pulls on a symmetric graph whose
 * non-isolated vertices have a mean degree of at least {@value Variant#MEAN_DEGREE} or a largest degree of at least
 * {@value Variant#SKEW} times that mean, and pushes otherwise. Measured on 2 devices (load average 8-11): on kron:18
 * push did 17-21 expansions per vertex, most of them hubs hammered by CASes, and took 8-34 s against pull's
 * 0.44-1.0 s (15-21 recomputations per vertex); on urand:17 push did 18.6 expansions per vertex in 2.3-10.7 s, pull 5.2
 * recomputations in 0.12-0.3 s; on grid:1000x1000 push expands each vertex at most once from the warm start (0.18
 * per vertex at tolerance 1e-4) where pull recomputes every block holding a boundary vertex for every round of the boundary's correction
 * (16 per vertex).
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
 * <p><b>Two kernels.</b> With several workers per device every residual update is a CAS, straight on the owner's
 * memory for a remote target ({@link AtomicKernel}). A CAS is a full fence, and on a line another core also updates
 * it waits for the line to come over: on kron:16 two devices of one worker each ran twice <em>slower</em> than one.
 * With one worker per device ({@link SoloKernel}, the common configuration) no residual slot has two writers: a
 * device adds to its own vertices' residuals with plain stores, and accumulates what it owes another device's
 * vertex in an array in its own memory ({@code owed}), never touching the other device's residual lines; the owner,
 * when it runs the vertex, reads what each device owes it (one read of a remote line per device and expansion, not
 * one atomic per edge) and keeps, in its own memory, how much of it it has already taken. The residual of a vertex
 * is its own part plus everything owed and not yet taken. A vertex is pushed when its own part reaches its threshold,
 * or when a device's debt to it has grown by the threshold since that device last looked, and only if it is not
 * queued already (a flag beside its residual, set by the pusher, cleared by the owner when it runs the vertex). So a
 * quiescent worklist leaves every part below its threshold, not every sum, and without fences a push can be missed
 * in a race with the owner's clear: the host's error bound below, computed from the exact sums, decides whether
 * another pass (whose scan sees the sums) is needed.
 *
 * <p><b>Degree-scaled thresholds</b> (Andersen, Chung and Lang's push rule): expanding {@code v} costs
 * {@code outdeg(v)} updates, so a vertex waits until its residual pays for them. With one threshold for all, a hub
 * of a scale-free graph crosses it again after every few in-neighbour pushes and is expanded over and over with
 * small residuals (kron:18 did 3.6x the edge work of power iteration that way). Each vertex's factor
 * {@code max(1, outdeg)} sits next to its residual, so the owner's crossing test costs no extra memory access (a
 * device checking what it owes another device's vertex reads the factor from the owner's offsets).
 *
 * <p><b>Warm start.</b> Starting from {@code x = 0} ({@code r = b}) every pass must build the whole rank mass, which
 * only grows by a factor {@code a} per round, whatever the graph: about {@code log(1/eps)/log(1/a)} expansions of
 * every vertex (35 per vertex on a 1000x1000 grid). Instead {@code x} starts where power iteration starts, at
 * {@code 1/n}, and one parallel pass computes the residual of that start exactly (a gather of the neighbours'
 * degrees on a symmetric graph, a scatter otherwise; see {@link #warmStart}); residuals are then signed
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
 * {@code |r|_1 < eps F} with {@code F = sum max(1, outdeg)}, {@code eps = tolerance (1-a) / F} would be safe in
 * the worst case; the first pass uses {@value #FIRST_LOOSENESS} times that (the typical residual is far below its
 * threshold) and the host then computes the bound and, while it exceeds {@link AppSettings#tolerance()}, lowers
 * {@code eps} in proportion and runs another pass (the idle scans pick up the residuals between the two
 * thresholds). The reported ranks are therefore within the tolerance of the exact PageRank (up to floating-point
 * rounding, orders of magnitude below). Async PageRank has no iterations: {@link AppSettings#fixedIterations()} and
 * {@link AppSettings#maxIterations()} do not apply; {@code iterations} reports the passes.
 *
 * <p><b>Priority.</b> With {@link AppSettings.Queue#PRIORITY} a pushed vertex's priority is its pusher's plus one
 * (the number of pushes since a scan), so the worklist approaches a round-by-round order; FIFO does that by itself
 * and is the default.
 *
 * <p><b>Counts.</b> {@code visited} = expansions (tasks that moved a residual), {@code ideal} = {@code n} (so
 * {@code normalizedWork} is the mean number of expansions per vertex), {@code edgesScanned} = out-edges of the
 * expansions and of the start's scatter, {@code remoteAtomics} = residual CASes on other devices' memory (the
 * atomic kernel) or reads of what other devices owe (the solo kernel).
 *
 * <p>Thread-safety: one run at a time per mesh, driven by the calling host thread.
 */
final class AsyncPageRank {
    private static final int MAX_PASSES = 64;
    /** {@code 1/k} for the degrees most vertices have: the warm start's gather adds one per edge (a division costs
     * more). */
    private static final double[] RECIPROCALS = new double[64];

    static {
        for (int k = 1; k < RECIPROCALS.length; k++) {
            RECIPROCALS[k] = 1.0 / k;
        }
    }
    /**
     * Factor on the first pass's worst-case threshold: a quiescent pass leaves most residuals far below their
     * thresholds (from the warm start most are exactly 0), so the worst case {@code |r|_1 < eps F} overstates the
     * error. On grid:1000x1000 at tolerance 1e-4 the bound after the first pass was 4.5e-6 at factor 1 (502 k
     * expansions), 1.5e-5 at 4 (326 k), 5.1e-5 at 16 (179 k) and at 64 just above or below the tolerance (89-118 k).
     * A pass that stops short costs one more scan: the work is not lost, the next pass continues from its residuals.
     */
    static final double FIRST_LOOSENESS = 16;
    private static final int SCATTER_PER_BLOCK = 2048;
    private static final int GATHER_PER_BLOCK = 1 << 13;
    /** Edges whose residuals a scatter loads before it CASes them. */
    private static final int CHUNK = 64;
    private static final int STRIDE = 16;

    private AsyncPageRank() {
    }

    /** @return device bytes of either kernel's state for a device owning {@code maxOwned} of {@code vertices} */
    static long stateBytesPerDevice(final int vertices, final int maxOwned, final int devices) {
        final long owned = Math.max(1L, maxOwned);
        final long atomic = 8 * owned + 16 * owned;
        final long solo = 8 * owned + 16 * owned + 16L * Math.max(1, vertices) + 8 * owned * Math.max(0, devices - 1);
        return Math.max(Math.max(atomic, solo) + 4096L * (devices + 2),
            AsyncPullPageRank.stateBytesPerDevice(maxOwned));
    }

    /**
     * Which formulation runs: the push variant of this class, or {@link AsyncPullPageRank}'s Gauss-Seidel pull with
     * activation (symmetric graphs only), or {@link #AUTO}.
     */
    enum Variant {
        /** Push with residuals (this class); any graph. */
        PUSH,
        /** Pull with block activation ({@link AsyncPullPageRank}); symmetric graphs only. */
        PULL,
        /**
         * Pull on a symmetric graph whose non-isolated vertices have a mean degree of at least {@value #MEAN_DEGREE}
         * or whose largest degree is at least {@value #SKEW} times that mean; push otherwise (meshes, where the
         * uniform warm start is nearly exact and push expands each vertex about once, and directed graphs).
         */
        AUTO;

        /** Degree skew (max / mean) from which {@link #AUTO} pulls: hubs make push hammer a few residuals. */
        static final int SKEW = 16;
        /**
         * Mean degree from which {@link #AUTO} pulls: with many edges per vertex the warm start is off everywhere
         * and push expands every vertex many times, each time scattering to all its edges.
         */
        static final int MEAN_DEGREE = 8;

        /** @return the variant the settings ask for */
        static Variant of(final AppSettings.PageRankVariant v) {
            switch (v) {
                case PUSH: return PUSH;
                case PULL: return PULL;
                default: return AUTO;
            }
        }

        /** @return {@link #PUSH} or {@link #PULL} for {@code g}: this one, or the choice of {@link #AUTO} */
        Variant resolve(final DeviceGraph g, final int[] outDegrees) {
            if (this != AUTO) {
                return this;
            }
            if (!g.host().isSymmetric() || outDegrees.length == 0) {
                return PUSH;
            }
            long sum = 0;
            long connected = 0;
            int max = 0;
            for (final int k : outDegrees) {
                sum += k;
                connected += k > 0 ? 1 : 0;
                max = Math.max(max, k);
            }
            if (connected == 0) {
                return PUSH;
            }
            final double mean = (double)sum / connected;
            return mean >= MEAN_DEGREE || max >= SKEW * mean ? PULL : PUSH;
        }
    }

    /** Runs the variant {@link AppSettings#pageRankVariant()} names ({@link Variant#AUTO} by default). */
    static AppResult run(final DeviceGraph g, final int[] outDegrees, final AppSettings settings) {
        return run(g, outDegrees, settings, Variant.of(settings.pageRankVariant()), 1.0);
    }

    /**
     * @param looseness factor on the first pass's threshold (1 in production; tests raise it to make the refinement
     *                  passes run)
     */
    static AppResult run(final DeviceGraph g, final int[] outDegrees, final AppSettings settings,
        final Variant variant, final double looseness) {
        return variant.resolve(g, outDegrees) == Variant.PULL
            ? AsyncPullPageRank.run(g, outDegrees, settings, looseness, AsyncPullPageRank.SHIFT)
            : run(g, outDegrees, settings, looseness);
    }

    /**
     * The push variant.
     *
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
        final int workers = mesh.device(0).workerCount();
        final WorkerCounters counters = new WorkerCounters(devices, workers);
        double factors = 0;
        for (int d = 0; d < devices; d++) {
            factors += g.localEdges(d);
            for (int i = 0, size = p.size(d); i < size; i++) {
                factors += g.offsets(d).get(i + 1) == g.offsets(d).get(i) ? 1 : 0;
            }
        }
        DistributedWorklist wl = null;
        Kernel kernel = null;
        try {
            wl = Worklists.build(mesh, settings, AsyncBfs.maxOwned(p), 1, 1);
            final boolean priority = settings.queue() == AppSettings.Queue.PRIORITY;
            kernel = workers == 1 ? new SoloKernel(g, counters, damping, priority)
                : new AtomicKernel(g, counters, damping, workers, priority);
            final Worklists.Traffic traffic = new Worklists.Traffic();
            final long start = System.nanoTime();
            warmStart(g, kernel, damping);
            double eps = Math.min(Math.min(tolerance, 1.0) * looseness * FIRST_LOOSENESS, 1.0) * (1 - damping)
                / factors;
            int passes = 0;
            double ranks;
            for (;;) {
                kernel.startPass(eps);
                final WorklistStats st = wl.run(Worklists.shape(settings), Worklists.mode(settings), kernel, kernel);
                traffic.add(st);
                passes++;
                final double[] sums = ResidualSums.of(mesh, p, kernel, Double.NaN);
                ranks = sums[ResidualSums.RANKS];
                double bound = bound(ranks, sums[ResidualSums.ABS], damping);
                if (bound > tolerance) { // the residuals relative to their mean may still prove it
                    final double mean = sums[ResidualSums.SUM] / n;
                    bound = Math.min(bound, bound(ranks, ResidualSums.of(mesh, p, kernel, mean)[ResidualSums.ABS],
                        damping));
                }
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
                    out[p.original(lo + i)] = kernel.rank(d, i) / ranks;
                }
            }
            return AppResult.pageRank(out, nanos, traffic.counts(passes, n, counters));
        } finally {
            if (kernel != null && !mesh.isClosed()) {
                kernel.free();
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
    static void checkOutEdges(final DeviceGraph g, final int[] outDegrees) {
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
     * The warm start: {@code x = 1/n} and {@code r = b + M x - x} exactly, in {@link #GATHER_PER_BLOCK}-vertex blocks
     * per device. On a symmetric graph a vertex's in-neighbours are its out-neighbours, so one kernel gathers
     * {@code r[v] = a x0 (sum over v's edges of 1/outdeg(u) - 1)} (since {@code b = (1-a) x0}) from the degrees
     * alone, exactly 0 where every neighbour has v's degree, and writes each residual once (it was an init pass and a
     * scatter pass of read-modify-writes, half the push run on a grid). Otherwise the first kernel sets
     * {@code r = b - x} and, after a join so that every residual is set, the second scatters {@code a*x[u]/outdeg(u)}
     * of every vertex into its out-neighbours' residuals. With one worker per device on a symmetric graph the gather
     * is each worker's first scan instead ({@link Kernel#startsInScan}), and this does nothing.
     */
    private static void warmStart(final DeviceGraph g, final Kernel kernel, final double damping) {
        final Mesh mesh = g.mesh();
        final int devices = g.devices();
        if (kernel.startsInScan) {
            return;
        }
        final boolean gather = g.host().isSymmetric();
        final KernelLaunch[] launches = new KernelLaunch[devices];
        for (int d = 0; d < devices; d++) {
            final int dev = d;
            final int size = g.partition().size(d);
            launches[d] = mesh.device(d).launch(Math.max(1, (size + GATHER_PER_BLOCK - 1) / GATHER_PER_BLOCK),
                (ctx, b) -> kernel.start(dev, ctx.workerIndex(), b * GATHER_PER_BLOCK,
                    Math.min(size, (b + 1) * GATHER_PER_BLOCK), gather, null));
        }
        AsyncBfs.join(launches);
        if (gather) {
            return;
        }
        for (int d = 0; d < devices; d++) {
            final int dev = d;
            final int size = g.partition().size(d);
            launches[d] = mesh.device(d).launch(Math.max(1, (size + SCATTER_PER_BLOCK - 1) / SCATTER_PER_BLOCK),
                (ctx, b) -> kernel.scatterStart(dev, ctx.workerIndex(), b * SCATTER_PER_BLOCK,
                    Math.min(size, (b + 1) * SCATTER_PER_BLOCK)));
        }
        AsyncBfs.join(launches);
    }

    /**
     * What both kernels share: the CSR slices and the ranks per device (raw buffers and byte offsets, as in
     * {@link AsyncBfs.Kernel}), the pass threshold and the idle scan. The task function and the residual layout are
     * the subclasses'.
     */
    abstract static class Kernel implements TaskFunction, IdleFunction {
        final Mesh mesh;
        final int devices;
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

        Kernel(final DeviceGraph g, final WorkerCounters counters, final double damping, final int workers,
            final boolean priority, final boolean startsInScan) {
            this.mesh = g.mesh();
            this.devices = g.devices();
            final Partition p = g.partition();
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

        /** Allocates the ranks (called first by subclass constructors, which free everything if they fail). */
        final void allocateRanks() {
            for (int d = 0; d < devices; d++) {
                rank[d] = mesh.device(d).allocateDoubles(Math.max(1, size[d]));
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

        /** Frees the device arrays; host only, after the last run. */
        void free() {
            AsyncBfs.free(mesh, rank);
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

    /**
     * Several workers per device: residuals {@code [r, factor]} (16 bytes per vertex) updated with CAS, on the
     * owner's memory for remote targets; see the class comment.
     */
    static final class AtomicKernel extends Kernel {
        private final DoubleArray[] residual;
        private final AtomicBuffer[] resBuf;
        private final int[] resBase;
        /** Per worker: the scatter's chunk buffers. */
        private final Scratch[] scratch;

        AtomicKernel(final DeviceGraph g, final WorkerCounters counters, final double damping, final int workers,
            final boolean priority) {
            super(g, counters, damping, workers, priority, false);
            this.residual = new DoubleArray[devices];
            this.resBuf = new AtomicBuffer[devices];
            this.resBase = new int[devices];
            try {
                allocateRanks();
                for (int d = 0; d < devices; d++) {
                    residual[d] = mesh.device(d).allocateDoubles(2L * Math.max(1, size[d]));
                    resBuf[d] = residual[d].memory().buffer();
                    resBase[d] = (int)residual[d].offset();
                }
            } catch (RuntimeException e) {
                free();
                throw e;
            }
            this.scratch = new Scratch[devices * workers];
            for (int i = 0; i < scratch.length; i++) {
                scratch[i] = new Scratch();
            }
        }

        @Override
        void free() {
            super.free();
            AsyncBfs.free(mesh, residual);
        }

        @Override
        void startVertex(final int d, final int i, final double r, final int factor) {
            resBuf[d].putDouble(resBase[d] + (i << 4), r);
            resBuf[d].putDouble(resBase[d] + (i << 4) + 8, factor);
        }

        @Override
        double residual(final int d, final int v) {
            return Double.longBitsToDouble(resBuf[d].getLongVolatile(resBase[d] + (v << 4)));
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
            final long atomics = scatter(d, worker, begin, end, share, threshold, ctx, childPriority(ctx));
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

        @Override
        void scatterStart(final int d, final int worker, final int from, final int to) {
            final AtomicBuffer ob = offBuf[d];
            long edges = 0;
            long atomics = 0;
            for (int u = from; u < to; u++) {
                final int oi = offBase[d] + (u << 3);
                final int begin = (int)ob.getLong(oi);
                final int end = (int)ob.getLong(oi + 8);
                if (begin == end) {
                    continue;
                }
                final double share = damping * start / (end - begin);
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

    /**
     * One worker per device: no atomic read-modify-writes (see the class comment). Device {@code d} holds, for its
     * own vertices, the slots {@code [r, factor:int, queued:int]} (16 bytes; only {@code d} writes {@code r}) and
     * {@code taken[d][s]} (how much of what device {@code s} owes it it has taken, 8 bytes per vertex and device;
     * only {@code d} touches them), and for every other device {@code e}'s vertices the slots
     * {@code [owed, signalled]} (16 bytes; only {@code d} writes them; the threshold factor of such a vertex is read
     * from its owner's offsets, only where a debt is checked). {@code owed} is cumulative and
     * published with release stores, so its owner reads whole values; a vertex's residual is
     * {@code r + sum over s of (owed - taken)}. {@code queued} is set by whoever pushes the vertex (its owner, or a
     * device whose debt to it grew by its threshold) and cleared by the owner when it runs the vertex: one task per
     * vertex at a time, as the crossing rule gives the atomic kernel.
     */
    static final class SoloKernel extends Kernel {
        private final DoubleArray[] local;
        private final AtomicBuffer[] localBuf;
        private final int[] localBase;
        /** {@code [d][e]}: what device {@code d} owes device {@code e}'s vertices, in {@code d}'s memory. */
        private final DoubleArray[][] owed;
        private final AtomicBuffer[][] owedBuf;
        private final int[][] owedBase;
        /** {@code [d][s]}: how much of what {@code s} owes {@code d} has been taken, in {@code d}'s memory. */
        private final DoubleArray[][] taken;
        private final AtomicBuffer[][] takenBuf;
        private final int[][] takenBase;

        SoloKernel(final DeviceGraph g, final WorkerCounters counters, final double damping, final boolean priority) {
            super(g, counters, damping, 1, priority, g.host().isSymmetric());
            this.local = new DoubleArray[devices];
            this.localBuf = new AtomicBuffer[devices];
            this.localBase = new int[devices];
            this.owed = new DoubleArray[devices][devices];
            this.owedBuf = new AtomicBuffer[devices][devices];
            this.owedBase = new int[devices][devices];
            this.taken = new DoubleArray[devices][devices];
            this.takenBuf = new AtomicBuffer[devices][devices];
            this.takenBase = new int[devices][devices];
            try {
                allocateRanks();
                for (int d = 0; d < devices; d++) {
                    local[d] = mesh.device(d).allocateDoubles(2L * Math.max(1, size[d]));
                    localBuf[d] = local[d].memory().buffer();
                    localBase[d] = (int)local[d].offset();
                    for (int e = 0; e < devices; e++) {
                        if (e == d) {
                            continue;
                        }
                        owed[d][e] = mesh.device(d).allocateDoubles(2L * Math.max(1, size[e]));
                        owedBuf[d][e] = owed[d][e].memory().buffer();
                        owedBase[d][e] = (int)owed[d][e].offset();
                        taken[d][e] = mesh.device(d).allocateDoubles(Math.max(1, size[d]));
                        takenBuf[d][e] = taken[d][e].memory().buffer();
                        takenBase[d][e] = (int)taken[d][e].offset();
                    }
                }
            } catch (RuntimeException e) {
                free();
                throw e;
            }
        }

        @Override
        void free() {
            super.free();
            AsyncBfs.free(mesh, local);
            for (int d = 0; d < devices; d++) {
                for (int e = 0; e < devices; e++) {
                    if (owed[d][e] != null) {
                        mesh.device(d).free(owed[d][e]);
                        owed[d][e] = null;
                    }
                    if (taken[d][e] != null) {
                        mesh.device(d).free(taken[d][e]);
                        taken[d][e] = null;
                    }
                }
            }
        }

        @Override
        void startVertex(final int d, final int i, final double r, final int factor) {
            final int li = localBase[d] + (i << 4);
            localBuf[d].putDouble(li, r);
            localBuf[d].putInt(li + 8, factor);
        }

        @Override
        double residual(final int d, final int v) {
            double r = localBuf[d].getDouble(localBase[d] + (v << 4));
            for (int s = 0; s < devices; s++) {
                if (s != d) {
                    r += Double.longBitsToDouble(owedBuf[s][d].getLongVolatile(owedBase[s][d] + (v << 4)))
                        - takenBuf[d][s].getDouble(takenBase[d][s] + (v << 3));
                }
            }
            return r;
        }

        /** The scan marks what it pushes queued, like every other push of this kernel. */
        @Override
        boolean scanPush(final int d, final int v) {
            final AtomicBuffer lb = localBuf[d];
            final int qi = localBase[d] + (v << 4) + 12;
            if (lb.getIntVolatile(qi) != 0) {
                return false;
            }
            lb.putIntOrdered(qi, 1);
            return true;
        }

        @Override
        public void run(final int v, final TaskContext ctx) {
            if (!scanned(ctx)) { // a remote push can reach this worker before its first idle poll
                scan(ctx);
            }
            final int d = ctx.device();
            final AtomicBuffer lb = localBuf[d];
            final int li = localBase[d] + (v << 4);
            lb.putIntVolatile(li + 12, 0);
            double r = lb.getDouble(li);
            long reads = 0;
            for (int s = 0; s < devices; s++) {
                if (s == d) {
                    continue;
                }
                final double owes = Double.longBitsToDouble(owedBuf[s][d].getLongVolatile(owedBase[s][d] + (v << 4)));
                final AtomicBuffer tb = takenBuf[d][s];
                final int ti = takenBase[d][s] + (v << 3);
                final double had = tb.getDouble(ti);
                if (owes != had) {
                    r += owes - had;
                    tb.putDouble(ti, owes);
                }
                reads++;
            }
            final double threshold = eps;
            if (Math.abs(r) < threshold * lb.getInt(li + 8)) {
                lb.putDouble(li, r);
                return;
            }
            lb.putDouble(li, 0);
            final int xi = rankBase[d] + (v << 3);
            rankBuf[d].putDouble(xi, rankBuf[d].getDouble(xi) + r);
            final AtomicBuffer ob = offBuf[d];
            final int oi = offBase[d] + (v << 3);
            final int begin = (int)ob.getLong(oi);
            final int end = (int)ob.getLong(oi + 8);
            final int worker = ctx.worker();
            counters.add(d, worker, WorkerCounters.VISITED, 1);
            counters.add(d, worker, WorkerCounters.REMOTE_ATOMICS, reads);
            if (begin == end) {
                return;
            }
            scatter(d, begin, end, damping * r / (end - begin), threshold, ctx, childPriority(ctx));
            counters.add(d, worker, WorkerCounters.EDGES, end - begin);
        }

        /**
         * Adds {@code share} to the residuals of the targets of device {@code d}'s edges {@code [begin, end)} with
         * plain stores: to the own part of a local target (pushing it when that part reached its threshold and it is
         * not queued), to what {@code d} owes a remote one (pushing it to its owner when the debt grew by its
         * threshold since it last did and it is not queued). Without a context (the warm start) it only adds.
         */
        private void scatter(final int d, final int begin, final int end, final double share, final double threshold,
            final TaskContext ctx, final int prio) {
            final AtomicBuffer tb = tgtBuf[d];
            final AtomicBuffer lb = localBuf[d];
            final int lBase = localBase[d];
            final int myLo = lo[d];
            final int mySize = size[d];
            for (int at = tgtBase[d] + (begin << 2), stop = tgtBase[d] + (end << 2); at < stop; at += 4) {
                final int w = tb.getInt(at);
                final int lw = w - myLo;
                if (lw >= 0 && lw < mySize) {
                    final int wi = lBase + (lw << 4);
                    final double now = lb.getDouble(wi) + share;
                    lb.putDouble(wi, now);
                    if (ctx != null && Math.abs(now) >= threshold * lb.getInt(wi + 8) && lb.getInt(wi + 12) == 0) {
                        lb.putIntOrdered(wi + 12, 1);
                        ctx.push(lw, prio);
                    }
                } else {
                    final int o = owners.of(w);
                    final int rw = w - lo[o];
                    final AtomicBuffer ob = owedBuf[d][o];
                    final int oi = owedBase[d][o] + (rw << 4);
                    final double now = ob.getDouble(oi) + share;
                    ob.putLongOrdered(oi, Double.doubleToRawLongBits(now));
                    if (ctx != null && Math.abs(now - ob.getDouble(oi + 8)) >= threshold * factor(o, rw)) {
                        ob.putDouble(oi + 8, now);
                        final AtomicBuffer qb = localBuf[o];
                        final int qi = localBase[o] + (rw << 4) + 12;
                        if (qb.getIntVolatile(qi) == 0) {
                            qb.putIntOrdered(qi, 1);
                            ctx.pushTo(o, rw, prio);
                        }
                    }
                }
            }
        }

        @Override
        void scatterStart(final int d, final int worker, final int from, final int to) {
            final AtomicBuffer ob = offBuf[d];
            long edges = 0;
            for (int u = from; u < to; u++) {
                final int oi = offBase[d] + (u << 3);
                final int begin = (int)ob.getLong(oi);
                final int end = (int)ob.getLong(oi + 8);
                if (begin == end) {
                    continue;
                }
                scatter(d, begin, end, damping * start / (end - begin), 0, null, 0);
                edges += end - begin;
            }
            counters.add(d, worker, WorkerCounters.EDGES, edges);
        }
    }

    /**
     * The sums the host needs after a pass, computed by every device over its own vertices in parallel (one kernel
     * per device, blocks of {@value #SUM_PER_BLOCK} vertices, each block adding its partial sums once): the rank sum
     * and the residuals' sum and L1 norm, or {@code |r - beta|_1} for a given {@code beta}. Between runs only (the
     * residuals are read as {@link Kernel#residual} reads them).
     */
    private static final class ResidualSums {
        static final int RANKS = 0;
        static final int SUM = 1;
        static final int ABS = 2;
        private static final int SUM_PER_BLOCK = 1 << 15;

        private ResidualSums() {
        }

        /**
         * @param beta NaN for the rank sum, residual sum and L1 norm; otherwise {@code |r - beta|_1} lands in
         *             {@link #ABS}
         * @return the sums, indexed by {@link #RANKS}, {@link #SUM}, {@link #ABS}
         */
        static double[] of(final Mesh mesh, final Partition p, final Kernel kernel, final double beta) {
            final DoubleAdder ranks = new DoubleAdder();
            final DoubleAdder sum = new DoubleAdder();
            final DoubleAdder abs = new DoubleAdder();
            final boolean plain = Double.isNaN(beta);
            final KernelLaunch[] launches = new KernelLaunch[p.devices()];
            for (int d = 0; d < launches.length; d++) {
                final int dev = d;
                final int size = p.size(d);
                launches[d] = mesh.device(d).launch(Math.max(1, (size + SUM_PER_BLOCK - 1) / SUM_PER_BLOCK),
                    (ctx, b) -> {
                        double x = 0;
                        double s = 0;
                        double a = 0;
                        for (int i = b * SUM_PER_BLOCK, end = Math.min(size, (b + 1) * SUM_PER_BLOCK); i < end; i++) {
                            final double r = kernel.residual(dev, i);
                            if (plain) {
                                x += kernel.rank(dev, i);
                                s += r;
                                a += Math.abs(r);
                            } else {
                                a += Math.abs(r - beta);
                            }
                        }
                        ranks.add(x);
                        sum.add(s);
                        abs.add(a);
                    });
            }
            AsyncBfs.join(launches);
            return new double[] {ranks.sum(), sum.sum(), abs.sum()};
        }
    }

    private static final class Scratch {
        final int[] dev = new int[CHUNK];
        final int[] slot = new int[CHUNK];
        final long[] bits = new long[CHUNK];
    }
}
