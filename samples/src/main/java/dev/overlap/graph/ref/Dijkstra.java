package dev.overlap.graph.ref;

import dev.overlap.graph.Csr;

/**
 * Dijkstra's algorithm with an indexed binary heap (decrease-key, no allocation per edge): the SSSP reference.
 * Distances are {@code long} sums of {@code int} weights; unweighted graphs use weight 1. Weights must be
 * non-negative. Stateless; thread-safe.
 */
public final class Dijkstra {
    /** Distance of an unreachable vertex. */
    public static final long UNREACHED = Long.MAX_VALUE;

    private Dijkstra() {
    }

    /**
     * @return the shortest distance from {@code source} to every vertex ({@link #UNREACHED} if unreachable)
     * @throws IllegalArgumentException if an edge has a negative weight
     */
    public static long[] distances(final Csr g, final int source) {
        final int n = g.vertexCount();
        if (source < 0 || source >= n) {
            throw new IllegalArgumentException("source " + source + " is outside 0.." + (n - 1));
        }
        final long[] dist = new long[n];
        java.util.Arrays.fill(dist, UNREACHED);
        final int[] heap = new int[n];
        final int[] pos = new int[n];
        java.util.Arrays.fill(pos, -1);
        int size = 0;
        dist[source] = 0;
        heap[size] = source;
        pos[source] = size++;
        while (size > 0) {
            final int u = heap[0];
            pos[u] = -2;
            size--;
            if (size > 0) {
                final int last = heap[size];
                heap[0] = last;
                pos[last] = 0;
                siftDown(heap, pos, dist, size, 0);
            }
            final long du = dist[u];
            for (long e = g.edgeStart(u), end = g.edgeEnd(u); e < end; e++) {
                final int w = g.weight(e);
                if (w < 0) {
                    throw new IllegalArgumentException("edge " + u + " -> " + g.target(e) + " has negative weight " + w
                        + ": shortest paths need weights >= 0");
                }
                final int v = g.target(e);
                final long nd = du + w;
                if (nd < dist[v]) {
                    dist[v] = nd;
                    if (pos[v] == -1) {
                        heap[size] = v;
                        pos[v] = size;
                        siftUp(heap, pos, dist, size++);
                    } else if (pos[v] >= 0) {
                        siftUp(heap, pos, dist, pos[v]);
                    }
                }
            }
        }
        return dist;
    }

    private static void siftUp(final int[] heap, final int[] pos, final long[] dist, int i) {
        final int v = heap[i];
        final long d = dist[v];
        while (i > 0) {
            final int parent = (i - 1) >>> 1;
            final int p = heap[parent];
            if (dist[p] <= d) {
                break;
            }
            heap[i] = p;
            pos[p] = i;
            i = parent;
        }
        heap[i] = v;
        pos[v] = i;
    }

    private static void siftDown(final int[] heap, final int[] pos, final long[] dist, final int size, int i) {
        final int v = heap[i];
        final long d = dist[v];
        while (true) {
            int child = 2 * i + 1;
            if (child >= size) {
                break;
            }
            if (child + 1 < size && dist[heap[child + 1]] < dist[heap[child]]) {
                child++;
            }
            final int c = heap[child];
            if (dist[c] >= d) {
                break;
            }
            heap[i] = c;
            pos[c] = i;
            i = child;
        }
        heap[i] = v;
        pos[v] = i;
    }
}
