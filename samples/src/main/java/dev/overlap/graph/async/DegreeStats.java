package dev.overlap.graph.async;

import java.util.function.IntUnaryOperator;

/**
 * The degree figures PageRank's choices read: the degrees' sum, the vertices with one edge or more and the largest
 * degree. A run computes them once ({@link #of}) and hands the same value to the variant rule
 * ({@link PageRankVariant#resolve}) and to the pull variant's start rule ({@link AsyncPullPageRank#degreeStart}).
 * Immutable, so it may be shared between threads.
 *
 * @param sum       the degrees' sum
 * @param connected the vertices of degree 1 or more
 * @param max       the largest degree
 */
record DegreeStats(long sum, long connected, int max) {

    /**
     * @param degree   the degree of a vertex
     * @param vertices the vertex count
     * @return the figures of those degrees
     */
    static DegreeStats of(final IntUnaryOperator degree, final int vertices) {
        long sum = 0;
        long connected = 0;
        int max = 0;
        for (int v = 0; v < vertices; v++) {
            final int k = degree.applyAsInt(v);
            sum += k;
            connected += k > 0 ? 1 : 0;
            max = Math.max(max, k);
        }
        return new DegreeStats(sum, connected, max);
    }

    /** @return the figures of {@code degrees}, one per vertex */
    static DegreeStats of(final int[] degrees) {
        return of(v -> degrees[v], degrees.length);
    }

    /** @return the mean degree of the vertices of degree 1 or more; 0 when there are none */
    double mean() {
        return connected == 0 ? 0 : (double)sum / connected;
    }
}
