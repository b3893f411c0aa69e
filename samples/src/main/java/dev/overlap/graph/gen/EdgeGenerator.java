package dev.overlap.graph.gen;

import dev.overlap.graph.EdgeList;
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
}
