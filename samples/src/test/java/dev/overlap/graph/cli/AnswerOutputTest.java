package dev.overlap.graph.cli;

import com.fasterxml.jackson.jr.ob.JSON;
import dev.overlap.graph.CsrGraph;
import dev.overlap.graph.Progress;
import dev.overlap.graph.answer.Answer;
import dev.overlap.graph.answer.AnswerKind;
import dev.overlap.graph.answer.AnswerReader;
import dev.overlap.graph.app.AppResult;
import dev.overlap.graph.app.AppSettings;
import dev.overlap.graph.app.GraphApp;
import dev.overlap.graph.app.WorkCounts;
import dev.overlap.graph.gen.GraphSpec;
import dev.overlap.graph.io.GraphReader;
import dev.overlap.graph.jacobi.BandedSystem;
import dev.overlap.graph.jacobi.SequentialJacobi;
import dev.overlap.graph.ref.Verification;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Each app's {@code --output}, in both formats and both modes, read back through the project's own
 * {@link AnswerReader} and checked by the same verification the commands run against the sequential reference.
 */
class AnswerOutputTest {
    private static final WorkCounts NO_COUNTS = new WorkCounts(0, 0, 0, 0, 0, 0, 0, 0, 0);
    private static final String[] SMALL = {"--devices", "2", "--threads-per-device", "1", "--quiet", "--json"};

    @TempDir
    Path dir;

    private static String[] args(final String... first) {
        final String[] all = java.util.Arrays.copyOf(first, first.length + SMALL.length);
        System.arraycopy(SMALL, 0, all, first.length, SMALL.length);
        return all;
    }

    private static Map<String, Object> json(final String text) throws IOException {
        return JSON.std.mapFrom(text.trim());
    }

    /** The command's answer against the sequential reference, as the command itself checks it. */
    private static Verification verify(final GraphApp app, final CsrGraph g, final int source, final Answer a) {
        final AppSettings settings = AppSettings.builder().build();
        final AppResult result;
        switch (app) {
            case BFS:
                result = AppResult.bfs(a.depths(), 0, NO_COUNTS);
                break;
            case SSSP:
                result = AppResult.sssp(a.distances(), 0, NO_COUNTS);
                break;
            default:
                result = AppResult.pageRank(a.ranks(), 0, NO_COUNTS);
                break;
        }
        return app.expected(g, source, settings, null).check(result);
    }

    @Test
    void everyGraphAppsAnswerReadsBackAndVerifies() throws IOException {
        final String spec = "kron:9";
        final CsrGraph unweighted = GraphSpec.parse(spec).build(1, false, Progress.none());
        final CsrGraph weighted = GraphSpec.parse(spec).build(1, true, Progress.none());
        for (final GraphApp app : GraphApp.values()) {
            for (final String mode : new String[] {"bsp", "async"}) {
                for (final String format : new String[] {"text", "binary"}) {
                    final Path file = dir.resolve(app.id() + "-" + mode + "." + format);
                    final CliRun run = new CliRun(args(app.id(), "--generate", spec, "--mode", mode, "--output",
                        file.toString(), "--output-format", format));
                    assertEquals(0, run.exit, run.err);
                    final Map<String, Object> report = json(run.out);
                    assertEquals(file + " (" + format + ")", report.get("output"));
                    final Answer a = AnswerReader.read(file);
                    final CsrGraph g = app.weighted() ? weighted : unweighted;
                    assertEquals(g.vertexCount(), a.size());
                    final int source = app.hasSource() ? ((Number)report.get("source")).intValue() : 0;
                    if (app.hasSource()) {
                        assertEquals(source, a.source());
                    }
                    final Verification v = verify(app, g, source, a);
                    assertTrue(v.passed(), app + " " + mode + " " + format + ": " + v.detail());
                }
            }
        }
    }

    @Test
    void jacobiAnswerReadsBackAndVerifies() throws IOException {
        final BandedSystem system = new BandedSystem(5000, 3, 1);
        final SequentialJacobi.Result reference = SequentialJacobi.solve(system, 1e-8, 10_000);
        for (final String format : new String[] {"text", "binary"}) {
            final Path file = dir.resolve("jacobi." + format);
            final CliRun run = new CliRun(args("jacobi", "--size", "5000", "--band", "3", "-o", file.toString(),
                "--output-format", format));
            assertEquals(0, run.exit, run.err);
            final Answer a = AnswerReader.read(file);
            assertEquals(AnswerKind.SOLUTION, a.kind());
            final Verification v = SequentialJacobi.verify(system, a.solution(), 1e-8, reference);
            assertTrue(v.passed(), format + ": " + v.detail());
        }
    }

    @Test
    void unreachedVerticesAreMinusOneInBothFormats() throws IOException {
        final Path el = dir.resolve("two-parts.el");
        Files.writeString(el, "0 1\n1 2\n3 4\n", StandardCharsets.US_ASCII);
        final CsrGraph g = GraphReader.read(el, null, new dev.overlap.graph.BuildOptions(false, false, false),
            Progress.none());
        for (final GraphApp app : new GraphApp[] {GraphApp.BFS, GraphApp.SSSP}) {
            final Path text = dir.resolve(app.id() + ".txt");
            final Path binary = dir.resolve(app.id() + ".bin");
            assertEquals(0, new CliRun(args(app.id(), "--graph", el.toString(), "--source", "0", "-o", text.toString()))
                .exit);
            assertEquals(0, new CliRun(args(app.id(), "--graph", el.toString(), "--source", "0", "-o",
                binary.toString(), "--output-format", "binary")).exit);
            final List<String> lines = Files.readAllLines(text);
            assertEquals("# overlap answer 1: app=" + app.id() + " value=" + (app == GraphApp.BFS ? "depth" : "distance")
                + " vertices=5 source=0 unreached=-1", lines.get(0));
            assertEquals(List.of("0 0", "1 1", "2 2", "3 -1", "4 -1"), lines.subList(1, lines.size()));
            for (final Path file : new Path[] {text, binary}) {
                final Answer a = AnswerReader.read(file);
                if (app == GraphApp.BFS) {
                    assertEquals(-1, a.depths()[3]);
                } else {
                    assertEquals(Answer.UNREACHED, a.distances()[4]);
                }
                final Verification v = verify(app, g, 0, a);
                assertTrue(v.passed(), file + ": " + v.detail());
            }
        }
    }

    @Test
    void anAnswerOnStandardOutputLeavesTheReportOnStandardError() throws Exception {
        final CsrGraph g = GraphSpec.parse("kron:8").build(1, false, Progress.none());
        for (final String format : new String[] {"text", "binary"}) {
            final ForkedCli run = new ForkedCli(List.of(), args("bfs", "--generate", "kron:8", "--output", "-",
                "--output-format", format));
            assertEquals(0, run.exit, run.err);
            final Map<String, Object> report = json(run.err);
            assertEquals("standard output (" + format + ")", report.get("output"));
            final Answer a = AnswerReader.read(new ByteArrayInputStream(run.out), "standard output");
            final int source = ((Number)report.get("source")).intValue();
            final Verification v = verify(GraphApp.BFS, g, source, a);
            assertTrue(v.passed(), format + ": " + v.detail());
        }
    }

    @Test
    void aSecondRunReplacesTheAnswerAndLeavesNoTemporaryFile() throws IOException {
        final Path file = dir.resolve("bfs.txt");
        assertEquals(0, new CliRun(args("bfs", "--generate", "grid:8x8", "--source", "0", "-o", file.toString())).exit);
        assertEquals(0, AnswerReader.read(file).source());
        assertEquals(0, new CliRun(args("bfs", "--generate", "grid:8x8", "--source", "9", "-o", file.toString(),
            "--output-format", "BINARY")).exit);
        assertEquals(9, AnswerReader.read(file).source());
        try (java.util.stream.Stream<Path> files = Files.list(dir)) {
            assertEquals(List.of(file), files.collect(java.util.stream.Collectors.toList()));
        }
    }
}
