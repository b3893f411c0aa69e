package dev.overlap.graph.async;

import dev.overlap.core.IntArray;
import dev.overlap.core.KernelLaunch;
import dev.overlap.core.LongArray;
import dev.overlap.core.Mesh;
import dev.overlap.core.World;
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
import dev.overlap.worklist.WorklistStats;
import org.agrona.UnsafeApi;

/**
 * Asynchronous push BFS (Atos): no levels, no barriers. A task is a vertex, named by its local index on the device
 * that owns it; running it reads the vertex's depth {@code d} and, for every out-neighbour {@code w}, lowers
 * {@code depth[w]} to {@code d + 1} with an atomic minimum on the owner's memory — a CAS on this device's memory for
 * a local {@code w}, the remote atomic-min (a CAS straight on the other device's memory; one address space) for a
 * remote one — and pushes {@code w} to its owner only when the minimum lowered it (a local push, or a remote push
 * through the worker's aggregator). A plain read first skips the CAS when {@code w} is already as close.
 *
 * <p><b>Depth hints.</b> Each device also keeps one byte per vertex, a depth the vertex had at some point (255:
 * none). Depths only fall, so the hint is never below the depth, and a hint of at most {@code d + 1} proves there
 * is nothing to do without reading the depth. Written (plainly, by whoever lowered the depth) once per improvement
 * and read on every edge, the hint array is a quarter of the depth array: on a scale-free graph, where most edges
 * lead to vertices reached long ago, the edge loop mostly reads a cache-resident array instead of missing on another
 * device's depths. A stale or raced hint is only larger than needed and costs the depth read it would have saved.
 * A task expanding to depth 255 or more reads no hints (none could prove anything there): a mesh's BFS runs most of
 * its levels that deep, and skipping the useless reads made it faster (bench/results/2026-11-25-async-tuning.md).
 *
 * <p><b>Exactness.</b> Depths only decrease, every decrease pushes the vertex again, and a task expands with the
 * depth it reads when it runs, which is at most the one it was pushed with; so at termination every edge
 * {@code u -> w} satisfies {@code depth[w] <= depth[u] + 1} and depths equal exact BFS depths. Out of order (FIFO
 * across devices) a vertex may first get too large a depth and be expanded again when it improves: that redundant
 * work is Atos' "normalized workload" (Table III), reported as {@code visited} (expansions) against the reached
 * vertices.
 *
 * <p><b>Priority.</b> With {@link AppSettings.Queue#PRIORITY} the priority of a pushed vertex is its new depth
 * (threshold 1, band 1), so shallower vertices run first; a task whose priority is above the vertex's current depth
 * is stale (a later push carries the better depth) and is dropped without expanding.
 *
 * <p><b>Direction-optimizing (hybrid).</b> With {@link AppSettings.Direction#OPTIMIZING} (the default) on a symmetric
 * graph, a run has up to three phases. (1) Async top-down as above, while a {@link DirectionSwitch} sums the edges of
 * the vertices discovered per depth; once one depth {@code L}'s edges pass Beamer's {@code m_u / alpha} the switch
 * caps the BFS at {@code L}: vertices at depth {@code L} or deeper are no longer expanded (nor pushed when lowered to
 * {@code L}), so the worklist soon runs dry. Every vertex whose exact depth is below {@code L} was still expanded
 * after its last decrease (its depth was below every cap in force), so at that point depths at or below {@code L}
 * are exact and larger ones are leftovers of cut-short expansions. (2) {@link BottomUpSteps}: level-synchronous
 * bottom-up steps on the mesh from the frontier at {@code L}, while the frontier is large. (3) Back to async
 * top-down, uncapped, seeded with the last frontier, for the thin tail; exact as in the plain run, since every
 * vertex above the frontier has all its neighbours at their exact depths. On a scale-free graph this scans about as
 * few edges as direction-optimizing BSP instead of all of them (bench/results/2026-11-23-async-bfs-and-sssp.md); on
 * a mesh the switch never fires and the run is the plain one.
 * {@link AppSettings.Direction#TOP_DOWN} (or a directed graph) runs phase (1) without a switch.
 *
 * <p><b>Across processes</b> (SPMD): every rank runs this on the same placed graph; the depths, hints, the switch's
 * shared words and the bottom-up bitmaps are symmetric allocations ({@link SymmetricState}), so a remote atomic-min
 * reaches a device of another process with the same CAS; each rank fills and launches its own devices, the owner of
 * the source seeds it, the worklist's runs are collective (they start and end at barriers, and termination counts
 * every rank's workers), every rank reads the same cap and takes the same bottom-up decisions
 * ({@link BottomUpSteps}), and every rank gathers the whole answer after the last run. The work counts are summed
 * over the ranks ({@link Worklists.Traffic#counts}), which is also the barrier before the collective frees. In one
 * process the barriers cost nothing and the hot loop is the same.
 *
 * <p>Thread-safety: one run at a time per mesh, driven by the calling host thread; the task function runs on every
 * worker at once and shares nothing but device memory (atomics) and per-worker counter rows.
 */
final class AsyncBfs {
    static final int INF = Integer.MAX_VALUE;
    /** A depth hint of 255 says nothing; smaller hints are depths the vertex had at some point. */
    static final int HINT_UNKNOWN = 255;

    private AsyncBfs() {
    }

    static long stateBytesPerDevice(final int maxOwned) {
        return Math.max(1L, maxOwned) * 5 + 512 + DirectionSwitch.BYTES + BottomUpSteps.bytesPerDevice(maxOwned);
    }

    /** @return whether a run with {@code settings} on {@code g} is the hybrid (direction-optimizing) one */
    static boolean hybrid(final DeviceGraph g, final AppSettings settings) {
        return settings.direction() == AppSettings.Direction.OPTIMIZING && g.summary().isSymmetric();
    }

    static AppResult run(final DeviceGraph g, final int source, final AppSettings settings) {
        final Partition p = g.partition();
        final Mesh mesh = g.mesh();
        final World world = mesh.world();
        final int devices = p.devices();
        final int n = p.vertexCount();
        if (source < 0 || source >= n) {
            throw new IllegalArgumentException("source " + source + " is outside 0.." + (n - 1));
        }
        final GraphView view = new GraphView(g);
        final int workers = WorkerCounters.workersPerDevice(mesh);
        final WorkerCounters counters = WorkerCounters.of(mesh);
        final boolean hybrid = hybrid(g, settings);
        DistributedWorklist wl = null;
        BottomUpSteps bottomUp = null;
        final SymmetricState state = new SymmetricState(mesh);
        try {
            wl = Worklists.build(mesh, settings, maxOwned(p), 1, 1);
            // symmetric: other devices (in other processes too) lower depths and write hints one-sidedly
            final IntArray[] depth = state.ints(Math.max(1, maxOwned(p)));
            final IntArray[] hint = state.ints(Math.max(1, (maxOwned(p) + 3) / 4));
            final RawArrays depths = RawArrays.of(depth);
            final RawArrays hints = RawArrays.of(hint);
            final DirectionSwitch sw = hybrid ? new DirectionSwitch(devices, workers, n, g.summary().edgeCount(),
                state.words(DirectionSwitch.BYTES)) : null;
            if (hybrid) {
                bottomUp = new BottomUpSteps(mesh, view, p, depths, hints, counters);
                sw.reset();
            }
            final Kernel kernel = new Kernel(view, depths, hints, counters,
                settings.queue() == AppSettings.Queue.PRIORITY, sw);
            final Worklists.Traffic traffic = new Worklists.Traffic();
            final long start = System.nanoTime();
            fill(mesh, depth, INF, hint, -1);
            final int s = p.internal(source);
            final int sOwner = view.owner(s);
            if (world.isLocal(sOwner)) { // the rank that owns the source seeds it; the run's start barrier publishes it
                depth[sOwner].set(s - view.lo(sOwner), 0);
                wl.seed(sOwner, s - view.lo(sOwner), 0);
            }
            WorklistStats st = wl.run(Worklists.shape(settings), Worklists.mode(settings), kernel);
            traffic.add(st);
            long rounds = Math.max(1, st.rounds());
            // every rank reads the cap here, before any rank can release it (the bottom-up steps meet first)
            final int cap = hybrid ? sw.cap() : DirectionSwitch.NO_CAP;
            if (cap != DirectionSwitch.NO_CAP) {
                final int level = bottomUp.run(cap);
                rounds += bottomUp.steps();
                if (level >= 0) {
                    sw.release();
                    // the seeds were counted as settled by the bottom-up steps; the tail counts their expansions
                    counters.add(world.firstLocalDevice(), 0, WorkerCounters.VISITED,
                        -seedFrontier(wl, bottomUp, world, level));
                    st = wl.run(Worklists.shape(settings), Worklists.mode(settings), kernel);
                    traffic.add(st);
                    rounds += Math.max(1, st.rounds());
                }
            }
            final long nanos = System.nanoTime() - start;
            final int[] out = new int[n];
            for (int d = 0; d < devices; d++) { // every device's depths, this process's and (mapped) the others'
                final int lo = p.lo(d);
                for (int i = 0, size = p.size(d); i < size; i++) {
                    final int x = depth[d].get(i);
                    out[p.original(lo + i)] = x == INF ? -1 : x;
                }
            }
            // summed over the ranks: also the barrier before anyone frees what the others read
            return AppResult.bfs(out, nanos, traffic.counts(world, rounds, 0, counters));
        } finally {
            if (bottomUp != null) {
                bottomUp.close();
            }
            state.close();
            if (wl != null) {
                wl.close();
            }
        }
    }

    /**
     * Seeds every vertex of the bottom-up steps' last frontier (depth {@code level}) on this process's devices onto
     * its device's queue.
     *
     * @return the vertices seeded
     */
    private static long seedFrontier(final DistributedWorklist wl, final BottomUpSteps bottomUp, final World world,
        final int level) {
        long seeded = 0;
        for (int d = world.firstLocalDevice(), last = d + world.localDeviceCount(); d < last; d++) {
            final LongArray bits = bottomUp.frontier(d);
            for (int i = 0, words = bits.length(); i < words; i++) {
                long word = bits.get(i);
                while (word != 0) {
                    wl.seed(d, (i << 6) + Long.numberOfTrailingZeros(word), level);
                    word &= word - 1;
                    seeded++;
                }
            }
        }
        return seeded;
    }

    static int maxOwned(final Partition p) {
        int m = 0;
        for (int d = 0; d < p.devices(); d++) {
            m = Math.max(m, p.size(d));
        }
        return m;
    }

    /**
     * Sets every element of {@code a} to {@code va} and of {@code b} to {@code vb} on each of this process's devices:
     * one kernel per device, joined (across processes each rank fills its own devices' arrays).
     */
    static void fill(final Mesh mesh, final IntArray[] a, final int va, final IntArray[] b, final int vb) {
        final KernelLaunch[] launches = new KernelLaunch[a.length];
        final World world = mesh.world();
        for (int d = world.firstLocalDevice(), last = d + world.localDeviceCount(); d < last; d++) {
            final IntArray x = a[d];
            final IntArray y = b[d];
            final int sx = x.length();
            final int sy = y.length();
            launches[d] = mesh.device(d).launch(Math.max(1, (Math.max(sx, sy) + 65535) >> 16), (ctx, blk) -> {
                for (int i = blk << 16, end = Math.min(sx, (blk + 1) << 16); i < end; i++) {
                    x.set(i, va);
                }
                for (int i = blk << 16, end = Math.min(sy, (blk + 1) << 16); i < end; i++) {
                    y.set(i, vb);
                }
            });
        }
        join(launches);
    }

    /** Sets every element of the array of each of this process's devices to {@code value}, one kernel per device. */
    static void fill(final Mesh mesh, final IntArray[] arrays, final int value) {
        final KernelLaunch[] launches = new KernelLaunch[arrays.length];
        final World world = mesh.world();
        for (int d = world.firstLocalDevice(), last = d + world.localDeviceCount(); d < last; d++) {
            final IntArray a = arrays[d];
            final int size = a.length();
            launches[d] = mesh.device(d).launch(Math.max(1, (size + 65535) >> 16), (ctx, b) -> {
                for (int i = b << 16, end = Math.min(size, (b + 1) << 16); i < end; i++) {
                    a.set(i, value);
                }
            });
        }
        join(launches);
    }

    static void join(final KernelLaunch[] launches) {
        RuntimeException failure = null;
        for (final KernelLaunch l : launches) {
            if (l == null) {
                continue;
            }
            try {
                l.join();
            } catch (final RuntimeException e) {
                if (failure == null) {
                    failure = e;
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }


    /**
     * The task function. It reads device memory at raw addresses held in locals (no per-access index checks, no
     * field loads on the path to a neighbour; see {@link RawArrays}). With a {@link DirectionSwitch} it reports
     * discoveries while the switch counts, does not expand a vertex whose depth reached the switch's cap, and does
     * not push a vertex it lowered to the cap (the bottom-up steps take the frontier from there).
     */
    static final class Kernel implements TaskFunction {
        private final GraphView view;
        private final WorkerCounters counters;
        private final boolean priority;
        private final DirectionSwitch sw;
        /** Partition bounds, and the raw addresses the loop uses (see {@link RawArrays}): kept in locals per task. */
        private final int[] bounds;
        private final long[] offsetsAt;
        private final long[] targetsAt;
        private final long[] depthAt;
        private final long[] depthOf;
        private final long[] hintOf;

        Kernel(final GraphView view, final RawArrays depth, final RawArrays hint, final WorkerCounters counters,
            final boolean priority, final DirectionSwitch sw) {
            this.view = view;
            this.counters = counters;
            this.priority = priority;
            this.sw = sw;
            this.bounds = view.owners().bounds();
            this.offsetsAt = view.offsets().addresses();
            this.targetsAt = view.targets().addresses();
            this.depthAt = depth.addresses();
            this.depthOf = depth.globalAddresses(bounds, 2);
            this.hintOf = hint.globalAddresses(bounds, 0);
        }

        @Override
        public void run(final int v, final TaskContext ctx) {
            final int d = ctx.device();
            final int dv = UnsafeApi.getIntVolatile(null, depthAt[d] + ((long)v << 2));
            if (priority && ctx.priority() > dv) {
                return;
            }
            final DirectionSwitch sw = this.sw;
            final int cap = sw == null ? DirectionSwitch.NO_CAP : sw.cap();
            if (dv >= cap) {
                return;
            }
            final int next = dv + 1;
            // depths beyond what the switch watches (a mesh's long BFS) skip the degree read
            final boolean counting = sw != null && sw.counting() && next < DirectionSwitch.LEVELS;
            final int worker = ctx.worker();
            final int[] bounds = this.bounds;
            final long[] depthOf = this.depthOf;
            final long[] hintOf = this.hintOf;
            final long offset = offsetsAt[d] + ((long)v << 3);
            final long begin = UnsafeApi.getLong(null, offset);
            final long end = UnsafeApi.getLong(null, offset + 8);
            final long targets = targetsAt[d];
            // from depth 255 on no hint can prove anything: skip reading them (a mesh's deep levels)
            final boolean hinted = next < HINT_UNKNOWN;
            // up to two devices (the common mesh): the owner and its arrays by one comparison, from locals
            final boolean few = bounds.length <= 3;
            final int last = bounds.length - 2;
            final int split = bounds.length == 3 ? bounds[1] : Integer.MAX_VALUE;
            final long depth0 = depthOf[0];
            final long depthLast = depthOf[last];
            final long hint0 = hintOf[0];
            final long hintLast = hintOf[last];
            long atomics = 0;
            for (long at = targets + (begin << 2), stop = targets + (end << 2); at < stop; at += 4) {
                final int w = UnsafeApi.getInt(null, at);
                final int o = few ? (w < split ? 0 : last) : Owners.of(bounds, w);
                final long hi = (few ? (w < split ? hint0 : hintLast) : hintOf[o]) + w;
                if (hinted) {
                    final int h = UnsafeApi.getByte(null, hi) & 0xff;
                    if (h <= next) {
                        continue;
                    }
                }
                final long wi = (few ? (w < split ? depth0 : depthLast) : depthOf[o]) + ((long)w << 2);
                int cur = UnsafeApi.getInt(null, wi);
                if (next < cur) {
                    while (next < cur && !UnsafeApi.compareAndSetInt(null, wi, cur, next)) {
                        cur = UnsafeApi.getIntVolatile(null, wi);
                    }
                    if (o != d) {
                        atomics++;
                    }
                    if (next < cur) {
                        if (hinted) {
                            UnsafeApi.putByte(null, hi, (byte)next);
                        }
                        final int lw = w - bounds[o];
                        if (next < cap) {
                            if (o == d) {
                                ctx.push(lw, next);
                            } else {
                                ctx.pushTo(o, lw, next);
                            }
                        }
                        if (counting && cur == INF) {
                            sw.discovered(d, worker, next, view.degree(o, lw));
                        }
                    }
                }
            }
            counters.add(d, worker, WorkerCounters.VISITED, 1);
            counters.add(d, worker, WorkerCounters.EDGES, end - begin);
            if (atomics != 0) {
                counters.add(d, worker, WorkerCounters.REMOTE_ATOMICS, atomics);
            }
        }
    }
}
