package dev.overlap.bench.graph;

/**
 * A graph the comparison generated or loaded.
 *
 * @param name           the generator spec, e.g. {@code kron:20}, or the file's name
 * @param vertices       vertices
 * @param edges          directed edges
 * @param source         the source of BFS and SSSP
 * @param generateMillis milliseconds to generate or load it
 * @param file           the file every implementation loaded (the one written for GAP, or the input file), or null
 *                       when the graph was generated in memory
 * @param family         the generator ({@code kron}, {@code grid}, {@code road}, {@code urand}) or {@code file}
 */
record ComparisonGraph(String name, long vertices, long edges, int source, double generateMillis, String file,
                       String family) {
    /** A generated graph without a file, family taken from the name. */
    ComparisonGraph(final String name, final long vertices, final long edges, final int source,
        final double generateMillis) {
        this(name, vertices, edges, source, generateMillis, null, name.contains(":") ? name.substring(0,
            name.indexOf(':')) : "file");
    }
}
