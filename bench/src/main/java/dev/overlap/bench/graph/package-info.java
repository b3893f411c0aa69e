/**
 * The graph comparison benchmark ({@code overlap bench-graphs}, {@link dev.overlap.bench.graph.GraphComparison}):
 * Overlap's graph apps against plain single-threaded Java CSR loops and JGraphT on the same generated graphs, every
 * answer verified. A plain measurement harness (warm-up runs, then the median of timed runs), not JMH: each run is
 * long (tens of milliseconds to seconds) and verified, and the peers are whole libraries.
 */
package dev.overlap.bench.graph;
