package dev.overlap.graph.async;

import dev.overlap.graph.app.DirectionRule;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.UnsafeBuffer;

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
 * <p><b>Shared words.</b> The per-depth sums and the cap are words in a buffer ({@link #BYTES}): device memory every
 * process of a mesh maps at the same place (a symmetric allocation, the copy of one device), so the workers of every
 * rank add to the same sums and obey the same cap, with the same atomics as in one process ({@code getAndAddLong},
 * volatile reads, {@code compareAndSetInt}); the rows stay in each process's heap (one per worker it runs). Every
 * rank's host calls {@link #reset} and {@link #release} at the same points, writing the same values, while no worker
 * of any rank runs (the next worklist run starts with a barrier of every rank, which publishes them); every rank
 * reads the {@link #cap()} that decides the bottom-up phase after the run, before any rank can release it.
 *
 * <p>Thread-safety: {@link #discovered} is called by worker {@code (device, worker)} for its own row only;
 * {@link #cap()} by anyone; {@link #reset} and {@link #release} by the host between worklist runs (a run's launch,
 * or across processes its start barrier, orders them before the workers' reads).
 */
final class DirectionSwitch {
    /** The cap when none is set: every depth is expanded. */
    static final int NO_CAP = Integer.MAX_VALUE;
    /** Depths the switch watches; deeper discoveries never switch (long, thin BFS trees). */
    static final int LEVELS = 64;
    static final int ALPHA = DirectionRule.ALPHA;
    static final int BETA = DirectionRule.BETA;
    /** Edges a worker sums per depth before it publishes them. */
    static final int FLUSH = 4096;
    /** Longs of padding before and after a worker's row, so two workers' rows never share a cache line. */
    private static final int PAD = 16;
    /** Byte index of the cap: after the sums ({@code edges, vertices} per depth), on a cache line of its own. */
    private static final int CAP = 2 * LEVELS * 8 + 64;
    /** Bytes of the shared words: the sums and the cap. */
    static final int BYTES = CAP + 64;

    private final long[][][] rows;
    /** The per-depth sums (long {@code 2k}: edges, {@code 2k+1}: vertices) and the cap, shared by every rank. */
    private final AtomicBuffer shared;
    private final long edges;
    private final long minFrontierEdges;
    private boolean counting;

    /**
     * A switch whose shared words are on this process's heap (one process; tests).
     *
     * @param devices  devices
     * @param workers  workers per device
     * @param vertices vertices of the graph ({@code n})
     * @param edges    edges of the graph ({@code m}, directed slots)
     */
    DirectionSwitch(final int devices, final int workers, final int vertices, final long edges) {
        this(devices, workers, vertices, edges, new UnsafeBuffer(new byte[BYTES]));
    }

    /**
     * @param workers workers per device of this process
     * @param shared  {@link #BYTES} bytes, 8-byte aligned, that every process of the mesh maps as the same memory
     *                (or any memory in one process); {@link #reset} initialises them
     */
    DirectionSwitch(final int devices, final int workers, final int vertices, final long edges,
        final AtomicBuffer shared) {
        if (shared.capacity() < BYTES) {
            throw new IllegalArgumentException("the switch's shared words need " + BYTES + " bytes, got "
                + shared.capacity());
        }
        this.rows = new long[devices][workers][PAD + 2 * LEVELS + PAD];
        this.shared = shared;
        this.edges = edges;
        this.minFrontierEdges = Math.max(1, vertices / BETA);
        shared.putIntVolatile(CAP, NO_CAP);
    }

    /** Zeroes the sums and removes the cap; host only, between runs (every rank alike, see the class comment). */
    void reset() {
        for (final long[][] device : rows) {
            for (final long[] row : device) {
                java.util.Arrays.fill(row, 0L);
            }
        }
        for (int i = 0; i < 2 * LEVELS; i++) {
            shared.putLongVolatile(i << 3, 0L);
        }
        shared.putIntVolatile(CAP, NO_CAP);
        counting = true;
    }

    /**
     * Removes the cap and stops counting (the top-down tail after the bottom-up steps); host only, every rank alike,
     * after every rank read the cap.
     */
    void release() {
        shared.putIntVolatile(CAP, NO_CAP);
        counting = false;
    }

    /** @return whether workers should report discoveries */
    boolean counting() {
        return counting;
    }

    /** @return the depth from which vertices are no longer expanded ({@link #NO_CAP}: none) */
    int cap() {
        return shared.getIntVolatile(CAP);
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
        final int at = (2 * depth) << 3;
        final long frontierEdges = shared.getAndAddLong(at, volume) + volume;
        shared.getAndAddLong(at + 8, count);
        if (frontierEdges < minFrontierEdges || depth >= cap()) {
            return;
        }
        long explored = 0;
        for (int k = 0; k <= depth; k++) {
            explored += shared.getLongVolatile((2 * k) << 3);
        }
        if (frontierEdges * ALPHA > edges - explored) {
            int c = cap();
            while (depth < c && !shared.compareAndSetInt(CAP, c, depth)) {
                c = cap();
            }
        }
    }
}
