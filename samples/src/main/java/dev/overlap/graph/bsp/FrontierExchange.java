package dev.overlap.graph.bsp;

import dev.overlap.core.Device;
import dev.overlap.core.IntArray;
import dev.overlap.core.Mesh;
import dev.overlap.graph.app.WorkerCounters;
import dev.overlap.graph.partition.Partition;

/**
 * Double-buffered per-device frontiers for level-synchronous (BSP) apps, filled by pushes from any device.
 *
 * <p>Each device owns a current and a next frontier (local vertex indices) and a next-frontier counter, all in its
 * own memory. A worker pushes into a small staging buffer per destination device (in its own device's memory);
 * a full buffer, and every buffer at the end of a block, is flushed as one message: a remote {@code getAndAdd} on
 * the destination's counter reserves the slots, then one bulk copy puts the entries there (a one-sided put, like an
 * RDMA write). {@link #advance()} (host, between supersteps) swaps current and next and resets the counters.
 *
 * <p>Capacity: an app must push each vertex at most once per superstep (BFS: once ever; Bellman-Ford: guarded by a
 * per-round tag), so a device's frontier never exceeds the vertices it owns.
 *
 * <p>Thread-safety: {@link #push}/{@link #flush} from kernel blocks, each worker using only its own staging row
 * (its {@code workerIndex}); counters are atomics; {@link #advance()}, {@link #size(int)} and {@link #seed} only
 * from the host between supersteps, after joining every launch (the join orders all pushes before them).
 */
final class FrontierExchange implements AutoCloseable {
    /** Entries per staging buffer (4 KiB messages). */
    static final int STAGE = 1024;
    /** Fill counts of a worker start this many ints into their row, so rows of workers never share a cache line. */
    private static final int PAD = 16;

    private final Mesh mesh;
    private final int devices;
    private final int[] lo;
    private final IntArray[][] frontiers;
    private final IntArray[] counters;
    private final IntArray[][][] staging;
    private final int[][][] staged;
    private final int[] sizes;
    /** Entries per staging buffer of this exchange. */
    private final int stage;
    private int current;

    FrontierExchange(final Mesh mesh, final Partition p) {
        this(mesh, p, STAGE);
    }

    /**
     * @param stage entries per staging buffer (a full buffer is flushed): {@link #STAGE} in the apps; jcstress uses a
     *              tiny one so that thousands of exchanges fit in device memory and a few pushes fill a buffer
     */
    FrontierExchange(final Mesh mesh, final Partition p, final int stage) {
        if (stage < 1) {
            throw new IllegalArgumentException("stage must be at least 1, was " + stage);
        }
        this.mesh = mesh;
        this.stage = stage;
        this.devices = p.devices();
        this.lo = p.bounds();
        final int workers = mesh.device(0).workerCount();
        this.frontiers = new IntArray[2][devices];
        this.counters = new IntArray[devices];
        this.staging = new IntArray[devices][workers][devices];
        this.staged = new int[devices][workers][devices + 2 * PAD];
        this.sizes = new int[devices];
        for (int d = 0; d < devices; d++) {
            final Device dev = mesh.device(d);
            final int cap = Math.max(1, p.size(d));
            frontiers[0][d] = dev.allocateInts(cap);
            frontiers[1][d] = dev.allocateInts(cap);
            counters[d] = dev.allocateInts(16);
            for (int w = 0; w < workers; w++) {
                for (int t = 0; t < devices; t++) {
                    staging[d][w][t] = dev.allocateInts(stage);
                }
            }
        }
    }

    /** @return device bytes per device for {@code workers} workers, {@code devices} devices, {@code owned} vertices */
    static long bytesPerDevice(final int owned, final int devices, final int workers) {
        return 2 * (Math.max(1L, owned) * 4 + 64) + 128 + (long)workers * devices * (STAGE * 4L + 64);
    }

    /** @return the current frontier of device {@code d} (local indices; valid up to {@link #size(int)}) */
    IntArray current(final int d) {
        return frontiers[current][d];
    }

    /** @return entries in device {@code d}'s current frontier */
    int size(final int d) {
        return sizes[d];
    }

    /** @return entries in every current frontier */
    long totalSize() {
        long s = 0;
        for (final int x : sizes) {
            s += x;
        }
        return s;
    }

    /** Host only: makes {@code localIndex} the single entry of device {@code d}'s current frontier. */
    void seed(final int d, final int localIndex) {
        frontiers[current][d].set(0, localIndex);
        sizes[d] = 1;
    }

    /**
     * Kernel: stages local vertex {@code localIndex} of device {@code dest} for its next frontier; flushes the
     * buffer when full.
     */
    void push(final int device, final int worker, final int dest, final int localIndex, final WorkerCounters c) {
        final int[] fill = staged[device][worker];
        final int k = fill[PAD + dest];
        staging[device][worker][dest].set(k, localIndex);
        fill[PAD + dest] = k + 1;
        if (k + 1 == stage) {
            send(device, worker, dest, c);
        }
    }

    /** Kernel: sends every non-empty staging buffer of this worker (call at the end of each block). */
    void flush(final int device, final int worker, final WorkerCounters c) {
        final int[] fill = staged[device][worker];
        for (int t = 0; t < devices; t++) {
            if (fill[PAD + t] > 0) {
                send(device, worker, t, c);
            }
        }
    }

    private void send(final int device, final int worker, final int dest, final WorkerCounters c) {
        final int[] fill = staged[device][worker];
        final int count = fill[PAD + dest];
        final int slot = counters[dest].getAndAdd(0, count);
        final IntArray next = frontiers[current ^ 1][dest];
        if (slot + count > next.length()) {
            throw new IllegalStateException("dev" + dest + " next frontier overflow: " + (slot + count) + " > "
                + next.length() + " (a vertex was pushed twice in one superstep)");
        }
        mesh.copy(staging[device][worker][dest], 0, next, slot, count);
        fill[PAD + dest] = 0;
        if (dest == device) {
            c.add(device, worker, WorkerCounters.LOCAL_PUSHES, count);
        } else {
            c.add(device, worker, WorkerCounters.REMOTE_PUSHES, count);
            c.add(device, worker, WorkerCounters.MESSAGES, 1);
            c.add(device, worker, WorkerCounters.BYTES, count * 4L);
        }
    }

    /** Host, after joining the superstep: next becomes current, counters reset. @return total new size */
    long advance() {
        current ^= 1;
        long total = 0;
        for (int d = 0; d < devices; d++) {
            sizes[d] = counters[d].getVolatile(0);
            counters[d].setVolatile(0, 0);
            total += sizes[d];
        }
        return total;
    }

    /** @return the first internal id of device {@code d} */
    int lo(final int d) {
        return lo[d];
    }

    @Override
    public void close() {
        if (mesh.isClosed()) {
            return;
        }
        for (int d = 0; d < devices; d++) {
            final Device dev = mesh.device(d);
            dev.free(frontiers[0][d]);
            dev.free(frontiers[1][d]);
            dev.free(counters[d]);
            for (final IntArray[] row : staging[d]) {
                for (final IntArray a : row) {
                    dev.free(a);
                }
            }
        }
    }
}
