package dev.overlap.graph.app;

/**
 * The answer of one graph app run, in original vertex ids, with its time and work counts. Exactly one of
 * {@link #depths()}, {@link #distances()}, {@link #ranks()} is non-null. Immutable after construction (the arrays
 * are handed over by the app and not modified afterwards); thread-safe once published.
 */
public final class AppResult {
    private final int[] depths;
    private final long[] distances;
    private final double[] ranks;
    private final long nanos;
    private final WorkCounts counts;

    private AppResult(final int[] depths, final long[] distances, final double[] ranks, final long nanos,
        final WorkCounts counts) {
        this.depths = depths;
        this.distances = distances;
        this.ranks = ranks;
        this.nanos = nanos;
        this.counts = counts;
    }

    /** @return a BFS result: depth per vertex, -1 when unreached */
    public static AppResult bfs(final int[] depths, final long nanos, final WorkCounts counts) {
        return new AppResult(depths, null, null, nanos, counts);
    }

    /** @return an SSSP result: distance per vertex, {@link Long#MAX_VALUE} when unreached */
    public static AppResult sssp(final long[] distances, final long nanos, final WorkCounts counts) {
        return new AppResult(null, distances, null, nanos, counts);
    }

    /** @return a PageRank result */
    public static AppResult pageRank(final double[] ranks, final long nanos, final WorkCounts counts) {
        return new AppResult(null, null, ranks, nanos, counts);
    }

    /** @return BFS depths or null */
    public int[] depths() {
        return depths;
    }

    /** @return SSSP distances or null */
    public long[] distances() {
        return distances;
    }

    /** @return PageRank ranks or null */
    public double[] ranks() {
        return ranks;
    }

    /** @return wall time of the algorithm (state initialisation and supersteps; not loading or placement) */
    public long nanos() {
        return nanos;
    }

    /** @return what the run did */
    public WorkCounts counts() {
        return counts;
    }
}
