package dev.overlap.graph.solo;

import dev.overlap.graph.app.AppResult;
import dev.overlap.graph.app.AppSettings;
import dev.overlap.graph.app.WorkCounts;
import dev.overlap.graph.partition.DeviceGraph;
import dev.overlap.graph.ref.Dijkstra;
import org.agrona.UnsafeApi;

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
 * worker's own (heap) arrays; the bucket arrays grow by doubling (no allocation per vertex). The CSR slice is read at
 * raw addresses ({@link SoloGraph#offsetsAt}): no bounds check per edge, the slots validated at placement.
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
        // raw addresses (SoloGraph#offsetsAt): the loop runs inside the joined launch, while the graph is placed
        final long offsetsAt = g.offsetsAt();
        final long targetsAt = g.targetsAt();
        final long weightsAt = g.weightsAt();
        final long start = System.nanoTime();
        g.runOnOneWorker((ctx, block) -> {
            int maxWeight = 0;
            for (long at = weightsAt, end = weightsAt + edges * 4; at < end; at += 4) {
                final int w = UnsafeApi.getInt(null, at);
                if (w < 0) {
                    throw new IllegalStateException("edge slot " + (at - weightsAt) / 4 + " has negative weight " + w
                        + ": shortest paths need weights >= 0");
                }
                maxWeight = Math.max(maxWeight, w);
            }
            final long delta = Math.max(chosenDelta, (maxWeight + MAX_RING - 3L) / (MAX_RING - 2));
            final Buckets buckets = new Buckets((int)(maxWeight / delta + 2));
            final boolean[] expanded = new boolean[n];
            Arrays.fill(dist, Dijkstra.UNREACHED);
            dist[s] = 0;
            buckets.add(s, 0);
            long current = 0;
            long emptied = 0;
            long expansions = 0;
            long scanned = 0;
            while (buckets.pending > 0) {
                final int slot = (int)(current % buckets.ring);
                if (buckets.sizes[slot] > 0) {
                    emptied++;
                }
                while (buckets.sizes[slot] > 0) {
                    // take the bucket; vertices filed in it meanwhile go to a fresh array, taken next round
                    final int count = buckets.sizes[slot];
                    final int[] items = buckets.take(slot);
                    for (int i = 0; i < count; i++) {
                        final int u = items[i];
                        final long du = dist[u];
                        if (expanded[u] || du / delta != current) {
                            continue; // expanded at this distance already, or moved to a lower bucket
                        }
                        expanded[u] = true;
                        expansions++;
                        final long ui = offsetsAt + ((long)u << 3);
                        final long from = UnsafeApi.getLong(null, ui);
                        final long to = UnsafeApi.getLong(null, ui + 8);
                        scanned += to - from;
                        expand(du, targetsAt + (from << 2), targetsAt + (to << 2), weightsAt - targetsAt, delta, dist,
                            expanded, buckets);
                    }
                    buckets.giveBack(items);
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

    /**
     * Relaxes the out-edges of a vertex at distance {@code du}, whose targets are the ints at the raw addresses
     * {@code [from, stop)} (each weight {@code weights} bytes past its target): each target it brings closer gets the
     * new distance, loses its expanded mark and is filed in its bucket. A method of its own, called once per
     * expansion, so the JIT compiles it within the first run rather than only on-stack inside the one-shot kernel
     * body.
     */
    private static void expand(final long du, final long from, final long stop, final long weights, final long delta,
        final long[] dist, final boolean[] expanded, final Buckets buckets) {
        for (long at = from; at < stop; at += 4) {
            final int v = UnsafeApi.getInt(null, at);
            final long nd = du + UnsafeApi.getInt(null, at + weights);
            if (nd < dist[v]) {
                dist[v] = nd;
                expanded[v] = false;
                buckets.add(v, (int)((nd / delta) % buckets.ring));
            }
        }
    }

    /**
     * The ring of buckets: growable int arrays (doubling), a size per slot, the entries filed and not yet taken, and a
     * spare array that replaces a bucket while its entries are expanded. Confined to the worker.
     */
    private static final class Buckets {
        final int ring;
        final int[][] slots;
        final int[] sizes;
        long pending;
        private int[] spare = new int[FIRST_BUCKET];

        Buckets(final int ring) {
            this.ring = ring;
            this.slots = new int[ring][];
            this.sizes = new int[ring];
        }

        /** Files {@code v} in slot {@code slot}. */
        void add(final int v, final int slot) {
            int[] bucket = slots[slot];
            final int size = sizes[slot];
            if (bucket == null || size == bucket.length) {
                bucket = slots[slot] = bucket == null ? new int[FIRST_BUCKET] : Arrays.copyOf(bucket, size * 2);
            }
            bucket[size] = v;
            sizes[slot] = size + 1;
            pending++;
        }

        /** @return slot {@code slot}'s entries (the first {@code sizes[slot]} before the call), emptying the slot */
        int[] take(final int slot) {
            final int[] items = slots[slot];
            pending -= sizes[slot];
            slots[slot] = spare;
            sizes[slot] = 0;
            spare = null;
            return items;
        }

        /** Hands back an array {@link #take} returned, once its entries are expanded, as the next spare. */
        void giveBack(final int[] items) {
            spare = items;
        }
    }
}
