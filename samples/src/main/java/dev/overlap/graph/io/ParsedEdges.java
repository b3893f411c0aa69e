package dev.overlap.graph.io;

import dev.overlap.graph.EdgeList;

/** What a text parser read: the edges, the vertex count, and whether the format asks for reverse edges. */
final class ParsedEdges {
    final EdgeList edges;
    final int vertices;
    final boolean symmetricStorage;

    /**
     * @param edges            the edges as read
     * @param vertices         the number of vertices (declared by the file, or the largest id + 1)
     * @param symmetricStorage true when the file stores one triangle of a symmetric matrix (reverse edges needed)
     */
    ParsedEdges(final EdgeList edges, final int vertices, final boolean symmetricStorage) {
        this.edges = edges;
        this.vertices = vertices;
        this.symmetricStorage = symmetricStorage;
    }
}
