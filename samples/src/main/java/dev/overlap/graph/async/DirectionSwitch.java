package dev.overlap.graph.async;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * When the async BFS stops pushing top-down (Beamer's {@code m_f > m_u / alpha} rule, without levels). Workers
 * report every vertex they discover (lower from unreached) with its depth and degree; per depth the switch adds up
 * the discovered vertices and their edges (the frontier of that depth, {@code n_f} and {@code m_f}). As soon as the
 * edges of a depth {@code L} exceed the edges of the vertices not discovered at depth {@code <= L} divided by
 * {@code alpha}, and also {@code n / beta}, the switch sets the <em>cap</em> to {@code L}: the BFS no longer expands
 * vertices of depth {@code L} or more, so the top-down phase ends once every vertex of depth below {@code L} has
 * been expanded, and bottom-up steps continue from the frontier at depth {@code L}. The second bound keeps the tail
 * of a long, thin BFS (a mesh: little left to explore, but tiny frontiers) from switching: a bottom-up step scans
 * every owned vertex, which a frontier with fewer edges than {@code n / beta} does not pay for.
 *
 * <p>The figures are estimates: out of order a vertex may be counted at a depth it only had for a while. That only
 * moves the switch; the depths stay exact (see {@link AsyncBfs}). A worker adds to its own row (plain writes) and
 * publishes a depth's sums to the shared counters once they reach {@value #FLUSH} edges, so the shared counters see
 * one atomic per thousands of edges; the cap is lowered with a CAS and read (volatile) once per task.
 *
 * <p>Thread-safety: {@link #discovered} is called by worker {@code (device, worker)} for its own row only;
 * {@link #cap()} by anyone; {@link #reset} and {@link #release} by the host between worklist runs (a run's launch
 * orders them before the workers' reads).
 */
final class DirectionSwitch {
    /** The cap when none is set: every depth is expanded. */
    static final int NO_CAP = Integer.MAX_VALUE;
    /** Depths the switch watches; deeper discoveries never switch (long, thin BFS trees). */
    static final int LEVELS = 64;
    static final int ALPHA = 15;
    static final int BETA = 18;
    /** Edges a worker sums per depth before it publishes them. */
    static final int FLUSH = 4096;
    /** Longs of padding before and after a worker's row, so two workers' rows never share a cache line. */
    private static final int PAD = 16;

    private final long[][][] rows;
    private final AtomicLongArray shared = new AtomicLongArray(2 * LEVELS);
    private final AtomicInteger cap = new AtomicInteger(NO_CAP);
    private final long edges;
    private final long minFrontierEdges;
    private boolean counting;

    /**
     * @param devices  devices
     * @param workers  workers per device
     * @param vertices vertices of the graph ({@code n})
     * @param edges    edges of the graph ({@code m}, directed slots)
     */
    DirectionSwitch(final int devices, final int workers, final int vertices, final long edges) {
        this.rows = new long[devices][workers][PAD + 2 * LEVELS + PAD];
        this.edges = edges;
        this.minFrontierEdges = Math.max(1, vertices / BETA);
    }

    /** Zeroes the sums and removes the cap; host only, between runs. */
    void reset() {
        for (final long[][] device : rows) {
            for (final long[] row : device) {
                java.util.Arrays.fill(row, 0L);
            }
        }
        for (int i = 0; i < shared.length(); i++) {
            shared.set(i, 0L);
        }
        cap.set(NO_CAP);
        counting = true;
    }

    /** Removes the cap and stops counting (the top-down tail after the bottom-up steps); host only. */
    void release() {
        cap.set(NO_CAP);
        counting = false;
    }

    /** @return whether workers should report discoveries */
    boolean counting() {
        return counting;
    }

    /** @return the depth from which vertices are no longer expanded ({@link #NO_CAP}: none) */
    int cap() {
        return cap.get();
    }

    /**
     * Worker {@code (device, worker)} discovered a vertex at {@code depth} with {@code degree} out-edges.
     */
    void discovered(final int device, final int worker, final int depth, final int degree) {
        if (depth >= LEVELS) {
            return;
        }
        final long[] row = rows[device][worker];
        final int i = PAD + 2 * depth;
        final long volume = row[i] + degree;
        final long count = row[i + 1] + 1;
        if (volume < FLUSH) {
            row[i] = volume;
            row[i + 1] = count;
            return;
        }
        row[i] = 0;
        row[i + 1] = 0;
        publish(depth, volume, count);
    }

    private void publish(final int depth, final long volume, final long count) {
        final long frontierEdges = shared.addAndGet(2 * depth, volume);
        shared.addAndGet(2 * depth + 1, count);
        if (frontierEdges < minFrontierEdges || depth >= cap.get()) {
            return;
        }
        long explored = 0;
        for (int k = 0; k <= depth; k++) {
            explored += shared.get(2 * k);
        }
        if (frontierEdges * ALPHA > edges - explored) {
            int c = cap.get();
            while (depth < c && !cap.compareAndSet(c, depth)) {
                c = cap.get();
            }
        }
    }
}
