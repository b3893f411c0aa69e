package dev.overlap.graph.solo;

import dev.overlap.graph.app.AppResult;
import dev.overlap.graph.app.WorkCounts;
import dev.overlap.graph.partition.DeviceGraph;
import org.agrona.UnsafeApi;

import java.util.Arrays;

/**
 * Queue-based top-down BFS on the calling thread over the device's CSR: each reached vertex is enqueued once and
 * expanded once (the ideal work), its out-edges read from device memory without per-access checks
 * ({@link SoloGraph}). The depths and the queue are heap arrays: the depths are the answer, handed over without a
 * copy when the numbering is the identity.
 *
 * <p>Thread-safety: one run at a time per placed graph; the arrays are confined to the calling thread.
 */
final class SoloBfs {
    private SoloBfs() {
    }

    static AppResult run(final DeviceGraph dg, final int source) {
        final SoloGraph g = SoloGraph.of(dg);
        final int n = g.vertices();
        final int s = g.internalSource(source);
        final int[] depth = new int[n];
        final int[] queue = new int[n];
        final long off = g.offsetsAt();
        final long tgt = g.targetsAt();
        final long start = System.nanoTime();
        Arrays.fill(depth, -1);
        depth[s] = 0;
        queue[0] = s;
        final long[] edges = new long[1];
        final int reached = search(off, tgt, depth, queue, edges);
        final long nanos = System.nanoTime() - start;
        final long levels = depth[queue[reached - 1]] + 1L;
        return AppResult.bfs(g.toOriginal(depth), nanos, new WorkCounts(levels, reached, reached, edges[0], 0, 0, 0,
            0, 0));
    }

    /**
     * Expands the queue (holding the source) until it is exhausted, counting the edges it scans into {@code edges[0]}
     * as it goes (each vertex's offsets are in cache then, where a pass over the reached vertices afterwards reads them
     * again from memory).
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
            scanned += UnsafeApi.getLong(null, off + ((long)(u + 1) << 3)) - UnsafeApi.getLong(null, off + ((long)u << 3));
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
}
