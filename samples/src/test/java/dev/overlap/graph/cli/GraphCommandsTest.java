package dev.overlap.graph.cli;

import com.fasterxml.jackson.jr.ob.JSON;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class GraphCommandsTest {
    @TempDir
    Path dir;

    private static final class Run {
        final int exit;
        final String out;
        final String err;

        Run(final String... args) {
            final CommandLine cl = OverlapCommand.commandLine();
            final StringWriter o = new StringWriter();
            final StringWriter e = new StringWriter();
            cl.setOut(new PrintWriter(o));
            cl.setErr(new PrintWriter(e));
            exit = cl.execute(args);
            out = o.toString();
            err = e.toString();
        }

        Map<String, Object> json() throws IOException {
            return JSON.std.mapFrom(out.trim());
        }
    }

    private static final String[] SMALL = {"--devices", "2", "--threads-per-device", "1", "--quiet"};

    private static String[] args(final String... first) {
        final String[] all = new String[first.length + SMALL.length];
        System.arraycopy(first, 0, all, 0, first.length);
        System.arraycopy(SMALL, 0, all, first.length, SMALL.length);
        return all;
    }

    @Test
    void bfsOnGeneratedGraphsVerifiesAndReports() throws IOException {
        for (final String g : new String[] {"kron:10", "urand:10", "grid:30x30"}) {
            final Run run = new Run(args("bfs", "--generate", g, "--json", "--runs", "2"));
            assertEquals(0, run.exit, run.err);
            final Map<String, Object> m = run.json();
            assertEquals("bfs", m.get("app"));
            assertEquals("passed", m.get("verified"));
            assertEquals(((Number)m.get("visited")).longValue(), ((Number)m.get("ideal")).longValue());
            assertTrue(((Number)m.get("mteps")).doubleValue() > 0);
            assertEquals(2, ((Number)m.get("runs")).intValue());
        }
        final Run table = new Run(args("bfs", "--generate", "grid:20x20", "--source", "0", "--direction", "top-down",
            "--partition", "hash"));
        assertEquals(0, table.exit, table.err);
        assertTrue(table.out.contains("maxDepth          38"), table.out);
        assertTrue(table.out.contains("verified          passed"), table.out);
        final Run noted = new Run("bfs", "--generate", "kron:8", "--devices", "1", "--queue", "priority");
        assertEquals(0, noted.exit, noted.err);
        assertTrue(noted.err.contains("note: --queue applies to --mode async"), noted.err);
    }

    @Test
    void ssspAndPageRankAndJacobiVerify() throws IOException {
        Run run = new Run(args("sssp", "--generate", "kron:10", "--json"));
        assertEquals(0, run.exit, run.err);
        assertEquals("passed", run.json().get("verified"));
        run = new Run(args("sssp", "--generate", "grid:30x30", "--json", "--source", "0"));
        assertEquals(0, run.exit, run.err);
        assertTrue(((Number)run.json().get("normalizedWork")).doubleValue() >= 1.0);
        run = new Run(args("pr", "--generate", "kron:10", "--json", "--tolerance", "1e-6"));
        assertEquals(0, run.exit, run.err);
        assertEquals("passed", run.json().get("verified"));
        run = new Run(args("pr", "--generate", "grid:30x30", "--json", "--iterations", "20"));
        assertEquals(0, run.exit, run.err);
        assertEquals(20, ((Number)run.json().get("iterations")).intValue());
        run = new Run(args("jacobi", "--size", "5000", "--band", "3", "--json"));
        assertEquals(0, run.exit, run.err);
        assertEquals("passed", run.json().get("verified"));
        assertTrue(((Number)run.json().get("bytesSent")).longValue() > 0);
        run = new Run(args("jacobi", "--size", "5000", "--transfer", "bulk"));
        assertEquals(0, run.exit, run.err);
        assertTrue(run.out.contains("BULK/64KiB"), run.out);
    }

    @Test
    void asyncModeRunsEveryAppAndVerifies() throws IOException {
        for (final String g : new String[] {"kron:10", "grid:30x30"}) {
            Run run = new Run(args("bfs", "--generate", g, "--mode", "async", "--json", "--runs", "2"));
            assertEquals(0, run.exit, run.err);
            Map<String, Object> m = run.json();
            assertEquals("async", m.get("mode"));
            assertEquals("passed", m.get("verified"));
            assertTrue(((Number)m.get("visited")).longValue() >= ((Number)m.get("ideal")).longValue(), run.out);
            assertTrue(((Number)m.get("mteps")).doubleValue() > 0);
            assertTrue(((Number)m.get("remotePushes")).longValue() > 0, run.out);
            run = new Run(args("sssp", "--generate", g, "--mode", "async", "--queue", "priority", "--json"));
            assertEquals(0, run.exit, run.err);
            assertEquals("passed", run.json().get("verified"));
            run = new Run(args("pr", "--generate", g, "--mode", "async", "--json", "--tolerance", "1e-6"));
            assertEquals(0, run.exit, run.err);
            m = run.json();
            assertEquals("passed", m.get("verified"));
            assertTrue(((Number)m.get("remoteAtomics")).longValue() > 0, run.out);
        }
        Run run = new Run(args("bfs", "--generate", "grid:20x20", "--mode", "async", "--kernel", "discrete",
            "--batch-bytes", "0", "--fetch", "1", "--source", "0"));
        assertEquals(0, run.exit, run.err);
        assertTrue(run.out.contains("maxDepth          38"), run.out);
        assertTrue(run.out.contains("verified          passed"), run.out);
        run = new Run(args("sssp", "--generate", "kron:9", "--mode", "async", "--queue", "priority", "--delta", "16",
            "--json"));
        assertEquals(0, run.exit, run.err);
        assertEquals("passed", run.json().get("verified"));
        run = new Run("pr", "--generate", "kron:9", "--mode", "async", "--iterations", "20", "--devices", "2",
            "--threads-per-device", "1", "--json");
        assertEquals(0, run.exit, run.err);
        assertTrue(run.err.contains("async PageRank has no iterations"), run.err);
        assertEquals("passed", run.json().get("verified"));
        run = new Run("bfs", "--generate", "kron:8", "--devices", "1", "--fetch", "4");
        assertEquals(0, run.exit, run.err);
        assertTrue(run.err.contains("note: --fetch applies to --mode async"), run.err);
    }

    @Test
    void jacobiProfilesSavesAndReusesTheChoice() throws IOException {
        final Path profile = dir.resolve("jacobi.json");
        Run run = new Run(args("jacobi", "--size", "4096", "--transfer", "profile", "--profile", profile.toString(),
            "--json"));
        assertEquals(0, run.exit, run.err);
        assertEquals("profiler", run.json().get("chosenBy"));
        assertTrue(Files.exists(profile));
        final Object chosen = run.json().get("transfer");
        run = new Run(args("jacobi", "--size", "4096", "--profile", profile.toString(), "--json"));
        assertEquals(0, run.exit, run.err);
        assertEquals(chosen, run.json().get("transfer"));
    }

    @Test
    void loadedFilesConvertAndRunOnDisconnectedGraphs() throws IOException {
        final Path el = dir.resolve("two.el");
        Files.write(el, "0 1\n1 2\n2 0\n4 5\n5 6\n".getBytes(StandardCharsets.US_ASCII));
        final Path bin = dir.resolve("two.bcsr");
        Run run = new Run("convert", el.toString(), bin.toString(), "--symmetrize", "--quiet");
        assertEquals(0, run.exit, run.err);
        assertTrue(run.out.contains("7 vertices, 10 edges, symmetric"), run.out);
        for (final String app : new String[] {"bfs", "sssp", "pr"}) {
            run = new Run(app.equals("pr") ? args(app, "--graph", bin.toString(), "--json")
                : args(app, "--graph", bin.toString(), "--source", "0", "--json"));
            assertEquals(0, run.exit, app + ": " + run.err);
            assertEquals("passed", run.json().get("verified"), app);
        }
        run = new Run(args("bfs", "--graph", bin.toString(), "--source", "3", "--json"));
        assertEquals(0, run.exit, run.err);
        assertEquals(1, ((Number)run.json().get("reached")).intValue());
        run = new Run(args("pr", "--graph", el.toString(), "--json"));
        assertEquals(0, run.exit, "directed PageRank: " + run.err);
        run = new Run(args("bfs", "--graph", el.toString(), "--source", "4", "--no-verify", "--json"));
        assertEquals("skipped", run.json().get("verified"));
    }

    @Test
    void generateWritesABinaryGraphThatLoadsAgain() throws IOException {
        final Path bin = dir.resolve("k.bcsr");
        Run run = new Run("generate", "kron:9", bin.toString(), "--weights", "--seed", "3", "-q");
        assertEquals(0, run.exit, run.err);
        assertTrue(run.out.contains("kron:9 seed 3 -> "), run.out);
        run = new Run(args("sssp", "--graph", bin.toString(), "--json"));
        assertEquals(0, run.exit, run.err);
        assertEquals("passed", run.json().get("verified"));
        run = new Run("generate", "kron:x", bin.toString());
        assertEquals(2, run.exit);
        assertTrue(run.err.contains("invalid value for positional parameter at index 0 (SPEC)"), run.err);
    }

    @Test
    void brokenFilesGiveFileLineReasonAndExitOne() throws IOException {
        final Path mtx = dir.resolve("graph.mtx");
        Files.write(mtx, "%%MatrixMarket matrix coordinate integer general\n3 3 2\n1 2 1\n2 3\n"
            .getBytes(StandardCharsets.US_ASCII));
        Run run = new Run(args("bfs", "--graph", mtx.toString()));
        assertEquals(1, run.exit);
        assertEquals("overlap bfs: " + mtx + ":4: expected 3 fields, found 2", run.err.trim());
        assertFalse(run.err.contains("Exception"), run.err);
        run = new Run(args("sssp", "--graph", dir.resolve("none.gr").toString()));
        assertEquals(1, run.exit);
        assertTrue(run.err.contains("none.gr: no such file"), run.err);
        run = new Run("convert", mtx.toString(), dir.resolve("g.bcsr").toString(), "-q");
        assertEquals(1, run.exit);
        assertTrue(run.err.contains(":4: expected 3 fields, found 2"), run.err);
    }

    @Test
    void soloIsAModeOfEveryAppVerifiedAndReportedOnOneWorker() throws IOException {
        for (final String app : new String[] {"bfs", "pr", "sssp"}) {
            for (final String g : new String[] {"kron:9", "grid:20x20", "road:500"}) {
                final Run run = new Run(args(app, "--generate", g, "--mode", "solo", "--json", "--runs", "2"));
                assertEquals(0, run.exit, app + " " + g + ": " + run.err);
                final Map<String, Object> m = run.json();
                assertEquals("solo", m.get("mode"), m.toString());
                assertEquals("passed", m.get("verified"), m.toString());
                assertEquals(1, ((Number)m.get("devices")).intValue(), "one device whatever --devices says: " + m);
                assertEquals(1, ((Number)m.get("threadsPerDevice")).intValue(), m.toString());
                assertTrue(((Number)m.get("edgesScanned")).longValue() > 0, m.toString());
                assertFalse(m.containsKey("modeChoice"), "a mode given is not a choice: " + m);
                if (!app.equals("sssp")) {
                    assertEquals(((Number)m.get("visited")).longValue(), ((Number)m.get("ideal")).longValue(),
                        m.toString());
                }
            }
        }
    }

    @Test
    void autoIsTheDefaultAndSaysWhichPathItTookAndWhyInOneLine() throws IOException {
        final Run run = new Run("bfs", "--generate", "grid:20x20", "--json", "--devices", "2",
            "--threads-per-device", "1");
        assertEquals(0, run.exit, run.err);
        final Map<String, Object> m = run.json();
        assertEquals("solo", m.get("mode"), m.toString());
        assertEquals("passed", m.get("verified"), m.toString());
        final String line = "overlap bfs: mode auto -> solo (bfs on 1.52k edges, below 1.5M at mean degree 3.8 < 8)";
        assertTrue(run.err.contains(line + System.lineSeparator()), run.err);
        assertEquals(line.substring("overlap bfs: ".length()), m.get("modeChoice"), m.toString());
        final Run pr = new Run("pr", "--generate", "grid:20x20", "--json", "-q");
        assertEquals(0, pr.exit, pr.err);
        assertEquals("sweep auto -> jacobi (to a tolerance, mean degree 3.8 < 8)", pr.json().get("sweepChoice"),
            pr.out);
        final Run async = new Run("pr", "--generate", "kron:9", "--mode", "async", "--json", "-q");
        assertEquals(0, async.exit, async.err);
        assertTrue(String.valueOf(async.json().get("variantChoice")).startsWith("async variant auto -> pull "
            + "(symmetric, mean degree "), async.out);
        assertFalse(async.json().containsKey("sweepChoice"), "async PageRank has no sweep: " + async.out);
        final Run quiet = new Run(args("sssp", "--generate", "kron:9", "--mode", "AUTO", "--json"));
        assertEquals(0, quiet.exit, quiet.err);
        assertEquals("solo", quiet.json().get("mode"));
        assertFalse(quiet.err.contains("mode auto"), "--quiet keeps standard error quiet: " + quiet.err);
        final Run noted = new Run("pr", "--generate", "kron:8", "--mode", "solo", "--devices", "2", "--fetch", "64");
        assertEquals(0, noted.exit, noted.err);
        assertTrue(noted.err.contains("overlap pr: note: --devices does not apply to --mode solo, which runs one "
            + "thread over one device's memory"), noted.err);
        assertTrue(noted.err.contains("overlap pr: note: --fetch applies to --mode async; --mode solo ignores it"),
            noted.err);
        final Run parallel = new Run(args("sssp", "--generate", "kron:9", "--mode", "bsp", "--json"));
        assertEquals("bsp", parallel.json().get("mode"), "a mode given explicitly runs as given");
        assertEquals(2, ((Number)parallel.json().get("devices")).intValue());
    }

    /** Every mode's SSSP is delta-stepping, so --delta is taken, not noted as ignored, and it moves the rounds. */
    @Test
    void deltaAppliesToEveryModesSssp() throws IOException {
        for (final String mode : new String[] {"bsp", "solo", "coop"}) {
            final Run narrow = new Run("sssp", "--generate", "grid:30x30", "--mode", mode, "--delta", "1", "--json",
                "--devices", "2", "--threads-per-device", "1"); // not quiet: a note would show
            assertEquals(0, narrow.exit, narrow.err);
            assertFalse(narrow.err.contains("--delta"), mode + ": " + narrow.err);
            final Run wide = new Run(args("sssp", "--generate", "grid:30x30", "--mode", mode, "--delta", "256",
                "--json"));
            assertEquals(0, wide.exit, wide.err);
            assertTrue(((Number)wide.json().get("iterations")).longValue()
                < ((Number)narrow.json().get("iterations")).longValue(), mode + ": wider buckets, fewer rounds");
        }
    }

    @Test
    void wrongArgumentsGiveOneLineAndExitTwo() {
        final String[][] cases = {
            {"bfs"},
            {"bfs", "--generate", "kron:10", "--graph", "x.el"},
            {"bfs", "--generate", "ring:10"},
            {"bfs", "--generate", "kron:10", "--devices", "0"},
            {"bfs", "--generate", "kron:10", "--mode", "async", "--fetch", "0"},
            {"sssp", "--generate", "kron:10", "--mode", "async", "--delta", "-1"},
            {"bfs", "--generate", "kron:10", "--mode", "turbo"},
            {"sssp", "--generate", "kron:10", "--mode", ""},
            {"bfs", "--generate", "kron:10", "--queue", "lifo"},
            {"bfs", "--generate", "kron:10", "--kernel", "fused"},
            {"bfs", "--generate", "kron:10", "--source", "99999"},
            {"bfs", "--generate", "kron:10", "--direction", "sideways"},
            {"bfs", "--generate", "kron:10", "--batch-bytes", "1"},
            {"pr", "--generate", "kron:10", "--damping", "1.5"},
            {"pr", "--generate", "kron:10", "--iterations", "0"},
            {"pr", "--generate", "kron:10", "--source", "3"},
            {"pr", "--generate", "kron:10", "--mode", "async", "--async-variant", "sideways"},
            {"sssp", "--generate", "kron:10", "--partition", "metis"},
            {"jacobi", "--transfer", "none"},
            {"jacobi", "--size", "0"},
            {"convert", "a.el"},
            {"convert", "a.el", "b.el"},
        };
        final String[] reasons = {
            "missing required argument", "mutually exclusive", "unknown generator 'ring'", "--devices must be in 1..64",
            "--fetch: fetch must be in 1..65536", "--delta: delta must be >= 0",
            "--mode must be async, bsp, solo, coop or auto, was 'turbo'",
            "--mode must be async, bsp, solo, coop or auto, was ''",
            "--queue must be fifo, priority or auto", "--kernel must be persistent or discrete", "--source 99999 is outside",
            "--direction must be top-down or optimizing", "batch bytes must be 0 (eager) or in", "damping must be in (0, 1)",
            "--iterations must be >= 1", "--source does not apply",
            "--async-variant must be push, pull or auto, was 'sideways'", "invalid value for option '--partition'", "--transfer must be inline",
            "--size must be in", "missing required parameter", "OUT must end in .bcsr",
        };
        for (int i = 0; i < cases.length; i++) {
            final Run run = new Run(cases[i]);
            assertEquals(2, run.exit, String.join(" ", cases[i]) + ": " + run.err);
            assertTrue(run.err.contains(reasons[i]), String.join(" ", cases[i]) + ": " + run.err);
            assertTrue(run.err.startsWith("overlap " + cases[i][0] + ": "), run.err);
            assertTrue(run.err.strip().endsWith(" (try 'overlap " + cases[i][0] + " --help')"), run.err);
            assertEquals(1, run.err.strip().lines().count(), run.err);
        }
    }

    @Test
    void helpListsTheSubcommands() {
        final Run run = new Run("--help");
        assertEquals(0, run.exit);
        for (final String s : new String[] {"demo", "proact-demo", "bfs", "pr", "sssp", "jacobi", "scaling", "convert",
            "generate"}) {
            assertTrue(run.out.contains("  " + s), run.out);
        }
    }
}
