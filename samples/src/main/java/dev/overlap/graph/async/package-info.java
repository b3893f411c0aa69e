/**
 * The asynchronous (Atos) graph apps on the distributed worklist: BFS, SSSP and PageRank as task functions over
 * vertices, with atomics on the owning device's memory and pushes to the owner instead of supersteps and barriers.
 * Registered as the {@code async} {@link dev.overlap.graph.app.GraphAlgorithms} provider; they run across processes
 * as they run in one ({@link dev.overlap.graph.async.AsyncAlgorithms}).
 */
package dev.overlap.graph.async;
