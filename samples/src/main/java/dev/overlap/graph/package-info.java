/**
 * Graphs for the graph apps: the immutable {@link dev.overlap.graph.CsrGraph} (int vertices, long offsets,
 * optional int weights), the {@link dev.overlap.graph.EdgeList} that loaders and generators fill, the
 * {@link dev.overlap.graph.GraphBuilder} that cleans it (symmetrize, drop self-loops, drop duplicates), and
 * {@link dev.overlap.graph.Progress} reporting for long loads. Sub-packages: {@code io} (file formats), {@code gen}
 * (generators), {@code partition} (who owns what, placement into device memory), {@code ref} (sequential
 * references and verification), {@code app} (the execution-model SPI), {@code bsp} (bulk-synchronous baselines),
 * {@code jacobi} (PROACT Jacobi), {@code answer} (the files the apps write their answers to), {@code report} and
 * {@code cli}.
 */
package dev.overlap.graph;
