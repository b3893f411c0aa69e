package dev.overlap.graph.bsp;

import dev.overlap.core.Device;
import dev.overlap.core.IntArray;
import dev.overlap.core.Mesh;
import dev.overlap.core.SymmetricArray;
import dev.overlap.core.World;
import dev.overlap.graph.app.WorkerCounters;
import dev.overlap.graph.partition.Partition;
import dev.overlap.graph.partition.RawArrays;

import java.util.ArrayList;
import java.util.List;

/**
 * Double-buffered per-device frontiers for level-synchronous (BSP) apps, filled by pushes from any device.
 *
 * <p>Each device owns a current and a next frontier (local vertex indices) and next-frontier counters, all in its
 * own memory. A worker pushes into a small staging buffer per destination device (in its own device's memory);
 * a full buffer, and every buffer at the end of a block, is flushed as one message: a remote {@code getAndAdd} on
 * the destination's counter reserves the slots, then one bulk copy puts the entries there (a one-sided put, like an
 * RDMA write). {@link #advance} (host, between supersteps) swaps current and next and reads the new sizes.
 *
 * <p><b>Across processes.</b> The frontiers and counters are symmetric allocations, so a push reaches a device of
 * another process as it reaches one of this process; the staging buffers are local to the pushing device, made only
 * for this process's devices. Building and closing the exchange are collective. {@link #advance} is the superstep's
 * barrier: every rank meets the others there (adding up the caller's values in the same step, see
 * {@link dev.overlap.core.World#allReduceSum(long[])}), then reads every device's counter, so every rank knows every
 * frontier's size and takes the same decisions. With one barrier per superstep a counter cannot be reset by its
 * owner right after it was read (a slower rank may still be reading it) nor right before the next superstep (a
 * faster rank may already push into it): superstep {@code k} counts in counter {@code k mod 3}, and the owner resets
 * counter {@code (k + 1) mod 3} before it meets the others at the end of superstep {@code k}, when every rank has
 * read it (after the barrier of superstep {@code k - 2}) and nobody pushes into it yet (not before that barrier).
 * In one process the barrier costs nothing.
 *
 * <p>Capacity: an app must push each vertex at most once per superstep (BFS: once ever; SSSP: guarded by a
 * per-round tag), so a device's frontier never exceeds the vertices it owns.
 *
 * <p>Thread-safety: {@link #push}/{@link #flush} from kernel blocks, each worker using only its own staging row
 * (its {@code workerIndex}); counters are atomics; {@link #advance}, {@link #size(int)} and {@link #seed} only
 * from the host between supersteps, after joining every launch of this process (the join orders all pushes before
 * them; across processes, the barrier in {@code advance} orders the other processes' pushes).
 */
final class FrontierExchange implements AutoCloseable {
    /** Entries per staging buffer (4 KiB messages). */
    static final int STAGE = 1024;
    /** Fill counts of a worker start this many ints into their row, so rows of workers never share a cache line. */
    private static final int PAD = 16;
    /** Ints from one next-frontier counter of a device to the next (a cache line each). */
    private static final int COUNTER_STRIDE = 16;
    /** Counters per device, used in turn by the supersteps (see the class comment). */
    private static final int COUNTERS = 3;

    private final Mesh mesh;
    private final World world;
    private final int devices;
    private final int[] lo;
    private final List<SymmetricArray<IntArray>> storage = new ArrayList<>(3);
    private final IntArray[][] frontiers;
    /** {@link #frontiers} as raw views, for kernels that read the current frontier by address. */
    private final RawArrays[] rawFrontiers = new RawArrays[2];
    private final IntArray[] counters;
    private final IntArray[][][] staging;
    private final int[][][] staged;
    private final int[] sizes;
    /** Entries per staging buffer of this exchange. */
    private final int stage;
    private int current;
    /** The counter this superstep's pushes reserve slots with (an int index; kernels read it after the launch). */
    private int counter;

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
        this.world = mesh.world();
        this.stage = stage;
        this.devices = p.devices();
        this.lo = p.bounds();
        final int workers = WorkerCounters.workersPerDevice(mesh);
        this.frontiers = new IntArray[2][devices];
        this.counters = new IntArray[devices];
        this.staging = new IntArray[devices][][];
        this.staged = new int[devices][workers][devices + 2 * PAD];
        this.sizes = new int[devices];
        int cap = 1;
        for (int d = 0; d < devices; d++) {
            cap = Math.max(cap, p.size(d));
        }
        try {
            final SymmetricArray<IntArray> f0 = keep(mesh.allocateInts(cap));
            final SymmetricArray<IntArray> f1 = keep(mesh.allocateInts(cap));
            final SymmetricArray<IntArray> c = keep(mesh.allocateInts(COUNTERS * COUNTER_STRIDE));
            for (int d = 0; d < devices; d++) {
                frontiers[0][d] = f0.on(d);
                frontiers[1][d] = f1.on(d);
                counters[d] = c.on(d);
                if (world.isLocal(d)) {
                    final Device dev = mesh.device(d);
                    staging[d] = new IntArray[workers][devices];
                    for (int w = 0; w < workers; w++) {
                        for (int t = 0; t < devices; t++) {
                            staging[d][w][t] = dev.allocateInts(stage);
                        }
                    }
                }
            }
            rawFrontiers[0] = RawArrays.of(frontiers[0]);
            rawFrontiers[1] = RawArrays.of(frontiers[1]);
        } catch (final RuntimeException | Error e) {
            close();
            throw e;
        }
    }

    private SymmetricArray<IntArray> keep(final SymmetricArray<IntArray> array) {
        storage.add(array);
        return array;
    }

    /** @return device bytes per device for {@code workers} workers, {@code devices} devices, {@code owned} vertices */
    static long bytesPerDevice(final int owned, final int devices, final int workers) {
        return 2 * (Math.max(1L, owned) * 4 + 64) + 256 + (long)workers * devices * (STAGE * 4L + 64);
    }

    /** @return the current frontier of device {@code d} (local indices; valid up to {@link #size(int)}) */
    IntArray current(final int d) {
        return frontiers[current][d];
    }

    /**
     * @return the raw address of entry 0 of device {@code d}'s current frontier (see {@link RawArrays}; valid until
     *         the exchange is closed, the entries up to {@link #size(int)} until the next {@link #advance})
     */
    long currentAddress(final int d) {
        return rawFrontiers[current].address(d);
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

    /**
     * Host only, on every rank: makes {@code localIndex} the single entry of device {@code d}'s current frontier
     * (written by the rank that owns {@code d}; the barrier of the caller's first superstep publishes it).
     */
    void seed(final int d, final int localIndex) {
        if (world.isLocal(d)) {
            frontiers[current][d].set(0, localIndex);
        }
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
        final int slot = counters[dest].getAndAdd(counter, count);
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

    /** As {@link #advance(long[])} with nothing to add up. */
    long advance() {
        return advance(null);
    }

    /**
     * Host, after joining this process's launches of the superstep: meets the other ranks (the superstep's barrier;
     * across processes collective), then next becomes current with every device's new size.
     *
     * @param sums values to add up over the ranks in the same step (replaced by the sums), or null
     * @return total new size, over every device
     * @throws dev.overlap.core.PeerFailedException if a rank fails meanwhile
     */
    long advance(final long[] sums) {
        final int following = (counter + COUNTER_STRIDE) % (COUNTERS * COUNTER_STRIDE);
        for (int d = world.firstLocalDevice(), end = d + world.localDeviceCount(); d < end; d++) {
            counters[d].setVolatile(following, 0);
        }
        if (sums != null) {
            world.allReduceSum(sums);
        } else {
            world.barrier();
        }
        long total = 0;
        for (int d = 0; d < devices; d++) {
            sizes[d] = counters[d].getVolatile(counter);
            total += sizes[d];
        }
        counter = following;
        current ^= 1;
        return total;
    }

    /** @return the first internal id of device {@code d} */
    int lo(final int d) {
        return lo[d];
    }

    /** Frees the staging buffers, then (collective across processes) the frontiers and counters. */
    @Override
    public void close() {
        if (mesh.isClosed()) {
            return;
        }
        for (int d = 0; d < devices; d++) {
            if (staging[d] != null) {
                for (final IntArray[] row : staging[d]) {
                    for (final IntArray a : row) {
                        if (a != null) {
                            mesh.device(d).free(a);
                        }
                    }
                }
                staging[d] = null;
            }
        }
        for (int i = storage.size() - 1; i >= 0; i--) {
            storage.get(i).close();
        }
        storage.clear();
    }
}
