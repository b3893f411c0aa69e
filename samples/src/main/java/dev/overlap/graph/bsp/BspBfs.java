package dev.overlap.graph.bsp;

import dev.overlap.core.Device;
import dev.overlap.core.DeviceArray;
import dev.overlap.core.IntArray;
import dev.overlap.core.InterruptedWaitException;
import dev.overlap.core.KernelLaunch;
import dev.overlap.core.LongArray;
import dev.overlap.core.Mesh;
import dev.overlap.core.SymmetricArray;
import dev.overlap.core.World;
import dev.overlap.graph.app.AppResult;
import dev.overlap.graph.app.AppSettings;
import dev.overlap.graph.app.DirectionRule;
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
 * Level-synchronous BFS on the mesh (the BSP baseline). Each device owns a vertex range and the depths of its
 * vertices (in its memory). One superstep per level, one kernel launch per device, then a host barrier (join).
 *
 * <p>Top-down step: blocks expand the device's frontier; for each edge {@code u -> v} the owner's depth of
 * {@code v} is claimed with a compare-and-set from "unvisited" to {@code level + 1} (a remote atomic when another
 * device owns {@code v}); the winner pushes {@code v} to its owner's next frontier through the
 * {@link FrontierExchange} (batched one-sided puts). A vertex is claimed once, so it is expanded once: the work is
 * ideal by construction. "Visited" counts claimed vertices (plus the source), as an async run counts pushes.
 *
 * <p>Bottom-up step (direction-optimizing, symmetric graphs only; Beamer et al.; when, is {@link DirectionRule}'s
 * to say: the frontier's edges above the unexplored edges / 15, unless the frontier is small and not growing), each
 * device scans its own unvisited vertices and looks for a neighbour at depth
 * {@code level}, stopping at the first. The test reads the frontier as a bitmap (one bit per vertex, by local index,
 * one per device; 128 KiB for a million vertices, so it stays in cache where the depth array would not): a
 * bottom-up step writes the next bitmap of its own device (each block owns whole words: no atomics), a step after
 * a top-down one first builds it from the frontier list. Other devices' bitmaps are read directly (one-sided
 * reads); they were written in the previous superstep, before the barrier.
 * Back to top-down when the frontier falls below {@code n / 18} vertices and shrinks.
 *
 * <p><b>Across processes</b> (SPMD): every rank runs this on the same placed graph and launches its own devices only.
 * The depths, frontiers and bitmaps that other devices claim or read one-sidedly are symmetric allocations (the
 * same offset on every device, mapped in every process); the superstep ends at {@link FrontierExchange#advance},
 * a barrier that also adds up the discovered edges, so every rank knows the global frontier size and edges and takes
 * the same direction decision; switching to bottom-up adds one barrier (every bitmap built before any is read).
 * Every rank gathers the whole answer from every device's memory after the last superstep, and the work counters are
 * summed over the ranks. In one process the barriers cost nothing.
 *
 * <p><b>Raw addresses.</b> The kernels read and write device memory at raw addresses kept in locals (see
 * {@link RawArrays}): the CSR slices, the frontier lists, the bitmaps, and the depths, internal id {@code v}'s at
 * {@code depthOf[o] + 4 v} for its owner {@code o = Owners.of(bounds, v)} on a local copy of the bounds. So an edge
 * costs no index check and no load of a per-device object. The claim stays atomic: a compare-and-set on the depth's
 * absolute address ({@code UnsafeApi.compareAndSetInt}), which for a device of another process is in that device's
 * memory mapped into this one. Device memory is always off the heap (direct or mapped), so every device's arrays
 * have addresses; {@link RawArrays#address} refuses heap memory. The addresses are valid only while the run's state
 * and the placed graph are alive: the run owns its state from its allocation to its {@code finally}, and each step
 * is joined by {@link #joinAll}, which returns only once every launch has ended (also on an interrupt), so no kernel
 * runs when the state is freed; the graph must stay placed while the run lasts ({@link DeviceGraph#close()} is for
 * when no kernel uses it). Every index the kernels derive is in bounds: the slices were validated at placement,
 * targets are internal ids below the vertex count, frontiers hold local indices their device owns.
 *
 * <p>Thread-safety: one run at a time per mesh; the object is used by the calling host thread only. Memory
 * ordering: plain reads and writes within a step, except the claims (volatile compare-and-set) and the bitmap words
 * built from a frontier list (volatile compare-and-set, several blocks may set bits of one word); a step's writes
 * reach the next step through the joins and the superstep's barrier.
 */
final class BspBfs {
    static final int INF = Integer.MAX_VALUE;
    private static final int FRONTIER_PER_BLOCK = 64;
    private static final int SCAN_PER_BLOCK = 2048;

    private BspBfs() {
    }

    static long stateBytesPerDevice(final int maxOwned, final int devices, final int workers) {
        return Math.max(1L, maxOwned) * 4 + 64 + FrontierExchange.bytesPerDevice(maxOwned, devices, workers);
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
        final boolean optimizing = settings.direction() == AppSettings.Direction.OPTIMIZING && g.summary().isSymmetric();
        final Owners owners = new Owners(p.bounds());
        final WorkerCounters counters = WorkerCounters.of(mesh);
        final IntArray[] depth = new IntArray[devices];
        final LongArray[][] bits = new LongArray[2][devices];
        final KernelLaunch[] launches = new KernelLaunch[devices];
        final List<SymmetricArray<?>> state = new ArrayList<>(3);
        final long[] discovered = new long[1];
        try (FrontierExchange fx = new FrontierExchange(mesh, p)) {
            // Symmetric: other devices claim depths and read frontier bitmaps one-sidedly, in other processes too.
            int maxOwned = 1;
            for (int d = 0; d < devices; d++) {
                maxOwned = Math.max(maxOwned, p.size(d));
            }
            final SymmetricArray<IntArray> depths = keep(state, mesh.allocateInts(maxOwned));
            final SymmetricArray<LongArray> bits0 = optimizing ? keep(state, mesh.allocateLongs((maxOwned + 63) >> 6))
                : null;
            final SymmetricArray<LongArray> bits1 = optimizing ? keep(state, mesh.allocateLongs((maxOwned + 63) >> 6))
                : null;
            for (int d = 0; d < devices; d++) {
                depth[d] = depths.on(d);
                if (optimizing) {
                    bits[0][d] = bits0.on(d);
                    bits[1][d] = bits1.on(d);
                }
            }
            final Addresses raw = new Addresses(new GraphView(g), p.bounds(), depth, bits, optimizing);
            final long start = System.nanoTime();
            for (int d = world.firstLocalDevice(), end = d + world.localDeviceCount(); d < end; d++) {
                final IntArray dep = depth[d];
                final int size = p.size(d);
                launches[d] = mesh.device(d).launch(Math.max(1, (size + 65535) >> 16), (ctx, b) -> {
                    for (int i = b << 16, stop = Math.min(size, (b + 1) << 16); i < stop; i++) {
                        dep.set(i, INF);
                    }
                });
            }
            joinAll(launches);
            final int s = p.internal(source);
            final int sOwner = owners.of(s);
            if (world.isLocal(sOwner)) {
                depth[sOwner].set(s - owners.lo(sOwner), 0);
            }
            fx.seed(sOwner, s - owners.lo(sOwner));
            world.barrier(); // every rank's depths are initialised before anyone claims one
            final long totalEdges = g.summary().edgeCount();
            long exploredEdges = g.summary().degree(source);
            long frontierEdges = exploredEdges;
            long frontierSize = 1;
            long previousSize = 0;
            boolean bottomUp = false;
            boolean bitsCurrent = false;
            int curBits = 0;
            int level = 0;
            long supersteps = 0;
            while (frontierSize > 0) {
                if (optimizing) {
                    bottomUp = DirectionRule.bottomUp(bottomUp, n, frontierSize, previousSize, frontierEdges,
                        totalEdges - exploredEdges);
                }
                counters.clear(WorkerCounters.DISCOVERED_EDGES);
                if (bottomUp && !bitsCurrent) {
                    for (int d = world.firstLocalDevice(), end = d + world.localDeviceCount(); d < end; d++) {
                        launches[d] = frontierToBits(g, d, fx, raw, curBits, bits[curBits][d]);
                    }
                    joinAll(launches);
                    world.barrier(); // the bottom-up step reads every device's bitmap
                }
                for (int d = world.firstLocalDevice(), end = d + world.localDeviceCount(); d < end; d++) {
                    launches[d] = bottomUp ? bottomUpStep(g, d, raw, fx, level, counters, curBits)
                        : topDownStep(g, d, raw, fx, level, counters);
                }
                joinAll(launches);
                if (bottomUp) {
                    curBits ^= 1;
                }
                bitsCurrent = bottomUp;
                supersteps++;
                previousSize = frontierSize;
                discovered[0] = counters.sum(WorkerCounters.DISCOVERED_EDGES);
                frontierSize = fx.advance(discovered); // the superstep's barrier, adding up the discovered edges
                frontierEdges = discovered[0];
                exploredEdges += frontierEdges;
                level++;
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
            final long[] t = counters.totals(world); // also the barrier before anyone frees what the others read
            final WorkCounts wc = new WorkCounts(supersteps, t[WorkerCounters.VISITED] + 1, 0,
                t[WorkerCounters.EDGES], t[WorkerCounters.LOCAL_PUSHES], t[WorkerCounters.REMOTE_PUSHES],
                t[WorkerCounters.REMOTE_ATOMICS], t[WorkerCounters.MESSAGES], t[WorkerCounters.BYTES]);
            return AppResult.bfs(out, nanos, wc);
        } finally {
            release(mesh, state);
        }
    }

    /** Adds {@code array} to {@code state} (freed by {@link #release}, newest first) and returns it. */
    static <A extends DeviceArray> SymmetricArray<A> keep(final List<SymmetricArray<?>> state,
        final SymmetricArray<A> array) {
        state.add(array);
        return array;
    }

    /** Frees a run's symmetric state, newest first (collective across processes, as the allocations were). */
    static void release(final Mesh mesh, final List<SymmetricArray<?>> state) {
        if (mesh.isClosed()) {
            return;
        }
        for (int i = state.size() - 1; i >= 0; i--) {
            state.get(i).close();
        }
    }

    /**
     * Joins every launch of a step (null entries are skipped, every entry is set to null). It returns only when every
     * launch has ended, also when the calling thread is interrupted: the kernels use raw addresses into the run's
     * state, which the run frees once this returns or throws, so it waits the step's bounded work out (clearing the
     * interrupt to wait), then sets the interrupt status again and throws.
     *
     * @throws dev.overlap.core.KernelFailedException     the first failure of a launch, once every launch ended
     * @throws InterruptedWaitException                  if the thread was interrupted while waiting (and no launch
     *                                                   failed before)
     */
    static void joinAll(final KernelLaunch[] launches) {
        RuntimeException failure = null;
        boolean interrupted = false;
        for (int i = 0; i < launches.length; i++) {
            while (launches[i] != null) {
                try {
                    launches[i].join();
                    launches[i] = null;
                } catch (final InterruptedWaitException e) {
                    Thread.interrupted(); // wait again: the launch goes on and uses what the caller will free
                    interrupted = true;
                    if (failure == null) {
                        failure = e;
                    }
                } catch (final RuntimeException e) {
                    launches[i] = null;
                    if (failure == null) {
                        failure = e;
                    }
                }
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        if (failure != null) {
            throw failure;
        }
    }

    /**
     * The raw addresses a run's kernels use (see {@link RawArrays}): the partition bounds, each device's CSR slice,
     * the depths and the two bitmaps. Valid while the run's arrays and the placed graph are alive: the run builds
     * this after allocating its state and stops using it before its {@code finally} frees the state.
     */
    private static final class Addresses {
        final int[] bounds;
        /** Per device, element 0 of its offsets and targets. */
        final long[] offsetsAt;
        final long[] targetsAt;
        /** Per owner {@code o}: offsets and depth of internal id {@code v} at {@code of[o] + (v << shift)}. */
        final long[] offsetsOf;
        final long[] depthOf;
        final RawArrays depths;
        /** The two frontier bitmaps (by local index), or null when the run is top-down only. */
        final RawArrays[] bits;

        Addresses(final GraphView view, final int[] bounds, final IntArray[] depth, final LongArray[][] bits,
            final boolean optimizing) {
            this.bounds = bounds;
            this.offsetsAt = view.offsets().addresses();
            this.targetsAt = view.targets().addresses();
            this.offsetsOf = view.offsets().globalAddresses(bounds, 3);
            this.depths = RawArrays.of(depth);
            this.depthOf = depths.globalAddresses(bounds, 2);
            this.bits = !optimizing ? null : new RawArrays[] {RawArrays.of(bits[0]), RawArrays.of(bits[1])};
        }
    }

    private static KernelLaunch topDownStep(final DeviceGraph g, final int d, final Addresses a,
        final FrontierExchange fx, final int level, final WorkerCounters c) {
        final int size = fx.size(d);
        if (size == 0) {
            return null;
        }
        final Device dev = g.mesh().device(d);
        final long frontierAt = fx.currentAddress(d);
        final long offsetsAt = a.offsetsAt[d];
        final long targetsAt = a.targetsAt[d];
        final int[] bounds = a.bounds;
        final long[] depthOf = a.depthOf;
        final long[] offsetsOf = a.offsetsOf;
        final int next = level + 1;
        return dev.launch((size + FRONTIER_PER_BLOCK - 1) / FRONTIER_PER_BLOCK, (ctx, block) -> {
            final int w = ctx.workerIndex();
            long edges = 0;
            long atomics = 0;
            long claimed = 0;
            long discoveredEdges = 0;
            final int from = block * FRONTIER_PER_BLOCK;
            final int to = Math.min(size, from + FRONTIER_PER_BLOCK);
            for (int i = from; i < to; i++) {
                final int u = UnsafeApi.getInt(null, frontierAt + ((long)i << 2));
                final long ui = offsetsAt + ((long)u << 3);
                final long begin = UnsafeApi.getLong(null, ui);
                final long end = UnsafeApi.getLong(null, ui + 8);
                for (long at = targetsAt + (begin << 2), stop = targetsAt + (end << 2); at < stop; at += 4) {
                    final int v = UnsafeApi.getInt(null, at);
                    final int o = Owners.of(bounds, v);
                    final long vi = depthOf[o] + ((long)v << 2);
                    if (UnsafeApi.getInt(null, vi) == INF) {
                        if (o != d) {
                            atomics++;
                        }
                        // a remote atomic when o is another device (in another process: its mapped memory)
                        if (UnsafeApi.compareAndSetInt(null, vi, INF, next)) {
                            final long vo = offsetsOf[o] + ((long)v << 3);
                            discoveredEdges += UnsafeApi.getLong(null, vo + 8) - UnsafeApi.getLong(null, vo);
                            fx.push(d, w, o, v - bounds[o], c);
                            claimed++;
                        }
                    }
                }
                edges += end - begin;
            }
            fx.flush(d, w, c);
            c.add(d, w, WorkerCounters.VISITED, claimed);
            c.add(d, w, WorkerCounters.EDGES, edges);
            c.add(d, w, WorkerCounters.REMOTE_ATOMICS, atomics);
            c.add(d, w, WorkerCounters.DISCOVERED_EDGES, discoveredEdges);
        });
    }

    /** Builds device {@code d}'s frontier bitmap {@code cur} (by local index) from its frontier list. */
    private static KernelLaunch frontierToBits(final DeviceGraph g, final int d, final FrontierExchange fx,
        final Addresses a, final int cur, final LongArray bitmap) {
        final int owned = g.partition().size(d);
        if (owned == 0) {
            return null;
        }
        bitmap.clear();
        final int size = fx.size(d);
        if (size == 0) {
            return null;
        }
        final long frontierAt = fx.currentAddress(d);
        final long bitsAt = a.bits[cur].address(d);
        return g.mesh().device(d).launch((size + SCAN_PER_BLOCK - 1) / SCAN_PER_BLOCK, (ctx, block) -> {
            for (int i = block * SCAN_PER_BLOCK, end = Math.min(size, i + SCAN_PER_BLOCK); i < end; i++) {
                final int lv = UnsafeApi.getInt(null, frontierAt + ((long)i << 2));
                final long bit = 1L << lv;
                final long at = bitsAt + ((long)(lv >>> 6) << 3);
                long word = UnsafeApi.getLongVolatile(null, at);
                while ((word & bit) == 0 && !UnsafeApi.compareAndSetLong(null, at, word, word | bit)) {
                    word = UnsafeApi.getLongVolatile(null, at);
                }
            }
        });
    }

    private static KernelLaunch bottomUpStep(final DeviceGraph g, final int d, final Addresses a,
        final FrontierExchange fx, final int level, final WorkerCounters c, final int cur) {
        final int owned = g.partition().size(d);
        if (owned == 0) {
            return null;
        }
        final Device dev = g.mesh().device(d);
        final long offsetsAt = a.offsetsAt[d];
        final long targetsAt = a.targetsAt[d];
        final long depthAt = a.depths.address(d);
        final long nextAt = a.bits[cur ^ 1].address(d);
        final long[] frontierAt = a.bits[cur].addresses();
        final int[] bounds = a.bounds;
        final int next = level + 1;
        // Blocks cover SCAN_PER_BLOCK (a multiple of 64) local vertices, so each owns whole words of the next bitmap
        // and writes every one of them (zero or not).
        return dev.launch((owned + SCAN_PER_BLOCK - 1) / SCAN_PER_BLOCK, (ctx, block) -> {
            final int worker = ctx.workerIndex();
            long edges = 0;
            long found = 0;
            long discoveredEdges = 0;
            final int from = block * SCAN_PER_BLOCK;
            final int to = Math.min(owned, from + SCAN_PER_BLOCK);
            for (int w = from; w < to; w += 64) {
                long word = 0;
                for (int lv = w, end = Math.min(to, w + 64); lv < end; lv++) {
                    final long vi = depthAt + ((long)lv << 2);
                    if (UnsafeApi.getInt(null, vi) != INF) {
                        continue;
                    }
                    final long oi = offsetsAt + ((long)lv << 3);
                    final long start = UnsafeApi.getLong(null, oi);
                    final long stop = UnsafeApi.getLong(null, oi + 8);
                    long e = start;
                    while (e < stop) {
                        final int u = UnsafeApi.getInt(null, targetsAt + (e++ << 2));
                        final int o = Owners.of(bounds, u);
                        final int lu = u - bounds[o];
                        if ((UnsafeApi.getLong(null, frontierAt[o] + ((long)(lu >>> 6) << 3)) & (1L << lu)) != 0) {
                            UnsafeApi.putInt(null, vi, next);
                            word |= 1L << lv;
                            fx.push(d, worker, d, lv, c);
                            found++;
                            discoveredEdges += stop - start;
                            break;
                        }
                    }
                    edges += e - start;
                }
                UnsafeApi.putLong(null, nextAt + ((long)(w >>> 6) << 3), word);
            }
            fx.flush(d, worker, c);
            c.add(d, worker, WorkerCounters.VISITED, found);
            c.add(d, worker, WorkerCounters.EDGES, edges);
            c.add(d, worker, WorkerCounters.DISCOVERED_EDGES, discoveredEdges);
        });
    }
}
