package dev.overlap.graph.io;

import dev.overlap.graph.EdgeList;
import dev.overlap.graph.EdgeStream;
import dev.overlap.graph.Progress;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PushbackInputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.function.Consumer;
import java.util.zip.GZIPInputStream;

/**
 * A text graph file as an {@link EdgeStream}: every pass opens the file and parses it again, handing its edges over
 * in batches of {@link EdgeBatches#BATCH}, so that {@link dev.overlap.graph.GraphBuilder} counts the degrees in one
 * pass and places the edges in a second while the heap holds the CSR and one batch, never an edge list of the whole
 * file (which costs 8 to 12 bytes per edge beside the CSR's 4 to 8). The price is parsing the file twice (a gzip file
 * is decompressed twice). The header is read when the stream is opened; a file whose size, modification time or
 * header differs between passes is refused, and so is one whose degrees differ (the builder checks them). A path that
 * is not a regular file (a named pipe, {@code /dev/stdin}, a shell's {@code <(zcat ...)}) gives its bytes once: it is
 * read once, when opened, into a list of all its edges, which every pass delivers as one batch.
 *
 * <p>A pass fails with an {@link UncheckedIOException} whose cause is a {@link GraphFormatException} naming the
 * file, line and reason ({@link GraphReader} unwraps it). Not thread-safe; one reader's.
 */
final class TextEdgeStream implements EdgeStream {
    private static final int BUFFER = 1 << 20;

    private final Path path;
    private final String name;
    private final TextParser parser;
    private final boolean keepWeights;
    private final Progress progress;
    private final long bytes;
    private final FileTime modified;
    private final TextHeader header;
    /** The edges of a file that cannot be read twice (a pipe, a device), read once; null for a regular file. */
    private final EdgeList held;
    private int passes;
    private long size = -1;

    private TextEdgeStream(final Path path, final String name, final TextParser parser, final boolean keepWeights,
        final Progress progress) throws IOException {
        this.path = path;
        this.name = name;
        this.parser = parser;
        this.keepWeights = keepWeights;
        this.progress = progress;
        this.bytes = Files.size(path);
        this.modified = Files.getLastModifiedTime(path);
        if (Files.isRegularFile(path)) {
            try (InputStream raw = Files.newInputStream(path)) {
                this.header = parser.header(scanner(raw));
            }
            this.held = null;
        } else {
            // a pipe gives its bytes once: they are parsed now into a list of all the edges, which the passes read
            try (Progress.Task task = progress.start("reading " + path.getFileName(), 0, "MiB", 1 << 20);
                InputStream raw = new CountingStream(Files.newInputStream(path), task)) {
                final LineScanner s = scanner(raw);
                this.header = parser.header(s);
                final EdgeList all = new EdgeList(EdgeBatches.BATCH, header.weighted && keepWeights);
                final EdgeBatches out = new EdgeBatches(all.isWeighted(), b -> {
                    for (int i = 0; i < b.size(); i++) {
                        all.add(b.source(i), b.target(i), b.weight(i));
                    }
                });
                parser.body(s, header, out);
                out.flush();
                this.held = all;
                this.size = all.size();
            }
        }
    }

    /**
     * Opens a file and reads its header.
     *
     * @param path        the file
     * @param name        the file's name in errors
     * @param parser      its format
     * @param keepWeights false to drop the weights of a weighted file (each is still parsed and checked)
     * @param progress    reports each pass in bytes of the file
     * @return the stream
     * @throws IOException a {@link GraphFormatException} for a bad header, or the I/O failure opening the file
     */
    static TextEdgeStream open(final Path path, final String name, final TextParser parser,
        final boolean keepWeights, final Progress progress) throws IOException {
        return new TextEdgeStream(path, name, parser, keepWeights, progress);
    }

    /** @return what the file declares before its edges */
    TextHeader header() {
        return header;
    }

    @Override
    public boolean isWeighted() {
        return header.weighted && keepWeights;
    }

    /** @return the edges one pass delivers, or -1 before the first pass has ended */
    @Override
    public long size() {
        return size;
    }

    @Override
    public void forEachBatch(final Consumer<EdgeList> batch) {
        if (held != null) {
            batch.accept(held);
            return;
        }
        try {
            pass(batch);
        } catch (final IOException e) {
            throw new UncheckedIOException(GraphReader.failure(name, e));
        }
    }

    private void pass(final Consumer<EdgeList> batch) throws IOException {
        if (Files.size(path) != bytes || !Files.getLastModifiedTime(path).equals(modified)) {
            throw changed("its size or modification time");
        }
        final int pass = ++passes;
        final long[] delivered = {0};
        try (Progress.Task task = progress.start("reading " + path.getFileName() + (pass == 1 ? " (degrees)"
            : " (edges)"), bytes, "MiB", 1 << 20); InputStream raw = new CountingStream(Files.newInputStream(path),
            task)) {
            final LineScanner s = scanner(raw);
            final TextHeader h = parser.header(s);
            if (h.vertices != header.vertices || h.weighted != header.weighted || h.records != header.records
                || h.symmetricStorage != header.symmetricStorage) {
                throw changed("its header");
            }
            final EdgeBatches out = new EdgeBatches(isWeighted(), b -> {
                delivered[0] += b.size();
                batch.accept(b);
            });
            parser.body(s, h, out);
            out.flush();
        }
        if (size >= 0 && delivered[0] != size) {
            throw changed("its number of edges");
        }
        size = delivered[0];
    }

    private GraphFormatException changed(final String what) {
        return new GraphFormatException(name, 0, "the file changed while it was read (" + what + "): a text graph "
            + "is read twice, to count the degrees and then to place the edges; read it once it is fully written");
    }

    /** Wraps the raw bytes in a scanner, decompressing them when they start with gzip's magic bytes. */
    private LineScanner scanner(final InputStream raw) throws IOException {
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
        return new LineScanner(text, name, BUFFER, gzip);
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
