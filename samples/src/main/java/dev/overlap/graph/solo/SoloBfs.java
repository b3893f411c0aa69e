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
            long edges = 0;
            while (head < tail) {
                final int u = queue[head++];
                final int next = depth[u] + 1;
                final int from = (int)off.getLong(offBase + (u << 3));
                final int to = (int)off.getLong(offBase + ((u + 1) << 3));
                edges += to - from;
                for (int at = tgtBase + (from << 2), end = tgtBase + (to << 2); at < end; at += 4) {
                    final int v = tgt.getInt(at);
                    if (depth[v] < 0) {
                        depth[v] = next;
                        queue[tail++] = v;
                    }
                }
            }
            counts[0] = depth[queue[tail - 1]] + 1L;
            counts[1] = tail;
            counts[2] = edges;
        });
        final long nanos = System.nanoTime() - start;
        return AppResult.bfs(g.toOriginal(depth), nanos, new WorkCounts(counts[0], counts[1], counts[1], counts[2], 0,
            0, 0, 0, 0));
    }
}
