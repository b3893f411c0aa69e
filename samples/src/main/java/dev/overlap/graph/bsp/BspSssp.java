package dev.overlap.graph.bsp;

import dev.overlap.core.Device;
import dev.overlap.core.IntArray;
import dev.overlap.core.KernelLaunch;
import dev.overlap.core.LongArray;
import dev.overlap.core.Mesh;
import dev.overlap.core.SymmetricArray;
import dev.overlap.core.World;
import dev.overlap.graph.app.AppResult;
import dev.overlap.graph.app.WorkCounts;
import dev.overlap.graph.app.WorkerCounters;
import dev.overlap.graph.partition.DeviceGraph;
import dev.overlap.graph.partition.GraphView;
import dev.overlap.graph.partition.Owners;
import dev.overlap.graph.partition.Partition;
import org.agrona.concurrent.AtomicBuffer;

import java.util.ArrayList;
import java.util.List;

/**
 * Bellman-Ford SSSP on the mesh in rounds (the BSP baseline): round {@code r} relaxes the out-edges of the vertices
 * whose distance dropped in round {@code r - 1} (the frontier; the source in round 0), then a host barrier. A
 * relaxation is an atomic minimum on the owner's distance (remote when another device owns the target); the thread
 * that lowers it tags the vertex for the next round with an atomic exchange of the round number, and the one that
 * changes the tag pushes it, so a vertex enters each frontier at most once. It ends when a round lowers nothing.
 * Distances are {@code long}; weights must be non-negative.
 *
 * <p>A frontier vertex reads its own distance when its block runs; if that distance dropped again during the
 * round, the vertex is in the next frontier too, so the answer is exact.
 *
 * <p><b>Across processes</b> (SPMD), as {@link BspBfs}: each rank launches its own devices; distances, tags and
 * frontiers are symmetric allocations, so relaxations reach the devices of other processes with the same atomics;
 * each round ends at the exchange's barrier, where every rank learns every next frontier's size.
 *
 * <p>Thread-safety: one run at a time per mesh, driven by the calling host thread.
 */
final class BspSssp {
    static final long INF = Long.MAX_VALUE;
    private static final int FRONTIER_PER_BLOCK = 64;

    private BspSssp() {
    }

    static long stateBytesPerDevice(final int maxOwned, final int devices, final int workers) {
        return Math.max(1L, maxOwned) * 12 + 128 + FrontierExchange.bytesPerDevice(maxOwned, devices, workers);
    }

    static AppResult run(final DeviceGraph g, final int source) {
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
        final LongArray[] dist = new LongArray[devices];
        final IntArray[] tag = new IntArray[devices];
        final KernelLaunch[] launches = new KernelLaunch[devices];
        final List<SymmetricArray<?>> state = new ArrayList<>(2);
        try (FrontierExchange fx = new FrontierExchange(mesh, p)) {
            // Symmetric: other devices lower distances and swap tags one-sidedly, in other processes too.
            int maxOwned = 1;
            for (int d = 0; d < devices; d++) {
                maxOwned = Math.max(maxOwned, p.size(d));
            }
            final SymmetricArray<LongArray> dists = BspBfs.keep(state, mesh.allocateLongs(maxOwned));
            final SymmetricArray<IntArray> tags = BspBfs.keep(state, mesh.allocateInts(maxOwned));
            for (int d = 0; d < devices; d++) {
                dist[d] = dists.on(d);
                tag[d] = tags.on(d);
            }
            final long start = System.nanoTime();
            for (int d = world.firstLocalDevice(), end = d + world.localDeviceCount(); d < end; d++) {
                final LongArray dd = dist[d];
                final int size = p.size(d);
                launches[d] = mesh.device(d).launch(Math.max(1, (size + 65535) >> 16), (ctx, b) -> {
                    for (int i = b << 16, stop = Math.min(size, (b + 1) << 16); i < stop; i++) {
                        dd.set(i, INF);
                    }
                });
            }
            BspBfs.joinAll(launches);
            final int s = p.internal(source);
            final int sOwner = view.owner(s);
            if (world.isLocal(sOwner)) {
                dist[sOwner].set(s - view.lo(sOwner), 0);
            }
            fx.seed(sOwner, s - view.lo(sOwner));
            world.barrier(); // every rank's distances are initialised before anyone lowers one
            long rounds = 0;
            while (fx.totalSize() > 0) {
                final int nextTag = (int)(rounds + 1);
                for (int d = world.firstLocalDevice(), end = d + world.localDeviceCount(); d < end; d++) {
                    launches[d] = relax(g, view, d, dist, tag, fx, nextTag, counters);
                }
                BspBfs.joinAll(launches);
                fx.advance(); // the round's barrier: every rank knows every next frontier's size
                rounds++;
            }
            final long nanos = System.nanoTime() - start;
            final long[] out = new long[n];
            for (int d = 0; d < devices; d++) { // every device's distances, this process's and (mapped) the others'
                final int lo = p.lo(d);
                for (int i = 0, size = p.size(d); i < size; i++) {
                    out[p.original(lo + i)] = dist[d].get(i);
                }
            }
            final long[] t = counters.totals(world); // also the barrier before anyone frees what the others read
            final WorkCounts wc = new WorkCounts(rounds, t[WorkerCounters.VISITED], 0, t[WorkerCounters.EDGES],
                t[WorkerCounters.LOCAL_PUSHES], t[WorkerCounters.REMOTE_PUSHES], t[WorkerCounters.REMOTE_ATOMICS],
                t[WorkerCounters.MESSAGES], t[WorkerCounters.BYTES]);
            return AppResult.sssp(out, nanos, wc);
        } finally {
            BspBfs.release(mesh, state);
        }
    }

    private static KernelLaunch relax(final DeviceGraph g, final GraphView view, final int d, final LongArray[] dist,
        final IntArray[] tag, final FrontierExchange fx, final int nextTag, final WorkerCounters c) {
        final int size = fx.size(d);
        if (size == 0) {
            return null;
        }
        final Device dev = g.mesh().device(d);
        final IntArray frontier = fx.current(d);
        final Owners owners = view.owners();
        // Offsets, targets and weights are read through the raw view: validated at placement, no per-access checks.
        final AtomicBuffer tBuf = view.targets().buffer(d);
        final int tBase = view.targets().base(d);
        final AtomicBuffer wBuf = view.weights().buffer(d);
        final int wBase = view.weights().base(d);
        final LongArray mine = dist[d];
        return dev.launch((size + FRONTIER_PER_BLOCK - 1) / FRONTIER_PER_BLOCK, (ctx, block) -> {
            final int w = ctx.workerIndex();
            long edges = 0;
            long atomics = 0;
            final int from = block * FRONTIER_PER_BLOCK;
            final int to = Math.min(size, from + FRONTIER_PER_BLOCK);
            for (int i = from; i < to; i++) {
                final int u = frontier.get(i);
                final long du = mine.getVolatile(u);
                final int begin = view.edgeBegin(d, u);
                final int end = view.edgeEnd(d, u);
                for (int e = begin; e < end; e++) {
                    final int v = tBuf.getInt(tBase + (e << 2));
                    final long nd = du + wBuf.getInt(wBase + (e << 2));
                    final int o = owners.of(v);
                    final int lv = v - view.lo(o);
                    final LongArray dv = dist[o];
                    if (nd < dv.get(lv)) {
                        if (o != d) {
                            atomics++;
                        }
                        if (nd < dv.getAndMin(lv, nd) && tag[o].getAndSet(lv, nextTag) != nextTag) {
                            if (o != d) {
                                atomics++;
                            }
                            fx.push(d, w, o, lv, c);
                        }
                    }
                }
                edges += end - begin;
            }
            fx.flush(d, w, c);
            c.add(d, w, WorkerCounters.VISITED, to - from);
            c.add(d, w, WorkerCounters.EDGES, edges);
            c.add(d, w, WorkerCounters.REMOTE_ATOMICS, atomics);
        });
    }
}
