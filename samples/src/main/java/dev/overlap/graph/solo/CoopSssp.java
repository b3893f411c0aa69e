package dev.overlap.graph.solo;

import dev.overlap.core.Device;
import dev.overlap.core.IntArray;
import dev.overlap.core.KernelLaunch;
import dev.overlap.core.LongArray;
import dev.overlap.core.WorkerContext;
import dev.overlap.graph.app.AppResult;
import dev.overlap.graph.GraphSummary;
import dev.overlap.graph.app.AppSettings;
import dev.overlap.graph.app.BucketRing;
import dev.overlap.graph.app.GraphApp;
import dev.overlap.graph.app.WorkCounts;
import dev.overlap.graph.partition.DeviceGraph;
import dev.overlap.graph.partition.RawArrays;
import dev.overlap.graph.ref.Dijkstra;
import org.agrona.UnsafeApi;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Delta-stepping SSSP by every worker of one device in one persistent launch ({@code --mode coop}; Meyer and
 * Sanders, in the shape of the GAP suite's): the vertices of the current bucket (distance width {@code delta},
 * {@link AppSettings#deltaFor}, rounded down to a power of two, {@link BucketRing#widthShift}) are relaxed by all
 * workers, which take chunks of {@value #CHUNK} with one {@code getAndAdd} each; a relaxation lowers a distance with
 * a compare-and-set loop (so concurrent improvements of one vertex keep the least) and files the improved vertex in
 * its bucket in the relaxing worker's own bins. Rounds are separated by the launch's barrier
 * ({@link WorkerContext#syncWorkers()}), two per round:
 * <ol>
 *   <li>after relaxing, each worker publishes its lowest non-empty bin; after the barrier every worker takes the least
 *       of them as the next bucket (the same for all), or stops when every worker's bins are empty;</li>
 *   <li>each worker hands over its bin for that bucket (the array and its length, replaced by a spare); after the
 *       barrier every worker sees every handed-over bin, so the next frontier is their concatenation, read where it
 *       lies (no copy), and taken by chunks over the concatenation.</li>
 * </ol>
 * After relaxing its share, a worker relaxes at once, alone, what it filed in the current bucket while that stays
 * below {@value #FUSE} entries (the GAP suite's bin fusion: the tail of a bucket would otherwise cost a round of two
 * barriers for a handful of vertices).
 *
 * <p><b>Each vertex is relaxed once per distance.</b> A vertex's word holds its distance shifted left by one and, in
 * bit 0, whether its edges have been relaxed at that distance. A relaxation of {@code u} first sets that bit with a
 * compare-and-set from the word it read; it skips {@code u} when the bit is already set (relaxed at this distance, by
 * this or another worker: a vertex improved twice within one bucket is filed twice), when the CAS fails (a worker
 * lowered the distance meanwhile and filed it again), or when the distance has moved to a lower bucket (relaxed
 * there). An improvement writes the new distance with the bit clear. So {@link WorkCounts#visited()} counts one
 * relaxation per distance a vertex had when taken (the GAP suite relaxes a vertex filed twice twice). The first read
 * of a target's word is plain: a stale word only overstates the distance (distances only fall), and the CAS that
 * would act on it re-reads.
 *
 * <p><b>Words of 4 bytes when the distances fit</b> (the GAP suite's 32-bit distances). When no simple path can be
 * as long as {@link #NARROW_FAR}{@code >>> 1} ({@code (n - 1)} times the largest weight below it, {@link #narrow}), the
 * words are {@code int}s, else {@code long}s. Each relaxed edge reads its target's word at a random place, and on a
 * graph whose words do not fit in the cache that read is where the run's time goes: half the bytes per word is half
 * the lines the words span (kron 20: {@code bench/results/2026-11-29-words-and-chains/}). A stored distance is always
 * below the word it replaced, so below the unreached word's, whatever the bound; the bound is what keeps every
 * reachable vertex's true distance below it.
 *
 * <p>Each worker's bins are a {@link BucketRing} (see there why a ring of buckets is enough). The largest weight
 * comes from the graph's summary, which also refuses a negative weight before the run, naming the edge.
 *
 * <p>The distance words are device memory of the run (freed when the run ends), read and CAS-ed at absolute
 * addresses; the bins are heap arrays, each written by its worker only and read by the others after the barrier that
 * published it. Thread-safety: one run at a time per placed graph.
 */
final class CoopSssp {
    /** Frontier entries per claim. */
    static final int CHUNK = 64;
    /** An unreached vertex's word in {@code long} words: the largest even long (an unreachable distance, bit 0 clear). */
    static final long FAR = Long.MAX_VALUE - 1;
    /** An unreached vertex's word in {@code int} words ({@link #narrow}): the largest even int. */
    static final long NARROW_FAR = Integer.MAX_VALUE - 1;
    /** A worker relaxes its own bin of the current bucket without a round while it holds fewer entries. */
    static final int FUSE = 1000;
    private static final int PAD = 16;
    /** Shared slots: the claim counter of a round, three rotating. */
    private static final int CLAIMS = 3;

    private CoopSssp() {
    }

    /**
     * @return whether a run over {@code n} vertices with weights up to {@code maxWeight} keeps its words in {@code int}s:
     *         when no simple path, at most {@code n - 1} edges, reaches {@link #NARROW_FAR}{@code >>> 1}
     */
    static boolean narrow(final int n, final long maxWeight) {
        return Math.max(0, n - 1) * maxWeight < NARROW_FAR >>> 1;
    }

    /** @return device bytes of a run's state for {@code n} vertices (the distances in {@code long} words, the most) */
    static long stateBytes(final int n) {
        return 8L * Math.max(1, n) + 64;
    }

    static AppResult run(final DeviceGraph dg, final int source, final AppSettings settings) {
        final SoloGraph g = SoloGraph.of(dg);
        final int n = g.vertices();
        final int s = g.internalSource(source);
        final GraphSummary summary = dg.summary();
        GraphApp.SSSP.requireUsable(summary);
        final int shift = BucketRing.widthShift(settings.deltaFor(summary), summary.maxWeight());
        final int ring = BucketRing.slotsFor(summary.maxWeight(), shift);
        final Device dev = dg.mesh().device(0);
        final boolean narrow = narrow(n, summary.maxWeight());
        final IntArray narrowWords = narrow ? dev.allocateInts(n) : null;
        final LongArray wideWords = narrow ? null : dev.allocateLongs(n);
        try {
            final Run run = new Run(g, n, s, shift, ring, dev.workerCount(), narrow,
                narrow ? RawArrays.of(narrowWords).address(0) : RawArrays.of(wideWords).address(0));
            final long start = System.nanoTime();
            final KernelLaunch launch = dev.launchPersistent(ctx -> {
                run.worker(ctx);
                ctx.stopLaunch();
                return 1;
            });
            CoopBfs.joinUninterruptibly(launch);
            final long nanos = System.nanoTime() - start;
            final long[] dist = new long[n];
            final long far = narrow ? NARROW_FAR : FAR;
            for (int v = 0; v < n; v++) {
                final long x = narrow ? narrowWords.get(v) : wideWords.get(v);
                dist[v] = x == far ? Dijkstra.UNREACHED : x >>> 1;
            }
            long visited = 0;
            long scanned = 0;
            for (final Lane lane : run.lanes) {
                visited += lane.relaxed;
                scanned += lane.scanned;
            }
            return AppResult.sssp(g.toOriginal(dist), nanos, new WorkCounts(run.rounds, visited, visited, scanned,
                0, 0, 0, 0, 0));
        } finally {
            if (!dev.mesh().isClosed()) {
                dev.free(narrow ? narrowWords : wideWords);
            }
        }
    }

    /** One run's shared state. */
    static final class Run {
        final int n;
        final int source;
        final int shift;
        final int ring;
        final long off;
        final long tgt;
        final long wgt;
        /** The address of the words; {@code int}s when {@link #narrow}, else {@code long}s. */
        final long dist;
        final boolean narrow;
        final Lane[] lanes;
        final AtomicLongArray shared;
        /** Per worker, written before a barrier and read after it: its lowest non-empty bucket. */
        final long[] published;
        /** Per worker: the bin handed over for the round and its length. */
        final int[][] handed;
        final int[] handedLength;
        /** Rounds run; written by worker 0, read after the join. */
        long rounds;

        Run(final SoloGraph g, final int n, final int source, final int shift, final int ring, final int workers,
            final boolean narrow, final long dist) {
            this.narrow = narrow;
            this.n = n;
            this.source = source;
            this.shift = shift;
            this.ring = ring;
            this.off = g.offsetsAt();
            this.tgt = g.targetsAt();
            this.wgt = g.weightsAt();
            this.dist = dist;
            this.lanes = new Lane[workers];
            this.shared = new AtomicLongArray(CLAIMS * PAD);
            this.published = new long[workers];
            this.handed = new int[workers][];
            this.handedLength = new int[workers];
        }

        void worker(final WorkerContext ctx) {
            final int w = ctx.workerIndex();
            final int workers = ctx.workerCount();
            // 1. each worker: its share of the distances
            final long vShare = ((long)n + workers - 1) / workers;
            final long vFrom = Math.min(n, vShare * w);
            final long vTo = Math.min(n, vFrom + vShare);
            for (long v = vFrom; v < vTo; v++) {
                put(narrow, wordAt(narrow, dist, (int)v), narrow ? NARROW_FAR : FAR);
            }
            final Lane lane = new Lane(this);
            lanes[w] = lane;
            if (!ctx.syncWorkers()) { // every distance set before the source's
                return;
            }
            if (w == 0) {
                put(narrow, wordAt(narrow, dist, source), 0);
                lane.file(source, 0); // read by the others only after the first round's barriers
            }
            long bucket = 0;
            long round = 0;
            while (true) {
                // 2. the next bucket: the least of every worker's lowest non-empty bin
                published[w] = lane.lowest(bucket);
                if (!ctx.syncWorkers()) {
                    return;
                }
                long next = Long.MAX_VALUE;
                for (int o = 0; o < workers; o++) {
                    next = Math.min(next, published[o]);
                }
                if (next == Long.MAX_VALUE) {
                    break;
                }
                bucket = next;
                // 3. hand over this worker's bin of that bucket; reset the claim counter of the round after next
                lane.handOver(w, bucket);
                if (w == 0) {
                    shared.set((int)((round + 1) % CLAIMS) * PAD, 0);
                }
                if (!ctx.syncWorkers()) {
                    return;
                }
                // 4. relax the concatenation of the handed-over bins, in chunks
                long total = 0;
                for (int o = 0; o < workers; o++) {
                    total += handedLength[o];
                }
                final int claim = (int)(round % CLAIMS) * PAD;
                long i;
                while ((i = shared.getAndAdd(claim, CHUNK)) < total) {
                    lane.relaxRange(i, Math.min(total, i + CHUNK), bucket, workers);
                }
                // 5. bin fusion (as the GAP suite's): entries this worker filed in the current bucket while
                //    relaxing are relaxed by it at once while the bin stays small, saving two barriers a round
                lane.fuse(bucket);
                round++;
                // the next round's first barrier also ends this one: nobody reads a handed-over bin after it
                lane.takeBack(w);
            }
            if (w == 0) {
                rounds = round;
            }
        }
    }

    /** @return the address of {@code v}'s word among the words at {@code dist} */
    static long wordAt(final boolean narrow, final long dist, final int v) {
        return dist + ((long)v << (narrow ? 2 : 3));
    }

    /** @return the word at {@code at}, a plain read (widened: a word is never negative) */
    static long get(final boolean narrow, final long at) {
        return narrow ? UnsafeApi.getInt(null, at) : UnsafeApi.getLong(null, at);
    }

    /** @return the word at {@code at}, a volatile read */
    static long getVolatile(final boolean narrow, final long at) {
        return narrow ? UnsafeApi.getIntVolatile(null, at) : UnsafeApi.getLongVolatile(null, at);
    }

    /** Writes the word at {@code at} (a plain write: before the barrier that publishes it). */
    static void put(final boolean narrow, final long at, final long word) {
        if (narrow) {
            UnsafeApi.putInt(null, at, (int)word);
        } else {
            UnsafeApi.putLong(null, at, word);
        }
    }

    /** @return whether the word at {@code at} was {@code expected} and is now {@code word} (a compare-and-set) */
    static boolean compareAndSet(final boolean narrow, final long at, final long expected, final long word) {
        return narrow ? UnsafeApi.compareAndSetInt(null, at, (int)expected, (int)word)
            : UnsafeApi.compareAndSetLong(null, at, expected, word);
    }

    /**
     * One worker's bins and counts. The per-entry and per-edge loops are methods called many times per run (compiled
     * early), with the addresses in locals. Its bins are written only by its worker; a handed-over bin is read by
     * every worker between the two barriers that bound its round.
     */
    static final class Lane {
        private final Run run;
        private final int shift;
        private final BucketRing bins;
        /** The array this worker handed over for the round. */
        private int[] out;
        long relaxed;
        long scanned;

        Lane(final Run run) {
            this.run = run;
            this.shift = run.shift;
            this.bins = new BucketRing(run.ring);
        }

        /** Files {@code v} in bucket {@code b}'s bin. */
        void file(final int v, final long b) {
            bins.add(v, b);
        }

        /** @return the lowest bucket at or after {@code from} with entries in this worker's bins; MAX_VALUE if none */
        long lowest(final long from) {
            return bins.lowest(from);
        }

        /** Publishes bucket {@code b}'s bin (maybe empty) for the round; the slot gets a spare array. */
        void handOver(final int w, final long b) {
            run.handedLength[w] = bins.size(b);
            out = bins.take(b);
            run.handed[w] = out;
        }

        /** Takes back the bin this worker handed over (nobody reads it after the round), as a spare. */
        void takeBack(final int w) {
            bins.giveBack(out);
            out = null;
        }

        /**
         * Relaxes, on this worker alone, the entries it has filed in bucket {@code bucket} since the round's
         * hand-over, again and again while there are some and fewer than {@value #FUSE}: in the shrinking tail of a
         * bucket, another round of two barriers would cost more than the relaxations it shares. Larger bins wait for
         * the next round, where every worker shares them.
         */
        void fuse(final long bucket) {
            int count;
            while ((count = bins.size(bucket)) > 0 && count < FUSE) {
                final int[] items = bins.take(bucket);
                for (int i = 0; i < count; i++) {
                    relax(items[i], bucket);
                }
                bins.giveBack(items);
            }
        }

        /** Relaxes entries {@code [from, to)} of the concatenation of the handed-over bins. */
        void relaxRange(final long from, final long to, final long bucket, final int workers) {
            final int[][] handed = run.handed;
            final int[] lengths = run.handedLength;
            long base = 0;
            int o = 0;
            while (base + lengths[o] <= from) {
                base += lengths[o++];
            }
            for (long i = from; i < to; i++) {
                while (i - base >= lengths[o]) {
                    base += lengths[o++];
                }
                relax(handed[o][(int)(i - base)], bucket);
            }
        }

        /**
         * Relaxes the out-edges of {@code u} once for its current distance: unless they were relaxed at that distance
         * already (bit 0 of its word) or it has moved to a lower bucket since it was filed; claims the relaxation by
         * setting bit 0 with a CAS, so two workers holding an entry of {@code u} never both relax it.
         */
        void relax(final int u, final long bucket) {
            final long dist = run.dist;
            final boolean narrow = run.narrow;
            final long at0 = wordAt(narrow, dist, u);
            final long word = getVolatile(narrow, at0);
            final long du = word >>> 1;
            if ((word & 1) != 0 || du >> shift < bucket || !compareAndSet(narrow, at0, word, word | 1)) {
                return; // relaxed at this distance already (or by another worker now), or moved to a lower bucket
            }
            final long off = run.off;
            final long first = UnsafeApi.getLong(null, off + ((long)u << 3));
            final int degree = (int)(UnsafeApi.getLong(null, off + ((long)(u + 1) << 3)) - first);
            final long t = run.tgt + (first << 2);
            final long wt = run.wgt + (first << 2);
            for (int e = 0; e < degree; e++) {
                final int v = UnsafeApi.getInt(null, t + ((long)e << 2));
                final long nd = du + UnsafeApi.getInt(null, wt + ((long)e << 2));
                final long at = wordAt(narrow, dist, v);
                long old = get(narrow, at);
                while (nd < old >>> 1) { // so nd is below the unreached word's distance: it fits the word
                    if (compareAndSet(narrow, at, old, nd << 1)) {
                        file(v, nd >> shift);
                        break;
                    }
                    old = getVolatile(narrow, at);
                }
            }
            relaxed++;
            scanned += degree;
        }
    }
}
