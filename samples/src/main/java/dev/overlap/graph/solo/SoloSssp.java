package dev.overlap.graph.solo;

import dev.overlap.graph.GraphSummary;
import dev.overlap.graph.app.AppResult;
import dev.overlap.graph.app.AppSettings;
import dev.overlap.graph.app.BucketRing;
import dev.overlap.graph.app.GraphApp;
import dev.overlap.graph.app.WorkCounts;
import dev.overlap.graph.partition.DeviceGraph;
import dev.overlap.graph.ref.Dijkstra;
import org.agrona.UnsafeApi;

import java.util.Arrays;

/**
 * Delta-stepping SSSP on the calling thread over the device's weighted CSR (Meyer and Sanders, sequential): vertices
 * wait in buckets of distance width {@code delta} ({@link AppSettings#deltaFor}); the lowest non-empty bucket is emptied,
 * its vertices expanded (an expansion relaxes every out-edge and files each improved target in its bucket, the
 * current one included), until no bucket holds a vertex. A vertex filed several times is expanded once per distance
 * it had when taken, and an entry whose vertex has since moved to a lower distance is skipped, so
 * {@link WorkCounts#visited()} counts real expansions (Dijkstra's ideal is each reached vertex once).
 *
 * <p>The buckets are a {@link BucketRing}: a power-of-two width (a distance's bucket is a shift, not a 64-bit division
 * per improvement and per entry taken) and a ring of growable int arrays. A negative weight is refused before the run
 * (by the graph's summary, naming the edge). The edges and weights are read from device
 * memory without per-access checks ({@link SoloGraph}); distances, buckets and flags are heap arrays; the bucket
 * arrays grow by doubling (no allocation per vertex).
 *
 * <p>Thread-safety: one run at a time per placed graph; the arrays are confined to the calling thread.
 */
final class SoloSssp {

    private SoloSssp() {
    }

    static AppResult run(final DeviceGraph dg, final int source, final AppSettings settings) {
        final SoloGraph g = SoloGraph.of(dg);
        final int n = g.vertices();
        final int s = g.internalSource(source);
        final GraphSummary summary = dg.summary();
        GraphApp.SSSP.requireUsable(summary);
        final int chosenDelta = settings.deltaFor(summary);
        final long[] dist = new long[n];
        final long off = g.offsetsAt();
        final long tgt = g.targetsAt();
        final long wgt = g.weightsAt();
        final long start = System.nanoTime();
        final int shift = BucketRing.widthShift(chosenDelta, summary.maxWeight());
        final BucketRing buckets = new BucketRing(BucketRing.slotsFor(summary.maxWeight(), shift));
        final boolean[] expanded = new boolean[n];
        Arrays.fill(dist, Dijkstra.UNREACHED);
        dist[s] = 0;
        buckets.add(s, 0);
        long current = 0;
        long emptied = 0;
        long expansions = 0;
        long scanned = 0;
        while (buckets.pending() > 0) {
            if (buckets.size(current) > 0) {
                emptied++;
            }
            int count;
            while ((count = buckets.size(current)) > 0) {
                // take the bucket; vertices filed in it meanwhile go to a spare array, taken next round
                final int[] items = buckets.take(current);
                for (int i = 0; i < count; i++) {
                    final int u = items[i];
                    final long du = dist[u];
                    if (expanded[u] || du >> shift != current) {
                        continue; // expanded at this distance already, or moved to a lower bucket
                    }
                    expanded[u] = true;
                    expansions++;
                    final long from = UnsafeApi.getLong(null, off + ((long)u << 3));
                    final long to = UnsafeApi.getLong(null, off + ((long)(u + 1) << 3));
                    scanned += to - from;
                    expand(du, from, to, shift, tgt, wgt, dist, expanded, buckets);
                }
                buckets.giveBack(items);
            }
            current++;
        }
        final long nanos = System.nanoTime() - start;
        return AppResult.sssp(g.toOriginal(dist), nanos, new WorkCounts(emptied, expansions, expansions, scanned, 0,
            0, 0, 0, 0));
    }

    /**
     * Relaxes the out-edges in slots {@code [from, to)} of a vertex at distance {@code du}: each target it brings
     * closer gets the new distance, loses its expanded mark and is filed in its bucket. A method of its own, called
     * once per expansion, so the JIT compiles it within the first run rather than only on-stack inside a method
     * called once per run.
     */
    private static void expand(final long du, final long from, final long to, final int shift, final long tgt,
        final long wgt, final long[] dist, final boolean[] expanded, final BucketRing buckets) {
        final long t = tgt + (from << 2);
        final long w = wgt + (from << 2);
        for (int i = 0, degree = (int)(to - from); i < degree; i++) { // int-counted: C2 optimises it fully
            final int v = UnsafeApi.getInt(null, t + ((long)i << 2));
            final long nd = du + UnsafeApi.getInt(null, w + ((long)i << 2));
            if (nd < dist[v]) {
                dist[v] = nd;
                expanded[v] = false;
                buckets.add(v, nd >> shift);
            }
        }
    }
}
