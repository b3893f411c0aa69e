package dev.overlap.graph.cli;

import com.fasterxml.jackson.jr.ob.JSON;
import dev.overlap.graph.app.GraphAlgorithms;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DemoCommandTest {
    /** Tiny graphs so a whole demo takes a second or two. */
    private static final String[] TINY = {"--jacobi-size", "4096", "--warmups", "0", "--warmup-ms", "0",
        "--runs", "1", "--devices", "2", "--threads-per-device", "1", "--quiet"};

    private static final class Run {
        final int exit;
        final String out;
        final String err;

        Run(final Function<String, GraphAlgorithms> lookup, final String... args) {
            final CommandLine cl = OverlapCommand.commandLine();
            if (lookup != null) {
                ((DemoCommand)cl.getSubcommands().get("demo").getCommand()).lookup = lookup;
            }
            final StringWriter o = new StringWriter();
            final StringWriter e = new StringWriter();
            cl.setOut(new PrintWriter(o));
            cl.setErr(new PrintWriter(e));
            exit = cl.execute(args);
            out = o.toString();
            err = e.toString();
        }

        @SuppressWarnings("unchecked")
        List<Map<String, Object>> rows() throws IOException {
            return (List<Map<String, Object>>)JSON.std.mapFrom(out.trim()).get("rows");
        }
    }

    private static String[] args(final String... first) {
        final boolean graphs = List.of(first).contains("--graphs");
        final String[] all = new String[1 + first.length + TINY.length + (graphs ? 0 : 2)];
        all[0] = "demo";
        System.arraycopy(first, 0, all, 1, first.length);
        System.arraycopy(TINY, 0, all, 1 + first.length, TINY.length);
        if (!graphs) {
            all[all.length - 2] = "--graphs";
            all[all.length - 1] = "kron:8,grid:16x16";
        }
        return all;
    }

    @Test
    void runsEveryAppVerifiesAndPrintsOneTable() {
        final Run run = new Run(TestProviders::bspOnly, args());
        assertEquals(0, run.exit, run.err);
        for (final String s : new String[] {"app", "graph", "mode", "time ms", "MTEPS", "vs seq", "visited/ideal",
            "local pushes", "remote pushes", "messages", "verified"}) {
            assertTrue(run.out.contains(s), s + " column: " + run.out);
        }
        for (final String g : new String[] {"kron:8", "grid:16x16"}) {
            for (final String app : new String[] {"bfs", "pr", "sssp"}) {
                assertTrue(run.out.lines().anyMatch(l -> l.startsWith(app + " ") && l.contains(g) && l.contains("java seq")
                    && l.endsWith("reference")), app + " " + g + " reference row: " + run.out);
                assertTrue(run.out.lines().anyMatch(l -> l.startsWith(app + " ") && l.contains(g) && l.contains(" bsp ")
                    && l.endsWith("yes")), app + " " + g + " bsp row: " + run.out);
            }
        }
        assertTrue(run.out.contains("proact BULK/64KiB/0t"), run.out);
        assertTrue(run.out.contains("proact profiler: "), run.out);
        assertFalse(run.out.lines().anyMatch(l -> l.endsWith(" NO")), run.out);
        assertTrue(run.out.contains("note: async mode not available (async is not built in this test): its rows are "
            + "skipped"), run.out);
        assertTrue(run.out.contains("every answer verified against the sequential reference; wall time"), run.out);
        assertFalse(run.out.lines().anyMatch(l -> l.startsWith("bfs ") && l.contains(" async ")), run.out);
    }

    @Test
    void jsonHasARowPerAppGraphAndMode() throws IOException {
        final Run run = new Run(mode -> new TestProviders.Renamed(mode, false, false), args("--json", "--apps", "bfs,sssp,jacobi"));
        assertEquals(0, run.exit, run.err);
        final Map<String, Object> top = JSON.std.mapFrom(run.out.trim());
        assertEquals("passed", top.get("verified"));
        assertEquals(List.of(), top.get("notes"));
        final List<Map<String, Object>> rows = run.rows();
        // 2 graphs x 2 apps x (java seq + bsp + async + solo + coop) + jacobi (java seq + 5 configs + profiler choice)
        assertEquals(2 * 2 * 5 + 7, rows.size(), rows.toString());
        final Set<String> seen = new HashSet<>();
        for (final Map<String, Object> r : rows) {
            seen.add(r.get("app") + " " + r.get("graph") + " " + r.get("mode"));
            assertTrue(List.of("passed", "reference").contains(r.get("verified")), r.toString());
            assertTrue(((Number)r.get("timeMs")).doubleValue() >= 0, r.toString());
            if (!r.get("app").equals("jacobi")) {
                assertTrue(((Number)r.get("mteps")).doubleValue() > 0, r.toString());
                assertEquals(((Number)r.get("edgesTraversed")).longValue() > 0, true, r.toString());
            }
            assertTrue(r.containsKey("vsSequential"), r.toString());
        }
        assertTrue(seen.contains("bfs kron:8 async"), seen.toString());
        assertTrue(seen.contains("sssp grid:16x16 async"), seen.toString());
        assertTrue(seen.contains("bfs grid:16x16 solo"), seen.toString());
        assertTrue(seen.contains("sssp grid:16x16 java seq"), seen.toString());
        assertFalse(seen.stream().anyMatch(s -> s.startsWith("pr ")), seen.toString());
    }

    @Test
    void aWrongAnswerFailsTheDemo() {
        final Run run = new Run(mode -> new TestProviders.Renamed(mode, mode.equals("async"), false), args("--apps", "bfs"));
        assertEquals(1, run.exit, run.out);
        assertTrue(run.out.lines().anyMatch(l -> l.startsWith("bfs ") && l.contains(" async ") && l.endsWith(" NO")),
            run.out);
        assertTrue(run.out.contains("VERIFICATION FAILED"), run.out);
        assertTrue(run.err.contains("overlap demo: verification FAILED: bfs kron:8 async: vertex "), run.err);
        assertTrue(run.err.contains("sequential BFS says 0"), run.err);
    }

    @Test
    void anAppAProviderDoesNotSupportIsSkippedWithANote() throws IOException {
        final Run run = new Run(mode -> new TestProviders.Renamed(mode, false, mode.equals("async")), args("--apps", "pr", "--json",
            "--graphs", "kron:8"));
        assertEquals(0, run.exit, run.err);
        final Map<String, Object> top = JSON.std.mapFrom(run.out.trim());
        assertEquals(List.of("async pr skipped: the provider does not support it (no PageRank here)"), top.get("notes"));
        assertEquals(4, run.rows().size(), "java seq, bsp, solo and coop: " + run.out);
    }

    @Test
    void jacobiAloneGeneratesNoGraph() throws IOException {
        final Run run = new Run(TestProviders::bspOnly, args("--apps", "jacobi", "--json"));
        assertEquals(0, run.exit, run.err);
        final Map<String, Object> top = JSON.std.mapFrom(run.out.trim());
        assertEquals(List.of(), top.get("graphs"));
        assertEquals(List.of(), top.get("notes"), "no mode is looked up when no graph app runs");
        assertEquals(7, run.rows().size());
    }

    @Test
    void theSoloPathIsARowOfItsOwnOnOneWorkerBesideTheParallelModes() throws IOException {
        final Run run = new Run(dev.overlap.graph.app.Algorithms::forMode, args("--json", "--apps", "bfs,pr,sssp",
            "--modes", "bsp,solo"));
        assertEquals(0, run.exit, run.err);
        final Set<String> seen = new HashSet<>();
        for (final Map<String, Object> r : run.rows()) {
            seen.add(r.get("app") + " " + r.get("graph") + " " + r.get("mode"));
            if (r.get("mode").equals("solo")) {
                assertEquals("passed", r.get("verified"), r.toString());
                assertEquals("1", String.valueOf(r.get("threads")), r.toString());
            }
        }
        for (final String app : new String[] {"bfs", "pr", "sssp"}) {
            for (final String g : new String[] {"kron:8", "grid:16x16"}) {
                assertTrue(seen.contains(app + " " + g + " solo"), seen.toString());
                assertTrue(seen.contains(app + " " + g + " bsp"), "the parallel modes stay: " + seen);
            }
        }
    }

    @Test
    void theRowOfTheModeAutoPicksIsMarkedOnceAndOnlyThere() throws IOException {
        final Run run = new Run(dev.overlap.graph.app.Algorithms::forMode, args("--json", "--apps", "bfs,pr,sssp",
            "--modes", "bsp,solo"));
        assertEquals(0, run.exit, run.err);
        final Map<String, Integer> marks = new HashMap<>();
        for (final Map<String, Object> r : run.rows()) {
            if (Boolean.TRUE.equals(r.get("autoPick"))) {
                // tiny graphs: auto takes the one-thread path for every app
                assertEquals("solo", r.get("mode"), r.toString());
                marks.merge(r.get("app") + " " + r.get("graph"), 1, Integer::sum);
            }
        }
        assertEquals(6, marks.size(), "one marked row per app and graph: " + marks);
        assertTrue(marks.values().stream().allMatch(c -> c == 1), marks.toString());
        final Run text = new Run(dev.overlap.graph.app.Algorithms::forMode, args("--apps", "bfs", "--modes",
            "bsp,solo"));
        assertEquals(0, text.exit, text.err);
        assertTrue(text.out.lines().anyMatch(l -> l.startsWith("bfs ") && l.contains(" solo <- auto ")), text.out);
        assertTrue(text.out.lines().noneMatch(l -> l.contains(" bsp <- auto")), text.out);
    }

    @Test
    void wrongArgumentsGiveTheReasonInOneLine() {
        final String[][] cases = {
            {"demo", "--apps", "bfs,dfs"},
            {"demo", "--modes", "bsp,turbo"},
            {"demo", "--graphs", "ring:4"},
            {"demo", "--runs", "0"},
            {"demo", "--warmups", "-1"},
            {"demo", "--warmup-ms", "60001"},
            {"demo", "--jacobi-size", "1"},
            {"demo", "--devices", "0"},
            {"demo", "--bogus"},
        };
        final String[] reasons = {
            "--apps: unknown app 'dfs': expected bfs, pr, sssp or jacobi", "--modes: unknown mode 'turbo': expected bsp, async, solo or coop",
            "unknown generator 'ring'", "--runs must be in 1..100, was 0", "--warmups must be in 0..100, was -1",
            "--warmup-ms must be in 0..60000, was 60001", "--jacobi-size must be in 2..", "--devices must be in 1..64, was 0", "unknown option '--bogus'",
        };
        for (int i = 0; i < cases.length; i++) {
            final Run run = new Run(null, cases[i]);
            assertEquals(2, run.exit, String.join(" ", cases[i]) + ": " + run.err);
            assertTrue(run.err.contains(reasons[i]), String.join(" ", cases[i]) + ": " + run.err);
            assertEquals("overlap demo: ", run.err.substring(0, 14), run.err);
            assertTrue(run.err.strip().endsWith(" (try 'overlap demo --help')"), run.err);
            assertEquals(1, run.err.strip().lines().count(), run.err);
        }
    }
}
