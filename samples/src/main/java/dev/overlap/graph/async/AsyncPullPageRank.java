package dev.overlap.graph.async;

import dev.overlap.core.DoubleArray;
import dev.overlap.core.IntArray;
import dev.overlap.core.KernelLaunch;
import dev.overlap.core.Mesh;
import dev.overlap.core.World;
import dev.overlap.graph.GraphSummary;
import dev.overlap.graph.app.AppResult;
import dev.overlap.graph.app.AppSettings;
import dev.overlap.graph.app.WorkerCounters;
import dev.overlap.graph.partition.DeviceGraph;
import dev.overlap.graph.partition.GraphView;
import dev.overlap.graph.partition.Owners;
import dev.overlap.graph.partition.Partition;
import dev.overlap.graph.partition.RawArrays;
import dev.overlap.worklist.DistributedWorklist;
import dev.overlap.worklist.TaskContext;
import dev.overlap.worklist.TaskFunction;
import dev.overlap.worklist.WorkerShape;
import dev.overlap.worklist.WorklistStats;
import dev.overlap.transport.AggregatorConfig;
import org.agrona.UnsafeApi;
import org.agrona.concurrent.AtomicBuffer;


/**
 * Asynchronous <em>pull</em> PageRank: Gauss-Seidel with activation on the distributed worklist, for symmetric
 * (undirected) graphs, where a vertex's in-neighbours are its out-neighbours and the placed out-edges serve both to
 * gather and to activate. The same model and answer as the push variant ({@link AsyncPageRank}), chosen by
 * {@link PageRankVariant}: it pulls where push would spend its time on CASes to hub residuals, since a pull task
 * writes only its own vertices' values.
 *
 * <p><b>Algorithm.</b> Each vertex keeps its contribution {@code c[v] = y[v] / max(1, deg v)} in its owner's memory
 * ({@code y} the unnormalised rank). A task is a <em>block</em> of {@code 2^}{@value #SHIFT} consecutive owned
 * vertices; running it recomputes, in order, {@code y[v] = t + a * sum of c[u]} over the neighbours (plain loads
 * straight from the owners' memory) and stores {@code c[v]} in place with an opaque store, so later vertices and
 * tasks see it. A vertex whose {@code c} moved by {@code eps} or more since it last announced activates the blocks of
 * its neighbours (each at most once per task). The start is {@code y} proportional to the degree on graphs with many
 * edges per vertex and no hubs ({@link #degreeStart}), and {@code y = 1/n} on the others.
 *
 * <p><b>The teleport term</b> {@code t = (1-a) S / n_c} is homogeneous: {@code S} is the rank mass of the
 * {@code n_c} non-isolated vertices, which every block run keeps up to date (one CAS-add of its change to its
 * device's slot, a cache line of its own) and reads at its start. For a fixed {@code t} the runs would solve
 * {@code y = b + M y}, whose error in the rank mass decays only by about {@code a^2} per round of blocks and is not a
 * multiple of the answer, so the final normalisation does not remove it; with the live term the runs converge like
 * Gauss-Seidel sweeps of the normalised iteration (samples/docs/async-pagerank.md, "The teleport term"). The answer
 * is exact for any {@code t > 0}, so a term that a block read before another block's change only costs rounds. An
 * isolated vertex has {@code y = t}: the sweep writes it.
 *
 * <p><b>Block states</b> ({@link BlockStates}: idle, queued, running, running-and-dirty, one cache line per block in
 * its owner's memory). A block is queued at most once and never run by two workers at once, and at a quiescent
 * moment every block ran after the last announcement of each of its inputs, so every residual satisfies
 * {@code |r[v]| < 2 a eps deg(v)}, plus how far {@code t} moved since the block last ran.
 *
 * <p><b>Passes.</b> The host does not trust that reasoning with its answer: after each quiescent pass one parallel
 * residual sweep computes {@code r} exactly, answers {@code y + r} (one Jacobi step further) and bounds its error
 * ({@link PageRankBound}); while the bound exceeds the tolerance it lowers {@code eps} and runs the blocks whose
 * residuals are still large. Derivations, and why meshes push instead: {@code samples/docs/async-pagerank.md}; the
 * measurements behind the constants: {@code bench/results/2026-11-23-async-pagerank.md}.
 *
 * <p><b>Counts.</b> {@code visited} = vertex recomputations (whole blocks), {@code ideal} = {@code n},
 * {@code edgesScanned} = edges gathered by tasks and by the residual sweeps, {@code remoteAtomics} = state CASes on
 * other devices' memory, {@code iterations} = passes.
 *
 * <p><b>Across processes</b> (SPMD): the values, block states, partial sums and residuals are symmetric
 * allocations, so a gather reads another process's values and an activation CASes its block state with the same
 * loads and atomics as in one process (the Dekker pair of {@link BlockStates} holds on shared memory: its fences
 * are the CPU's). Each rank starts, seeds, runs and sweeps its own devices; the sweep ends at a barrier, after which
 * every rank adds up the same partials in the same order, so every rank gets the same bound and seeds the same
 * blocks (its own devices' ones).
 *
 * <p>Thread-safety: one run at a time per mesh, driven by the calling host thread; the workers coordinate through
 * the block states as described.
 */
final class AsyncPullPageRank {
    /**
     * Vertices per task, log2: 1024. Every announcement reaches the state word of every task a hub touches, so
     * fewer, larger tasks keep that traffic small against the gathering (smaller tasks were slower on a scale-free
     * graph: bench/results/2026-11-23-async-pagerank.md).
     */
    static final int SHIFT = 10;
    /**
     * Factor on the first pass's worst-case threshold {@code tolerance (1-a) / (4 a m)} (the threshold that makes the
     * bound hold at quiescence when {@code sum y' >= a}): residuals end far from their limits and of mixed signs, and
     * the residual sweep catches a pass that stops short.
     */
    static final double FIRST_LOOSENESS = 1e4;
    /** Pull tasks per kernel block of the start and of the residual sweep. */
    private static final int TASKS_PER_LAUNCH_BLOCK = 4;
    /** Ints between two block states: one cache line each. */
    private static final int STATE_STRIDE_SHIFT = 4;
    static final int IDLE = BlockStates.IDLE;
    static final int QUEUED = BlockStates.QUEUED;
    /** Per block, from the residual sweep: {@code sum |r|}, {@code sum y + r}, {@code max |r| / deg}. */
    private static final int PARTIALS = 3;
    /** Doubles per device for its rank mass: one cache line, so that no other word shares its CASes. */
    private static final int MASS_STRIDE = 8;

    private AsyncPullPageRank() {
    }

    /** @return tasks of a device owning {@code owned} vertices, {@code 2^shift} vertices each */
    static int blocks(final int owned, final int shift) {
        return (int)((owned + (1L << shift) - 1) >>> shift);
    }

    /** @return device bytes of the pull state for a device owning {@code maxOwned} vertices */
    static long stateBytesPerDevice(final int maxOwned) {
        final long owned = Math.max(1L, maxOwned);
        final long blocks = Math.max(1, blocks(maxOwned, SHIFT));
        return 24 * owned + blocks * ((4L << STATE_STRIDE_SHIFT) + 8 * PARTIALS) + 8 * MASS_STRIDE + 4096;
    }

    /**
     * @param g          a symmetric graph on the mesh
     * @param outDegrees degrees, original ids (checked against the placed graph)
     * @param looseness  factor on the first pass's threshold (1 in production; tests raise it to make refinement
     *                   passes run)
     * @param shift      log2 of the vertices per task ({@link #SHIFT} in production; tests lower it to get many
     *                   tasks on small graphs)
     */
    static AppResult run(final DeviceGraph g, final int[] outDegrees, final AppSettings settings,
        final double looseness, final int shift) {
        final GraphSummary summary = g.summary();
        if (!summary.isSymmetric()) {
            throw new IllegalArgumentException("pull PageRank gathers along the placed edges and needs a symmetric "
                + "graph (a directed one would need its in-edges placed too): use the push variant");
        }
        if (shift < 0 || shift > 20) {
            throw new IllegalArgumentException("block shift " + shift + " outside 0..20");
        }
        AsyncPageRank.checkOutEdges(g, outDegrees);
        final Partition p = g.partition();
        final Mesh mesh = g.mesh();
        final int devices = p.devices();
        final int n = p.vertexCount();
        final double damping = settings.damping();
        final double tolerance = settings.tolerance();
        final int workers = WorkerCounters.workersPerDevice(mesh);
        final WorkerCounters counters = WorkerCounters.of(mesh);
        final World world = mesh.world();
        long edges = 0;
        int maxBlocks = 0;
        for (int d = 0; d < devices; d++) {
            edges += g.localEdges(d);
            maxBlocks = Math.max(maxBlocks, blocks(p.size(d), shift));
        }
        DistributedWorklist wl = null;
        Kernel kernel = null;
        try {
            wl = worklist(mesh, settings, Math.max(1, maxBlocks));
            kernel = new Kernel(g, counters, damping, workers, shift, summary.verticesWithEdges());
            final Worklists.Traffic traffic = new Worklists.Traffic();
            final double[][] urgency = new double[devices][];
            for (int d = 0; d < devices; d++) {
                urgency[d] = new double[blocks(p.size(d), shift)];
            }
            final Estimate est = new Estimate();
            final long start = System.nanoTime();
            kernel.init(degreeStart(summary)
                ? (double)summary.verticesWithEdges() / ((double)n * Math.max(1, summary.edgeCount())) : 0);
            double eps = tolerance * looseness * FIRST_LOOSENESS * (1 - damping) / (4 * damping * Math.max(1, edges));
            for (int d = world.firstLocalDevice(), last = d + world.localDeviceCount(); d < last; d++) {
                for (int b = 0, nb = blocks(p.size(d), shift); b < nb; b++) {
                    kernel.markQueued(d, b);
                    wl.seed(d, b);
                }
            }
            int passes = 0;
            for (;;) {
                kernel.eps = eps;
                final WorklistStats st = wl.run(WorkerShape.block(1), Worklists.mode(settings), kernel);
                traffic.add(st);
                passes++;
                kernel.sweep();
                kernel.estimate(est, urgency);
                if (est.bound <= tolerance) {
                    break;
                }
                if (passes == PageRankBound.MAX_PASSES) {
                    throw PageRankBound.notConverged("async pull PageRank", est.bound, passes, eps, tolerance);
                }
                eps = PageRankBound.lowered(eps, tolerance, est.bound);
                // every rank counts the blocks of every device (the same urgencies), and seeds its own devices'
                int seeded = 0;
                for (int pick = 0; pick < 2 && seeded == 0; pick++) {
                    for (int d = 0; d < devices; d++) {
                        final boolean local = world.isLocal(d);
                        for (int b = 0; b < urgency[d].length; b++) {
                            if (pick == 1 || urgency[d][b] >= eps) {
                                if (local) {
                                    kernel.markQueued(d, b);
                                    wl.seed(d, b);
                                }
                                seeded++;
                            }
                        }
                    }
                }
            }
            final long nanos = System.nanoTime() - start;
            final double[] out = new double[n];
            for (int d = 0; d < devices; d++) { // every device's values, this process's and (mapped) the others'
                final int lo = p.lo(d);
                for (int i = 0, size = p.size(d); i < size; i++) {
                    out[p.original(lo + i)] = kernel.next(d, i) / est.sum;
                }
            }
            // summed over the ranks: also the barrier before anyone frees what the others read
            return AppResult.pageRank(out, nanos, traffic.counts(world, passes, n, counters));
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
     * Whether a run starts degree-proportional ({@code c} the same for every non-isolated vertex) rather than at
     * {@code y = 1/n}: on a graph with many edges per vertex (a mean degree of at least {@value
     * PageRankVariant#MEAN_DEGREE}) and no hubs (not {@link PageRankVariant#skewed}), where PageRank is close to the
     * degree distribution. With hubs, a leaf's rank is mostly its teleport share, far above its degree's share; on a
     * mesh the ranks are nearly uniform. Measurements: samples/docs/async-pagerank.md, "Start".
     *
     * @param graph the graph's summary (its degrees)
     */
    static boolean degreeStart(final GraphSummary graph) {
        return graph.verticesWithEdges() > 0 && graph.meanDegreeWithEdges() >= PageRankVariant.MEAN_DEGREE
            && !PageRankVariant.skewed(graph);
    }

    /**
     * The pull variant's worklist: the queue of the settings (FIFO or priority), but remote pushes always eager,
     * whatever {@link AppSettings#remote()} says. A remote activation marks the block queued on its owner, so
     * nobody else pushes it, and while the task waits in the activator's batch the owner cannot run it; and there
     * are few of them (at most one per block and activation), so batching saves nothing. Eager sends made the pull
     * runs markedly faster than the default batches (bench/results/2026-11-23-async-pagerank.md).
     */
    private static DistributedWorklist worklist(final Mesh mesh, final AppSettings s, final int maxBlocks) {
        final DistributedWorklist.Builder b = DistributedWorklist.builder(mesh)
            .queueCapacity(Worklists.queueCapacity(maxBlocks)).remote(AggregatorConfig.eager())
            .ringCapacity(Worklists.MIN_RING);
        if (s.queue() == AppSettings.Queue.PRIORITY) {
            b.priority(1, 1);
        } else {
            b.fifo();
        }
        return b.build();
    }

    /**
     * The device state and the task function: per device the contributions {@code c}, the announced values and the
     * residual sweep's {@code r} (8 bytes each per owned vertex), the block states (one cache line per block) and
     * the sweep's partial sums; per worker a stamp array over all blocks and a list of the running block's
     * announcing vertices.
     */
    static final class Kernel implements TaskFunction {
        private final Mesh mesh;
        private final World world;
        private final int devices;
        private final Owners owners;
        private final int shift;
        private final int[] lo;
        private final int[] size;
        private final int[] blockBase;
        private final int totalBlocks;
        private final AtomicBuffer[] offBuf;
        private final int[] offBase;
        private final AtomicBuffer[] tgtBuf;
        private final int[] tgtBase;
        private final DoubleArray[] value;
        private final AtomicBuffer[] valBuf;
        private final int[] valBase;
        private final DoubleArray[] announced;
        private final AtomicBuffer[] annBuf;
        private final int[] annBase;
        private final IntArray[] state;
        private final AtomicBuffer[] stateBuf;
        private final int[] stateBase;
        private final DoubleArray[] partials;
        /** The residual sweep's {@code r} per owned vertex (0 for isolated ones). */
        private final DoubleArray[] residual;
        /**
         * Per device, slot 0: the sum of {@code y} over its non-isolated vertices, added to by every block run (one
         * CAS-add per run), read by every block run and by the host before a sweep (the teleport term).
         */
        private final DoubleArray[] mass;
        /** Every array above, symmetric (freed together by {@link #free()}). */
        private final SymmetricState symmetric;
        private final WorkerCounters counters;
        private final double damping;
        /**
         * {@code (1-a) / n_c}: the teleport term is this times the non-isolated rank mass; 0 without non-isolated
         * vertices, whose term is then the fixed {@code (1-a) / n} (every rank is that, and exact).
         */
        private final double teleport;
        /** {@code 1 / n}: the start's rank of every vertex. */
        private final double uniform;
        private final int workers;
        private final Scratch[] scratch;
        /** Set by the host between passes; the worklist run publishes it to the workers. */
        double eps;
        /**
         * Raw addresses for the hot loops (see {@link RawArrays}): per device its offsets, targets, values and
         * announced values; {@code valOf[o] + 8w} is the value of internal id {@code w} on its owner {@code o}.
         */
        private final long[] offAt;
        private final long[] tgtAt;
        private final long[] valAt;
        private final long[] valOf;
        private final long[] annAt;
        private final int[] bounds;

        /** @param connected the non-isolated vertices of the graph */
        Kernel(final DeviceGraph g, final WorkerCounters counters, final double damping, final int workers,
            final int shift, final long connected) {
            this.mesh = g.mesh();
            this.world = mesh.world();
            this.devices = g.devices();
            final Partition p = g.partition();
            this.owners = new Owners(p.bounds());
            this.symmetric = new SymmetricState(mesh);
            this.shift = shift;
            this.lo = new int[devices];
            this.size = new int[devices];
            this.blockBase = new int[devices];
            this.offBuf = new AtomicBuffer[devices];
            this.offBase = new int[devices];
            this.tgtBuf = new AtomicBuffer[devices];
            this.tgtBase = new int[devices];
            this.valBuf = new AtomicBuffer[devices];
            this.valBase = new int[devices];
            this.annBuf = new AtomicBuffer[devices];
            this.annBase = new int[devices];
            this.stateBuf = new AtomicBuffer[devices];
            this.stateBase = new int[devices];
            int blocks = 0;
            for (int d = 0; d < devices; d++) {
                lo[d] = p.lo(d);
                size[d] = p.size(d);
                blockBase[d] = blocks;
                blocks += blocks(size[d], shift);
                offBuf[d] = g.offsets(d).memory().buffer();
                offBase[d] = (int)g.offsets(d).offset();
                tgtBuf[d] = g.targets(d).memory().buffer();
                tgtBase[d] = (int)g.targets(d).offset();
            }
            this.totalBlocks = blocks;
            this.counters = counters;
            this.damping = damping;
            this.teleport = connected > 0 ? (1 - damping) / connected : 0;
            this.uniform = 1.0 / Math.max(1, p.vertexCount());
            this.workers = workers;
            // symmetric: other devices gather the values and activate the blocks one-sidedly, every rank reads the
            // partials and (for the answer) the values and residuals; the announced values only for RawArrays
            final int maxOwned = Math.max(1, AsyncBfs.maxOwned(p));
            final int maxBlocks = Math.max(1, blocks(maxOwned, shift));
            DoubleArray[] values = null;
            DoubleArray[] announcedValues = null;
            IntArray[] states = null;
            DoubleArray[] sums = null;
            DoubleArray[] residuals = null;
            DoubleArray[] masses = null;
            try {
                values = symmetric.doubles(maxOwned);
                announcedValues = symmetric.doubles(maxOwned);
                states = symmetric.ints((long)maxBlocks << STATE_STRIDE_SHIFT);
                sums = symmetric.doubles((long)PARTIALS * maxBlocks);
                residuals = symmetric.doubles(maxOwned);
                masses = symmetric.doubles(MASS_STRIDE);
            } catch (RuntimeException e) {
                symmetric.close();
                throw e;
            }
            this.value = values;
            this.announced = announcedValues;
            this.state = states;
            this.partials = sums;
            this.residual = residuals;
            this.mass = masses;
            for (int d = 0; d < devices; d++) {
                valBuf[d] = value[d].memory().buffer();
                valBase[d] = (int)value[d].offset();
                annBuf[d] = announced[d].memory().buffer();
                annBase[d] = (int)announced[d].offset();
                stateBuf[d] = state[d].memory().buffer();
                stateBase[d] = (int)state[d].offset();
            }
            this.scratch = new Scratch[devices * workers];
            for (int i = 0; i < scratch.length; i++) {
                scratch[i] = new Scratch(totalBlocks, 1 << shift);
            }
            this.bounds = owners.bounds();
            final GraphView view = new GraphView(g);
            this.offAt = view.offsets().addresses();
            this.tgtAt = view.targets().addresses();
            this.valAt = RawArrays.of(value).addresses();
            this.valOf = RawArrays.of(value).globalAddresses(this.bounds, 3);
            this.annAt = RawArrays.of(announced).addresses();
        }

        /**
         * Frees the device arrays; host only, after the last run (collective across processes: after a barrier that
         * follows every rank's last read).
         */
        void free() {
            symmetric.close();
        }

        /**
         * The start, one kernel per device: {@code c = equal} for every non-isolated vertex ({@code y} proportional
         * to the degree), or {@code y = 1/n} when {@code equal} is 0; {@code y = 1/n} for isolated ones (the sweep
         * writes theirs); announced = current, every block state idle, and the device's mass the sum of its
         * non-isolated vertices' {@code y}. Across processes each rank starts its own devices (the first run's start
         * barrier publishes them).
         */
        void init(final double equal) {
            final KernelLaunch[] launches = new KernelLaunch[devices];
            for (int d = world.firstLocalDevice(), last = d + world.localDeviceCount(); d < last; d++) {
                final int dev = d;
                final int nb = blocks(size[d], shift);
                mass[d].setVolatile(0, 0);
                launches[d] = mesh.device(d).launch(Math.max(1, (nb + TASKS_PER_LAUNCH_BLOCK - 1)
                    / TASKS_PER_LAUNCH_BLOCK), (ctx, blk) -> {
                        final AtomicBuffer vb = valBuf[dev];
                        final AtomicBuffer ab = annBuf[dev];
                        double start = 0;
                        for (int b = blk * TASKS_PER_LAUNCH_BLOCK, bEnd = Math.min(nb, (blk + 1)
                            * TASKS_PER_LAUNCH_BLOCK); b < bEnd; b++) {
                            for (int v = b << shift, end = Math.min(size[dev], (b + 1) << shift); v < end; v++) {
                                final long k = degree(dev, v);
                                final double c = k > 0 && equal > 0 ? equal : uniform / Math.max(1, k);
                                vb.putDouble(valBase[dev] + (v << 3), c);
                                ab.putDouble(annBase[dev] + (v << 3), c);
                                start += c * k;
                            }
                            stateBuf[dev].putInt(stateBase[dev] + (b << (STATE_STRIDE_SHIFT + 2)), IDLE);
                        }
                        mass[dev].getAndAdd(0, start);
                    });
            }
            AsyncBfs.join(launches);
        }

        /**
         * @return the teleport term {@code (1-a) S / n_c} of the homogeneous form, {@code S} the non-isolated rank
         *         mass summed over the devices' slots (volatile reads, in device order, so every rank that reads
         *         them after the same barrier gets the same bits)
         */
        double teleportTerm() {
            if (teleport == 0) {
                return (1 - damping) * uniform;
            }
            double sum = 0;
            for (int d = 0; d < devices; d++) {
                sum += mass[d].getVolatile(0);
            }
            return teleport * sum;
        }

        /** Host, between runs: block {@code b} of device {@code d} is about to be seeded. */
        void markQueued(final int d, final int b) {
            stateBuf[d].putInt(stateBase[d] + (b << (STATE_STRIDE_SHIFT + 2)), QUEUED);
        }

        /** @return block {@code b}'s state on device {@code d} (host between runs; tests) */
        int state(final int d, final int b) {
            return stateBuf[d].getIntVolatile(stateBase[d] + (b << (STATE_STRIDE_SHIFT + 2)));
        }

        /**
         * Host, after {@link #sweep()}: into {@code est} the error bound of the answer {@code y' = y + r} (one
         * Jacobi step past the values, which the sweep computed anyway) and its sum, and per block the largest
         * {@code |r[v]| / deg v} (how far recomputing the block would move a contribution) into {@code urgency}.
         *
         * <p>With {@code y*} the solution of {@code y = t + M y} for the sweep's {@code t} (a multiple of the solution
         * for any other {@code t > 0}, so it normalises to the PageRank {@code x*}):
         * {@code y* - y' = (I - M)^-1 r - r = (I - M)^-1 M r}, so {@code |y* - y'|_1 <= a |r|_1 / (1-a)} (the
         * column sums of {@code M} are at most {@code a}), and normalising both (samples/docs/async-pagerank.md)
         * gives {@code |y'/S' - x*|_1 <= 2 a |r|_1 / ((1-a) S')} with {@code S' = sum y'} ({@code y' >= 0}).
         */
        void estimate(final Estimate est, final double[][] urgency) {
            double abs = 0;
            double sum = 0;
            for (int d = 0; d < devices; d++) {
                for (int b = 0; b < urgency[d].length; b++) {
                    abs += partials[d].get(PARTIALS * b);
                    sum += partials[d].get(PARTIALS * b + 1);
                    urgency[d][b] = partials[d].get(PARTIALS * b + 2);
                }
            }
            est.sum = sum;
            est.bound = PageRankBound.bound(sum, damping * abs, damping);
        }

        private long degree(final int d, final int v) {
            final int oi = offBase[d] + (v << 3);
            return offBuf[d].getLong(oi + 8) - offBuf[d].getLong(oi);
        }

        /**
         * @return the unnormalised answer {@code y' = y + r} of device {@code d}'s vertex {@code v} (host, after a
         *         sweep)
         */
        double next(final int d, final int v) {
            final double c = valBuf[d].getDouble(valBase[d] + (v << 3));
            return c * Math.max(1, degree(d, v)) + residual[d].get(v);
        }

        /**
         * @return {@code sum of c[u]} over the targets of device {@code d}'s edges {@code [begin, end)}; plain loads
         *         (aligned 8-byte loads do not tear on 64-bit JVMs; freshness is the block states' business)
         */
        private double gather(final int d, final long begin, final long end) {
            return devices <= 2 ? gatherTwo(d, begin, end) : gatherAny(d, begin, end);
        }

        /**
         * Up to two devices, the common case: the two value arrays and the split in locals, one comparison per edge
         * and a sum per device. The loop is load-bound: choosing the buffer through {@link Owners#of} and the
         * per-device arrays put the lookups in front of every load and took about twice the time
         * (bench/results/2026-11-23-async-pagerank.md).
         */
        private double gatherTwo(final int d, final long begin, final long end) {
            final long targets = tgtAt[d];
            final long v0 = valOf[0];
            final long v1 = valOf[devices - 1];
            final int split = devices == 2 ? lo[1] : Integer.MAX_VALUE;
            double s0 = 0;
            double s1 = 0;
            for (long at = targets + (begin << 2), stop = targets + (end << 2); at < stop; at += 4) {
                final int w = UnsafeApi.getInt(null, at);
                if (w < split) {
                    s0 += UnsafeApi.getDouble(null, v0 + ((long)w << 3));
                } else {
                    s1 += UnsafeApi.getDouble(null, v1 + ((long)w << 3));
                }
            }
            return s0 + s1;
        }

        private double gatherAny(final int d, final long begin, final long end) {
            final long targets = tgtAt[d];
            final long[] valOf = this.valOf;
            final int[] bounds = this.bounds;
            double sum = 0;
            for (long at = targets + (begin << 2), stop = targets + (end << 2); at < stop; at += 4) {
                final int w = UnsafeApi.getInt(null, at);
                sum += UnsafeApi.getDouble(null, valOf[Owners.of(bounds, w)] + ((long)w << 3));
            }
            return sum;
        }

        @Override
        public void run(final int block, final TaskContext ctx) {
            final int d = ctx.device();
            final int worker = ctx.worker();
            final AtomicBuffer sb = stateBuf[d];
            final int si = stateBase[d] + (block << (STATE_STRIDE_SHIFT + 2));
            BlockStates.beginRun(sb, si);
            final Scratch sc = scratch[d * workers + worker];
            final int[] changed = sc.changed;
            final double threshold = eps;
            final long offsets = offAt[d];
            final long values = valAt[d];
            final long announcedValues = annAt[d];
            final int from = block << shift;
            final int to = Math.min(size[d], from + (1 << shift));
            int announcing = 0;
            long edges = 0;
            final double base = teleportTerm();
            double moved = 0;
            for (int v = from; v < to; v++) {
                final long oi = offsets + ((long)v << 3);
                final long begin = UnsafeApi.getLong(null, oi);
                final long end = UnsafeApi.getLong(null, oi + 8);
                if (begin == end) {
                    continue;
                }
                final long at = values + ((long)v << 3);
                final double c = (base + damping * gather(d, begin, end)) / (end - begin);
                moved += (c - UnsafeApi.getDouble(null, at)) * (end - begin);
                UnsafeApi.putLongOpaque(null, at, Double.doubleToRawLongBits(c));
                edges += end - begin;
                final long ai = announcedValues + ((long)v << 3);
                if (Math.abs(c - UnsafeApi.getDouble(null, ai)) >= threshold) {
                    UnsafeApi.putDouble(null, ai, c);
                    changed[announcing++] = v;
                }
            }
            if (moved != 0) {
                mass[d].getAndAdd(0, moved);
            }
            long remote = 0;
            if (announcing > 0) {
                BlockStates.announceFence();
                remote = activate(d, block, changed, announcing, sc, ctx);
            }
            counters.add(d, worker, WorkerCounters.VISITED, to - from);
            counters.add(d, worker, WorkerCounters.EDGES, edges);
            if (remote != 0) {
                counters.add(d, worker, WorkerCounters.REMOTE_ATOMICS, remote);
            }
            if (BlockStates.endRun(sb, si)) {
                ctx.push(block);
            }
        }

        /**
         * Activates the blocks of the neighbours of the announcing vertices of device {@code d}'s block
         * {@code block}, each at most once; a neighbour later in the same block needs nothing (this task computes
         * it after the change).
         *
         * @return state CASes on other devices' memory
         */
        private long activate(final int d, final int block, final int[] changed, final int announcing,
            final Scratch sc, final TaskContext ctx) {
            final int[] stamp = sc.stamp;
            int gen = ++sc.gen;
            if (gen == 0) {
                java.util.Arrays.fill(stamp, 0);
                gen = sc.gen = 1;
            }
            final AtomicBuffer ob = offBuf[d];
            final AtomicBuffer tb = tgtBuf[d];
            final int tBase = tgtBase[d];
            int distinct = 0;
            long remote = 0;
            for (int i = 0; i < announcing && distinct < totalBlocks; i++) {
                final int v = changed[i];
                final int oi = offBase[d] + (v << 3);
                final int begin = (int)ob.getLong(oi);
                final int end = (int)ob.getLong(oi + 8);
                for (int at = tBase + (begin << 2), stop = tBase + (end << 2); at < stop; at += 4) {
                    final int w = tb.getInt(at);
                    final int o = owners.of(w);
                    final int lw = w - lo[o];
                    final int lb = lw >>> shift;
                    if (o == d && lb == block && lw > v) {
                        continue;
                    }
                    final int gb = blockBase[o] + lb;
                    if (stamp[gb] == gen) {
                        continue;
                    }
                    stamp[gb] = gen;
                    distinct++;
                    if (activate(o, lb, d, ctx) && o != d) {
                        remote++;
                    }
                }
            }
            return remote;
        }

        /**
         * Makes device {@code o}'s block {@code lb} run (again) after the caller's announced values: idle to queued
         * and push it, or running to dirty; queued and dirty need nothing.
         *
         * @return whether a CAS was issued
         */
        private boolean activate(final int o, final int lb, final int d, final TaskContext ctx) {
            final int result = BlockStates.activate(stateBuf[o], stateBase[o] + (lb << (STATE_STRIDE_SHIFT + 2)));
            if (result == BlockStates.PUSH) {
                if (o == d) {
                    ctx.push(lb);
                } else {
                    ctx.pushTo(o, lb);
                }
            }
            return result != BlockStates.NOTHING;
        }

        /**
         * The residual sweep, one kernel per device over its tasks' vertex ranges, with the teleport term {@code t}
         * read once by the host: {@code r = t + a * sum of c[u] - y} for every vertex (0 for isolated ones, whose
         * {@code y = t} the sweep writes) and, per task range, {@code sum |r|},
         * {@code sum (y + r)} and {@code max |r| / deg}. Across processes each rank sweeps its own devices and the
         * ranks meet at the end, so every device's partials are written before any rank reads them; a rank may
         * write them again only after the next worklist run's barriers, by which every rank has read these.
         */
        void sweep() {
            final double base = teleportTerm();
            final KernelLaunch[] launches = new KernelLaunch[devices];
            for (int d = world.firstLocalDevice(), last = d + world.localDeviceCount(); d < last; d++) {
                final int dev = d;
                final int nb = blocks(size[d], shift);
                final DoubleArray part = partials[d];
                final DoubleArray res = residual[d];
                launches[d] = mesh.device(d).launch(Math.max(1, (nb + TASKS_PER_LAUNCH_BLOCK - 1)
                    / TASKS_PER_LAUNCH_BLOCK), (ctx, blk) -> {
                        final AtomicBuffer ob = offBuf[dev];
                        final AtomicBuffer vb = valBuf[dev];
                        long edges = 0;
                        for (int b = blk * TASKS_PER_LAUNCH_BLOCK, bEnd = Math.min(nb, (blk + 1)
                            * TASKS_PER_LAUNCH_BLOCK); b < bEnd; b++) {
                            double abs = 0;
                            double next = 0;
                            double max = 0;
                            for (int v = b << shift, end = Math.min(size[dev], (b + 1) << shift); v < end; v++) {
                                final int oi = offBase[dev] + (v << 3);
                                final int begin = (int)ob.getLong(oi);
                                final int stop = (int)ob.getLong(oi + 8);
                                final double c = vb.getDouble(valBase[dev] + (v << 3));
                                if (begin == stop) {
                                    vb.putDouble(valBase[dev] + (v << 3), base);
                                    res.set(v, 0);
                                    next += base;
                                    continue;
                                }
                                final int deg = stop - begin;
                                final double y = base + damping * gather(dev, begin, stop);
                                final double r = y - c * deg;
                                res.set(v, r);
                                abs += Math.abs(r);
                                next += y;
                                max = Math.max(max, Math.abs(r) / deg);
                                edges += deg;
                            }
                            part.set(PARTIALS * b, abs);
                            part.set(PARTIALS * b + 1, next);
                            part.set(PARTIALS * b + 2, max);
                        }
                        counters.add(dev, ctx.workerIndex(), WorkerCounters.EDGES, edges);
                    });
            }
            AsyncBfs.join(launches);
            world.barrier();
        }
    }

    /** The host's view of the values after a pass's residual sweep. */
    static final class Estimate {
        /** L1 bound on the distance of the normalised answer to the exact PageRank. */
        double bound;
        /** The sum of the answer's unnormalised ranks. */
        double sum;
    }

    /** One worker's scratch: the stamp per block (activated in task {@code gen}) and the announcing vertices. */
    private static final class Scratch {
        final int[] stamp;
        final int[] changed;
        int gen;

        Scratch(final int blocks, final int block) {
            this.stamp = new int[Math.max(1, blocks)];
            this.changed = new int[block];
        }
    }
}
