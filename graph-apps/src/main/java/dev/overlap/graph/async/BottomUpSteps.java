package dev.overlap.graph.async;

import dev.overlap.core.KernelLaunch;
import dev.overlap.core.LongArray;
import dev.overlap.core.Mesh;
import dev.overlap.graph.app.WorkerCounters;
import dev.overlap.graph.partition.GraphView;
import dev.overlap.graph.partition.Owners;
import dev.overlap.graph.partition.Partition;
import dev.overlap.graph.partition.RawArrays;
import org.agrona.concurrent.AtomicBuffer;

/**
 * The bottom-up middle of the hybrid async BFS (Beamer's direction-optimizing BFS; symmetric graphs only): after the
 * top-down phase stopped at the cap {@code L} of its {@link DirectionSwitch}, the depths at or below {@code L} are
 * exact and the vertices at {@code L} are the frontier. {@link #run} runs level-synchronous bottom-up steps on the
 * mesh: each device scans its own unreached vertices for a neighbour in the frontier, stopping at the first, and
 * writes the next frontier as a bitmap (one bit per owned vertex). The first step tests the neighbours' depths
 * (depths above {@code L}, left by expansions the cap cut short, count as unreached and are set back with their hints
 * when no parent turns up); later ones test the other devices' bitmaps directly (one-sided reads; written before the
 * previous barrier). It goes back to top-down when the frontier falls below {@code n / beta} vertices and shrinks
 * (the frontier is then seeded into the worklist) or ends when a step finds nothing.
 *
 * <p>One kernel per device and step; a block covers {@value #SCAN_PER_BLOCK} local vertices (a multiple of 64), so
 * it owns whole bitmap words and writes them without atomics. The depths and hints of a device's vertices are
 * written only by that device's blocks.
 *
 * <p>Thread-safety: host calls, one at a time, between worklist runs.
 */
final class BottomUpSteps implements AutoCloseable {
    private static final int SCAN_PER_BLOCK = 2048;
    private static final int INF = AsyncBfs.INF;
    private static final int FOUND = WorkerCounters.VISITED;
    private static final int CAP_FRONTIER = WorkerCounters.EDGES;

    private final Mesh mesh;
    private final GraphView view;
    private final Partition partition;
    private final RawArrays depth;
    private final RawArrays hint;
    private final WorkerCounters counters;
    /** Per step and worker: vertices found ({@link #FOUND}) and, in the first step, at the cap ({@link #CAP_FRONTIER}). */
    private final WorkerCounters found;
    private final LongArray[][] bits;
    private final RawArrays[] rawBits = new RawArrays[2];
    private final KernelLaunch[] launches;
    private int current;
    private long steps;

    /**
     * Allocates two bitmaps per device.
     *
     * @param counters the run's counters: the frontier the top-down phase left and the vertices bottom-up steps
     *                 reach count as {@code VISITED} (settled without a top-down expansion), the edges the steps scan
     *                 as {@code EDGES}
     */
    BottomUpSteps(final Mesh mesh, final GraphView view, final Partition partition, final RawArrays depth,
        final RawArrays hint, final WorkerCounters counters) {
        final int devices = partition.devices();
        this.mesh = mesh;
        this.view = view;
        this.partition = partition;
        this.depth = depth;
        this.hint = hint;
        this.counters = counters;
        this.found = new WorkerCounters(devices, mesh.device(0).workerCount());
        this.launches = new KernelLaunch[devices];
        this.bits = new LongArray[2][devices];
        try {
            for (int b = 0; b < 2; b++) {
                for (int d = 0; d < devices; d++) {
                    bits[b][d] = mesh.device(d).allocateLongs(words(partition.size(d)));
                }
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
        for (int d = 0; d < launches.length; d++) {
            launches[d] = firstStep(d, cap);
        }
        AsyncBfs.join(launches);
        steps++;
        long previous = found.sum(CAP_FRONTIER);
        long size = found.sum(FOUND);
        final long small = partition.vertexCount() / DirectionSwitch.BETA;
        int level = cap + 1;
        while (size > 0) {
            if (size < small && size < previous) {
                return level;
            }
            found.clear(FOUND);
            for (int d = 0; d < launches.length; d++) {
                launches[d] = step(d, level);
            }
            AsyncBfs.join(launches);
            steps++;
            current ^= 1;
            previous = size;
            size = found.sum(FOUND);
            level++;
        }
        return -1;
    }

    /** @return device {@code d}'s frontier bitmap (bit {@code i}: local vertex {@code i}) after {@link #run} */
    LongArray frontier(final int d) {
        return bits[current][d];
    }

    /**
     * The step from the top-down phase's frontier at {@code cap} into bits[0]. It tests neighbours on their owners'
     * depths ({@code == cap}) instead of a bitmap, which saves a pass and a barrier: the vertices at {@code cap} are
     * not written during the step, and what is written (the unreached, found or set back) is never {@code cap}.
     * Depths above {@code cap} are leftovers of cut-short expansions: unreached, set back when no parent is found.
     */
    private KernelLaunch firstStep(final int d, final int cap) {
        final int owned = partition.size(d);
        if (owned == 0) {
            return null;
        }
        final int next = cap + 1;
        final byte nextHint = (byte)Math.min(next, AsyncBfs.HINT_UNKNOWN);
        final AtomicBuffer db = depth.buffer(d);
        final int dBase = depth.base(d);
        final AtomicBuffer hb = hint.buffer(d);
        final int hBase = hint.base(d);
        final AtomicBuffer ob = view.offsets().buffer(d);
        final int oBase = view.offsets().base(d);
        final AtomicBuffer tb = view.targets().buffer(d);
        final int tBase = view.targets().base(d);
        final AtomicBuffer nb = rawBits[0].buffer(d);
        final int nBase = rawBits[0].base(d);
        final Owners owners = view.owners();
        final int devices = view.devices();
        final int[] lo = new int[devices];
        final AtomicBuffer[] ddb = new AtomicBuffer[devices];
        final int[] ddBase = new int[devices];
        for (int o = 0; o < devices; o++) {
            lo[o] = view.lo(o);
            ddb[o] = depth.buffer(o);
            ddBase[o] = depth.base(o);
        }
        return mesh.device(d).launch((owned + SCAN_PER_BLOCK - 1) / SCAN_PER_BLOCK, (ctx, block) -> {
            final int from = block * SCAN_PER_BLOCK;
            final int to = Math.min(owned, from + SCAN_PER_BLOCK);
            long edges = 0;
            long count = 0;
            long frontier = 0;
            for (int w = from; w < to; w += 64) {
                long word = 0;
                for (int lv = w, end = Math.min(to, w + 64); lv < end; lv++) {
                    final int x = db.getInt(dBase + (lv << 2));
                    if (x <= cap) {
                        frontier += x == cap ? 1 : 0;
                        continue;
                    }
                    final int oi = oBase + (lv << 3);
                    final int begin = (int)ob.getLong(oi);
                    final int stop = (int)ob.getLong(oi + 8);
                    int e = begin;
                    boolean hit = false;
                    while (e < stop) {
                        final int u = tb.getInt(tBase + (e++ << 2));
                        final int o = owners.of(u);
                        if (ddb[o].getInt(ddBase[o] + ((u - lo[o]) << 2)) == cap) {
                            hit = true;
                            break;
                        }
                    }
                    edges += e - begin;
                    if (hit) {
                        db.putInt(dBase + (lv << 2), next);
                        hb.putByte(hBase + lv, nextHint);
                        word |= 1L << lv;
                        count++;
                    } else if (x != INF) {
                        db.putInt(dBase + (lv << 2), INF);
                        hb.putByte(hBase + lv, (byte)AsyncBfs.HINT_UNKNOWN);
                    }
                }
                nb.putLong(nBase + ((w >>> 6) << 3), word);
            }
            final int worker = ctx.workerIndex();
            found.add(d, worker, FOUND, count);
            found.add(d, worker, CAP_FRONTIER, frontier);
            counters.add(d, worker, WorkerCounters.VISITED, count + frontier);
            counters.add(d, worker, WorkerCounters.EDGES, edges);
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
        final AtomicBuffer db = depth.buffer(d);
        final int dBase = depth.base(d);
        final AtomicBuffer hb = hint.buffer(d);
        final int hBase = hint.base(d);
        final AtomicBuffer ob = view.offsets().buffer(d);
        final int oBase = view.offsets().base(d);
        final AtomicBuffer tb = view.targets().buffer(d);
        final int tBase = view.targets().base(d);
        final RawArrays frontier = rawBits[current];
        final AtomicBuffer nb = rawBits[current ^ 1].buffer(d);
        final int nBase = rawBits[current ^ 1].base(d);
        final Owners owners = view.owners();
        final int devices = view.devices();
        final int[] lo = new int[devices];
        final AtomicBuffer[] fb = new AtomicBuffer[devices];
        final int[] fBase = new int[devices];
        for (int o = 0; o < devices; o++) {
            lo[o] = view.lo(o);
            fb[o] = frontier.buffer(o);
            fBase[o] = frontier.base(o);
        }
        return mesh.device(d).launch((owned + SCAN_PER_BLOCK - 1) / SCAN_PER_BLOCK, (ctx, block) -> {
            final int from = block * SCAN_PER_BLOCK;
            final int to = Math.min(owned, from + SCAN_PER_BLOCK);
            long edges = 0;
            long count = 0;
            for (int w = from; w < to; w += 64) {
                long word = 0;
                for (int lv = w, end = Math.min(to, w + 64); lv < end; lv++) {
                    if (db.getInt(dBase + (lv << 2)) != INF) {
                        continue;
                    }
                    final int oi = oBase + (lv << 3);
                    final int begin = (int)ob.getLong(oi);
                    final int stop = (int)ob.getLong(oi + 8);
                    int e = begin;
                    while (e < stop) {
                        final int u = tb.getInt(tBase + (e++ << 2));
                        final int o = owners.of(u);
                        final int lu = u - lo[o];
                        if ((fb[o].getLong(fBase[o] + ((lu >>> 6) << 3)) & (1L << lu)) != 0) {
                            db.putInt(dBase + (lv << 2), next);
                            hb.putByte(hBase + lv, nextHint);
                            word |= 1L << lv;
                            count++;
                            break;
                        }
                    }
                    edges += e - begin;
                }
                nb.putLong(nBase + ((w >>> 6) << 3), word);
            }
            final int worker = ctx.workerIndex();
            found.add(d, worker, FOUND, count);
            counters.add(d, worker, WorkerCounters.VISITED, count);
            counters.add(d, worker, WorkerCounters.EDGES, edges);
        });
    }

    /** Frees the bitmaps; idempotent. */
    @Override
    public void close() {
        if (mesh.isClosed()) {
            return;
        }
        for (final LongArray[] b : bits) {
            AsyncBfs.free(mesh, b);
        }
    }
}
