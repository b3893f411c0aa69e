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
import dev.overlap.graph.partition.RawArrays;
import org.agrona.UnsafeApi;

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
 * <p><b>Raw addresses</b>, as in {@link BspBfs}: the relaxation reads the CSR slice, the frontier and the distances
 * and updates distances and tags at raw addresses held in locals (internal id {@code v}'s distance at
 * {@code distOf[o] + 8 v} for its owner {@code o}); the minimum is a compare-and-set loop and the tag an atomic
 * exchange on the absolute address, in another process's mapped memory for its devices. The addresses are valid
 * while the run's state and the placed graph are alive; every round is joined before the run's {@code finally}
 * frees the state ({@link BspBfs#joinAll} waits every launch out, also on an interrupt).
 *
 * <p>Thread-safety: one run at a time per mesh, driven by the calling host thread. Memory ordering: a frontier
 * vertex's own distance is a volatile read; the minimum and the tag are volatile read-modify-writes; a round's
 * writes reach the next round through the joins and the exchange's barrier.
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
            // raw addresses (see RawArrays and BspBfs): valid until the finally frees the state; every round is
            // joined by BspBfs.joinAll, which returns only once every launch has ended
            final int[] bounds = p.bounds();
            final long[] distOf = RawArrays.of(dist).globalAddresses(bounds, 3);
            final long[] tagOf = RawArrays.of(tag).globalAddresses(bounds, 2);
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
                    launches[d] = relax(g, view, d, bounds, distOf, tagOf, fx, nextTag, counters);
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

    private static KernelLaunch relax(final DeviceGraph g, final GraphView view, final int d, final int[] bounds,
        final long[] distOf, final long[] tagOf, final FrontierExchange fx, final int nextTag, final WorkerCounters c) {
        final int size = fx.size(d);
        if (size == 0) {
            return null;
        }
        final Device dev = g.mesh().device(d);
        final long frontierAt = fx.currentAddress(d);
        final long offsetsAt = view.offsets().address(d);
        final long targetsAt = view.targets().address(d);
        // weights sit at the same edge slot as the targets: one offset from a target's address to its weight's
        final long weights = view.weights().address(d) - targetsAt;
        final long mineAt = distOf[d] + ((long)bounds[d] << 3);
        return dev.launch((size + FRONTIER_PER_BLOCK - 1) / FRONTIER_PER_BLOCK, (ctx, block) -> {
            final int w = ctx.workerIndex();
            long edges = 0;
            long atomics = 0;
            final int from = block * FRONTIER_PER_BLOCK;
            final int to = Math.min(size, from + FRONTIER_PER_BLOCK);
            for (int i = from; i < to; i++) {
                final int u = UnsafeApi.getInt(null, frontierAt + ((long)i << 2));
                final long du = UnsafeApi.getLongVolatile(null, mineAt + ((long)u << 3));
                final long ui = offsetsAt + ((long)u << 3);
                final long begin = UnsafeApi.getLong(null, ui);
                final long end = UnsafeApi.getLong(null, ui + 8);
                for (long at = targetsAt + (begin << 2), stop = targetsAt + (end << 2); at < stop; at += 4) {
                    final int v = UnsafeApi.getInt(null, at);
                    final long nd = du + UnsafeApi.getInt(null, at + weights);
                    final int o = Owners.of(bounds, v);
                    final long vi = distOf[o] + ((long)v << 3);
                    long cur = UnsafeApi.getLong(null, vi);
                    if (nd < cur) {
                        if (o != d) {
                            atomics++;
                        }
                        // the atomic minimum: a remote atomic when o is another device
                        while (nd < cur && !UnsafeApi.compareAndSetLong(null, vi, cur, nd)) {
                            cur = UnsafeApi.getLongVolatile(null, vi);
                        }
                        if (nd < cur && UnsafeApi.getAndSetInt(null, tagOf[o] + ((long)v << 2), nextTag) != nextTag) {
                            if (o != d) {
                                atomics++;
                            }
                            fx.push(d, w, o, v - bounds[o], c);
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
