package dev.overlap.graph.answer;

import java.util.Objects;

/**
 * One app's answer, one value per vertex (per unknown for Jacobi), as {@link AnswerWriter} writes it and
 * {@link AnswerReader} reads it back: BFS depths ({@code -1} unreached), SSSP distances ({@link #UNREACHED} in
 * memory, {@code -1} in files), PageRank ranks or the Jacobi solution, and the source vertex of a traversal.
 *
 * <p>The arrays are handed over, not copied (an answer can be most of the heap): the caller must not modify an
 * array after giving it here, and the accessors return the array itself. Immutable under that rule; thread-safe
 * once published.
 */
public final class Answer {
    /** An unreached vertex's SSSP distance in memory (as {@code Dijkstra.UNREACHED}); files write {@code -1}. */
    public static final long UNREACHED = Long.MAX_VALUE;

    /** {@link #source()} of an answer without a source (PageRank, Jacobi). */
    public static final int NO_SOURCE = -1;

    private final AnswerKind kind;
    private final int[] ints;
    private final long[] longs;
    private final double[] doubles;
    private final int source;
    private final int size;

    private Answer(final AnswerKind kind, final int[] ints, final long[] longs, final double[] doubles,
        final int source) {
        this.kind = kind;
        this.ints = ints;
        this.longs = longs;
        this.doubles = doubles;
        this.size = ints != null ? ints.length : longs != null ? longs.length : doubles.length;
        if (kind.traversal() ? source < 0 || source >= size : source != NO_SOURCE) {
            throw new IllegalArgumentException(kind.traversal() ? "source " + source + " is outside 0.." + (size - 1)
                : kind.app() + " answers have no source, was " + source);
        }
        this.source = source;
    }

    /**
     * @param depths BFS depth per vertex, {@code -1} when unreached
     * @param source the source vertex
     * @return the answer
     * @throws IllegalArgumentException for a depth below {@code -1} or a source outside the vertices
     */
    public static Answer depths(final int[] depths, final int source) {
        Objects.requireNonNull(depths, "depths");
        for (int v = 0; v < depths.length; v++) {
            if (depths[v] < -1) {
                throw new IllegalArgumentException("vertex " + v + " has depth " + depths[v] + ", below -1");
            }
        }
        return new Answer(AnswerKind.DEPTH, depths, null, null, source);
    }

    /**
     * @param distances SSSP distance per vertex, {@link #UNREACHED} when unreached
     * @param source    the source vertex
     * @return the answer
     * @throws IllegalArgumentException for a negative distance or a source outside the vertices
     */
    public static Answer distances(final long[] distances, final int source) {
        Objects.requireNonNull(distances, "distances");
        for (int v = 0; v < distances.length; v++) {
            if (distances[v] < 0) {
                throw new IllegalArgumentException("vertex " + v + " has distance " + distances[v] + ", below 0");
            }
        }
        return new Answer(AnswerKind.DISTANCE, null, distances, null, source);
    }

    /**
     * @param ranks PageRank rank per vertex
     * @return the answer
     */
    public static Answer ranks(final double[] ranks) {
        return new Answer(AnswerKind.RANK, null, null, Objects.requireNonNull(ranks, "ranks"), NO_SOURCE);
    }

    /**
     * @param x Jacobi solution per unknown
     * @return the answer
     */
    public static Answer solution(final double[] x) {
        return new Answer(AnswerKind.SOLUTION, null, null, Objects.requireNonNull(x, "x"), NO_SOURCE);
    }

    /** @return what it holds */
    public AnswerKind kind() {
        return kind;
    }

    /** @return vertices (unknowns for Jacobi) */
    public int size() {
        return size;
    }

    /** @return the source vertex of a traversal, {@link #NO_SOURCE} otherwise */
    public int source() {
        return source;
    }

    /** @return the BFS depths ({@code -1} unreached); do not modify */
    public int[] depths() {
        require(AnswerKind.DEPTH);
        return ints;
    }

    /** @return the SSSP distances ({@link #UNREACHED} unreached); do not modify */
    public long[] distances() {
        require(AnswerKind.DISTANCE);
        return longs;
    }

    /** @return the PageRank ranks; do not modify */
    public double[] ranks() {
        require(AnswerKind.RANK);
        return doubles;
    }

    /** @return the Jacobi solution; do not modify */
    public double[] solution() {
        require(AnswerKind.SOLUTION);
        return doubles;
    }

    /** @return vertex {@code v}'s value as written to a file: integer kinds with {@code -1} for unreached */
    long integer(final int v) {
        if (ints != null) {
            return ints[v];
        }
        return longs[v] == UNREACHED ? -1 : longs[v];
    }

    /** @return vertex {@code v}'s value of a floating-point kind */
    double real(final int v) {
        return doubles[v];
    }

    private void require(final AnswerKind k) {
        if (kind != k) {
            throw new IllegalStateException("a " + kind.app() + " answer holds " + kind.value() + " values, not "
                + k.value() + " values");
        }
    }

    @Override
    public String toString() {
        return kind.app() + " answer: " + size + " " + kind.value() + " values" + (source >= 0 ? ", source " + source
            : "");
    }
}
