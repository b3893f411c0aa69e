package dev.overlap.graph.io;

import dev.overlap.graph.EdgeList;

import java.util.function.Consumer;

/**
 * Collects parsed edges into one reusable {@link EdgeList} of {@link #BATCH} edges and hands it to a consumer each
 * time it is full (and at {@link #flush}): a pass over a file holds one batch, never the file's edges. No allocation
 * per edge. Not thread-safe; one pass's.
 */
final class EdgeBatches {
    /** Edges per batch: large enough that the consumer's per-batch work vanishes, small enough to stay in cache. */
    static final int BATCH = 1 << 16;

    private final EdgeList batch;
    private final Consumer<EdgeList> consumer;

    /**
     * @param weighted whether the batch keeps weights (a weighted file read without them drops each weight)
     * @param consumer receives each full batch; it must not keep it (the batch is cleared and refilled)
     */
    EdgeBatches(final boolean weighted, final Consumer<EdgeList> consumer) {
        this.batch = new EdgeList(BATCH, weighted);
        this.consumer = consumer;
    }

    /** Adds an edge (ids already validated), handing the batch over when it is full. */
    void add(final int source, final int target, final int weight) {
        batch.add(source, target, weight);
        if (batch.size() == BATCH) {
            flush();
        }
    }

    /** Hands over the edges added since the last hand-over, if any. */
    void flush() {
        if (batch.size() > 0) {
            consumer.accept(batch);
            batch.clear();
        }
    }
}
