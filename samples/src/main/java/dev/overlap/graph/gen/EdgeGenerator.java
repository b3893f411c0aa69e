package dev.overlap.graph.gen;

import dev.overlap.graph.EdgeList;
import dev.overlap.graph.EdgeStream;
import dev.overlap.graph.Progress;

/**
 * A synthetic graph generator: produces the edge list of one undirected graph (each edge once), deterministic by
 * seed. {@link GraphSpec} turns it into a cleaned {@link dev.overlap.graph.CsrGraph}.
 */
public interface EdgeGenerator {
    /** @return vertices of the generated graph */
    int vertexCount();

    /** @return edges generated (before symmetrizing and cleaning) */
    long edgeCount();

    /**
     * @param seed      the seed; equal seeds give equal lists
     * @param maxWeight weights uniform in {@code 1..maxWeight}; 0 for an unweighted list
     * @param progress  progress reporting
     * @return the edges
     */
    EdgeList generate(long seed, int maxWeight, Progress progress);

    /**
     * The same edges as {@link #generate}, in the same order, as a stream {@link dev.overlap.graph.GraphBuilder}
     * reads twice. This default generates the list once and holds it; a generator that can regenerate its edges
     * batch by batch (deterministic per seed) overrides it so the whole list never exists beside the CSR.
     *
     * @param seed      the seed; equal seeds give equal edges
     * @param maxWeight weights uniform in {@code 1..maxWeight}; 0 for unweighted edges
     * @param progress  progress reporting
     * @return the edges, readable in repeated passes
     */
    default EdgeStream stream(final long seed, final int maxWeight, final Progress progress) {
        return EdgeStream.of(generate(seed, maxWeight, progress));
    }
}
