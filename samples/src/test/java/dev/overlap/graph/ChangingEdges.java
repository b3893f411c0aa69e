package dev.overlap.graph;

import java.util.function.Consumer;

/**
 * A stream of edges whose first pass and later passes differ (a file rewritten between a build's passes): for the
 * builders' refusals. Not thread-safe; one build's.
 */
public final class ChangingEdges implements EdgeStream {
    private final EdgeList first;
    private final EdgeList later;
    private int passes;

    private ChangingEdges(final EdgeList first, final EdgeList later) {
        this.first = first;
        this.later = later;
    }

    /**
     * @param first the first pass's edges
     * @param later every later pass's edges (unweighted both, like {@code first})
     * @return the stream (size unknown)
     */
    public static EdgeStream of(final EdgeList first, final EdgeList later) {
        return new ChangingEdges(first, later);
    }

    /** @return an unweighted list of the edges {@code u0 v0 u1 v1 ...} */
    public static EdgeList edges(final int... ends) {
        final EdgeList l = new EdgeList(ends.length / 2, false);
        for (int i = 0; i + 1 < ends.length; i += 2) {
            l.add(ends[i], ends[i + 1]);
        }
        return l;
    }

    @Override
    public boolean isWeighted() {
        return false;
    }

    @Override
    public long size() {
        return -1;
    }

    @Override
    public void forEachBatch(final Consumer<EdgeList> batch) {
        batch.accept(passes++ == 0 ? first : later);
    }
}
