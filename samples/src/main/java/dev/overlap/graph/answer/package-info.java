/**
 * Answer files: what {@code overlap bfs|pr|sssp|jacobi --output} writes, one value per vertex (BFS depths, SSSP
 * distances, PageRank ranks, the Jacobi solution) as {@code vertex value} text lines under a {@code #} header or as
 * a little-endian binary array with a CRC-32C trailer ({@link dev.overlap.graph.answer.AnswerFormat}); the
 * {@link dev.overlap.graph.answer.AnswerWriter} the commands use and the {@link dev.overlap.graph.answer.AnswerReader}
 * that reads either form back and rejects anything but a whole, well-formed answer.
 */
package dev.overlap.graph.answer;
