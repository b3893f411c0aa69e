package dev.overlap.graph.cli;

/**
 * A graph the demo generated: its name, size, source vertex, weights and generation time.
 *
 * @param name           the generator spec, e.g. {@code kron:16}
 * @param vertices       vertices
 * @param edges          directed edges
 * @param source         the source of BFS and SSSP
 * @param weights        the weights it got, e.g. {@code 1..255 (sssp)}, or {@code none}
 * @param generateMillis milliseconds to generate it
 */
record DemoGraph(String name, long vertices, long edges, int source, String weights, double generateMillis) {
}
