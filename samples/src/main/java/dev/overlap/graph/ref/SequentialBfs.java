package dev.overlap.graph.ref;

import dev.overlap.graph.Csr;

/**
 * Plain single-threaded BFS over a {@link Csr} with an array queue: the reference every parallel BFS is checked
 * against, and the "plain single-threaded Java CSR" speed baseline. Stateless; thread-safe.
 */
public final class SequentialBfs {
    /** Depth of a vertex the source does not reach. */
    public static final int UNREACHED = -1;

    private SequentialBfs() {
    }

    /**
     * @return depth of every vertex from {@code source} (0 for the source, {@link #UNREACHED} if unreachable)
     */
    public static int[] depths(final Csr g, final int source) {
        final int n = g.vertexCount();
        if (source < 0 || source >= n) {
            throw new IllegalArgumentException("source " + source + " is outside 0.." + (n - 1));
        }
        final int[] depth = new int[n];
        java.util.Arrays.fill(depth, UNREACHED);
        final int[] queue = new int[n];
        int head = 0;
        int tail = 0;
        depth[source] = 0;
        queue[tail++] = source;
        while (head < tail) {
            final int u = queue[head++];
            final int next = depth[u] + 1;
            for (long e = g.edgeStart(u), end = g.edgeEnd(u); e < end; e++) {
                final int v = g.target(e);
                if (depth[v] == UNREACHED) {
                    depth[v] = next;
                    queue[tail++] = v;
                }
            }
        }
        return depth;
    }
}
