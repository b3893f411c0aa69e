package dev.overlap.graph.io;

/**
 * One text graph format, read in two steps so that a file can be read more than once without holding its edges:
 * {@link #header} reads what the file declares before its first edge, {@link #body} reads the edge records after
 * it and hands each edge to an {@link EdgeBatches}. Implementations are stateless.
 */
interface TextParser {
    /**
     * Reads from the start of the file up to its first edge record.
     *
     * @throws GraphFormatException with the line and reason when the header is malformed or missing
     */
    TextHeader header(LineScanner s) throws GraphFormatException;

    /**
     * Reads every edge record after the header into {@code out}, validating each (ids in range, weights fit an
     * int, the declared record count); does not flush {@code out}.
     *
     * @throws GraphFormatException with the line and reason for the first bad record
     */
    void body(LineScanner s, TextHeader header, EdgeBatches out) throws GraphFormatException;
}
