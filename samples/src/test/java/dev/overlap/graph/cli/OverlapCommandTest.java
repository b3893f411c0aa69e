package dev.overlap.graph.cli;

import com.fasterxml.jackson.jr.ob.JSON;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The top-level command: its help, its version, case-insensitive values and the timing options of the apps. */
class OverlapCommandTest {
    @TempDir
    Path dir;

    @Test
    void helpListsTheLauncherCommandsBesideTheOthers() {
        final CliRun run = new CliRun("--help");
        assertEquals(0, run.exit, run.err);
        final int generate = run.out.indexOf("\n  generate ");
        final int bench = run.out.indexOf("\n  bench ");
        final int benchGraphs = run.out.indexOf("\n  bench-graphs ");
        final int help = run.out.indexOf("\n  help ");
        assertTrue(generate > 0 && generate < bench && bench < benchGraphs && benchGraphs < help, run.out);
        assertTrue(run.out.contains("run by the ./overlap launcher script"), run.out);
    }

    @Test
    void versionIsTheBuildsOnEveryCommand() throws IOException {
        final String expected = "overlap " + projectVersion();
        for (final String[] args : new String[][] {{"-V"}, {"--version"}, {"bfs", "-V"}, {"jacobi", "--version"}}) {
            final CliRun run = new CliRun(args);
            assertEquals(0, run.exit, run.err);
            assertEquals(expected, run.out.lines().findFirst().orElse(""), String.join(" ", args));
            assertTrue(run.out.contains("Java " + System.getProperty("java.version")), run.out);
        }
    }

    /** @return the project version from the POM this module is built from (the parent's) */
    private static String projectVersion() throws IOException {
        final String pom = Files.readString(Path.of("pom.xml"));
        final int parent = pom.indexOf("<parent>");
        final int start = pom.indexOf("<version>", parent) + "<version>".length();
        return pom.substring(start, pom.indexOf("</version>", start));
    }

    @Test
    void formatModeAndKindValuesAreCaseInsensitive() throws IOException {
        final Path el = dir.resolve("g.txt");
        Files.writeString(el, "0 1\n1 2\n2 0\n");
        final Path answer = dir.resolve("a.bin");
        final CliRun run = new CliRun("bfs", "--graph", el.toString(), "--format", "EL", "--mode", "ASYNC", "--queue",
            "FIFO", "--kernel", "Discrete", "--direction", "TOP-DOWN", "--partition", "HASH", "--output",
            answer.toString(), "--output-format", "Binary", "--devices", "2", "--threads-per-device", "1", "--json",
            "--quiet");
        assertEquals(0, run.exit, run.err);
        final Map<String, Object> m = JSON.std.mapFrom(run.out.trim());
        assertEquals("async", m.get("mode"));
        assertEquals("top-down", m.get("direction"));
        assertEquals("passed", m.get("verified"));
        assertTrue(Files.size(answer) > 32);
        final CliRun pr = new CliRun("pr", "--generate", "KRON:6", "--mode", "Async", "--async-variant", "PUSH",
            "--devices", "1", "--quiet");
        assertEquals(0, pr.exit, pr.err);
        final CliRun jacobi = new CliRun("jacobi", "--size", "1000", "--transfer", "Bulk", "--partition", "Range",
            "--quiet");
        assertEquals(0, jacobi.exit, jacobi.err);
    }

    @Test
    void appsTakeWarmupsAndReportTheMedianMinAndMax() throws IOException {
        for (final String app : new String[] {"bfs", "pr", "sssp"}) {
            final CliRun run = new CliRun(app, "--generate", "grid:10x10", "--warmups", "2", "--runs", "3",
                "--devices", "2", "--threads-per-device", "1", "--json", "--quiet");
            assertEquals(0, run.exit, run.err);
            final Map<String, Object> m = JSON.std.mapFrom(run.out.trim());
            assertEquals(2, ((Number)m.get("warmups")).intValue());
            assertEquals(3, ((Number)m.get("runs")).intValue());
            final String[] times = ((String)m.get("runTimesMs")).split(" ");
            assertEquals(3, times.length);
            final double min = ((Number)m.get("minMs")).doubleValue();
            final double max = ((Number)m.get("maxMs")).doubleValue();
            final double median = ((Number)m.get("timeMs")).doubleValue();
            assertTrue(min <= median && median <= max, run.out);
            final CliRun once = new CliRun(app, "--generate", "grid:10x10", "--warmups", "0", "--devices", "1",
                "--quiet");
            assertEquals(0, once.exit, once.err);
            assertTrue(once.out.contains("warmups           0"), once.out);
            assertFalse(once.out.contains("minMs"), once.out);
        }
    }
}
