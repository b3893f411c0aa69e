package dev.overlap.graph.bsp;

import dev.overlap.core.Device;
import dev.overlap.core.IntArray;
import dev.overlap.core.KernelLaunch;
import dev.overlap.core.LongArray;
import dev.overlap.core.Mesh;
import dev.overlap.core.SymmetricArray;
import dev.overlap.core.World;
import dev.overlap.graph.GraphSummary;
import dev.overlap.graph.app.AppResult;
import dev.overlap.graph.app.AppSettings;
import dev.overlap.graph.app.BucketRing;
import dev.overlap.graph.app.GraphApp;
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
 * Delta-stepping SSSP on the mesh in rounds (the BSP mode; Meyer and Sanders' buckets of width {@code 1 << shift},
 * {@link AppSettings#deltaFor} rounded down to a power of two, see {@link BucketRing}). Round {@code r} relaxes, on
 * each device, the vertices of its frontier whose distance lies in the current bucket {@code b}, then a host barrier.
 * A relaxation is an atomic minimum on the owner's distance (remote when another device owns the target); the thread
 * that lowers it tags the vertex for the next round with an atomic exchange of the round number, and the one that
 * changes the tag pushes it to its owner's next frontier, so a vertex enters each frontier at most once.
 *
 * <p><b>Far vertices wait at their owner.</b> A frontier vertex whose distance lies beyond bucket {@code b} is not
 * relaxed: its owner's worker files it in its own {@link BucketRing} (host memory of the owner's process, one ring
 * per worker) and the vertex is not pushed again. When a round lowers no distance into bucket {@code b} (counted over
 * every rank at the round's barrier), the bucket is done and the next one is the least of every worker's lowest filed
 * bucket and of every distance lowered beyond {@code b} in that round (one more reduction across processes); the
 * round that follows relaxes that bucket's filed vertices beside the frontier. So the bucket changes without a round
 * of its own, and a vertex is relaxed about once per distance it settles at, where Bellman-Ford relaxed it once per
 * round its distance dropped in (21.7 times the ideal work on a 512 x 512 grid).
 *
 * <p><b>Why the answer is exact.</b> Distances only fall, every relaxed distance is at least {@code b}'s lower bound
 * (weights are non-negative, refused before the run otherwise), so no vertex lands below the current bucket. A filed
 * entry whose vertex has since moved to a lower bucket was relaxed there and is skipped; one still in the bucket is
 * claimed by the round's tag (an entry filed twice, or also in the frontier, is relaxed once). A frontier vertex
 * reads its own distance when its block runs; if that distance dropped again during the round, the vertex is in the
 * next frontier too. The bucket is done only when no distance was lowered into it in the last round: every lowering
 * is counted, also one whose vertex was already tagged, so a vertex pushed as far and lowered into {@code b} in the
 * same round keeps the bucket open. The next bucket is the least of everything that can hold a vertex: filed
 * entries and the distances lowered in the last round, whose vertices are all in the next frontier.
 *
 * <p><b>Across processes</b> (SPMD), as {@link BspBfs}: each rank launches its own devices; distances, tags and
 * frontiers are symmetric allocations, so relaxations reach the devices of other processes with the same atomics;
 * each round ends at the exchange's barrier, which also adds up the lowerings into the current bucket, so every rank
 * knows every next frontier's size and takes the same decisions. A ring holds only vertices of its own device, so
 * it never leaves its process.
 *
 * <p><b>Raw addresses</b>, as in {@link BspBfs}: the relaxation reads the CSR slice, the frontier and the distances
 * and updates distances and tags at raw addresses held in locals (internal id {@code v}'s distance at
 * {@code distOf[o] + 8 v} for its owner {@code o}); the minimum is a compare-and-set loop and the tag an atomic
 * exchange on the absolute address, in another process's mapped memory for its devices. The addresses are valid
 * while the run's state and the placed graph are alive; every round is joined before the run's {@code finally}
 * frees the state ({@link BspBfs#joinAll} waits every launch out, also on an interrupt).
 *
 * <p>Thread-safety: one run at a time per mesh, driven by the calling host thread. Memory ordering: a frontier or
 * filed vertex's own distance is a volatile read; the minimum and the tag are volatile read-modify-writes; a round's
 * writes, the rings' entries and the lanes' counts reach the host and the next round through the joins and the
 * exchange's barrier.
 */
final class BspSssp {
    static final long INF = Long.MAX_VALUE;
    private static final int FRONTIER_PER_BLOCK = 64;

    private BspSssp() {
    }

    static long stateBytesPerDevice(final int maxOwned, final int devices, final int workers) {
        return Math.max(1L, maxOwned) * 12 + 128 + FrontierExchange.bytesPerDevice(maxOwned, devices, workers);
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
        final GraphSummary summary = g.summary();
        GraphApp.SSSP.requireUsable(summary);
        final int shift = BucketRing.widthShift(settings.deltaFor(summary), summary.maxWeight());
        final int slots = BucketRing.slotsFor(summary.maxWeight(), shift);
        final GraphView view = new GraphView(g);
        final World world = mesh.world();
        final WorkerCounters counters = WorkerCounters.of(mesh);
        final int workers = WorkerCounters.workersPerDevice(mesh);
        final LongArray[] dist = new LongArray[devices];
        final IntArray[] tag = new IntArray[devices];
        final KernelLaunch[] launches = new KernelLaunch[devices];
        final Lane[][] lanes = new Lane[devices][];
        for (int d = world.firstLocalDevice(), end = d + world.localDeviceCount(); d < end; d++) {
            lanes[d] = new Lane[workers];
            for (int w = 0; w < workers; w++) {
                lanes[d][w] = new Lane(slots);
            }
        }
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
                final IntArray td = tag[d];
                final int size = p.size(d);
                launches[d] = mesh.device(d).launch(Math.max(1, (size + 65535) >> 16), (ctx, b) -> {
                    for (int i = b << 16, stop = Math.min(size, (b + 1) << 16); i < stop; i++) {
                        dd.set(i, INF);
                        td.set(i, -1);
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
            final long[] lowered = new long[1];
            long bucket = 0;
            boolean dispatch = false;
            long rounds = 0;
            while (true) {
                for (int d = world.firstLocalDevice(), end = d + world.localDeviceCount(); d < end; d++) {
                    for (final Lane lane : lanes[d]) {
                        lane.handOver(bucket, dispatch);
                    }
                    launches[d] = round(g, view, d, bounds, distOf, tagOf, fx, lanes[d], shift, bucket, (int)rounds,
                        counters);
                }
                BspBfs.joinAll(launches);
                long near = 0;
                long far = Long.MAX_VALUE;
                for (int d = world.firstLocalDevice(), end = d + world.localDeviceCount(); d < end; d++) {
                    for (final Lane lane : lanes[d]) {
                        lane.takeBack();
                        near += lane.near;
                        far = Math.min(far, lane.far);
                        lane.near = 0;
                        lane.far = Long.MAX_VALUE;
                    }
                }
                lowered[0] = near;
                fx.advance(lowered); // the round's barrier: every next frontier's size, the lowerings into b
                rounds++;
                dispatch = lowered[0] == 0;
                if (dispatch) { // bucket b is done: the next is the least bucket anything waits in, on every rank
                    long next = far;
                    for (int d = world.firstLocalDevice(), end = d + world.localDeviceCount(); d < end; d++) {
                        for (final Lane lane : lanes[d]) {
                            next = Math.min(next, lane.bins.lowest(bucket + 1));
                        }
                    }
                    if (world.isDistributed()) {
                        next = -world.allReduceMax(-next);
                    }
                    if (next == Long.MAX_VALUE) {
                        break;
                    }
                    bucket = next;
                }
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

    /**
     * One worker's part of a run: its ring of filed vertices (local indices of its device), the bin of the current
     * bucket it hands over for a round, and the round's lowerings into the current bucket ({@code near}) and the
     * least bucket lowered into beyond it ({@code far}). Written by its worker during a round (one block at a time),
     * read and reset by the host between rounds (the join orders them).
     */
    private static final class Lane {
        final BucketRing bins;
        /** The bin of the current bucket handed over for the round (read by any worker of the device), or null. */
        int[] handed;
        int handedLength;
        long near;
        long far = Long.MAX_VALUE;

        Lane(final int slots) {
            this.bins = new BucketRing(slots);
        }

        /** Host, before a round: hands over bucket {@code b}'s bin when the bucket starts ({@code dispatch}). */
        void handOver(final long b, final boolean dispatch) {
            if (dispatch && bins.size(b) > 0) {
                handedLength = bins.size(b);
                handed = bins.take(b);
            }
        }

        /** Host, after the round's join: the handed-over bin is read by nobody now. */
        void takeBack() {
            if (handed != null) {
                bins.giveBack(handed);
                handed = null;
                handedLength = 0;
            }
        }
    }

    /**
     * Launches round {@code round} on device {@code d}: its frontier, then the bins its workers handed over, in blocks
     * of {@value #FRONTIER_PER_BLOCK}; null when both are empty.
     */
    private static KernelLaunch round(final DeviceGraph g, final GraphView view, final int d, final int[] bounds,
        final long[] distOf, final long[] tagOf, final FrontierExchange fx, final Lane[] lanes, final int shift,
        final long bucket, final int round, final WorkerCounters c) {
        final int size = fx.size(d);
        long items = size;
        for (final Lane lane : lanes) {
            items += lane.handedLength;
        }
        final long total = items;
        if (total == 0) {
            return null;
        }
        final Device dev = g.mesh().device(d);
        final long frontierAt = fx.currentAddress(d);
        final long offsetsAt = view.offsets().address(d);
        final long targetsAt = view.targets().address(d);
        // weights sit at the same edge slot as the targets: one offset from a target's address to its weight's
        final long weights = view.weights().address(d) - targetsAt;
        final long mineAt = distOf[d] + ((long)bounds[d] << 3);
        final long myTagsAt = tagOf[d] + ((long)bounds[d] << 2);
        final int nextTag = round + 1;
        final int blocks = (int)((total + FRONTIER_PER_BLOCK - 1) / FRONTIER_PER_BLOCK);
        return dev.launch(blocks, (ctx, block) -> {
            final int w = ctx.workerIndex();
            final Lane lane = lanes[w];
            long edges = 0;
            long atomics = 0;
            long relaxed = 0;
            long near = 0;
            long far = Long.MAX_VALUE;
            final long from = (long)block * FRONTIER_PER_BLOCK;
            final long to = Math.min(total, from + FRONTIER_PER_BLOCK);
            // the frontier is segment -1, then each worker's handed-over bin
            long base = 0;
            int seg = -1;
            long segEnd = size;
            while (segEnd <= from) {
                base = segEnd;
                segEnd += lanes[++seg].handedLength;
            }
            for (long i = from; i < to; i++) {
                while (i >= segEnd) {
                    base = segEnd;
                    segEnd += lanes[++seg].handedLength;
                }
                final int u = seg < 0 ? UnsafeApi.getInt(null, frontierAt + (i << 2))
                    : lanes[seg].handed[(int)(i - base)];
                final long du = UnsafeApi.getLongVolatile(null, mineAt + ((long)u << 3));
                final long k = du >> shift;
                if (k != bucket) {
                    if (k > bucket && seg < 0) {
                        lane.bins.add(u, k); // far: waits here for its bucket, not pushed again
                    }
                    continue; // a filed entry below the bucket was relaxed there
                }
                if (seg >= 0 && UnsafeApi.getAndSetInt(null, myTagsAt + ((long)u << 2), round) == round) {
                    continue; // filed twice, or in the frontier too: relaxed once
                }
                relaxed++;
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
                        if (nd < cur) {
                            final long kv = nd >> shift;
                            if (kv == bucket) {
                                near++;
                            } else if (kv < far) {
                                far = kv;
                            }
                            if (UnsafeApi.getAndSetInt(null, tagOf[o] + ((long)v << 2), nextTag) != nextTag) {
                                if (o != d) {
                                    atomics++;
                                }
                                fx.push(d, w, o, v - bounds[o], c);
                            }
                        }
                    }
                }
                edges += end - begin;
            }
            fx.flush(d, w, c);
            lane.near += near;
            lane.far = Math.min(lane.far, far);
            c.add(d, w, WorkerCounters.VISITED, relaxed);
            c.add(d, w, WorkerCounters.EDGES, edges);
            c.add(d, w, WorkerCounters.REMOTE_ATOMICS, atomics);
        });
    }
}
