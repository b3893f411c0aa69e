/**
 * The graph comparison benchmark ({@code overlap bench-graphs}, {@link dev.overlap.bench.graph.GraphComparison}):
 * Overlap's graph apps against plain single-threaded Java CSR loops, JGraphT and, when a build of it is given, the GAP
 * benchmark suite's C++ kernels ({@link dev.overlap.bench.graph.GapMeasurement}) on the same graphs (for GAP, the same
 * edge-list file), every answer verified, PageRank compared at equal accuracy against a converged reference, peak RSS
 * per row. A plain measurement harness (warm-up runs, then the median of timed runs), not JMH: each run is long (tens
 * of milliseconds to seconds) and verified, and the peers are whole libraries or programs.
 */
package dev.overlap.bench.graph;
