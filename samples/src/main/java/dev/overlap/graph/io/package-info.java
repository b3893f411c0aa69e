/**
 * Graph files: Matrix Market coordinate, edge lists ({@code .el}, {@code .wel}, SNAP {@code .txt}), DIMACS
 * {@code .gr} (all optionally gzip-compressed) through a hand-rolled byte tokenizer, and Overlap's memory-mapped
 * binary CSR ({@link dev.overlap.graph.io.BinaryCsr}); {@link dev.overlap.graph.io.EdgeListWriter} writes the edge
 * lists other graph tools read (the GAP benchmark suite's {@code -f}). Errors are {@link dev.overlap.graph.io.GraphFormatException}s
 * naming file, line and reason; nothing partial is ever returned.
 */
package dev.overlap.graph.io;
