package dev.overlap.graph.app;

/**
 * Per-worker event counters for kernels: each worker of each device owns a padded row of longs, updated with plain
 * writes by that worker only (once per block, from locals), and summed by the host after joining the launches
 * (the join orders the writes before the sums). No sharing, no atomics, no allocation on the hot path.
 *
 * <p>Thread-safety: row {@code (device, worker)} is confined to that worker while kernels run; {@link #sum} only
 * after every launch that wrote has been joined.
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
