package dev.overlap.graph.async;

import dev.overlap.core.IntArray;
import dev.overlap.core.KernelLaunch;
import dev.overlap.core.LongArray;
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
import dev.overlap.worklist.WorklistStats;
import org.agrona.UnsafeApi;

/**
 * Asynchronous SSSP on the distributed worklist: the BFS of {@link AsyncBfs} with weights. A task is a vertex (local
 * index on its owner); it relaxes every out-edge {@code u -> w} with an atomic minimum of {@code dist[u] + weight}
 * on the owner's memory (the remote atomic-min for remote {@code w}) and pushes {@code w} to its owner when that
 * lowered the distance. Distances are {@code long} ({@link Long#MAX_VALUE} = unreached); weights must be
 * non-negative. Exact for the same reason as BFS: distances only fall, every fall pushes the vertex, and at
 * termination no edge can relax. As BFS checks a byte, the edge loop first checks an {@code int} hint per vertex (a
 * distance it once had, never below its distance; {@link Integer#MAX_VALUE} = none), half the size of the distances.
 *
 * <p><b>Priority (delta-stepping style).</b> With {@link AppSettings.Queue#PRIORITY} a pushed vertex's priority is
 * its new distance (clamped to {@code int}) on an Atos priority worklist whose threshold starts at {@code delta} and
 * rises by {@code delta} whenever the near band drains, so vertices are processed in distance buckets of width
 * {@code delta}. {@code delta} is {@link AppSettings#delta()} or, when 0, Meyer and Sanders' choice for random
 * weights, max weight / mean degree (the max estimated as twice the mean weight). A task whose priority exceeds the
 * current distance is stale and dropped without relaxing. FIFO works too but relaxes vertices again and again out of
 * distance order, many times the ideal work (bench/results/2026-11-23-async-bfs-and-sssp.md).
 *
 * <p><b>Across processes</b> (SPMD), as {@link AsyncBfs}: the distances and hints are symmetric allocations, each
 * rank fills its own devices, the owner of the source seeds it, the run is collective and every rank gathers the
 * whole answer afterwards; the band width comes from the host graph, the same on every rank.
 *
 * <p>Thread-safety: one run at a time per mesh, driven by the calling host thread.
 */
final class AsyncSssp {
    static final long INF = Long.MAX_VALUE;
    /** An {@code int} distance hint that says nothing; smaller hints are distances the vertex had at some point. */
    static final int HINT_UNKNOWN = Integer.MAX_VALUE;

    private AsyncSssp() {
    }

    static long stateBytesPerDevice(final int maxOwned) {
        return Math.max(1L, maxOwned) * 12 + 512;
    }

    /** @return the priority band width for {@code g} ({@link AppSettings#deltaFor}) */
    static int delta(final GraphSummary g, final AppSettings settings) {
        return settings.deltaFor(g);
    }

    static AppResult run(final DeviceGraph g, final int source, final AppSettings settings) {
        final Partition p = g.partition();
        final Mesh mesh = g.mesh();
        final int devices = p.devices();
        final int n = p.vertexCount();
        if (source < 0 || source >= n) {
            throw new IllegalArgumentException("source " + source + " is outside 0.." + (n - 1));
        }
        if (!g.hasWeights()) {
            throw new IllegalArgumentException("SSSP needs the graph placed with weights");
        }
        final GraphView view = new GraphView(g);
        final World world = mesh.world();
        final WorkerCounters counters = WorkerCounters.of(mesh);
        final boolean priority = settings.queue() == AppSettings.Queue.PRIORITY;
        final int maxOwned = AsyncBfs.maxOwned(p);
        DistributedWorklist wl = null;
        final SymmetricState state = new SymmetricState(mesh);
        try {
            final int delta = priority ? delta(g.summary(), settings) : 1;
            wl = Worklists.build(mesh, settings, maxOwned, delta, delta);
            // symmetric: other devices (in other processes too) lower distances and write hints one-sidedly
            final LongArray[] dist = state.longs(Math.max(1, maxOwned));
            final IntArray[] hint = state.ints(Math.max(1, maxOwned));
            final Kernel kernel = new Kernel(view, RawArrays.of(dist), RawArrays.of(hint), counters, priority);
            final long start = System.nanoTime();
            fill(mesh, dist);
            AsyncBfs.fill(mesh, hint, HINT_UNKNOWN);
            final int s = p.internal(source);
            final int sOwner = view.owner(s);
            if (world.isLocal(sOwner)) { // the rank that owns the source seeds it; the run's start barrier publishes it
                dist[sOwner].set(s - view.lo(sOwner), 0);
                wl.seed(sOwner, s - view.lo(sOwner), 0);
            }
            final WorklistStats st = wl.run(Worklists.shape(settings), Worklists.mode(settings), kernel);
            final long nanos = System.nanoTime() - start;
            final long[] out = new long[n];
            for (int d = 0; d < devices; d++) { // every device's distances, this process's and (mapped) the others'
                final int lo = p.lo(d);
                for (int i = 0, size = p.size(d); i < size; i++) {
                    out[p.original(lo + i)] = dist[d].get(i);
                }
            }
            final Worklists.Traffic traffic = new Worklists.Traffic();
            traffic.add(st);
            // summed over the ranks: also the barrier before anyone frees what the others read
            return AppResult.sssp(out, nanos, traffic.counts(world, Math.max(1, st.rounds()), 0, counters));
        } finally {
            state.close();
            if (wl != null) {
                wl.close();
            }
        }
    }

    /** Sets the distances of each of this process's devices to {@link #INF}, one kernel per device. */
    private static void fill(final Mesh mesh, final LongArray[] arrays) {
        final KernelLaunch[] launches = new KernelLaunch[arrays.length];
        final World world = mesh.world();
        for (int d = world.firstLocalDevice(), last = d + world.localDeviceCount(); d < last; d++) {
            final LongArray a = arrays[d];
            final int size = a.length();
            launches[d] = mesh.device(d).launch(Math.max(1, (size + 65535) >> 16), (ctx, b) -> {
                for (int i = b << 16, end = Math.min(size, (b + 1) << 16); i < end; i++) {
                    a.set(i, INF);
                }
            });
        }
        AsyncBfs.join(launches);
    }

    /** The task function; reads device memory at raw addresses held in locals, as {@link AsyncBfs.Kernel} does. */
    static final class Kernel implements TaskFunction {
        private final WorkerCounters counters;
        private final boolean priority;
        private final int[] bounds;
        private final long[] offsetsAt;
        private final long[] targetsAt;
        private final long[] weightsAt;
        private final long[] distAt;
        private final long[] distOf;
        private final long[] hintOf;

        Kernel(final GraphView view, final RawArrays dist, final RawArrays hint, final WorkerCounters counters,
            final boolean priority) {
            this.counters = counters;
            this.priority = priority;
            this.bounds = view.owners().bounds();
            this.offsetsAt = view.offsets().addresses();
            this.targetsAt = view.targets().addresses();
            this.weightsAt = view.weights().addresses();
            this.distAt = dist.addresses();
            this.distOf = dist.globalAddresses(bounds, 3);
            this.hintOf = hint.globalAddresses(bounds, 2);
        }

        @Override
        public void run(final int v, final TaskContext ctx) {
            final int d = ctx.device();
            final long dv = UnsafeApi.getLongVolatile(null, distAt[d] + ((long)v << 3));
            if (priority && ctx.priority() > Math.min(dv, Integer.MAX_VALUE)) {
                return;
            }
            final int[] bounds = this.bounds;
            final long[] distOf = this.distOf;
            final long[] hintOf = this.hintOf;
            final long offset = offsetsAt[d] + ((long)v << 3);
            final long begin = UnsafeApi.getLong(null, offset);
            final long end = UnsafeApi.getLong(null, offset + 8);
            final long targets = targetsAt[d];
            final long weights = weightsAt[d] - targets; // a weight sits at this distance from its target
            // up to two devices (the common mesh): the owner and its arrays by one comparison, from locals
            final boolean few = bounds.length <= 3;
            final int last = bounds.length - 2;
            final int split = bounds.length == 3 ? bounds[1] : Integer.MAX_VALUE;
            final long dist0 = distOf[0];
            final long distLast = distOf[last];
            final long hint0 = hintOf[0];
            final long hintLast = hintOf[last];
            long atomics = 0;
            for (long at = targets + (begin << 2), stop = targets + (end << 2); at < stop; at += 4) {
                final int w = UnsafeApi.getInt(null, at);
                final long nd = dv + UnsafeApi.getInt(null, at + weights);
                final boolean low = w < split;
                final int o = few ? (low ? 0 : last) : Owners.of(bounds, w);
                final long hi = (few ? (low ? hint0 : hintLast) : hintOf[o]) + ((long)w << 2);
                final int h = UnsafeApi.getInt(null, hi);
                if (h <= nd && h != HINT_UNKNOWN) {
                    continue;
                }
                final long wi = (few ? (low ? dist0 : distLast) : distOf[o]) + ((long)w << 3);
                long cur = UnsafeApi.getLong(null, wi);
                if (nd < cur) {
                    while (nd < cur && !UnsafeApi.compareAndSetLong(null, wi, cur, nd)) {
                        cur = UnsafeApi.getLongVolatile(null, wi);
                    }
                    if (o != d) {
                        atomics++;
                    }
                    if (nd < cur) {
                        if (nd < HINT_UNKNOWN) {
                            UnsafeApi.putInt(null, hi, (int)nd);
                        }
                        final int lw = w - bounds[o];
                        final int prio = (int)Math.min(nd, Integer.MAX_VALUE);
                        if (o == d) {
                            ctx.push(lw, prio);
                        } else {
                            ctx.pushTo(o, lw, prio);
                        }
                    }
                }
            }
            final int worker = ctx.worker();
            counters.add(d, worker, WorkerCounters.VISITED, 1);
            counters.add(d, worker, WorkerCounters.EDGES, end - begin);
            if (atomics != 0) {
                counters.add(d, worker, WorkerCounters.REMOTE_ATOMICS, atomics);
            }
        }
    }
}
