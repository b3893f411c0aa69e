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
 * the level) and stops at the first, so the big middle levels of a scale-free graph read a fraction of their edges.
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
                for (int v = 0; v < n; v++) {
                    if (depth[v] < 0) {
                        final long found = parent(v, level, off, tgt, depth);
                        if (found >= 0) { // the edges it read, the frontier neighbour's among them
                            depth[v] = level + 1;
                            queue[tail++] = v;
                            scanned += found;
                        } else {
                            scanned += degree(off, v);
                        }
                    }
                }
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
     * A bottom-up look at unreached {@code v}: its neighbours in order, up to the first in the frontier (depth
     * {@code level}). A method of its own for the JIT, as {@link #expand}.
     *
     * @return the edges read up to and including that neighbour's, or -1 when none is in the frontier
     */
    private static long parent(final int v, final int level, final long off, final long tgt, final int[] depth) {
        final long from = UnsafeApi.getLong(null, off + ((long)v << 3));
        final int degree = (int)(UnsafeApi.getLong(null, off + ((long)(v + 1) << 3)) - from);
        final long at = tgt + (from << 2);
        for (int i = 0; i < degree; i++) {
            if (depth[UnsafeApi.getInt(null, at + ((long)i << 2))] == level) {
                return i + 1;
            }
        }
        return -1;
    }

    /** @return the out-degree of {@code u} (the length of its row) */
    private static long degree(final long off, final int u) {
        return UnsafeApi.getLong(null, off + ((long)(u + 1) << 3)) - UnsafeApi.getLong(null, off + ((long)u << 3));
    }
}
