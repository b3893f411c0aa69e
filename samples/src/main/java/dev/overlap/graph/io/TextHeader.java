package dev.overlap.graph.io;

/**
 * What a text graph file declares before its edges: the vertex count (or that it is the largest id plus one),
 * whether the edges carry weights (and how they are written), whether the file stores one triangle of a symmetric matrix, and how many edge
 * records follow (when declared). Immutable.
 */
final class TextHeader {
    /** {@link #vertices} of a format that declares none: the largest vertex id plus one. */
    static final int FROM_IDS = -1;
    /** {@link #records} of a format that declares none. */
    static final long UNDECLARED = -1;

    final int vertices;
    final boolean weighted;
    final boolean realWeights;
    final boolean symmetricStorage;
    final long records;

    /**
     * @param vertices         the declared vertex count, or {@link #FROM_IDS}
     * @param weighted         whether each record carries a weight
     * @param realWeights      whether the weights are written as reals (rounded to the nearest int)
     * @param symmetricStorage true when the file stores one triangle of a symmetric matrix (reverse edges needed)
     * @param records          the declared number of edge records, or {@link #UNDECLARED}
     */
    TextHeader(final int vertices, final boolean weighted, final boolean realWeights, final boolean symmetricStorage,
        final long records) {
        this.vertices = vertices;
        this.weighted = weighted;
        this.realWeights = realWeights;
        this.symmetricStorage = symmetricStorage;
        this.records = records;
    }
}
