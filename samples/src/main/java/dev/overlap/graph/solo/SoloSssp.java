package dev.overlap.graph.solo;

import dev.overlap.graph.GraphSummary;
import dev.overlap.graph.app.AppResult;
import dev.overlap.graph.app.AppSettings;
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
 * <p>The bucket width is a power of two, {@code delta} rounded down ({@link #widthShift}), so a distance's bucket is a
 * shift, not a 64-bit division per improvement and per entry taken. The buckets are a ring of growable int arrays, a
 * power of two of at least {@code maxWeight / width + 2} slots: a relaxation from bucket {@code b} lands at most
 * {@code maxWeight / width + 1} buckets ahead, so the ring never folds two live buckets onto one slot. The width is
 * raised when the ring would need more than {@value #MAX_RING} slots. A negative weight is refused before the run
 * (by the graph's summary, naming the edge). The edges and weights are read from device
 * memory without per-access checks ({@link SoloGraph}); distances, buckets and flags are heap arrays; the bucket
 * arrays grow by doubling (no allocation per vertex).
 *
 * <p>Thread-safety: one run at a time per placed graph; the arrays are confined to the calling thread.
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
        final GraphSummary summary = dg.summary();
        GraphApp.SSSP.requireUsable(summary);
        final int chosenDelta = settings.deltaFor(summary);
        final long[] dist = new long[n];
        final long off = g.offsetsAt();
        final long tgt = g.targetsAt();
        final long wgt = g.weightsAt();
        final long start = System.nanoTime();
        final int shift = widthShift(chosenDelta, summary.maxWeight());
        final Buckets buckets = new Buckets(ring(summary.maxWeight(), shift));
        final boolean[] expanded = new boolean[n];
        Arrays.fill(dist, Dijkstra.UNREACHED);
        dist[s] = 0;
        buckets.add(s, 0);
        long current = 0;
        long emptied = 0;
        long expansions = 0;
        long scanned = 0;
        while (buckets.pending > 0) {
            final int slot = (int)current & buckets.mask;
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
     * @return the bucket width as a shift ({@code 1 << shift}): the largest power of two at most {@code chosen}, or
     *         the least one wide enough for a ring of buckets for weights up to {@code maxWeight} to need at most
     *         {@value #MAX_RING} slots, whichever is larger
     */
    static int widthShift(final int chosen, final int maxWeight) {
        final long least = ((long)maxWeight + MAX_RING - 3) / (MAX_RING - 2); // ring(maxWeight, width) <= MAX_RING
        final long down = Long.highestOneBit(Math.max(1, chosen));
        return Long.numberOfTrailingZeros(down >= least ? down : powerOfTwoAtLeast(least));
    }

    /**
     * @return the slots of a ring of buckets of width {@code 1 << shift} for weights up to {@code maxWeight}: a power
     *         of two (a slot is a mask), at least {@code (maxWeight >> shift) + 2} (a relaxation from bucket {@code b}
     *         lands at most {@code (maxWeight >> shift) + 1} buckets ahead)
     */
    static int ring(final int maxWeight, final int shift) {
        return (int)powerOfTwoAtLeast(((long)maxWeight >> shift) + 2);
    }

    /** @return the least power of two {@code >= x}, for {@code 1 <= x <= 2^62} */
    private static long powerOfTwoAtLeast(final long x) {
        return Long.highestOneBit(x) == x ? x : Long.highestOneBit(x) << 1;
    }

    /**
     * Relaxes the out-edges in slots {@code [from, to)} of a vertex at distance {@code du}: each target it brings
     * closer gets the new distance, loses its expanded mark and is filed in its bucket. A method of its own, called
     * once per expansion, so the JIT compiles it within the first run rather than only on-stack inside a method
     * called once per run.
     */
    private static void expand(final long du, final long from, final long to, final int shift, final long tgt,
        final long wgt, final long[] dist, final boolean[] expanded, final Buckets buckets) {
        final long t = tgt + (from << 2);
        final long w = wgt + (from << 2);
        for (int i = 0, degree = (int)(to - from); i < degree; i++) { // int-counted: C2 optimises it fully
            final int v = UnsafeApi.getInt(null, t + ((long)i << 2));
            final long nd = du + UnsafeApi.getInt(null, w + ((long)i << 2));
            if (nd < dist[v]) {
                dist[v] = nd;
                expanded[v] = false;
                buckets.add(v, (int)(nd >> shift) & buckets.mask);
            }
        }
    }

    /**
     * The ring of buckets: growable int arrays (doubling), a size per slot, the entries filed and not yet taken, and a
     * spare array that replaces a bucket while its entries are expanded. Confined to the calling thread.
     */
    private static final class Buckets {
        final int ring;
        final int mask;
        final int[][] slots;
        final int[] sizes;
        long pending;
        private int[] spare = new int[FIRST_BUCKET];

        Buckets(final int ring) {
            this.ring = ring;
            this.mask = ring - 1;
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
