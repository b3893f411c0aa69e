package dev.overlap.graph.solo;

import dev.overlap.graph.app.AppResult;
import dev.overlap.graph.app.AppSettings;
import dev.overlap.graph.app.DirectionRule;
import dev.overlap.graph.app.WorkCounts;
import dev.overlap.graph.partition.DeviceGraph;
import org.agrona.UnsafeApi;

import java.util.Arrays;

/**
 * BFS on the calling thread over the device's CSR, its out-edges read from device memory without per-access checks
 * ({@link SoloGraph}). The depths and the queue are heap arrays: the depths are the answer, handed over without a copy
 * when the numbering is the identity.
 *
 * <p><b>Top-down</b>, the whole run on a directed graph or with {@link AppSettings.Direction#TOP_DOWN}: a queue in
 * which each reached vertex is enqueued once and expanded once (the ideal work).
 *
 * <p><b>Direction-optimizing</b> on a symmetric graph (the default, {@link AppSettings.Direction#OPTIMIZING}; Beamer,
 * Asanović and Patterson, as the GAP suite's one-thread BFS): level by level over the same queue, each level's frontier
 * a stretch of it and the next level appended after it. A level runs bottom-up when {@link DirectionRule} says so (the
 * rule of {@code bsp} and {@code coop}): every unreached vertex scans its neighbours for one in the frontier (depth =
 * the level) and stops at the first, so the big middle levels of a scale-free graph read a fraction of their edges
 * (in three passes per word of 64 vertices, so that the rows' first lines are fetched together: {@code bottomUpWord}).
 * A bottom-up level appends the vertices it reaches in id order, so the queue stays a list of the levels, each whole,
 * and a level after it can go top-down again from its stretch. The rule needs the frontier's edges and the edges of
 * every vertex reached, summed over the queue as far as it has grown, but only at a level whose frontier could go
 * bottom-up ({@link DirectionRule#mayGoBottomUp}): a mesh or a road network, whose frontiers stay far from that,
 * never sums them, and runs as the top-down queue does.
 *
 * <p>Thread-safety: one run at a time per placed graph; the arrays are confined to the calling thread.
 */
final class SoloBfs {
    private SoloBfs() {
    }

    static AppResult run(final DeviceGraph dg, final int source, final AppSettings settings) {
        final SoloGraph g = SoloGraph.of(dg);
        final int n = g.vertices();
        final int s = g.internalSource(source);
        final boolean optimizing = settings.direction() == AppSettings.Direction.OPTIMIZING
            && dg.summary().isSymmetric();
        final int[] depth = new int[n];
        final int[] queue = new int[n];
        final long off = g.offsetsAt();
        final long tgt = g.targetsAt();
        final long start = System.nanoTime();
        Arrays.fill(depth, -1);
        depth[s] = 0;
        queue[0] = s;
        final long[] edges = new long[1];
        final int reached = optimizing ? levels(off, tgt, depth, queue, dg.summary().maxDegree(), edges)
            : search(off, tgt, depth, queue, edges);
        final long nanos = System.nanoTime() - start;
        final long levels = depth[queue[reached - 1]] + 1L;
        return AppResult.bfs(g.toOriginal(depth), nanos, new WorkCounts(levels, reached, reached, edges[0], 0, 0, 0,
            0, 0));
    }

    /**
     * Expands the queue (holding the source) until it is exhausted, top-down, counting the edges it scans into
     * {@code edges[0]} as it goes (each vertex's offsets are in cache then, where a pass over the reached vertices
     * afterwards reads them again from memory).
     *
     * @return the vertices reached
     */
    private static int search(final long off, final long tgt, final int[] depth, final int[] queue,
        final long[] edges) {
        int head = 0;
        int tail = 1;
        long scanned = 0;
        while (head < tail) {
            final int u = queue[head++];
            tail = expand(u, off, tgt, depth, queue, tail);
            scanned += degree(off, u);
        }
        edges[0] = scanned;
        return tail;
    }

    /**
     * The direction-optimizing search: the queue holds the source; level by level, top-down or bottom-up as
     * {@link DirectionRule} says, until a level reaches nobody. Counts the edges scanned into {@code edges[0]}.
     *
     * @return the vertices reached
     */
    private static int levels(final long off, final long tgt, final int[] depth, final int[] queue,
        final int maxDegree, final long[] edges) {
        final int n = depth.length;
        final long total = UnsafeApi.getLong(null, off + ((long)n << 3)) - UnsafeApi.getLong(null, off);
        int head = 0;
        int tail = 1;
        long explored = 0; // the edges out of queue[0, summed)
        int summed = 0;
        long previous = 0;
        long scanned = 0;
        boolean bottomUp = false;
        for (int level = 0; head < tail; level++) {
            final int size = tail - head;
            if (bottomUp) {
                bottomUp = DirectionRule.bottomUp(true, n, size, previous, 0, 0); // sizes only
            } else if (DirectionRule.mayGoBottomUp(n, size, maxDegree)) {
                for (; summed < head; summed++) { // the levels whose edges were not needed, once
                    explored += degree(off, queue[summed]);
                }
                long frontierEdges = 0;
                for (; summed < tail; summed++) {
                    frontierEdges += degree(off, queue[summed]);
                }
                explored += frontierEdges;
                bottomUp = DirectionRule.bottomUp(false, n, size, previous, frontierEdges, total - explored);
            }
            final int end = tail;
            if (bottomUp) {
                for (int base = 0; base < n; base += 64) { // edges[0] collects the level's reads until the total
                    tail = bottomUpWord(base, Math.min(64, n - base), level, off, tgt, depth, queue, tail, edges);
                }
                scanned += edges[0];
                edges[0] = 0;
            } else {
                for (int i = head; i < end; i++) {
                    final int u = queue[i];
                    tail = expand(u, off, tgt, depth, queue, tail);
                    scanned += degree(off, u);
                }
            }
            previous = size;
            head = end;
        }
        edges[0] = scanned;
        return tail;
    }

    /**
     * Expands {@code u}: every unvisited out-neighbour gets {@code u}'s depth + 1 and joins the queue. A method of its
     * own, called once per reached vertex, so the JIT compiles it within the first run (a loop inside a method called
     * once per run would be compiled only on-stack, later, and the first runs would pay the interpreter).
     *
     * @return the queue's new tail
     */
    private static int expand(final int u, final long off, final long tgt, final int[] depth,
        final int[] queue, final int tail) {
        final int next = depth[u] + 1;
        final long from = UnsafeApi.getLong(null, off + ((long)u << 3));
        final int degree = (int)(UnsafeApi.getLong(null, off + ((long)(u + 1) << 3)) - from);
        final long at = tgt + (from << 2);
        int t = tail;
        for (int i = 0; i < degree; i++) { // an int-counted loop: C2 optimises it fully, a long-counted one less
            final int v = UnsafeApi.getInt(null, at + ((long)i << 2));
            if (depth[v] < 0) {
                depth[v] = next;
                queue[t++] = v;
            }
        }
        return t;
    }

    /**
     * A bottom-up step over the {@code count} vertices from {@code base}: each unreached vertex with a neighbour in the
     * frontier (depth {@code level}) gets depth {@code level + 1} and joins the queue, in id order. Three passes over
     * the word: its candidates as a mask (unreached, with an edge), each candidate's first edge against the frontier
     * with no branch on a loaded value, then the rest of the rows whose first edge missed, up to the first neighbour in
     * the frontier. A row's first edge is a cache miss at a place the hardware does not predict; a loop that branched
     * on it at every vertex waited for each in turn, where the second pass keeps many in flight (as
     * {@code CoopBfs}'s bottom-up scan, measured in the results folder's {@code coop-bfs-bottom-up-passes}). A method
     * of its own for the JIT, as {@link #expand}. Adds the edges read to {@code edges[0]}.
     *
     * @return the queue's new tail
     */
    private static int bottomUpWord(final int base, final int count, final int level, final long off, final long tgt,
        final int[] depth, final int[] queue, final int tail, final long[] edges) {
        long candidates = 0;
        long longer = 0;
        for (int b = 0; b < count; b++) {
            final int v = base + b;
            final long degree = degree(off, v);
            final long unreached = depth[v] >>> 31;
            candidates |= (unreached & (-degree >>> 63)) << b;
            longer |= (unreached & ((1 - degree) >>> 63)) << b;
        }
        long hits = 0;
        for (long c = candidates; c != 0; c &= c - 1) {
            final int b = Long.numberOfTrailingZeros(c);
            final int u = UnsafeApi.getInt(null, tgt + (UnsafeApi.getLong(null, off + ((long)(base + b) << 3)) << 2));
            final int x = depth[u] ^ level; // 0 when u is in the frontier
            hits |= (1 & ~((long)(x | -x) >>> 63)) << b;
        }
        long read = Long.bitCount(candidates);
        for (long p = candidates & ~hits & longer; p != 0; p &= p - 1) {
            final int b = Long.numberOfTrailingZeros(p);
            final int v = base + b;
            final long from = UnsafeApi.getLong(null, off + ((long)v << 3));
            final int degree = (int)(UnsafeApi.getLong(null, off + ((long)(v + 1) << 3)) - from);
            final long at = tgt + (from << 2);
            int i = 1;
            while (i < degree) {
                if (depth[UnsafeApi.getInt(null, at + ((long)i++ << 2))] == level) {
                    hits |= 1L << b;
                    break;
                }
            }
            read += i - 1;
        }
        int t = tail;
        for (long h = hits; h != 0; h &= h - 1) {
            final int v = base + Long.numberOfTrailingZeros(h);
            depth[v] = level + 1;
            queue[t++] = v;
        }
        edges[0] += read;
        return t;
    }

    /** @return the out-degree of {@code u} (the length of its row) */
    private static long degree(final long off, final int u) {
        return UnsafeApi.getLong(null, off + ((long)(u + 1) << 3)) - UnsafeApi.getLong(null, off + ((long)u << 3));
    }
}
