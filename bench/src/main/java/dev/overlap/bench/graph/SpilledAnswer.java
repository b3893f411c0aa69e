package dev.overlap.bench.graph;

import dev.overlap.graph.answer.Answer;
import dev.overlap.graph.answer.AnswerFormat;
import dev.overlap.graph.answer.AnswerReader;
import dev.overlap.graph.answer.AnswerWriter;
import dev.overlap.graph.app.AppResult;
import dev.overlap.graph.app.AppSettings;
import dev.overlap.graph.app.GraphApp;
import dev.overlap.graph.app.WorkCounts;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A forked measurement's sequential answer (BFS depths, SSSP distances, fixed-iteration PageRank ranks), kept in a
 * file while the measured runs hold the memory, and read back to check their answer: the child's peak resident memory
 * is then the runs' and not the runs' plus an answer-sized checker (GAP's {@code -v} likewise verifies after each
 * trial, not during it). The file is the CLI's binary answer file ({@link AnswerFormat}, exact for every value), and
 * is deleted once read.
 *
 * <p>Not thread-safe: one forked measurement's own.
 */
final class SpilledAnswer {
    /** The counts of a read-back answer: only its values are checked. */
    private static final WorkCounts NO_COUNTS = new WorkCounts(0, 0, 0, 0, 0, 0, 0, 0, 0);

    private final GraphApp app;
    private final int source;
    private final AppSettings settings;
    private final Path file;

    private SpilledAnswer(final GraphApp app, final int source, final AppSettings settings, final Path file) {
        this.app = app;
        this.source = source;
        this.settings = settings;
        this.file = file;
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
        final Answer answer = app == GraphApp.BFS ? Answer.depths(sequential.depths(), source)
            : app == GraphApp.SSSP ? Answer.distances(sequential.distances(), source)
            : Answer.ranks(sequential.ranks());
        final Path file = Files.createTempFile(dir, "expected-" + app.id(), ".bin");
        try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(file), 1 << 16)) {
            AnswerWriter.write(answer, AnswerFormat.BINARY, out);
        } catch (final IOException | RuntimeException e) {
            Files.deleteIfExists(file);
            throw e;
        }
        return new SpilledAnswer(app, source, settings, file);
    }

    /**
     * Reads the answer back (once) and deletes the file.
     *
     * @return the checker of {@link GraphApp#expected} on it
     * @throws UncheckedIOException when the file cannot be read back
     */
    GraphApp.Expected expected() {
        final Answer a;
        try {
            try {
                a = AnswerReader.read(file);
            } finally {
                Files.deleteIfExists(file);
            }
        } catch (final IOException e) {
            throw new UncheckedIOException(file + ": the sequential answer could not be read back", e);
        }
        final AppResult seq = app == GraphApp.BFS ? AppResult.bfs(a.depths(), 0, NO_COUNTS)
            : app == GraphApp.SSSP ? AppResult.sssp(a.distances(), 0, NO_COUNTS)
            : AppResult.pageRank(a.ranks(), 0, NO_COUNTS);
        return app.expected(null, source, settings, seq); // the graph is not read: the answer is given
    }

    /** Deletes the file of an answer that will not be read back (its measurement was skipped). */
    void discard() {
        try {
            Files.deleteIfExists(file);
        } catch (final IOException e) {
            // the graph directory's removal takes it
        }
    }
}
