package dev.overlap.graph;

import java.util.function.Consumer;

/**
 * Edges that {@link GraphBuilder} reads in passes, every pass delivering the same edges in the same order, batch
 * by batch: what lets the builder count degrees in one pass and scatter the edges in a second without ever holding
 * the whole edge list beside the CSR (a generator that is deterministic per seed regenerates its edges for the
 * second pass, see {@link dev.overlap.graph.gen.EdgeGenerator#stream}). A list already in memory is a stream of one
 * batch ({@link #of}).
 *
 * <p>Thread-safety: a pass runs on the calling thread (a generator may fill a batch in parallel before delivering
 * it); one pass at a time per instance.
 */
public interface EdgeStream {
    /** @return true when edges carry weights */
    boolean isWeighted();

    /** @return the number of edges one pass delivers, or -1 while unknown (a file before its first pass has ended) */
    long size();

    /**
     * Runs one pass: hands every edge, in the same order on every pass, to {@code batch} as a sequence of lists.
     * The consumer reads a list before it returns and keeps no reference to it (the stream may refill it).
     *
     * @param batch receives the batches in order, on the calling thread
     */
    void forEachBatch(Consumer<EdgeList> batch);

    /**
     * @param edges a list in memory
     * @return a stream delivering {@code edges} as its one batch on every pass
     */
    static EdgeStream of(final EdgeList edges) {
        return new EdgeStream() {
            @Override
            public boolean isWeighted() {
                return edges.isWeighted();
            }

            @Override
            public long size() {
                return edges.size();
            }

            @Override
            public void forEachBatch(final Consumer<EdgeList> batch) {
                batch.accept(edges);
            }
        };
    }
}
