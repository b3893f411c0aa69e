package dev.overlap.graph.io;

import dev.overlap.graph.BuildOptions;
import dev.overlap.graph.CsrGraph;
import dev.overlap.graph.GraphBuilder;
import dev.overlap.graph.Progress;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PushbackInputStream;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.zip.GZIPInputStream;

/**
 * Loads a graph file into a {@link CsrGraph}: the format comes from the file name ({@link GraphFormat}) unless
 * given; gzip input is recognised by its magic bytes (so a compressed file without {@code .gz} works too). Text
 * formats go through a hand-rolled byte tokenizer and an {@link dev.overlap.graph.EdgeList}, then
 * {@link GraphBuilder} with the requested cleaning; the binary format is memory-mapped ({@link BinaryCsr}).
 *
 * <p>All or nothing: any problem is a {@link GraphFormatException} with the file, line and reason, and no graph is
 * returned. Thread-safety: stateless; concurrent loads are independent.
 */
public final class GraphReader {
    private static final int BUFFER = 1 << 20;

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
        final String name = path.toString();
        checkReadable(path, name);
        final GraphFormat f;
        try {
            f = format != null ? format : GraphFormat.fromFileName(path.getFileName().toString());
        } catch (final IllegalArgumentException e) {
            throw new GraphFormatException(name, 0, e.getMessage());
        }
        if (f == GraphFormat.BCSR) {
            final CsrGraph g;
            try {
                g = BinaryCsr.read(path, name, progress);
            } catch (final GraphFormatException e) {
                throw e;
            } catch (final IOException e) {
                throw ioFailure(name, e);
            }
            return clean(g, options, name, progress);
        }
        final long size;
        try {
            size = Files.size(path);
        } catch (final NoSuchFileException e) {
            throw new GraphFormatException(name, 0, "no such file", e);
        }
        final ParsedEdges parsed;
        try (Progress.Task task = progress.start("reading " + path.getFileName(), size, "MiB", 1 << 20);
            InputStream raw = new CountingStream(Files.newInputStream(path), task)) {
            final PushbackInputStream in = new PushbackInputStream(raw, 2);
            final int b0 = in.read();
            final int b1 = b0 < 0 ? -1 : in.read();
            if (b1 >= 0) {
                in.unread(b1);
            }
            if (b0 >= 0) {
                in.unread(b0);
            }
            final boolean gzip = b0 == 0x1f && b1 == 0x8b;
            final InputStream text = gzip ? new GZIPInputStream(in, 1 << 16) : in;
            final LineScanner s = new LineScanner(text, name, BUFFER, gzip);
            switch (f) {
                case MTX:
                    parsed = MatrixMarketParser.parse(s);
                    break;
                case EL:
                case SNAP:
                    parsed = EdgeListParser.parse(s, false);
                    break;
                case WEL:
                    parsed = EdgeListParser.parse(s, true);
                    break;
                case DIMACS:
                    parsed = DimacsParser.parse(s);
                    break;
                default:
                    throw new AssertionError(f);
            }
        } catch (final NoSuchFileException e) {
            throw new GraphFormatException(name, 0, "no such file", e);
        } catch (final AccessDeniedException e) {
            throw new GraphFormatException(name, 0, "permission denied", e);
        } catch (final java.util.zip.ZipException | java.io.EOFException e) {
            throw new GraphFormatException(name, 1, "corrupt or truncated gzip header (" + e.getMessage() + ")", e);
        } catch (final GraphFormatException e) {
            throw e;
        } catch (final IOException e) {
            throw ioFailure(name, e);
        }
        final BuildOptions o = parsed.symmetricStorage ? options.withSymmetrize(true) : options;
        return GraphBuilder.build(parsed.edges, parsed.vertices, o, false, progress);
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

    /** Applies cleaning options to an already-built graph (binary input) by rebuilding when any is requested. */
    private static CsrGraph clean(final CsrGraph g, final BuildOptions options, final String name,
        final Progress progress) {
        if (!options.symmetrize() && !options.dropSelfLoops() && !options.dropDuplicates()) {
            return g;
        }
        final dev.overlap.graph.EdgeList edges = new dev.overlap.graph.EdgeList(g.edgeCount(), g.isWeighted());
        edges.resize(g.edgeCount());
        for (int u = 0; u < g.vertexCount(); u++) {
            for (long e = g.edgeStart(u); e < g.edgeEnd(u); e++) {
                edges.set((int)e, u, g.target(e), g.weight(e));
            }
        }
        edges.noteVertex(g.vertexCount() - 1);
        final BuildOptions o = g.isSymmetric() ? options.withSymmetrize(false) : options;
        return GraphBuilder.build(edges, g.vertexCount(), o, g.isSymmetric(), progress);
    }

    /** Counts raw bytes read, for the progress bar (one update per read call, i.e. per buffer). */
    private static final class CountingStream extends FilterInputStream {
        private final Progress.Task task;

        CountingStream(final InputStream in, final Progress.Task task) {
            super(in);
            this.task = task;
        }

        @Override
        public int read() throws IOException {
            final int b = super.read();
            if (b >= 0) {
                task.stepBy(1);
            }
            return b;
        }

        @Override
        public int read(final byte[] b, final int off, final int len) throws IOException {
            final int n = super.read(b, off, len);
            if (n > 0) {
                task.stepBy(n);
            }
            return n;
        }
    }
}
