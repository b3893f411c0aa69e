package dev.overlap.graph.solo;

import dev.overlap.graph.app.AppResult;
import dev.overlap.graph.app.WorkCounts;
import dev.overlap.graph.partition.DeviceGraph;
import org.agrona.concurrent.AtomicBuffer;

import java.util.Arrays;

/**
 * Queue-based top-down BFS by one worker over the device's CSR: each reached vertex is enqueued once and expanded
 * once (the ideal work), its out-edges read from device memory. The depths and the queue are the worker's own
 * (heap) arrays: the depths are the answer, handed over without a copy when the numbering is the identity.
 *
 * <p>Thread-safety: one run at a time per placed graph; the arrays are confined to the worker until the join.
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
        final long[] counts = new long[3]; // levels, vertices expanded, edges scanned
        final AtomicBuffer off = g.offsets();
        final int offBase = g.offsetsBase();
        final AtomicBuffer tgt = g.targets();
        final int tgtBase = g.targetsBase();
        final long start = System.nanoTime();
        g.runOnOneWorker((ctx, block) -> {
            Arrays.fill(depth, -1);
            depth[s] = 0;
            queue[0] = s;
            int head = 0;
            int tail = 1;
            while (head < tail) {
                tail = expand(queue[head++], off, offBase, tgt, tgtBase, depth, queue, tail);
            }
            long edges = 0;
            for (int i = 0; i < tail; i++) {
                final int u = queue[i];
                edges += off.getLong(offBase + ((u + 1) << 3)) - off.getLong(offBase + (u << 3));
            }
            counts[0] = depth[queue[tail - 1]] + 1L;
            counts[1] = tail;
            counts[2] = edges;
        });
        final long nanos = System.nanoTime() - start;
        return AppResult.bfs(g.toOriginal(depth), nanos, new WorkCounts(counts[0], counts[1], counts[1], counts[2], 0,
            0, 0, 0, 0));
    }

    /**
     * Expands {@code u}: every unvisited out-neighbour gets {@code u}'s depth + 1 and joins the queue. A method of its
     * own, called once per reached vertex, so the JIT compiles it within the first run (a loop inside the one-shot
     * kernel body would be compiled only on-stack, later, and the first runs would pay the interpreter).
     *
     * @return the queue's new tail
     */
    private static int expand(final int u, final AtomicBuffer off, final int offBase, final AtomicBuffer tgt,
        final int tgtBase, final int[] depth, final int[] queue, final int tail) {
        final int next = depth[u] + 1;
        final int from = (int)off.getLong(offBase + (u << 3));
        final int to = (int)off.getLong(offBase + ((u + 1) << 3));
        int t = tail;
        for (int at = tgtBase + (from << 2), end = tgtBase + (to << 2); at < end; at += 4) {
            final int v = tgt.getInt(at);
            if (depth[v] < 0) {
                depth[v] = next;
                queue[t++] = v;
            }
        }
        return t;
    }
}
