package dev.overlap.graph.solo;

import dev.overlap.graph.app.AppResult;
import dev.overlap.graph.app.AppSettings;
import dev.overlap.graph.app.WorkCounts;
import dev.overlap.graph.partition.DeviceGraph;
import dev.overlap.graph.ref.Dijkstra;
import org.agrona.concurrent.AtomicBuffer;

import java.util.Arrays;

/**
 * Delta-stepping SSSP by one worker over the device's weighted CSR (Meyer and Sanders, sequential): vertices wait in
 * buckets of distance width {@code delta} ({@link AppSettings#deltaFor}); the lowest non-empty bucket is emptied,
 * its vertices expanded (an expansion relaxes every out-edge and files each improved target in its bucket, the
 * current one included), until no bucket holds a vertex. A vertex filed several times is expanded once per distance
 * it had when taken, and an entry whose vertex has since moved to a lower distance is skipped, so
 * {@link WorkCounts#visited()} counts real expansions (Dijkstra's ideal is each reached vertex once).
 *
 * <p>The buckets are a ring of {@code maxWeight / delta + 2} growable int arrays: a relaxation from bucket
 * {@code b} lands at most that many buckets ahead, so the ring never folds two live buckets onto one slot. The width
 * is raised when the ring would need more than {@value #MAX_RING} slots. Distances, buckets and flags are the
 * worker's own (heap) arrays; the bucket arrays grow by doubling (no allocation per vertex).
 *
 * <p>Thread-safety: one run at a time per placed graph; the arrays are confined to the worker until the join.
 */
final class SoloSssp {
    static final int MAX_RING = 1 << 16;
    private static final int FIRST_BUCKET = 64;

    private SoloSssp() {
    }

    static AppResult run(final DeviceGraph dg, final int source, final AppSettings settings) {
        final SoloGraph g = SoloGraph.of(dg);
        final int n = g.vertices();
        final int s = g.internalSource(source);
        final int chosenDelta = settings.deltaFor(dg.host());
        final long edges = dg.localEdges(0);
        final long[] dist = new long[n];
        final long[] counts = new long[3]; // buckets emptied, expansions, edges scanned
        final AtomicBuffer off = g.offsets();
        final int offBase = g.offsetsBase();
        final AtomicBuffer tgt = g.targets();
        final int tgtBase = g.targetsBase();
        final AtomicBuffer wgt = g.weights();
        final int wgtBase = g.weightsBase();
        final long start = System.nanoTime();
        g.runOnOneWorker((ctx, block) -> {
            int maxWeight = 0;
            for (int at = wgtBase, end = (int)(wgtBase + edges * 4); at < end; at += 4) {
                final int w = wgt.getInt(at);
                if (w < 0) {
                    throw new IllegalStateException("edge slot " + (at - wgtBase) / 4 + " has negative weight " + w
                        + ": shortest paths need weights >= 0");
                }
                maxWeight = Math.max(maxWeight, w);
            }
            final long delta = Math.max(chosenDelta, (maxWeight + MAX_RING - 3L) / (MAX_RING - 2));
            final int ring = (int)(maxWeight / delta + 2);
            final int[][] buckets = new int[ring][];
            final int[] sizes = new int[ring];
            final boolean[] expanded = new boolean[n];
            Arrays.fill(dist, Dijkstra.UNREACHED);
            dist[s] = 0;
            buckets[0] = new int[FIRST_BUCKET];
            buckets[0][0] = s;
            sizes[0] = 1;
            long pending = 1;
            long current = 0;
            long emptied = 0;
            long expansions = 0;
            long scanned = 0;
            int[] spare = new int[FIRST_BUCKET];
            while (pending > 0) {
                final int slot = (int)(current % ring);
                if (sizes[slot] > 0) {
                    emptied++;
                }
                while (sizes[slot] > 0) {
                    // take the bucket; vertices filed in it meanwhile go to the spare array, taken next round
                    final int[] items = buckets[slot];
                    final int count = sizes[slot];
                    buckets[slot] = spare;
                    sizes[slot] = 0;
                    pending -= count;
                    for (int i = 0; i < count; i++) {
                        final int u = items[i];
                        final long du = dist[u];
                        if (expanded[u] || du / delta != current) {
                            continue; // expanded at this distance already, or moved to a lower bucket
                        }
                        expanded[u] = true;
                        expansions++;
                        final int from = (int)off.getLong(offBase + (u << 3));
                        final int to = (int)off.getLong(offBase + ((u + 1) << 3));
                        scanned += to - from;
                        for (int e = from; e < to; e++) {
                            final int v = tgt.getInt(tgtBase + (e << 2));
                            final long nd = du + wgt.getInt(wgtBase + (e << 2));
                            if (nd < dist[v]) {
                                dist[v] = nd;
                                expanded[v] = false;
                                final int b = (int)((nd / delta) % ring);
                                int[] bucket = buckets[b];
                                final int size = sizes[b];
                                if (bucket == null || size == bucket.length) {
                                    bucket = buckets[b] = bucket == null ? new int[FIRST_BUCKET]
                                        : Arrays.copyOf(bucket, size * 2);
                                }
                                bucket[size] = v;
                                sizes[b] = size + 1;
                                pending++;
                            }
                        }
                    }
                    spare = items;
                }
                current++;
            }
            counts[0] = emptied;
            counts[1] = expansions;
            counts[2] = scanned;
        });
        final long nanos = System.nanoTime() - start;
        return AppResult.sssp(g.toOriginal(dist), nanos, new WorkCounts(counts[0], counts[1], counts[1], counts[2], 0,
            0, 0, 0, 0));
    }
}
