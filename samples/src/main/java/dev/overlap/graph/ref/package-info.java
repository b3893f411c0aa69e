/**
 * Sequential references every run is checked against (BFS, Dijkstra, PageRank power iteration) and the
 * {@link dev.overlap.graph.ref.Verification} outcome.
 */
package dev.overlap.graph.ref;
