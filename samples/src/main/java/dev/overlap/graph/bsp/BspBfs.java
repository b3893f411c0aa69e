package dev.overlap.graph.bsp;

import dev.overlap.core.Device;
import dev.overlap.core.DeviceArray;
import dev.overlap.core.IntArray;
import dev.overlap.core.KernelLaunch;
import dev.overlap.core.LongArray;
import dev.overlap.core.Mesh;
import dev.overlap.core.SymmetricArray;
import dev.overlap.core.World;
import dev.overlap.graph.app.AppResult;
import dev.overlap.graph.app.AppSettings;
import dev.overlap.graph.app.WorkCounts;
import dev.overlap.graph.app.WorkerCounters;
import dev.overlap.graph.partition.DeviceGraph;
import dev.overlap.graph.partition.Owners;
import dev.overlap.graph.partition.Partition;
import org.agrona.concurrent.AtomicBuffer;

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
 * <p>Bottom-up step (direction-optimizing, symmetric graphs only; Beamer et al.): when the frontier's edges exceed
 * the unexplored edges / 15, each device scans its own unvisited vertices and looks for a neighbour at depth
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
 * <p>Thread-safety: one run at a time per mesh; the object is used by the calling host thread only.
 */
final class BspBfs {
    static final int INF = Integer.MAX_VALUE;
    private static final int FRONTIER_PER_BLOCK = 64;
    private static final int SCAN_PER_BLOCK = 2048;
    private static final int ALPHA = 15;
    private static final int BETA = 18;

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
                    if (!bottomUp && frontierEdges > (totalEdges - exploredEdges) / ALPHA) {
                        bottomUp = true;
                    } else if (bottomUp && frontierSize < n / BETA && frontierSize < previousSize) {
                        bottomUp = false;
                    }
                }
                counters.clear(WorkerCounters.DISCOVERED_EDGES);
                if (bottomUp && !bitsCurrent) {
                    for (int d = world.firstLocalDevice(), end = d + world.localDeviceCount(); d < end; d++) {
                        launches[d] = frontierToBits(g, d, fx, bits[curBits][d]);
                    }
                    joinAll(launches);
                    world.barrier(); // the bottom-up step reads every device's bitmap
                }
                for (int d = world.firstLocalDevice(), end = d + world.localDeviceCount(); d < end; d++) {
                    launches[d] = bottomUp
                        ? bottomUpStep(g, d, depth, owners, fx, level, counters, bits[curBits], bits[curBits ^ 1][d])
                        : topDownStep(g, d, depth, owners, fx, level, counters);
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

    static void joinAll(final KernelLaunch[] launches) {
        RuntimeException failure = null;
        for (int i = 0; i < launches.length; i++) {
            if (launches[i] != null) {
                try {
                    launches[i].join();
                } catch (final RuntimeException e) {
                    if (failure == null) {
                        failure = e;
                    }
                }
                launches[i] = null;
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    private static KernelLaunch topDownStep(final DeviceGraph g, final int d, final IntArray[] depth,
        final Owners owners, final FrontierExchange fx, final int level, final WorkerCounters c) {
        final int size = fx.size(d);
        if (size == 0) {
            return null;
        }
        final Device dev = g.mesh().device(d);
        final IntArray frontier = fx.current(d);
        final LongArray off = g.offsets(d);
        // Targets are read through the device buffer at precomputed byte offsets (validated at placement).
        final AtomicBuffer tBuf = g.targets(d).memory().buffer();
        final int tBase = (int)g.targets(d).offset();
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
                final int u = frontier.get(i);
                final int begin = (int)off.get(u);
                final int end = (int)off.get(u + 1);
                for (int e = begin; e < end; e++) {
                    final int v = tBuf.getInt(tBase + (e << 2));
                    final int o = owners.of(v);
                    final int lv = v - owners.lo(o);
                    final IntArray dep = depth[o];
                    if (dep.get(lv) == INF) {
                        if (o != d) {
                            atomics++;
                        }
                        if (dep.compareAndSet(lv, INF, next)) {
                            final LongArray ooff = g.offsets(o);
                            discoveredEdges += ooff.get(lv + 1) - ooff.get(lv);
                            fx.push(d, w, o, lv, c);
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

    /** Builds device {@code d}'s frontier bitmap (by local index) from its frontier list. */
    private static KernelLaunch frontierToBits(final DeviceGraph g, final int d, final FrontierExchange fx,
        final LongArray bitmap) {
        final int owned = g.partition().size(d);
        if (owned == 0) {
            return null;
        }
        bitmap.clear();
        final int size = fx.size(d);
        if (size == 0) {
            return null;
        }
        final IntArray frontier = fx.current(d);
        return g.mesh().device(d).launch((size + SCAN_PER_BLOCK - 1) / SCAN_PER_BLOCK, (ctx, block) -> {
            for (int i = block * SCAN_PER_BLOCK, end = Math.min(size, i + SCAN_PER_BLOCK); i < end; i++) {
                final int lv = frontier.get(i);
                final long bit = 1L << lv;
                long word = bitmap.getVolatile(lv >>> 6);
                while ((word & bit) == 0 && !bitmap.compareAndSet(lv >>> 6, word, word | bit)) {
                    word = bitmap.getVolatile(lv >>> 6);
                }
            }
        });
    }

    private static KernelLaunch bottomUpStep(final DeviceGraph g, final int d, final IntArray[] depth,
        final Owners owners, final FrontierExchange fx, final int level, final WorkerCounters c,
        final LongArray[] frontierBits, final LongArray nextBits) {
        final int owned = g.partition().size(d);
        if (owned == 0) {
            return null;
        }
        final Device dev = g.mesh().device(d);
        final LongArray off = g.offsets(d);
        final AtomicBuffer tBuf = g.targets(d).memory().buffer();
        final int tBase = (int)g.targets(d).offset();
        final IntArray mine = depth[d];
        final int next = level + 1;
        final int words = nextBits.length();
        // Blocks cover SCAN_PER_BLOCK (a multiple of 64) local vertices, so each owns whole words of nextBits.
        return dev.launch((owned + SCAN_PER_BLOCK - 1) / SCAN_PER_BLOCK, (ctx, block) -> {
            final int w = ctx.workerIndex();
            long edges = 0;
            long found = 0;
            long discoveredEdges = 0;
            final int from = block * SCAN_PER_BLOCK;
            final int to = Math.min(owned, from + SCAN_PER_BLOCK);
            for (int k = from >>> 6, end = Math.min(words, (to + 63) >>> 6); k < end; k++) {
                nextBits.set(k, 0L);
            }
            long word = 0;
            int wordIndex = from >>> 6;
            for (int lv = from; lv < to; lv++) {
                if ((lv >>> 6) != wordIndex) {
                    if (word != 0) {
                        nextBits.set(wordIndex, word);
                    }
                    wordIndex = lv >>> 6;
                    word = 0;
                }
                if (mine.get(lv) != INF) {
                    continue;
                }
                final int start = (int)off.get(lv);
                final int stop = (int)off.get(lv + 1);
                int e = start;
                while (e < stop) {
                    final int u = tBuf.getInt(tBase + (e++ << 2));
                    final int o = owners.of(u);
                    final int lu = u - owners.lo(o);
                    if ((frontierBits[o].get(lu >>> 6) & (1L << lu)) != 0) {
                        mine.set(lv, next);
                        word |= 1L << lv;
                        fx.push(d, w, d, lv, c);
                        found++;
                        discoveredEdges += stop - start;
                        break;
                    }
                }
                edges += e - start;
            }
            if (word != 0) {
                nextBits.set(wordIndex, word);
            }
            fx.flush(d, w, c);
            c.add(d, w, WorkerCounters.VISITED, found);
            c.add(d, w, WorkerCounters.EDGES, edges);
            c.add(d, w, WorkerCounters.DISCOVERED_EDGES, discoveredEdges);
        });
    }
}
