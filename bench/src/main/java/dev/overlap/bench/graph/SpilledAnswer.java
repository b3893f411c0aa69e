package dev.overlap.bench.graph;

import dev.overlap.graph.app.AppResult;
import dev.overlap.graph.app.AppSettings;
import dev.overlap.graph.app.GraphApp;
import dev.overlap.graph.app.WorkCounts;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A forked measurement's sequential answer (BFS depths, SSSP distances, fixed-iteration PageRank ranks), kept in a
 * file while the measured runs hold the memory, and read back to check their answer: the child's peak resident memory
 * is then the runs' and not the runs' plus an answer-sized checker (GAP's {@code -v} likewise verifies after each
 * trial, not during it). The file is deleted once read.
 *
 * <p>Not thread-safe: one forked measurement's own.
 */
final class SpilledAnswer {
    private static final int CHUNK = 1 << 16;
    /** The counts of a read-back answer: only its values are checked. */
    private static final WorkCounts NO_COUNTS = new WorkCounts(0, 0, 0, 0, 0, 0, 0, 0, 0);

    private final GraphApp app;
    private final int source;
    private final AppSettings settings;
    private final Path file;
    private final int length;

    private SpilledAnswer(final GraphApp app, final int source, final AppSettings settings, final Path file,
        final int length) {
        this.app = app;
        this.source = source;
        this.settings = settings;
        this.file = file;
        this.length = length;
    }

    /**
     * @param sequential the sequential answer of {@code app} from {@code source} with {@code settings} (fixed
     *                   iterations for PageRank): the exact reference {@link GraphApp#expected} reuses
     * @param dir        where the file goes
     * @return the answer, now only in the file
     */
    static SpilledAnswer of(final GraphApp app, final int source, final AppSettings settings,
        final AppResult sequential, final Path dir) throws IOException {
        if (app == GraphApp.PAGERANK && settings.fixedIterations() <= 0) {
            throw new IllegalArgumentException("only a fixed-iteration PageRank answer is exact: " + settings);
        }
        final Path file = Files.createTempFile(dir, "expected-" + app.id(), ".bin");
        final int length;
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
            final ByteBuffer b = ByteBuffer.allocate(CHUNK).order(ByteOrder.nativeOrder());
            switch (app) {
                case BFS: {
                    final int[] a = sequential.depths();
                    length = a.length;
                    for (final int x : a) {
                        b.putInt(x);
                        drainIfFull(ch, b, 4);
                    }
                    break;
                }
                case SSSP: {
                    final long[] a = sequential.distances();
                    length = a.length;
                    for (final long x : a) {
                        b.putLong(x);
                        drainIfFull(ch, b, 8);
                    }
                    break;
                }
                default: {
                    final double[] a = sequential.ranks();
                    length = a.length;
                    for (final double x : a) {
                        b.putDouble(x);
                        drainIfFull(ch, b, 8);
                    }
                }
            }
            drain(ch, b);
        } catch (final IOException | RuntimeException e) {
            Files.deleteIfExists(file);
            throw e;
        }
        return new SpilledAnswer(app, source, settings, file, length);
    }

    /**
     * Reads the answer back (once) and deletes the file.
     *
     * @return the checker of {@link GraphApp#expected} on it
     * @throws UncheckedIOException when the file cannot be read back
     */
    GraphApp.Expected expected() {
        try {
            final AppResult seq;
            try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
                final ByteBuffer b = ByteBuffer.allocate(CHUNK).order(ByteOrder.nativeOrder());
                b.flip();
                switch (app) {
                    case BFS: {
                        final int[] a = new int[length];
                        for (int i = 0; i < length; i++) {
                            fill(ch, b, 4);
                            a[i] = b.getInt();
                        }
                        seq = AppResult.bfs(a, 0, NO_COUNTS);
                        break;
                    }
                    case SSSP: {
                        final long[] a = new long[length];
                        for (int i = 0; i < length; i++) {
                            fill(ch, b, 8);
                            a[i] = b.getLong();
                        }
                        seq = AppResult.sssp(a, 0, NO_COUNTS);
                        break;
                    }
                    default: {
                        final double[] a = new double[length];
                        for (int i = 0; i < length; i++) {
                            fill(ch, b, 8);
                            a[i] = b.getDouble();
                        }
                        seq = AppResult.pageRank(a, 0, NO_COUNTS);
                    }
                }
            } finally {
                Files.deleteIfExists(file);
            }
            return app.expected(null, source, settings, seq); // the graph is not read: the answer is given
        } catch (final IOException e) {
            throw new UncheckedIOException(file + ": the sequential answer could not be read back", e);
        }
    }

    /** Deletes the file of an answer that will not be read back (its measurement was skipped). */
    void discard() {
        try {
            Files.deleteIfExists(file);
        } catch (final IOException e) {
            // the graph directory's removal takes it
        }
    }

    private static void drainIfFull(final FileChannel ch, final ByteBuffer b, final int next) throws IOException {
        if (b.remaining() < next) {
            drain(ch, b);
        }
    }

    private static void drain(final FileChannel ch, final ByteBuffer b) throws IOException {
        b.flip();
        while (b.hasRemaining()) {
            ch.write(b);
        }
        b.clear();
    }

    private void fill(final FileChannel ch, final ByteBuffer b, final int need) throws IOException {
        if (b.remaining() >= need) {
            return;
        }
        b.compact();
        while (b.position() < need) {
            if (ch.read(b) < 0) {
                throw new IOException(file + ": ends before its " + length + " values");
            }
        }
        b.flip();
    }
}
