package dev.overlap.graph.solo;

import dev.overlap.core.Device;
import dev.overlap.core.DeviceArray;
import dev.overlap.core.IntArray;
import dev.overlap.core.InterruptedWaitException;
import dev.overlap.core.KernelLaunch;
import dev.overlap.core.LongArray;
import dev.overlap.core.WorkerContext;
import dev.overlap.graph.app.AppResult;
import dev.overlap.graph.app.AppSettings;
import dev.overlap.graph.app.DirectionRule;
import dev.overlap.graph.app.WorkCounts;
import dev.overlap.graph.partition.DeviceGraph;
import dev.overlap.graph.partition.RawArrays;
import org.agrona.UnsafeApi;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Level-synchronous BFS by every worker of one device in one persistent launch ({@code --mode coop}): the levels
 * are separated by the launch's own barrier ({@link WorkerContext#syncWorkers()}), not by a launch, a join and a
 * host step per level, so a graph of thousands of levels (a grid, a road network) pays about a microsecond per level
 * where the BSP baseline pays a launch round trip; and the whole graph is in one device's memory, so an edge costs no
 * owner lookup, remote atomic or frontier message.
 *
 * <p><b>Top-down step.</b> Each worker expands a contiguous share of the frontier (as the GAP suite's static
 * schedule: on a grid or a road network, neighbouring frontier vertices share the cache lines of their neighbours'
 * depths, and interleaved chunks would bounce those lines between the cores on every level); for each out-edge
 * {@code u -> v} an unvisited {@code v} gets the next level as its depth with a plain store, and joins the next
 * frontier. A worker collects the vertices it claimed in a buffer of its own and reserves room for them in the next
 * frontier with one {@code getAndAdd} per {@value #BUFFER} vertices (Atos' one atomic per batch).
 *
 * <p><b>Whose share.</b> The shares go to the workers in the order of their first reservations in the step before:
 * the worker whose claims came first in the frontier takes the first share, and so on, so a worker mostly expands
 * the vertices it claimed itself, whose depths and rows its core has just touched. Handing out the shares by worker
 * index instead swapped the halves of a grid's frontier between the two workers whenever the second worker reserved
 * first, and each then read the lines the other core had just written (measured in the results folder's
 * {@code coop-bfs-uncounted}). Each worker publishes its first reservation's position
 * before the level's barrier, in one of two arrays by level parity, and after the barrier every worker ranks the same
 * values (ties by worker index), so the shares are a permutation of the workers. Step {@code L} writes array {@code
 * (L + 1) & 1}; every worker ranks array {@code L & 1} before its step {@code L}, and nobody writes that array again
 * before step {@code L + 1}, which starts only after every worker has passed level {@code L}'s barrier, so after
 * every worker has ranked it. A frontier rebuilt from the depths or converted from a bitmap gives the shares by
 * worker index.
 *
 * <p><b>Claims race, benignly</b> (Gunrock's idempotent BFS). Two workers that look at the same unvisited vertex
 * within a level may both claim it: both store the same depth (every store to a depth within a level is that level's
 * number, and the barriers order the levels), so the depths are exact, and the vertex joins the next frontier twice
 * and is expanded twice, which only repeats stores of the same values. A worker sees its own stores, so a vertex
 * joins a frontier at most once per worker. A compare-and-set per claim would make the claims exclusive, but it is a
 * locked instruction per reached vertex that keeps the loads after it from overlapping, and on a long-diameter
 * graph, where each frontier vertex claims about one neighbour, it was most of a level's time. The run reports the
 * expansions done as its work ({@link WorkCounts#visited()}) and the vertices reached as the ideal, so a repeat shows
 * as work above the ideal.
 *
 * <p><b>One queue, a ring of {@code n} entries</b> (the GAP suite's sliding queue, which holds every frontier of a
 * run one after the other): a level's frontier occupies a stretch of it and the next frontier is written right after
 * that stretch, wrapping at the end; after the level's barrier the next frontier is the current one. So the next
 * frontier has {@code n - size} entries of room, and without repeats it always fits (the two frontiers are distinct
 * vertices). Repeats could make a level's claims exceed that room: a reservation past it is not written, it marks the
 * level, and after the level's barrier the workers rebuild the next frontier from the depths (each vertex of the next
 * level once) at the start of the queue, so an overflow costs a scan of the depths and loses nothing.
 *
 * <p><b>Bottom-up step</b> (direction-optimizing, symmetric graphs; Beamer et al., switching by
 * {@link DirectionRule} as {@code bsp} does: when the frontier's edges exceed the unexplored edges / 15, unless the
 * frontier is small and not growing), workers take chunks of
 * {@value #SCAN} vertices (whole bitmap words), and each unvisited vertex looks for a neighbour in the frontier
 * bitmap, stopping at the first (in three passes per word of 64 vertices, so that the rows' first lines are fetched
 * together: {@link Lane#scan}); a vertex is only written by the worker whose chunk holds it (plain stores), and so
 * is its word of the next bitmap. Switching builds the other representation: the bitmap from the queue (atomic OR
 * per word, after a cleared bitmap and a barrier) or the queue from the bitmap.
 *
 * <p><b>Rounds and counters.</b> Every level ends at the barrier; after it, every worker reads the same totals (the
 * next frontier's size and edges) and takes the same direction decision. Counters rotate over three slots by level,
 * so the slots a level uses were reset by worker 0 during the level before and published by its barrier.
 *
 * <p><b>Memory.</b> The depths, the frontier queue and the two bitmaps are device memory of the run, read and
 * written at absolute addresses without per-access checks (every index is a vertex id or a frontier position below
 * the vertex count, validated when the graph was placed); they are freed when the run ends, whatever happened. The
 * addresses are valid while the run holds the arrays and the placed graph.
 *
 * <p>Thread-safety: one run at a time per placed graph; the calling thread waits for the launch (a worker of the
 * device may not: it would wait for itself).
 */
final class CoopBfs {
    /** An unreached vertex's depth in the answer; in the run, an unreached vertex holds a negative value. */
    static final int UNVISITED = -1;
    /** Vertices per claim in a bottom-up step and in the bitmap-to-queue conversion: a multiple of 64. */
    static final int SCAN = 1024;
    /** Claimed vertices a worker buffers before it reserves room in the next frontier. */
    static final int BUFFER = 4096;
    /** Longs between two shared counters (a cache line and its neighbour, so no two counters share one). */
    private static final int PAD = 16;
    /** Shared counter kinds, each with three rotating slots. */
    private static final int CLAIM = 0;
    private static final int TAIL = 1;
    private static final int EDGES = 2;
    /**
     * The queue's tail while a level converts the frontier bitmap into the queue, or while the workers rebuild an
     * overflowed next frontier from the depths.
     */
    private static final int CONVERTED = 3;
    /** Non-zero once a top-down step's claims reserved room past the end of the next frontier. */
    private static final int OVERFLOW = 4;
    /**
     * The edges a top-down step scanned, when its frontier's edges were not counted by the step before (see
     * {@link Run#countsNextEdges}): the step scans each of them once, so it is that count, for the explored edges.
     */
    private static final int SCANNED = 5;
    private static final int KINDS = 6;
    /** Run totals (not rotating). */
    private static final int VISITED_TOTAL = KINDS * 3;
    private static final int SCANNED_TOTAL = VISITED_TOTAL + 1;
    private static final int COUNTERS = SCANNED_TOTAL + 1;

    private CoopBfs() {
    }

    /** @return device bytes of a run's state for {@code n} vertices (depths, the queue, two bitmaps) */
    static long stateBytes(final int n) {
        final long words = (n + 63L) >> 6;
        return 2L * 4 * Math.max(1, n) + 2 * 8 * Math.max(1, words) + 4 * 64;
    }

    static AppResult run(final DeviceGraph dg, final int source, final AppSettings settings) {
        return run(dg, source, settings, Integer.MAX_VALUE, 0, false);
    }

    /**
     * As {@link #run(DeviceGraph, int, AppSettings)}, with the room a top-down step's claims may reserve in the next
     * frontier lowered to {@code claimRoom} (when below what the current frontier leaves of the queue): tests make
     * levels overflow with it; and with the source's frontier at queue position {@code firstBase} ({@code 0 <=
     * firstBase < n}) instead of 0: tests make the frontiers wrap around the queue's end with it; and, with {@code
     * countEveryLevel}, with every top-down step counting its claims' edges, as if any level could go bottom-up:
     * tests compare the directions taken with it.
     */
    static AppResult run(final DeviceGraph dg, final int source, final AppSettings settings, final int claimRoom,
        final int firstBase, final boolean countEveryLevel) {
        final SoloGraph g = SoloGraph.of(dg);
        final int n = g.vertices();
        final int s = g.internalSource(source);
        final boolean optimizing = settings.direction() == AppSettings.Direction.OPTIMIZING
            && dg.summary().isSymmetric();
        final Device dev = dg.mesh().device(0);
        IntArray depthArray = null;
        IntArray queue = null;
        LongArray bits0 = null;
        LongArray bits1 = null;
        try {
            depthArray = dev.allocateInts(n);
            queue = dev.allocateInts(n);
            final int words = (n + 63) >> 6;
            bits0 = dev.allocateLongs(Math.max(1, words));
            bits1 = dev.allocateLongs(Math.max(1, words));
            final int maxDegree = countEveryLevel ? Integer.MAX_VALUE : dg.summary().maxDegree();
            final Run run = new Run(g, n, Math.min(n, claimRoom), firstBase, s, optimizing, maxDegree,
                dev.workerCount(), dg.localEdges(0),
                RawArrays.of(depthArray).address(0), RawArrays.of(queue).address(0), RawArrays.of(bits0).address(0),
                RawArrays.of(bits1).address(0));
            final long start = System.nanoTime();
            final KernelLaunch launch = dev.launchPersistent(ctx -> {
                run.worker(ctx);
                ctx.stopLaunch();
                return 1;
            });
            joinUninterruptibly(launch);
            final long nanos = System.nanoTime() - start;
            final int[] depth = new int[n];
            long reached = 0;
            for (int v = 0; v < n; v++) {
                final int d = depthArray.get(v);
                depth[v] = Math.max(UNVISITED, d);
                reached += d >= 0 ? 1 : 0;
            }
            final long expanded = run.counters.get(VISITED_TOTAL * PAD) + 1;
            return AppResult.bfs(g.toOriginal(depth), nanos, new WorkCounts(run.levels, expanded, reached,
                run.counters.get(SCANNED_TOTAL * PAD), 0, 0, 0, 0, 0));
        } finally {
            for (final var a : new DeviceArray[] {bits1, bits0, queue, depthArray}) {
                if (a != null && !dev.mesh().isClosed()) {
                    dev.free(a);
                }
            }
        }
    }

    /**
     * Waits for the launch; an interrupt stops it (its workers leave at their next barrier) and is rethrown once the
     * workers are out, so the run's arrays are never freed under a running worker.
     */
    static void joinUninterruptibly(final KernelLaunch launch) {
        try {
            launch.join();
        } catch (final InterruptedWaitException e) {
            launch.stop();
            while (!launch.isDone()) {
                Thread.interrupted(); // join keeps the status; cleared to wait, set again below
                try {
                    launch.join();
                } catch (final InterruptedWaitException again) {
                    // keep waiting: the workers leave at their next barrier
                } catch (final RuntimeException failed) {
                    break; // done, failed: the interrupt is what the caller hears
                }
            }
            Thread.currentThread().interrupt();
            throw e;
        }
    }

    /** One run's shared state: the addresses, the counters, and what every worker decides alike each level. */
    static final class Run {
        final int n;
        /** Entries a top-down step may reserve in the next frontier at most: {@code n}, or less in tests. */
        final int claimRoom;
        /** Where the source's frontier starts in the queue: 0, or elsewhere in tests. */
        final int firstBase;
        final int source;
        final boolean optimizing;
        /** The graph's largest degree, for {@link #countsNextEdges}; {@code Integer.MAX_VALUE} counts every level. */
        final int maxDegree;
        final long totalEdges;
        final long off;
        final long tgt;
        final long depth;
        /** The ring of {@code n} entries that holds the current frontier and, after it, the next. */
        final long queue;
        final long[] bitmaps;
        final int words;
        final AtomicLongArray counters = new AtomicLongArray(COUNTERS * PAD);
        /**
         * By level parity, each worker's first reservation in a top-down step (the position in the next frontier, or
         * {@link Long#MAX_VALUE} when it claimed nothing): written by its worker before the level's barrier, read by
         * every worker after it ({@link #share}).
         */
        final long[][] firsts;
        /** Levels run; written by worker 0, read after the join. */
        long levels;

        Run(final SoloGraph g, final int n, final int claimRoom, final int firstBase, final int source,
            final boolean optimizing, final int maxDegree, final int workers, final long totalEdges, final long depth,
            final long queue, final long bits0, final long bits1) {
            this.n = n;
            this.claimRoom = claimRoom;
            if (firstBase < 0 || firstBase >= Math.max(1, n)) {
                throw new IllegalArgumentException("first queue position " + firstBase + " outside 0.." + (n - 1));
            }
            this.firstBase = firstBase;
            this.source = source;
            this.optimizing = optimizing;
            this.maxDegree = maxDegree;
            this.firsts = new long[2][workers];
            this.totalEdges = totalEdges;
            this.off = g.offsetsAt();
            this.tgt = g.targetsAt();
            this.depth = depth;
            this.queue = queue;
            this.bitmaps = new long[] {bits0, bits1};
            this.words = (n + 63) >> 6;
        }

        private static int slot(final int kind, final int level) {
            return (kind * 3 + Math.floorMod(level, 3)) * PAD;
        }

        /** The body every worker runs once: initialise, then the levels until the frontier is empty. */
        void worker(final WorkerContext ctx) {
            final int w = ctx.workerIndex();
            final int workers = ctx.workerCount();
            // initialise: each worker its share of the depths
            final long share = ((long)n + workers - 1) / workers;
            final long from = Math.min(n, share * w);
            final long to = Math.min(n, from + share);
            initialDepths((int)from, (int)to);
            if (w == 0) {
                // level 0's frontier is the source; the slots of levels 0 and 1 start at 0 (a fresh counter array)
                counters.set(slot(TAIL, 0), 1);
                counters.set(slot(EDGES, 0), degree(source));
            }
            if (!ctx.syncWorkers()) {
                return;
            }
            if (w == 0) {
                UnsafeApi.putInt(null, depth + ((long)source << 2), 0); // after every worker's fill
                UnsafeApi.putInt(null, queue + ((long)firstBase << 2), source);
            }
            if (!ctx.syncWorkers()) {
                return;
            }
            final Lane lane = new Lane(this);
            final int[] buffer = lane.buffer;
            final long[] work = new long[2]; // this worker's vertices claimed or found, and edges scanned
            long explored = 0; // the edges out of the levels before this one (the GAP suite's edges_to_check, less)
            long previousSize = 0;
            boolean bottomUp = false;
            boolean edgesCounted = true; // whether this level's frontier edges were counted (the source's are)
            boolean rebuilt = false;
            boolean fromClaims = false; // whether this level's frontier is a top-down step's claims, as written
            long base = firstBase; // where the current frontier starts in the queue (the same in every worker)
            int level = 0;
            while (true) {
                final long size = counters.get(slot(rebuilt ? CONVERTED : TAIL, level));
                if (size == 0) {
                    break;
                }
                final long frontierEdges = counters.get(slot(EDGES, level));
                if (w == 0) {
                    // free for level + 1 (claims) and level + 2 (tail, edges, overflow): published by this level's
                    // barrier
                    counters.set(slot(CLAIM, level + 1), 0);
                    counters.set(slot(CONVERTED, level + 1), 0);
                    counters.set(slot(TAIL, level + 2), 0);
                    counters.set(slot(EDGES, level + 2), 0);
                    counters.set(slot(OVERFLOW, level + 2), 0);
                    counters.set(slot(SCANNED, level + 2), 0);
                }
                final boolean wasBottomUp = bottomUp;
                if (optimizing) {
                    bottomUp = DirectionRule.bottomUp(bottomUp, n, size, previousSize, frontierEdges,
                        totalEdges - explored);
                }
                final long curBits = bitmaps[level & 1];
                final long nextBits = bitmaps[(level + 1) & 1];
                if (bottomUp && !wasBottomUp) {
                    // the queue into the bitmap: cleared first (each worker whole words), then the bits set
                    clearWords(curBits, w, workers);
                    if (!ctx.syncWorkers()) {
                        return;
                    }
                    queueToBits(base, size, curBits, w, workers);
                    if (!ctx.syncWorkers()) {
                        return;
                    }
                } else if (!bottomUp && wasBottomUp) {
                    // the bitmap into the queue (the frontier's size is known; its order is not needed)
                    bitsToQueue(curBits, level, buffer, w, workers);
                    base = 0;
                    if (!ctx.syncWorkers()) {
                        return;
                    }
                }
                final boolean counting = bottomUp || countsNextEdges(size);
                if (bottomUp) {
                    bottomUpStep(curBits, nextBits, level, lane, work);
                } else {
                    final int part = fromClaims ? share(w, level, workers) : w;
                    topDownStep(base, size, level, lane, work, part, workers, counting, optimizing && !edgesCounted);
                    firsts[(level + 1) & 1][w] = lane.firstAt;
                }
                if (!ctx.syncWorkers()) {
                    return;
                }
                // a bottom-up step writes no queue; a top-down one whose claims overflowed it left it incomplete
                rebuilt = !bottomUp && counters.get(slot(OVERFLOW, level + 1)) != 0;
                fromClaims = !bottomUp && !rebuilt;
                if (rebuilt) {
                    rebuildQueue(level + 1, buffer, w, workers);
                    if (!ctx.syncWorkers()) {
                        return;
                    }
                    base = 0;
                } else if (!bottomUp) {
                    base = wrap(base + size);
                }
                // the edges of this level's frontier: counted by the step before, or scanned by this one
                explored += edgesCounted ? frontierEdges : counters.get(slot(SCANNED, level + 1));
                edgesCounted = counting;
                previousSize = size;
                level++;
            }
            counters.getAndAdd(VISITED_TOTAL * PAD, work[0]);
            counters.getAndAdd(SCANNED_TOTAL * PAD, work[1]);
            if (w == 0) {
                levels = level;
            }
        }

        /**
         * Unreached vertex {@code v} holds {@code -1 - degree(v)} (the degree capped below {@code Integer.MAX_VALUE}):
         * negative means unreached, and a claim learns the claimed vertex's degree (the next frontier's edges, for the
         * direction rule) from the value its compare-and-set replaced instead of two more reads of the offsets (as the
         * GAP suite keeps {@code -degree} in its parent array).
         */
        private void initialDepths(final int from, final int to) {
            long first = UnsafeApi.getLong(null, off + ((long)from << 3));
            for (int v = from; v < to; v++) {
                final long last = UnsafeApi.getLong(null, off + ((long)(v + 1) << 3));
                final long degree = Math.min(last - first, Integer.MAX_VALUE - 1);
                UnsafeApi.putInt(null, depth + ((long)v << 2), (int)(-1 - degree));
                first = last;
            }
        }

        /**
         * Whether a top-down step from a frontier of {@code size} vertices counts the edges of the vertices it claims
         * (the next frontier's edges, for the direction rule). Not when the run keeps top-down, nor when the next
         * frontier's edges are below the rule's floor whatever they are: the next frontier has at most {@code size x
         * maxDegree} vertices (one per edge scanned) and so at most {@code size x maxDegree}<sup>2</sup> edges, and a
         * frontier with fewer than {@code n / }{@value DirectionRule#BETA} edges stays top-down
         * ({@link DirectionRule#mayGoBottomUp}). A long-diameter graph of small degrees (a grid, a road network)
         * then never counts: the count is an add per claim whose operand is the claimed vertex's old depth, a cost
         * the results folder's {@code coop-bfs-uncounted} measures. The rule reads 0 edges for an uncounted level (it
         * stays top-down), and the explored edges take that level's edges from what its own step scanned instead.
         */
        boolean countsNextEdges(final long size) {
            if (!optimizing) {
                return false;
            }
            final long nextBound = size * maxDegree; // both below 2^31
            return nextBound >= n || DirectionRule.mayGoBottomUp(n, nextBound, maxDegree);
        }

        /**
         * The share of level {@code level}'s frontier that worker {@code w} expands: the rank of its first reservation
         * in the step that wrote the frontier among all the workers' (ties by worker index).
         */
        int share(final int w, final int level, final int workers) {
            final long[] first = firsts[level & 1];
            final long mine = first[w];
            int rank = 0;
            for (int k = 0; k < workers; k++) {
                rank += first[k] < mine || (first[k] == mine && k < w) ? 1 : 0;
            }
            return rank;
        }

        /** @return position {@code p} of the queue, {@code 0 <= p < 2 n}, wrapped into the ring */
        long wrap(final long p) {
            return p < n ? p : p - n;
        }

        private long degree(final int v) {
            return UnsafeApi.getLong(null, off + ((long)(v + 1) << 3)) - UnsafeApi.getLong(null, off + ((long)v << 3));
        }

        private void clearWords(final long bits, final int w, final int workers) {
            final long share = ((long)words + workers - 1) / workers;
            final long from = Math.min(words, share * w);
            final long to = Math.min(words, from + share);
            UnsafeApi.setMemory(null, bits + (from << 3), (to - from) << 3, (byte)0);
        }

        /**
         * Sets the bits of this worker's share of the {@code size} vertices of the frontier at {@code base} (atomic
         * OR: words are shared).
         */
        private void queueToBits(final long base, final long size, final long bits, final int w, final int workers) {
            final long share = (size + workers - 1) / workers;
            final long from = Math.min(size, share * w);
            final long to = Math.min(size, from + share);
            for (long i = from; i < to; i++) {
                final int v = UnsafeApi.getInt(null, queue + (wrap(base + i) << 2));
                final long at = bits + ((long)(v >>> 6) << 3);
                final long bit = 1L << v;
                long word = UnsafeApi.getLongVolatile(null, at);
                while ((word & bit) == 0 && !UnsafeApi.compareAndSetLong(null, at, word, word | bit)) {
                    word = UnsafeApi.getLongVolatile(null, at);
                }
            }
        }

        /**
         * Appends the set bits of this worker's share of the bitmap's words to the queue from its start, the level's
         * frontier (its order does not matter), reserving room at the level's {@link #CONVERTED} tail.
         */
        private void bitsToQueue(final long bits, final int level, final int[] buffer, final int w,
            final int workers) {
            final int tail = slot(CONVERTED, level);
            final long share = ((long)words + workers - 1) / workers;
            final long from = Math.min(words, share * w);
            final long to = Math.min(words, from + share);
            int held = 0;
            for (long i = from; i < to; i++) {
                long word = UnsafeApi.getLong(null, bits + (i << 3));
                while (word != 0) {
                    if (held == BUFFER) {
                        flushDistinct(buffer, held, tail);
                        held = 0;
                    }
                    buffer[held++] = (int)((i << 6) + Long.numberOfTrailingZeros(word));
                    word &= word - 1;
                }
            }
            flushDistinct(buffer, held, tail);
        }

        /**
         * Fills the queue from its start with the vertices of depth {@code depthOf} in this worker's share of the
         * vertices (each once), reserving room at that level's {@link #CONVERTED} tail: the next frontier of a level
         * whose claims overflowed it (the current frontier is no longer read).
         */
        private void rebuildQueue(final int depthOf, final int[] buffer, final int w, final int workers) {
            final int tail = slot(CONVERTED, depthOf);
            final long share = ((long)n + workers - 1) / workers;
            final long from = Math.min(n, share * w);
            final long to = Math.min(n, from + share);
            int held = 0;
            for (long v = from; v < to; v++) {
                if (UnsafeApi.getInt(null, depth + (v << 2)) == depthOf) {
                    if (held == BUFFER) {
                        flushDistinct(buffer, held, tail);
                        held = 0;
                    }
                    buffer[held++] = (int)v;
                }
            }
            flushDistinct(buffer, held, tail);
        }

        /**
         * A top-down step over share {@code share} of the {@code size} vertices of the frontier at {@code base}, the
         * next frontier written after it: adds this worker's vertices claimed and edges scanned to {@code work}.
         */
        private void topDownStep(final long base, final long size, final int level, final Lane lane,
            final long[] work, final int share, final int workers, final boolean counting, final boolean addScanned) {
            lane.start(wrap(base + size), Math.min(claimRoom, n - size), slot(TAIL, level + 1), level + 1, counting);
            final long from = size * share / workers;
            final long to = size * (share + 1) / workers;
            if (counting) {
                for (long i = from; i < to; i++) {
                    lane.expand(UnsafeApi.getInt(null, queue + (wrap(base + i) << 2)));
                }
            } else {
                lane.expandUncounted(base, from, to);
            }
            lane.flush();
            if (counting) {
                counters.getAndAdd(slot(EDGES, level + 1), lane.discovered);
            }
            if (addScanned) {
                counters.getAndAdd(slot(SCANNED, level + 1), lane.scanned);
            }
            work[0] += lane.claimed;
            work[1] += lane.scanned;
        }

        /** A bottom-up step: adds this worker's vertices found and edges scanned to {@code work}. */
        private void bottomUpStep(final long curBits, final long nextBits, final int level, final Lane lane,
            final long[] work) {
            final int claim = slot(CLAIM, level);
            lane.start(0, 0, 0, level + 1, true);
            long k;
            while ((k = counters.getAndAdd(claim, SCAN)) < n) {
                lane.scan((int)k, (int)Math.min(n, k + SCAN), curBits, nextBits);
            }
            counters.getAndAdd(slot(TAIL, level + 1), lane.claimed);
            counters.getAndAdd(slot(EDGES, level + 1), lane.discovered);
            work[0] += lane.claimed;
            work[1] += lane.scanned;
        }

        /**
         * Reserves room for {@code held} claimed vertices at the tail counter {@code tail} and copies them into the
         * next frontier, which starts at {@code next} and may take {@code room} entries; a reservation that ends
         * past the room is not written and marks the level's {@link #OVERFLOW} instead (its vertices are claimed: the
         * rebuild finds them in the depths).
         *
         * @return the position reserved in the next frontier, {@link Long#MAX_VALUE} when {@code held} is 0
         */
        long flushClaims(final int[] buffer, final int held, final long next, final long room, final int tail,
            final int level) {
            if (held == 0) {
                return Long.MAX_VALUE;
            }
            final long at = counters.getAndAdd(tail, held);
            if (at + held > room) {
                counters.set(slot(OVERFLOW, level), 1);
                return at;
            }
            final long from = wrap(next + at);
            final int before = (int)Math.min(held, n - from); // the entries before the ring's end; the rest wrap
            copy(buffer, 0, before, queue + (from << 2));
            copy(buffer, before, held, queue);
            return at;
        }

        /**
         * Reserves room for {@code held} vertices at the tail counter {@code tail} and copies them there, from the
         * queue's start: for vertices that enter the queue once each (a converted bitmap, a rebuilt frontier), so
         * they fit in its {@code n}.
         */
        private void flushDistinct(final int[] buffer, final int held, final int tail) {
            if (held != 0) {
                copy(buffer, 0, held, queue + (counters.getAndAdd(tail, held) << 2));
            }
        }

        /** Copies {@code buffer[from, to)} to the ints at {@code at}. */
        private static void copy(final int[] buffer, final int from, final int to, final long at) {
            // a loop, not Unsafe.copyMemory: from a heap array, that is a call into the VM per flush (a flush per full
            // buffer and per level and worker), which a grid's thousands of levels paid for; the loop costs little
            for (int k = from; k < to; k++) {
                UnsafeApi.putInt(null, at + ((long)(k - from) << 2), buffer[k]);
            }
        }
    }

    /**
     * One worker's share of a step: its buffer of claimed vertices and its counts. The per-vertex and per-chunk loops
     * are methods of their own, called many times per run, so the JIT compiles them within the first runs (a loop in
     * a method called once per level would run interpreted until on-stack replacement); they read the addresses into
     * locals first (a field read after a CAS would be repeated on every edge). Confined to its worker.
     */
    static final class Lane {
        final int[] buffer = new int[BUFFER];
        private final Run run;
        int held;
        long claimed;
        long scanned;
        long discovered;
        long next;
        long room;
        int tail;
        int nextDepth;
        /**
         * Whether the step counts the claimed vertices' edges into {@link #discovered} ({@link Run#countsNextEdges}).
         */
        boolean counting;
        /** The position of this step's first reservation in the next frontier; {@link Long#MAX_VALUE} before it. */
        long firstAt;

        Lane(final Run run) {
            this.run = run;
        }

        /**
         * Starts a step that files claimed vertices in the next frontier, from queue position {@code next} for at
         * most {@code room} entries, at the tail counter {@code tail}; {@code counting}: whether it counts the claimed
         * vertices' edges.
         */
        void start(final long next, final long room, final int tail, final int nextDepth, final boolean counting) {
            this.counting = counting;
            this.firstAt = Long.MAX_VALUE;
            this.next = next;
            this.room = room;
            this.tail = tail;
            this.nextDepth = nextDepth;
            held = 0;
            claimed = 0;
            scanned = 0;
            discovered = 0;
        }

        /** Writes the buffered claims into the next frontier (see {@link Run#flushClaims}). */
        void flush() {
            claimed += held;
            firstAt = Math.min(firstAt, run.flushClaims(buffer, held, next, room, tail, nextDepth));
            held = 0;
        }

        /**
         * Top-down: claims every unvisited out-neighbour of {@code u} for the next level (a plain store of its depth:
         * see the class comment) and buffers it; a row longer than the buffer goes in pieces of at most
         * {@value #BUFFER} edges.
         */
        void expand(final int u) {
            final long off = run.off;
            final long first = UnsafeApi.getLong(null, off + ((long)u << 3));
            final int degree = (int)(UnsafeApi.getLong(null, off + ((long)(u + 1) << 3)) - first);
            final long edges = run.tgt + (first << 2);
            if (degree <= BUFFER - held) { // the common case: the row fits the buffer as it is
                claim(edges, degree);
            } else {
                for (int from = 0; from < degree; from += BUFFER) {
                    final int count = Math.min(BUFFER, degree - from);
                    if (count > BUFFER - held) {
                        // room for every edge of the piece before its loop, so the loop never flushes: a call in the
                        // loop body, even one seldom taken, keeps the JIT from holding the loop's state in registers
                        flush();
                    }
                    claim(edges + ((long)from << 2), count);
                }
            }
            scanned += degree;
        }

        /**
         * Top-down without the count ({@link Run#countsNextEdges}): expands entries {@code [from, to)} of the frontier
         * at queue position {@code base}. The buffer's fill stays in a local from vertex to vertex, where
         * {@link #expand} keeps it in a field: that field's store and reload per vertex (and the count's) slowed a
         * grid's one-worker step against the same loop with locals (the results folder's {@code coop-bfs-uncounted}).
         */
        void expandUncounted(final long base, final long from, final long to) {
            final long queue = run.queue;
            final long off = run.off;
            final long tgt = run.tgt;
            final long depth = run.depth;
            final int nextD = nextDepth;
            final int[] buf = buffer;
            int h = held;
            long rows = 0;
            for (long i = from; i < to; i++) {
                final int u = UnsafeApi.getInt(null, queue + (run.wrap(base + i) << 2));
                final long first = UnsafeApi.getLong(null, off + ((long)u << 3));
                final int degree = (int)(UnsafeApi.getLong(null, off + ((long)(u + 1) << 3)) - first);
                if (degree <= BUFFER - h) {
                    h = claimOnly(tgt + (first << 2), degree, depth, nextD, buf, h);
                    rows += degree;
                } else { // a flush first, and a row longer than the buffer in pieces
                    held = h;
                    expand(u);
                    h = held;
                }
            }
            held = h;
            scanned += rows;
        }

        /** Claims the unvisited targets of the {@code count} edges at {@code edges}, counting their edges or not. */
        private void claim(final long edges, final int count) {
            if (counting) {
                claimCounting(edges, count);
            } else {
                held = claimOnly(edges, count, run.depth, nextDepth, buffer, held);
            }
        }

        /**
         * As {@link #claimCounting}, without the count, and with the buffer's fill {@code h} passed in and returned.
         *
         * @return the buffer's fill after the claims
         */
        private static int claimOnly(final long edges, final int count, final long depth, final int nextD,
            final int[] buf, final int held) {
            int h = held;
            for (int e = 0; e < count; e++) {
                final int v = UnsafeApi.getInt(null, edges + ((long)e << 2));
                final long at = depth + ((long)v << 2);
                if (UnsafeApi.getInt(null, at) < 0) {
                    UnsafeApi.putInt(null, at, nextD);
                    buf[h++] = v;
                }
            }
            return h;
        }

        /**
         * Claims the unvisited targets of the {@code count} edges at {@code edges}, adding their edges to
         * {@link #discovered}; the buffer has room for them.
         */
        private void claimCounting(final long edges, final int count) {
            final long depth = run.depth;
            final int nextD = nextDepth;
            final int[] buf = buffer;
            int h = held;
            long edgesOfFound = 0;
            for (int e = 0; e < count; e++) {
                final int v = UnsafeApi.getInt(null, edges + ((long)e << 2));
                final long at = depth + ((long)v << 2);
                final int old = UnsafeApi.getInt(null, at);
                if (old < 0) {
                    UnsafeApi.putInt(null, at, nextD);
                    buf[h++] = v;
                    edgesOfFound += -1 - old;
                }
            }
            held = h;
            discovered += edgesOfFound;
        }

        /**
         * Bottom-up over vertices {@code [from, to)} ({@code from} a multiple of 64): each unvisited vertex with a
         * neighbour in {@code curBits} joins the next level, and this chunk's words of {@code nextBits} are written
         * whole. Three passes per word of 64 vertices:
         * <ol>
         *   <li>the word's candidates as a mask, from the depths alone: unvisited with an edge (a degree-encoded depth
         *       below {@code -1}), and which of them have a second edge (below {@code -2});</li>
         *   <li>each candidate's first edge against the frontier, with no branch on a loaded value;</li>
         *   <li>the candidates whose first edge missed and that have a second edge search on from it, stopping at the
         *       first neighbour in the frontier.</li>
         * </ol>
         * A row's first edge is a cache miss at a place the hardware does not predict (a row start). A loop that
         * searched each vertex's row in turn branched on that miss, at every vertex, and the branch goes either way;
         * visited and isolated vertices cost a branch that goes either way too, in the levels where they are most of
         * the vertices. The second pass visits only candidates and has no such branch, so the processor keeps as many
         * of their misses in flight as it can; the third reads lines the second brought in. Measured in the results
         * folder's {@code coop-bfs-bottom-up-passes}.
         */
        void scan(final int from, final int to, final long curBits, final long nextBits) {
            final long off = run.off;
            final long tgt = run.tgt;
            final long depth = run.depth;
            final int nextD = nextDepth;
            long found = 0;
            long edgesOfFound = 0;
            long looked = 0;
            for (int base = from; base < to; base += 64) {
                final int count = Math.min(64, to - base);
                long candidates = 0;
                long longer = 0;
                for (int b = 0; b < count; b++) {
                    final int d = UnsafeApi.getInt(null, depth + ((long)(base + b) << 2));
                    candidates |= (long)((d + 1) >>> 31) << b;
                    longer |= (long)((d + 2) >>> 31) << b;
                }
                long hits = 0;
                for (long c = candidates; c != 0; c &= c - 1) {
                    final int b = Long.numberOfTrailingZeros(c);
                    final long first = UnsafeApi.getLong(null, off + ((long)(base + b) << 3));
                    final int u = UnsafeApi.getInt(null, tgt + (first << 2));
                    hits |= ((UnsafeApi.getLong(null, curBits + ((long)(u >>> 6) << 3)) >>> u) & 1) << b;
                }
                looked += Long.bitCount(candidates);
                for (long p = candidates & ~hits & longer; p != 0; p &= p - 1) {
                    final int b = Long.numberOfTrailingZeros(p);
                    final int v = base + b;
                    final long first = UnsafeApi.getLong(null, off + ((long)v << 3));
                    final int degree = (int)(UnsafeApi.getLong(null, off + ((long)(v + 1) << 3)) - first);
                    final long edges = tgt + (first << 2);
                    int e = 1;
                    while (e < degree) {
                        final int u = UnsafeApi.getInt(null, edges + ((long)e++ << 2));
                        if ((UnsafeApi.getLong(null, curBits + ((long)(u >>> 6) << 3)) & (1L << u)) != 0) {
                            hits |= 1L << b;
                            break;
                        }
                    }
                    looked += e - 1;
                }
                UnsafeApi.putLong(null, nextBits + ((long)(base >>> 6) << 3), hits);
                found += Long.bitCount(hits);
                for (long h = hits; h != 0; h &= h - 1) {
                    final long at = depth + ((long)(base + Long.numberOfTrailingZeros(h)) << 2);
                    edgesOfFound += -1 - UnsafeApi.getInt(null, at); // the degree its depth encodes
                    UnsafeApi.putInt(null, at, nextD);
                }
            }
            claimed += found;
            discovered += edgesOfFound;
            scanned += looked;
        }
    }
}
