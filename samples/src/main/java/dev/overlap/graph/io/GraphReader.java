package dev.overlap.graph.io;

import dev.overlap.graph.BuildOptions;
import dev.overlap.graph.CsrGraph;
import dev.overlap.graph.EdgeList;
import dev.overlap.graph.EdgeStream;
import dev.overlap.graph.GraphBuilder;
import dev.overlap.graph.Progress;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.function.Consumer;

/**
 * Loads a graph file into a {@link CsrGraph}: the format comes from the file name ({@link GraphFormat}) unless
 * given; gzip input is recognised by its magic bytes (so a compressed file without {@code .gz} works too). Text
 * formats go through a hand-rolled byte tokenizer straight into {@link GraphBuilder}, which reads the file twice
 * (count the degrees, then place the edges: {@link TextEdgeStream}) so that no edge list of the whole file is held
 * beside the CSR, with the requested cleaning; the binary format is memory-mapped ({@link BinaryCsr}).
 *
 * <p>All or nothing: any problem is a {@link GraphFormatException} with the file, line and reason, and no graph is
 * returned. Thread-safety: stateless; concurrent loads are independent.
 */
public final class GraphReader {
    private GraphReader() {
    }

    /**
     * @param path     the file
     * @param format   its format, or null to tell by name
     * @param options  cleaning steps (a symmetric Matrix Market file is always symmetrized)
     * @param progress progress reporting (bytes of the file read)
     * @return the graph
     * @throws GraphFormatException for a malformed or unreadable file, with file, line and reason: a path that does
     *                              not exist, is a directory or may not be read fails before anything is read, and
     *                              an I/O error while reading names the file too
     * @throws IOException          never other than a {@link GraphFormatException} (declared for the callers)
     */
    public static CsrGraph read(final Path path, final GraphFormat format, final BuildOptions options,
        final Progress progress) throws IOException {
        return read(path, format, options, true, progress);
    }

    /**
     * @param path     the file
     * @param format   its format, or null to tell by name
     * @param options  cleaning steps (a symmetric Matrix Market file is always symmetrized)
     * @param weights  false to load a weighted file without its weights (each is still read and checked): what an
     *                 app that ignores weights needs, at 4 bytes less per edge; when cleaning drops duplicates,
     *                 which copy stays is then unspecified
     * @param progress progress reporting (bytes of the file read, per pass)
     * @return the graph, weighted only when the file is and {@code weights} is true
     * @throws GraphFormatException for a malformed or unreadable file, with file, line and reason (see
     *                              {@link #read(Path, GraphFormat, BuildOptions, Progress)})
     * @throws IOException          never other than a {@link GraphFormatException}
     */
    public static CsrGraph read(final Path path, final GraphFormat format, final BuildOptions options,
        final boolean weights, final Progress progress) throws IOException {
        final String name = path.toString();
        final GraphFormat f = format(path, format, name);
        if (f == GraphFormat.BCSR) {
            final CsrGraph g = readBinary(path, name, progress);
            return clean(weights ? g : g.withoutWeights(), options, name, progress);
        }
        return readText(path, f, name, options, weights, progress, GraphBuilder.onHeap());
    }

    /**
     * As {@link #read(Path, GraphFormat, BuildOptions, boolean, Progress)}, building the graph into
     * {@code destination} (a device's memory: {@link dev.overlap.graph.partition.DeviceGraph#loading}): a text file's
     * two passes write there directly; a binary file is read, then rebuilt there from its rows.
     *
     * @param destination where the graph is built
     * @param <G>         the graph built
     * @return the graph
     * @throws GraphFormatException as {@link #read(Path, GraphFormat, BuildOptions, boolean, Progress)}
     * @throws IOException          never other than a {@link GraphFormatException}
     */
    public static <G> G read(final Path path, final GraphFormat format, final BuildOptions options,
        final boolean weights, final Progress progress, final GraphBuilder.Destination<G> destination)
        throws IOException {
        final String name = path.toString();
        final GraphFormat f = format(path, format, name);
        if (f == GraphFormat.BCSR) {
            final CsrGraph g = readBinary(path, name, progress);
            final CsrGraph kept = weights ? g : g.withoutWeights();
            final BuildOptions o = kept.isSymmetric() ? options.withSymmetrize(false) : options;
            return GraphBuilder.build(rows(kept), kept.vertexCount(), o, kept.isSymmetric(), progress, destination);
        }
        return readText(path, f, name, options, weights, progress, destination);
    }

    /** @return the file's format: {@code format}, or told by its name */
    private static GraphFormat format(final Path path, final GraphFormat format, final String name)
        throws GraphFormatException {
        checkReadable(path, name);
        try {
            return format != null ? format : GraphFormat.fromFileName(path.getFileName().toString());
        } catch (final IllegalArgumentException e) {
            throw new GraphFormatException(name, 0, e.getMessage());
        }
    }

    private static CsrGraph readBinary(final Path path, final String name, final Progress progress)
        throws GraphFormatException {
        try {
            return BinaryCsr.read(path, name, progress);
        } catch (final GraphFormatException e) {
            throw e;
        } catch (final IOException e) {
            throw ioFailure(name, e);
        }
    }

    /** A text file, read in two passes into {@code destination}. */
    private static <G> G readText(final Path path, final GraphFormat f, final String name, final BuildOptions options,
        final boolean weights, final Progress progress, final GraphBuilder.Destination<G> destination)
        throws GraphFormatException {
        final TextParser parser;
        switch (f) {
            case MTX:
                parser = MatrixMarketParser.INSTANCE;
                break;
            case EL:
            case SNAP:
                parser = EdgeListParser.UNWEIGHTED;
                break;
            case WEL:
                parser = EdgeListParser.WEIGHTED;
                break;
            case DIMACS:
                parser = DimacsParser.INSTANCE;
                break;
            default:
                throw new AssertionError(f);
        }
        final TextEdgeStream edges;
        try {
            edges = TextEdgeStream.open(path, name, parser, weights, progress);
        } catch (final IOException e) {
            throw failure(name, e);
        }
        final TextHeader h = edges.header();
        final BuildOptions o = h.symmetricStorage ? options.withSymmetrize(true) : options;
        try {
            return GraphBuilder.build(edges, h.vertices, o, false, Progress.none(), destination);
        } catch (final UncheckedIOException e) {
            throw failure(name, e.getCause());
        } catch (final IllegalArgumentException e) {
            // the edges' content (more edges than a CSR holds, degrees that differ between the passes)
            throw new GraphFormatException(name, 0, e.getMessage(), e);
        }
    }

    /**
     * @param name the file's name
     * @param e    a failure while reading it
     * @return the failure as a {@link GraphFormatException} naming the file and the reason
     */
    static GraphFormatException failure(final String name, final IOException e) {
        if (e instanceof GraphFormatException) {
            return (GraphFormatException)e;
        }
        if (e instanceof NoSuchFileException) {
            return new GraphFormatException(name, 0, "no such file", e);
        }
        if (e instanceof AccessDeniedException) {
            return new GraphFormatException(name, 0, "permission denied", e);
        }
        if (e instanceof java.util.zip.ZipException || e instanceof java.io.EOFException) {
            return new GraphFormatException(name, 1, "corrupt or truncated gzip header (" + e.getMessage() + ")", e);
        }
        return ioFailure(name, e);
    }

    /**
     * Fails early, naming the path, for what is certainly not a readable graph file: nothing there, a directory
     * (reading one fails with a bare "Is a directory"; mapping one with "No such device"), no read permission.
     */
    private static void checkReadable(final Path path, final String name) throws GraphFormatException {
        if (Files.isDirectory(path)) {
            throw new GraphFormatException(name, 0, "is a directory, not a graph file");
        }
        if (!Files.exists(path)) {
            throw new GraphFormatException(name, 0, Files.isSymbolicLink(path)
                ? "broken symbolic link (its target does not exist)" : "no such file");
        }
        if (!Files.isReadable(path)) {
            throw new GraphFormatException(name, 0, "permission denied");
        }
    }

    /** @return an I/O failure while reading, as a {@link GraphFormatException} that names the file */
    private static GraphFormatException ioFailure(final String name, final IOException e) {
        String reason = e instanceof java.nio.file.FileSystemException
            ? ((java.nio.file.FileSystemException)e).getReason() : e.getMessage();
        if (reason == null || reason.isEmpty()) {
            reason = e.getClass().getSimpleName();
        } else if (reason.length() > 1 && Character.isUpperCase(reason.charAt(0))
            && Character.isLowerCase(reason.charAt(1))) {
            reason = Character.toLowerCase(reason.charAt(0)) + reason.substring(1);
        }
        return new GraphFormatException(name, 0, "cannot read: " + reason, e);
    }

    /**
     * Applies cleaning options to an already-built graph (binary input) by rebuilding it when any is requested, from
     * its rows delivered in batches (the builder's two passes read them twice).
     */
    private static CsrGraph clean(final CsrGraph g, final BuildOptions options, final String name,
        final Progress progress) {
        if (!options.symmetrize() && !options.dropSelfLoops() && !options.dropDuplicates()) {
            return g;
        }
        final BuildOptions o = g.isSymmetric() ? options.withSymmetrize(false) : options;
        return GraphBuilder.build(rows(g), g.vertexCount(), o, g.isSymmetric(), progress);
    }

    /**
     * @return {@code g}'s edges row by row, in batches: no edge list of the whole graph beside the read one and the
     *         rebuilt one
     */
    private static EdgeStream rows(final CsrGraph g) {
        return new EdgeStream() {
            @Override
            public boolean isWeighted() {
                return g.isWeighted();
            }

            @Override
            public long size() {
                return g.edgeCount();
            }

            @Override
            public void forEachBatch(final Consumer<EdgeList> batch) {
                final EdgeBatches out = new EdgeBatches(g.isWeighted(), batch);
                for (int u = 0; u < g.vertexCount(); u++) {
                    for (long e = g.edgeStart(u); e < g.edgeEnd(u); e++) {
                        out.add(u, g.target(e), g.weight(e));
                    }
                }
                out.flush();
            }
        };
    }
}
