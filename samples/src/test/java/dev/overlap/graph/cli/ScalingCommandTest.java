package dev.overlap.graph.cli;

import com.fasterxml.jackson.jr.ob.JSON;
import dev.overlap.graph.app.GraphAlgorithms;
import dev.overlap.testing.Xml;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import picocli.CommandLine;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ScalingCommandTest {
    @TempDir
    Path dir;

    private static final class Run {
        final int exit;
        final String out;
        final String err;

        Run(final Function<String, GraphAlgorithms> lookup, final String... args) {
            final CommandLine cl = OverlapCommand.commandLine();
            if (lookup != null) {
                ((ScalingCommand)cl.getSubcommands().get("scaling").getCommand()).lookup = lookup;
            }
            final StringWriter o = new StringWriter();
            final StringWriter e = new StringWriter();
            cl.setOut(new PrintWriter(o));
            cl.setErr(new PrintWriter(e));
            exit = cl.execute(args);
            out = o.toString();
            err = e.toString();
        }
    }

    @Test
    void sweepsDevicesWritesCsvAndSvgAndPrintsATable() throws Exception {
        final Path out = dir.resolve("bfs");
        final Run run = new Run(null, "scaling", "bfs", "--generate", "kron:9", "--max-devices", "3", "--runs", "2",
            "--warmups", "0", "--quiet", "--out", out.toString());
        assertEquals(0, run.exit, run.err);
        assertTrue(run.out.startsWith("overlap scaling: bfs bsp on kron:9, seed 1: 1 worker per device"), run.out);
        assertTrue(run.out.contains("single-threaded Java CSR: "), run.out);
        for (final String col : new String[] {"devices", "median ms", "MTEPS", "speedup", "efficiency", "vs seq",
            "verified"}) {
            assertTrue(run.out.contains(col), col + ": " + run.out);
        }
        assertTrue(run.out.lines().anyMatch(l -> l.trim().startsWith("1 ") && l.contains("1.00x") && l.contains("100%")
            && l.endsWith("passed")), run.out);
        final boolean threeOversubscribed = Runtime.getRuntime().availableProcessors() < 3;
        assertTrue(run.out.lines().anyMatch(l -> l.trim().startsWith("3 ") && l.contains(threeOversubscribed ? "3*" : "3 ")
            && l.endsWith("passed")), run.out);
        assertEquals(threeOversubscribed, run.out.contains("* more busy threads than the"), run.out);

        final List<String> csv = Files.readAllLines(out.resolve("scaling.csv"));
        assertEquals(4, csv.size(), csv.toString());
        assertEquals(ScalingReport.CSV_HEADER, csv.get(0));
        final int columns = csv.get(0).split(",").length;
        for (int d = 1; d <= 3; d++) {
            final String line = csv.get(d);
            assertTrue(line.startsWith("bfs,bsp,\"kron:9, seed 1\",512,"), line);
            final String[] cells = line.replace("\"kron:9, seed 1\"", "g").split(",", -1);
            assertEquals(columns, cells.length, line);
            assertEquals(Integer.toString(d), cells[5], line);
            assertEquals("passed", cells[columns - 1], line);
        }

        final Document svg = Xml.parse(Files.readString(out.resolve("scaling.svg")));
        assertEquals("svg", svg.getDocumentElement().getLocalName());
        // 3 time points, 3 speedup points, 3 points against the sequential run; 3 devices oversubscribe 2 cores.
        assertEquals(9, Xml.points(svg).size());
        assertEquals(threeOversubscribed ? 3 : 0, Xml.points(svg).stream().filter(Xml::hollow).count());
        final String text = String.join("|", Xml.texts(svg));
        assertTrue(text.contains("single-threaded Java CSR"), text);
        assertTrue(text.contains("devices"), text);
        assertTrue(text.contains("median time (ms"), text);
        assertTrue(text.contains("ideal (linear)"), text);
    }

    @Test
    void jsonForSsspAndFixedIterationPageRank() throws IOException {
        Run run = new Run(null, "scaling", "sssp", "--generate", "grid:20x20", "--max-devices", "2", "--runs", "1",
            "--warmups", "0", "--quiet", "--json", "--out", dir.resolve("s").toString(), "--source", "0");
        assertEquals(0, run.exit, run.err);
        Map<String, Object> m = JSON.std.mapFrom(run.out.trim());
        assertEquals("sssp", m.get("app"));
        assertEquals(0, ((Number)m.get("source")).intValue());
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> rows = (List<Map<String, Object>>)m.get("rows");
        assertEquals(2, rows.size());
        assertEquals("passed", rows.get(1).get("verified"));
        assertTrue(Files.exists(dir.resolve("s").resolve("scaling.svg")));

        run = new Run(null, "scaling", "pr", "--generate", "kron:8", "--max-devices", "2", "--runs", "1", "--warmups",
            "0", "--quiet", "--json", "--iterations", "5", "--out", dir.resolve("p").toString());
        assertEquals(0, run.exit, run.err);
        m = JSON.std.mapFrom(run.out.trim());
        assertFalse(m.containsKey("source"));
        @SuppressWarnings("unchecked")
        final List<Map<String, Object>> prRows = (List<Map<String, Object>>)m.get("rows");
        assertFalse(prRows.get(0).containsKey("mteps"), "PageRank is not a traversal");
    }

    @Test
    void aWrongAnswerExitsOneButStillWritesTheFiles() throws IOException {
        final Path out = dir.resolve("wrong");
        final Run run = new Run(mode -> new TestProviders.Renamed(mode, true, false), "scaling", "bfs", "--generate",
            "kron:8", "--max-devices", "2", "--runs", "1", "--warmups", "0", "--quiet", "--out", out.toString());
        assertEquals(1, run.exit, run.out);
        assertTrue(run.err.contains("overlap scaling: verification FAILED on 1 device: vertex "), run.err);
        assertTrue(run.err.contains("verification FAILED on 2 devices"), run.err);
        final List<String> csv = Files.readAllLines(out.resolve("scaling.csv"));
        assertTrue(csv.get(1).endsWith(",FAILED"), csv.toString());
    }

    @Test
    void wrongArgumentsGiveTheReasonInOneLine() throws IOException {
        final Path file = dir.resolve("a-file");
        Files.writeString(file, "x");
        final String[][] cases = {
            {"scaling", "dfs", "--generate", "kron:8"},
            {"scaling", "bfs"},
            {"scaling", "bfs", "--generate", "kron:8", "--max-devices", "0"},
            {"scaling", "bfs", "--generate", "kron:8", "--max-devices", "65"},
            {"scaling", "bfs", "--generate", "kron:8", "--threads-per-device", "0"},
            {"scaling", "bfs", "--generate", "kron:8", "--runs", "0"},
            {"scaling", "bfs", "--generate", "kron:8", "--mode", "turbo"},
            {"scaling", "bfs", "--generate", "kron:8", "--mode", "solo"},
            {"scaling", "bfs", "--generate", "kron:8", "--iterations", "3"},
            {"scaling", "sssp", "--generate", "kron:8", "--direction", "top-down"},
            {"scaling", "pr", "--generate", "kron:8", "--source", "1"},
            {"scaling", "bfs", "--generate", "kron:8", "--source", "100000"},
            {"scaling", "bfs", "--generate", "kron:8", "--out", file.toString()},
            {"scaling", "bfs", "--generate", "kron:8", "--partition", "metis"},
        };
        final String[] reasons = {
            "unknown app 'dfs': expected bfs, pr or sssp", "missing required argument", "--max-devices must be in 1..64, "
                + "was 0", "--max-devices must be in 1..64, was 65", "--threads-per-device must be in 1..1024, was 0",
            "--runs must be in 1..1000, was 0", "--mode must be async or bsp", "--mode must be async or bsp, was "
                + "'solo'", "--iterations and --tolerance are pr "
                + "options, not bfs", "--direction is a bfs option, not sssp", "--source does not apply",
            "--source 100000 is outside 0..255", "exists and is not a directory", "invalid value for option '--partition'",
        };
        for (int i = 0; i < cases.length; i++) {
            final Run run = new Run(TestProviders::bspOnly, cases[i]);
            assertEquals(2, run.exit, String.join(" ", cases[i]) + ": " + run.err);
            assertTrue(run.err.contains(reasons[i]), String.join(" ", cases[i]) + ": " + run.err);
            assertEquals("overlap scaling: ", run.err.substring(0, 17), run.err);
            assertTrue(run.err.strip().endsWith(" (try 'overlap scaling --help')"), run.err);
            assertEquals(1, run.err.strip().lines().count(), run.err);
        }
        final Run async = new Run(TestProviders::bspOnly, "scaling", "bfs", "--generate", "kron:8", "--mode", "async");
        assertEquals(2, async.exit, async.err);
        assertTrue(async.err.contains("async is not built in this test"), async.err);
    }
}
