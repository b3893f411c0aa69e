package dev.overlap.graph.app;

import dev.overlap.core.Mesh;
import dev.overlap.core.World;

/**
 * Per-worker event counters for kernels: each worker of each device owns a padded row of longs, updated with plain
 * writes by that worker only (once per block, from locals), and summed by the host after joining the launches
 * (the join orders the writes before the sums). No sharing, no atomics, no allocation on the hot path.
 *
 * <p>Thread-safety: row {@code (device, worker)} is confined to that worker while kernels run; {@link #sum} and
 * {@link #totals} only after every launch that wrote has been joined. Across processes each process counts its own
 * devices' workers; {@link #totals} adds the ranks up.
 */
public final class WorkerCounters {
    /** Vertex expansions. */
    public static final int VISITED = 0;
    /** Edges scanned. */
    public static final int EDGES = 1;
    /** Pushes to the own device. */
    public static final int LOCAL_PUSHES = 2;
    /** Pushes to other devices. */
    public static final int REMOTE_PUSHES = 3;
    /** Atomics on other devices' memory. */
    public static final int REMOTE_ATOMICS = 4;
    /** Batched transfers to other devices. */
    public static final int MESSAGES = 5;
    /** Payload bytes sent to other devices. */
    public static final int BYTES = 6;
    /** Sum of the degrees of newly discovered vertices (direction-optimizing BFS). */
    public static final int DISCOVERED_EDGES = 7;
    /** How many fields there are. */
    public static final int FIELDS = 8;
    private static final int STRIDE = 16;

    private final long[][] rows;
    private final int workers;

    /**
     * @param devices devices
     * @param workers workers per device
     */
    public WorkerCounters(final int devices, final int workers) {
        this.workers = workers;
        this.rows = new long[devices][(workers + 2) * STRIDE];
    }

    /**
     * @param mesh the mesh the kernels run on
     * @return counters for its devices, with as many rows per device as this process's devices have workers (a
     *         mesh across processes runs no worker for another process's devices)
     */
    public static WorkerCounters of(final Mesh mesh) {
        return new WorkerCounters(mesh.deviceCount(), workersPerDevice(mesh));
    }

    /** @return the workers of each of this process's devices (every device of a mesh has as many) */
    public static int workersPerDevice(final Mesh mesh) {
        return mesh.device(mesh.world().firstLocalDevice()).workerCount();
    }

    /**
     * Every field summed over this process's workers, then over every rank of {@code world}: collective across
     * processes (every rank calls it at the same point of a run, and it is a barrier); in one process the local
     * sums, at no extra cost.
     *
     * @return the totals, indexed by field ({@link #VISITED} ... {@link #DISCOVERED_EDGES})
     */
    public long[] totals(final World world) {
        final long[] t = new long[FIELDS];
        for (int f = 0; f < FIELDS; f++) {
            t[f] = sum(f);
        }
        world.allReduceSum(t);
        return t;
    }

    /** Adds {@code value} to counter {@code field} of worker {@code worker} on {@code device}. */
    public void add(final int device, final int worker, final int field, final long value) {
        rows[device][(worker + 1) * STRIDE + field] += value;
    }

    /** @return the sum of {@code field} over every worker of every device */
    public long sum(final int field) {
        long s = 0;
        for (final long[] row : rows) {
            for (int w = 0; w < workers; w++) {
                s += row[(w + 1) * STRIDE + field];
            }
        }
        return s;
    }

    /** Zeroes {@code field} everywhere (between launches). */
    public void clear(final int field) {
        for (final long[] row : rows) {
            for (int w = 0; w < workers; w++) {
                row[(w + 1) * STRIDE + field] = 0;
            }
        }
    }
}
