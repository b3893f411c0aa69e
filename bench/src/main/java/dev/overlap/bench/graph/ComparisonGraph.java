package dev.overlap.bench.graph;

/**
 * A graph the comparison generated.
 *
 * @param name           the generator spec, e.g. {@code kron:20}
 * @param vertices       vertices
 * @param edges          directed edges
 * @param source         the source of BFS and SSSP
 * @param generateMillis milliseconds to generate it
 */
record ComparisonGraph(String name, long vertices, long edges, int source, double generateMillis) {
}
