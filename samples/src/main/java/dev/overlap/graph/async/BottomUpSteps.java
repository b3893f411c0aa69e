package dev.overlap.graph.async;

import dev.overlap.core.KernelLaunch;
import dev.overlap.core.LongArray;
import dev.overlap.core.Mesh;
import dev.overlap.core.World;
import dev.overlap.graph.app.WorkerCounters;
import dev.overlap.graph.partition.GraphView;
import dev.overlap.graph.partition.Owners;
import dev.overlap.graph.partition.Partition;
import dev.overlap.graph.partition.RawArrays;
import org.agrona.UnsafeApi;

/**
 * The bottom-up middle of the hybrid async BFS (Beamer's direction-optimizing BFS; symmetric graphs only): after the
 * top-down phase stopped at the cap {@code L} of its {@link DirectionSwitch}, the depths at or below {@code L} are
 * exact and the vertices at {@code L} are the frontier. {@link #run} runs level-synchronous bottom-up steps on the
 * mesh: each device scans its own unreached vertices for a neighbour in the frontier, stopping at the first, and
 * writes the next frontier as a bitmap (one bit per owned vertex), testing the neighbours in the other devices'
 * bitmaps directly (one-sided reads; written before the previous barrier). The frontier the top-down phase left is
 * first turned into a bitmap by one sequential pass over each device's depths, which also sets back depths above
 * {@code L} (leftovers of expansions the cap cut short: unreached) with their hints; so every step tests a bitmap
 * of {@code n / 8} bytes that stays in cache, never the {@code 4n} bytes of depths at random. It goes back to
 * top-down when the frontier falls below {@code n / beta} vertices and shrinks (the frontier is then seeded into the
 * worklist) or ends when a step finds nothing.
 *
 * <p>One kernel per device and step; a block covers {@value #SCAN_PER_BLOCK} local vertices (a multiple of 64), so
 * it owns whole bitmap words and writes them without atomics. The depths and hints of a device's vertices are
 * written only by that device's blocks. The scan reads device memory at raw addresses held in locals (see
 * {@link RawArrays}).
 *
 * <p><b>Across processes</b> (SPMD): the bitmaps are symmetric allocations, each rank launches its own devices, and
 * the frontier pass and every step end with one {@link World#allReduceSum} of the vertices found: every rank learns
 * the global frontier size and takes the same decisions, and the reduction is the barrier that orders a step's
 * bitmaps before the next step reads them (a step writes the bitmap the previous step read, which every rank has
 * finished reading once it arrived). In one process the reduction is the local sum.
 *
 * <p>Thread-safety: host calls, one at a time, between worklist runs.
 */
final class BottomUpSteps implements AutoCloseable {
    private static final int SCAN_PER_BLOCK = 2048;
    private static final int INF = AsyncBfs.INF;
    private static final int FOUND = WorkerCounters.VISITED;
    private static final int CAP_FRONTIER = WorkerCounters.EDGES;

    private final Mesh mesh;
    private final World world;
    private final GraphView view;
    private final Partition partition;
    private final RawArrays depth;
    private final RawArrays hint;
    private final WorkerCounters counters;
    /**
     * Per step and worker: vertices found ({@link #FOUND}); in the frontier pass, those at the cap
     * ({@link #CAP_FRONTIER}).
     */
    private final WorkerCounters found;
    private final LongArray[][] bits;
    private final RawArrays[] rawBits = new RawArrays[2];
    private final SymmetricState state;
    private final KernelLaunch[] launches;
    private int current;
    private long steps;

    /**
     * Allocates two bitmaps per device (symmetric: collective across processes).
     *
     * @param counters the run's counters: the frontier the top-down phase left and the vertices bottom-up steps
     *                 reach count as {@code VISITED} (settled without a top-down expansion), the edges the steps scan
     *                 as {@code EDGES}
     */
    BottomUpSteps(final Mesh mesh, final GraphView view, final Partition partition, final RawArrays depth,
        final RawArrays hint, final WorkerCounters counters) {
        final int devices = partition.devices();
        this.mesh = mesh;
        this.world = mesh.world();
        this.view = view;
        this.partition = partition;
        this.depth = depth;
        this.hint = hint;
        this.counters = counters;
        this.found = WorkerCounters.of(mesh);
        this.launches = new KernelLaunch[devices];
        this.bits = new LongArray[2][];
        this.state = new SymmetricState(mesh);
        try {
            for (int b = 0; b < 2; b++) {
                bits[b] = state.longs(words(AsyncBfs.maxOwned(partition)));
                rawBits[b] = RawArrays.of(bits[b]);
            }
        } catch (final RuntimeException | Error e) {
            close();
            throw e;
        }
    }

    /** @return device bytes of the bitmaps for a device owning {@code owned} vertices */
    static long bytesPerDevice(final int owned) {
        return 2L * words(owned) * 8 + 128;
    }

    private static int words(final int owned) {
        return Math.max(1, (owned + 63) >>> 6);
    }

    /** @return bottom-up steps run so far */
    long steps() {
        return steps;
    }

    /**
     * Runs bottom-up steps from the frontier at depth {@code cap}.
     *
     * @return the depth of the frontier left in {@link #frontier(int)} for a top-down tail, or -1 when the BFS is done
     */
    int run(final int cap) {
        current = 0;
        found.clear(FOUND);
        found.clear(CAP_FRONTIER);
        for (int d = world.firstLocalDevice(), last = d + world.localDeviceCount(); d < last; d++) {
            launches[d] = frontierOf(d, cap);
        }
        AsyncBfs.join(launches);
        long previous = 0;
        long size = world.allReduceSum(found.sum(CAP_FRONTIER)); // every bitmap is written before any is read
        final long small = partition.vertexCount() / DirectionSwitch.BETA;
        int level = cap;
        while (size > 0) {
            if (level > cap && size < small && size < previous) {
                return level;
            }
            found.clear(FOUND);
            for (int d = world.firstLocalDevice(), last = d + world.localDeviceCount(); d < last; d++) {
                launches[d] = step(d, level);
            }
            AsyncBfs.join(launches);
            steps++;
            current ^= 1;
            previous = size;
            size = world.allReduceSum(found.sum(FOUND)); // the step's barrier
            level++;
        }
        return -1;
    }

    /**
     * @return device {@code d}'s frontier bitmap (bit {@code i}: local vertex {@code i}) after {@link #run} (as long
     *         as the device's slice; the bits beyond it are zero)
     */
    LongArray frontier(final int d) {
        return bits[current][d];
    }

    /**
     * Device {@code d}'s frontier at {@code cap} as a bitmap in bits[0], by one sequential pass over its depths;
     * depths above {@code cap} (expansions the cap cut short) are set back to unreached with their hints.
     */
    private KernelLaunch frontierOf(final int d, final int cap) {
        final int owned = partition.size(d);
        if (owned == 0) {
            return null;
        }
        final long depthAt = depth.address(d);
        final long hintAt = hint.address(d);
        final long bitsAt = rawBits[0].address(d);
        return mesh.device(d).launch((owned + SCAN_PER_BLOCK - 1) / SCAN_PER_BLOCK, (ctx, block) -> {
            final int from = block * SCAN_PER_BLOCK;
            final int to = Math.min(owned, from + SCAN_PER_BLOCK);
            long frontier = 0;
            for (int w = from; w < to; w += 64) {
                long word = 0;
                for (int lv = w, end = Math.min(to, w + 64); lv < end; lv++) {
                    final long at = depthAt + ((long)lv << 2);
                    final int x = UnsafeApi.getInt(null, at);
                    if (x == cap) {
                        word |= 1L << lv;
                    } else if (x > cap && x != INF) {
                        UnsafeApi.putInt(null, at, INF);
                        UnsafeApi.putByte(null, hintAt + lv, (byte)AsyncBfs.HINT_UNKNOWN);
                    }
                }
                frontier += Long.bitCount(word);
                UnsafeApi.putLong(null, bitsAt + ((long)(w >>> 6) << 3), word);
            }
            final int worker = ctx.workerIndex();
            found.add(d, worker, CAP_FRONTIER, frontier);
            counters.add(d, worker, WorkerCounters.VISITED, frontier);
        });
    }

    /** One bottom-up step on device {@code d}: frontier at {@code level} in bits[current], next in the other. */
    private KernelLaunch step(final int d, final int level) {
        final int owned = partition.size(d);
        if (owned == 0) {
            return null;
        }
        final int next = level + 1;
        final byte nextHint = (byte)Math.min(next, AsyncBfs.HINT_UNKNOWN);
        final long depthAt = depth.address(d);
        final long hintAt = hint.address(d);
        final long offsetsAt = view.offsets().address(d);
        final long targetsAt = view.targets().address(d);
        final long nextAt = rawBits[current ^ 1].address(d);
        final long[] frontierAt = rawBits[current].addresses();
        final int[] bounds = view.owners().bounds();
        return mesh.device(d).launch((owned + SCAN_PER_BLOCK - 1) / SCAN_PER_BLOCK, (ctx, block) -> {
            final int from = block * SCAN_PER_BLOCK;
            final int to = Math.min(owned, from + SCAN_PER_BLOCK);
            long edges = 0;
            long count = 0;
            for (int w = from; w < to; w += 64) {
                long word = 0;
                for (int lv = w, end = Math.min(to, w + 64); lv < end; lv++) {
                    if (UnsafeApi.getInt(null, depthAt + ((long)lv << 2)) != INF) {
                        continue;
                    }
                    final long oi = offsetsAt + ((long)lv << 3);
                    final long begin = UnsafeApi.getLong(null, oi);
                    final long stop = UnsafeApi.getLong(null, oi + 8);
                    long e = begin;
                    while (e < stop) {
                        final int u = UnsafeApi.getInt(null, targetsAt + (e++ << 2));
                        final int o = Owners.of(bounds, u);
                        final int lu = u - bounds[o];
                        if ((UnsafeApi.getLong(null, frontierAt[o] + ((long)(lu >>> 6) << 3)) & (1L << lu)) != 0) {
                            UnsafeApi.putInt(null, depthAt + ((long)lv << 2), next);
                            UnsafeApi.putByte(null, hintAt + lv, nextHint);
                            word |= 1L << lv;
                            count++;
                            break;
                        }
                    }
                    edges += e - begin;
                }
                UnsafeApi.putLong(null, nextAt + ((long)(w >>> 6) << 3), word);
            }
            final int worker = ctx.workerIndex();
            found.add(d, worker, FOUND, count);
            counters.add(d, worker, WorkerCounters.VISITED, count);
            counters.add(d, worker, WorkerCounters.EDGES, edges);
        });
    }

    /** Frees the bitmaps (collective across processes); idempotent. */
    @Override
    public void close() {
        state.close();
    }
}
