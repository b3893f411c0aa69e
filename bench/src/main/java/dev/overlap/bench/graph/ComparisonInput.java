package dev.overlap.bench.graph;

import dev.overlap.graph.BuildOptions;
import dev.overlap.graph.CsrGraph;
import dev.overlap.graph.GraphBuilder;
import dev.overlap.graph.Progress;
import dev.overlap.graph.gen.GraphSpec;
import dev.overlap.graph.io.GraphFormat;
import dev.overlap.graph.io.GraphReader;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Locale;

/**
 * One {@code --graphs} entry: a generator spec ({@code kron:20}, {@code grid:1000x1000}, {@code road:100000}, ...) or
 * a graph file (any name {@link GraphFormat} knows: {@code .el}, {@code .wel}, {@code .gr}, {@code .mtx}, ...; for
 * example an edge list GAP's {@code converter} wrote). A file is always read as an undirected simple graph
 * (symmetrized, without self-loops or duplicate edges, the lightest copy of an edge kept): what the generators give
 * and what GAP builds with {@code -s}. Immutable; thread-safe.
 */
final class ComparisonInput {
    private final GraphSpec spec;
    private final Path file;

    private ComparisonInput(final GraphSpec spec, final Path file) {
        this.spec = spec;
        this.file = file;
    }

    /**
     * @param text a generator spec, or a path whose name ends in a graph file extension
     * @return the input
     * @throws IllegalArgumentException for a spec that does not parse (the generator's message)
     */
    static ComparisonInput parse(final String text) {
        final String t = text.trim();
        Path path;
        try {
            path = Path.of(t);
        } catch (final java.nio.file.InvalidPathException e) {
            path = null;
        }
        final Path name = path == null ? null : path.getFileName();
        if (name != null && isGraphFile(name.toString())) {
            return new ComparisonInput(null, path);
        }
        return new ComparisonInput(GraphSpec.parse(t), null);
    }

    private static boolean isGraphFile(final String name) {
        try {
            GraphFormat.fromFileName(name);
            return true;
        } catch (final IllegalArgumentException e) {
            return false;
        }
    }

    /** @return an input for a file */
    static ComparisonInput file(final Path file) {
        return new ComparisonInput(null, file);
    }

    /** @return whether this is a file */
    boolean isFile() {
        return file != null;
    }

    /** @return the file, or null for a generator spec */
    Path path() {
        return file;
    }

    /** @return the generator spec, or null for a file */
    GraphSpec spec() {
        return spec;
    }

    /**
     * @return the family the size sweep groups graphs by: the generator's name ({@code kron}, {@code urand},
     *         {@code grid}, {@code road}) or {@code file}
     */
    String family() {
        return spec == null ? "file" : spec.toString().substring(0, spec.toString().indexOf(':'));
    }

    /**
     * @param seed     the generator's seed (files: ignored)
     * @param weighted whether a generated graph gets random weights, and whether a weighted file keeps its own
     * @return the undirected simple graph
     * @throws IOException for an unreadable or malformed file (a message naming file, line and reason)
     */
    CsrGraph load(final long seed, final boolean weighted, final Progress progress) throws IOException {
        return file != null ? GraphReader.read(file, null, BuildOptions.UNDIRECTED_SIMPLE, weighted, progress)
            : spec.build(seed, weighted, progress);
    }

    /**
     * As {@link #load(long, boolean, Progress)}, built into {@code destination} (a device's memory).
     *
     * @param destination where the graph is built
     * @param <G>         the graph built
     * @return the undirected simple graph
     * @throws IOException for an unreadable or malformed file
     */
    <G> G load(final long seed, final boolean weighted, final Progress progress,
        final GraphBuilder.Destination<G> destination) throws IOException {
        return file != null
            ? GraphReader.read(file, null, BuildOptions.UNDIRECTED_SIMPLE, weighted, progress, destination)
            : GraphBuilder.build(spec.edges(seed, weighted, progress), spec.vertexCount(), spec.options(), false,
                progress, destination);
    }

    /** @return whether GAP's reader takes this file as it is: by its suffix, a text format GAP knows, not compressed */
    boolean gapReadable() {
        if (file == null) {
            return false;
        }
        final String n = file.getFileName().toString().toLowerCase(Locale.ROOT);
        return n.endsWith(".el") || n.endsWith(".wel") || n.endsWith(".gr") || n.endsWith(".mtx");
    }

    /** @return what {@code --graphs} said: the spec as it prints, or the path */
    @Override
    public String toString() {
        return file != null ? file.toString() : spec.toString();
    }

    /** @return the name in tables: the spec, or the file's name */
    String name() {
        return file != null ? file.getFileName().toString() : spec.toString();
    }
}
