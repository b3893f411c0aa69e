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
import java.util.Arrays;
import java.util.List;

/**
 * Delta-stepping SSSP on the mesh in rounds (the BSP mode; Meyer and Sanders' buckets of width {@code 1 << shift},
 * {@link AppSettings#deltaFor} rounded down to a power of two, see {@link BucketRing}). Round {@code r} relaxes, on
 * each device, the vertices of its frontier whose distance lies in the current bucket {@code b}, then a host barrier.
 * A relaxation is an atomic minimum on the owner's distance (remote when another device owns the target); the worker
 * that lowers it claims the vertex through its tag (below) and pushes it to its owner's next frontier, so a vertex
 * enters each frontier at most once.
 *
 * <p><b>Far vertices wait at their owner.</b> A frontier vertex whose distance lies beyond bucket {@code b} is not
 * relaxed: its owner's worker files it in its own {@link BucketRing} (host memory of the owner's process, one ring
 * per worker) and the vertex is not pushed again. When a round lowers no distance into bucket {@code b} for the next
 * round (counted over every rank at the round's barrier), the bucket is done and the next one is the least of every
 * worker's lowest filed bucket and of every distance lowered beyond {@code b} in that round (one more reduction across
 * processes); the round that follows relaxes that bucket's filed vertices beside the frontier. So the bucket changes
 * without a round of its own, and a vertex is relaxed about once per distance it settles at, where Bellman-Ford
 * relaxed it once per round its distance dropped in (many times the ideal work on a long-diameter graph).
 *
 * <p><b>Bin fusion</b> (as the GAP suite's): a worker that lowers a vertex of its own device into the current bucket
 * keeps it on a stack and relaxes it before its block ends, while it keeps fewer than {@code fuse} ({@value #FUSE}),
 * instead of leaving it to the next round: the light-edge chains inside a bucket cost no rounds when they stay on one
 * device. That holds also for a vertex pushed earlier in the round as far: relaxed now, its entry in the next frontier
 * is stale if the bucket ends, and the lowering does not keep the bucket open.
 *
 * <p><b>Tags</b>, one int per vertex at its owner ({@link FusionTags}, which states why no lowering is lost): round
 * {@code r}'s number marks a vertex relaxed in round {@code r} (in its frontier, or a filed entry claimed); {@code r + 1}
 * one pushed for the next round; two more values one on a worker's fusion stack (and pushed too, for the second),
 * whose popper sets it back to free or pushed before reading the distance; anything else is free. A lowering claims a
 * free vertex (for fusion or the next round) or a pushed one (for fusion), and does nothing more for a fused one. So a
 * vertex is pushed at most once a round. A filed entry is relaxed only if it claims its vertex, so an entry filed
 * twice, or also in the frontier, pushed or fused, is relaxed once by whoever holds it.
 *
 * <p><b>Why the answer is exact.</b> Distances only fall, every relaxed distance is at least {@code b}'s lower bound
 * (weights are non-negative, refused before the run otherwise), so no vertex lands below the current bucket. A filed
 * entry whose vertex has since moved to a lower bucket was relaxed there and is skipped. A frontier or fused vertex
 * reads its own distance when it is relaxed; a later lowering claims it again. The bucket is done only when no
 * distance was lowered into it for the next round in the last one: every such lowering is counted, also one whose
 * vertex was already pushed, so a vertex pushed as far and lowered into {@code b} in the same round keeps the bucket
 * open. The next bucket is the least of everything that can hold a vertex: filed entries and the distances lowered
 * in the last round, whose vertices are all in the next frontier.
 *
 * <p><b>Across processes</b> (SPMD), as {@link BspBfs}: each rank launches its own devices; distances, tags and
 * frontiers are symmetric allocations, so relaxations reach the devices of other processes with the same atomics;
 * each round ends at the exchange's barrier, which also adds up the lowerings into the current bucket, so every rank
 * knows every next frontier's size and takes the same decisions. A ring and a fusion stack hold only vertices of
 * their own device, so they never leave their process.
 *
 * <p><b>Raw addresses</b>, as in {@link BspBfs}: the relaxation reads the CSR slice, the frontier and the distances
 * and updates distances and tags at raw addresses held in locals (internal id {@code v}'s distance at
 * {@code distOf[o] + 8 v} for its owner {@code o}); the minimum and the claims are compare-and-set loops on the
 * absolute address, in another process's mapped memory for its devices. The addresses are valid while the run's state
 * and the placed graph are alive; every round is joined before the run's {@code finally} frees the state
 * ({@link BspBfs#joinAll} waits every launch out, also on an interrupt).
 *
 * <p>Thread-safety: one run at a time per mesh, driven by the calling host thread. Memory ordering: a vertex's own
 * distance is read volatile when it is relaxed, after its claim (a fused vertex: after its popper's volatile write of
 * its tag, so a lowering that saw it fused is seen); the minimum and the claims are volatile read-modify-writes; a
 * round's writes, the rings' entries and the lanes' counts reach the host and the next round through the joins and
 * the exchange's barrier.
 */
final class BspSssp {
    static final long INF = Long.MAX_VALUE;
    private static final int FRONTIER_PER_BLOCK = 64;
    /** Most vertices a worker keeps to relax within a round (the GAP suite's bin fusion threshold). */
    static final int FUSE = 1000;

    private BspSssp() {
    }

    static long stateBytesPerDevice(final int maxOwned, final int devices, final int workers) {
        return Math.max(1L, maxOwned) * 12 + 128 + FrontierExchange.bytesPerDevice(maxOwned, devices, workers);
    }

    static AppResult run(final DeviceGraph g, final int source, final AppSettings settings) {
        return run(g, source, settings, FUSE);
    }

    /** @param fuse most vertices a worker relaxes within a round ({@link #FUSE}; tests turn fusion off with 0) */
    static AppResult run(final DeviceGraph g, final int source, final AppSettings settings, final int fuse) {
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
                        td.set(i, FusionTags.FREE);
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
                    launches[d] = launch(new Round(g, view, d, bounds, distOf, tagOf, fx, counters, shift, bucket,
                        (int)rounds, fuse), lanes[d], fx.size(d));
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
            for (int d = world.firstLocalDevice(), end = d + world.localDeviceCount(); d < end; d++) {
                for (int w = 0; w < workers; w++) {
                    final Lane lane = lanes[d][w];
                    counters.add(d, w, WorkerCounters.VISITED, lane.relaxed);
                    counters.add(d, w, WorkerCounters.EDGES, lane.edges);
                    counters.add(d, w, WorkerCounters.REMOTE_ATOMICS, lane.atomics);
                }
            }
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
     * bucket it hands over for a round, its fusion stack, and its counts: the round's lowerings into the current
     * bucket that the next round must see ({@code near}), the least bucket lowered into beyond it ({@code far}), and
     * the run's relaxations, edges and remote atomics. Written by its worker during a round (one block at a time),
     * read and reset by the host between rounds (the join orders them).
     */
    private static final class Lane {
        final BucketRing bins;
        /** The bin of the current bucket handed over for the round (read by any worker of the device), or null. */
        int[] handed;
        int handedLength;
        /** Local vertices of this device lowered into the current bucket, to relax within the round. */
        int[] fused = new int[64];
        int fusedSize;
        long near;
        long far = Long.MAX_VALUE;
        long relaxed;
        long edges;
        long atomics;

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

        void fuse(final int localIndex) {
            if (fusedSize == fused.length) {
                fused = Arrays.copyOf(fused, fusedSize * 2);
            }
            fused[fusedSize++] = localIndex;
        }
    }

    /**
     * Launches round {@code round} on device {@code d}: its frontier, then the bins its workers handed over, in blocks
     * of {@value #FRONTIER_PER_BLOCK}; null when both are empty.
     */
    private static KernelLaunch launch(final Round r, final Lane[] lanes, final int size) {
        long items = size;
        for (final Lane lane : lanes) {
            items += lane.handedLength;
        }
        final long total = items;
        if (total == 0) {
            return null;
        }
        final long mineAt = r.mineAt;
        final long frontierAt = r.frontierAt;
        final long bucket = r.bucket;
        final int shift = r.shift;
        final int blocks = (int)((total + FRONTIER_PER_BLOCK - 1) / FRONTIER_PER_BLOCK);
        return r.device.launch(blocks, (ctx, block) -> {
            final int w = ctx.workerIndex();
            final Lane lane = lanes[w];
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
                if (seg >= 0 && !r.claimFiled(u)) {
                    continue; // filed twice, in the frontier too, pushed or fused: relaxed once, by someone else
                }
                r.relax(lane, w, u, du);
                r.drain(lane, w);
            }
            r.fx.flush(r.d, w, r.counters);
        });
    }

    /**
     * What a round's kernel on one device needs: the raw addresses (see the class comment), the bucket and the tags.
     * The relaxation of one vertex is a method of its own, called once per relaxed vertex, so the JIT compiles it
     * early and on its own.
     */
    private static final class Round {
        final Device device;
        final int d;
        final int[] bounds;
        final long[] distOf;
        final long[] tagOf;
        final FrontierExchange fx;
        final WorkerCounters counters;
        final long frontierAt;
        final long offsetsAt;
        final long targetsAt;
        /** From a target's address to its weight's: the weights sit at the same edge slot. */
        final long weights;
        final long mineAt;
        final long myTagsAt;
        final int shift;
        final long bucket;
        final int round;
        final int nextTag;
        /** Most vertices a worker keeps to relax within the round ({@code 0}: none, every lowering is pushed). */
        final int fuse;

        Round(final DeviceGraph g, final GraphView view, final int d, final int[] bounds, final long[] distOf,
            final long[] tagOf, final FrontierExchange fx, final WorkerCounters counters, final int shift,
            final long bucket, final int round, final int fuse) {
            this.device = g.mesh().device(d);
            this.d = d;
            this.bounds = bounds;
            this.distOf = distOf;
            this.tagOf = tagOf;
            this.fx = fx;
            this.counters = counters;
            this.frontierAt = fx.currentAddress(d);
            this.offsetsAt = view.offsets().address(d);
            this.targetsAt = view.targets().address(d);
            this.weights = view.weights().address(d) - targetsAt;
            this.mineAt = distOf[d] + ((long)bounds[d] << 3);
            this.myTagsAt = tagOf[d] + ((long)bounds[d] << 2);
            this.shift = shift;
            this.bucket = bucket;
            this.round = round;
            this.nextTag = round + 1;
            this.fuse = fuse;
        }

        /**
         * Relaxes the out-edges of local vertex {@code u} at distance {@code du}. A target lowered into the current
         * bucket on this device is kept to relax within the round (fused) while the worker keeps fewer than
         * {@link #fuse}; any other lowered target is tagged for the next round and pushed to its owner by the worker
         * that changes its tag.
         */
        void relax(final Lane lane, final int w, final int u, final long du) {
            final long ui = offsetsAt + ((long)u << 3);
            final long begin = UnsafeApi.getLong(null, ui);
            final long end = UnsafeApi.getLong(null, ui + 8);
            final int[] b = bounds;
            final long[] dists = distOf;
            long atomics = 0;
            long near = 0;
            long far = lane.far;
            for (long at = targetsAt + (begin << 2), stop = targetsAt + (end << 2); at < stop; at += 4) {
                final int v = UnsafeApi.getInt(null, at);
                final long nd = du + UnsafeApi.getInt(null, at + weights);
                final int o = Owners.of(b, v);
                final long vi = dists[o] + ((long)v << 3);
                long cur = UnsafeApi.getLong(null, vi);
                if (nd >= cur) {
                    continue;
                }
                if (o != d) {
                    atomics++;
                }
                // the atomic minimum: a remote atomic when o is another device
                while (nd < cur && !UnsafeApi.compareAndSetLong(null, vi, cur, nd)) {
                    cur = UnsafeApi.getLongVolatile(null, vi);
                }
                if (nd >= cur) {
                    continue;
                }
                final long kv = nd >> shift;
                // claim it for the next round, or to relax within this one (fusion: local, in the bucket, room)
                final int claim = FusionTags.claim(tagOf[o] + ((long)v << 2), nextTag,
                    kv == bucket && o == d && lane.fusedSize < fuse);
                if (o != d) {
                    atomics++;
                }
                if (claim == FusionTags.HELD) {
                    continue; // on a worker's fusion stack: it reads the distance after this lowering
                }
                if (claim == FusionTags.FUSE) {
                    lane.fuse(v - b[o]); // relaxed by this worker before its block ends
                    continue;
                }
                // the next round must see it: every lowering counts, also one whose vertex is tagged already
                if (kv == bucket) {
                    near++;
                } else if (kv < far) {
                    far = kv;
                }
                if (claim == FusionTags.PUSH) {
                    fx.push(d, w, o, v - b[o], counters); // claimed for the next round: pushed once
                }
            }
            lane.relaxed++;
            lane.edges += end - begin;
            lane.atomics += atomics;
            lane.near += near;
            lane.far = far;
        }

        /**
         * Relaxes the fused vertices, newest first, until none is left. Each is released first
         * ({@link FusionTags#release}), then its distance read: a lowering that found it still fused is seen here; a
         * later one claims it again.
         */
        void drain(final Lane lane, final int w) {
            while (lane.fusedSize > 0) {
                final int u = lane.fused[--lane.fusedSize];
                FusionTags.release(myTagsAt + ((long)u << 2), nextTag);
                relax(lane, w, u, UnsafeApi.getLongVolatile(null, mineAt + ((long)u << 3)));
            }
        }

        /** @return whether the caller relaxes filed local vertex {@code u} ({@link FusionTags#claimFiled}) */
        boolean claimFiled(final int u) {
            return FusionTags.claimFiled(myTagsAt + ((long)u << 2), round);
        }
    }
}
