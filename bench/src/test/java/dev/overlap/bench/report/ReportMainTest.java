package dev.overlap.bench.report;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ReportMainTest {
    @TempDir
    Path tmp;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(final String... args) {
        return ReportMain.execute(new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8), args);
    }

    private String out() {
        return out.toString(StandardCharsets.UTF_8);
    }

    private String err() {
        return err.toString(StandardCharsets.UTF_8);
    }

    @Test
    void reportFromRecordedJson() {
        final Path dir = tmp.resolve("r");
        assertEquals(0, run("report", "--out", dir.toString(), Fixtures.json("proact-tiny.json").toString()));
        assertTrue(out().startsWith("report: " + dir.toAbsolutePath().resolve("report.md")
            + " (6 results from 1 classes, 2 charts, 2 oversubscribed rows)"), out());
        assertTrue(Files.exists(dir.resolve("report.html")));
    }

    @Test
    void malformedJsonExitsWith2AndAClearMessage() {
        final Path dir = tmp.resolve("r");
        final Path bad = Fixtures.json("malformed-truncated.json");
        assertEquals(2, run("report", "--out", dir.toString(), bad.toString()));
        assertTrue(err().startsWith("overlap bench: " + bad + ": truncated JSON (the JMH run may not have finished) "
            + "at line "), err());
        assertFalse(Files.exists(dir));
    }

    @Test
    void failOnRegressionExitsWith3() {
        final String baseline = Fixtures.json("queues-thrpt-baseline.json").toString();
        final String now = Fixtures.json("queues-thrpt.json").toString();
        assertEquals(3, run("report", "--out", tmp.resolve("a").toString(), "--baseline", baseline,
            "--fail-on-regression", now));
        assertTrue(out().contains("1 regressions and 1 improvements vs "), out());
        assertEquals(0, run("report", "--out", tmp.resolve("b").toString(), "--baseline", baseline, now));
    }

    @Test
    void dryRunPrintsThePlanAndRunsNothing() {
        assertEquals(0, run("run", "--dry-run", "--include", "ProactFig6", "--work", tmp.toString()));
        assertTrue(out().contains("Plan (--quick): 1 classes"), out());
        assertTrue(out().contains("ProactFig6Benchmark"), out());
        assertTrue(out().contains("-p regionMiB=64 -p chunkBytes=4096,65536,1048576,16777216"), out());
        assertTrue(out().contains("Estimated JMH time: 1 min 48 s"), out());
        try (var files = Files.list(tmp)) {
            assertEquals(0, files.count(), "a dry run writes nothing");
        } catch (final java.io.IOException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void usageErrors() {
        assertEquals(2, run("run", "--dry-run", "--include", "NoSuchBenchmarkAnywhere"));
        assertTrue(err().contains("no benchmark matches --include NoSuchBenchmarkAnywhere"), err());
        assertEquals(2, run("run", "--dry-run", "--", "-nonsense"));
        assertTrue(err().contains("not valid JMH options"), err());
        assertEquals(2, run("run", "--quick", "--full", "--dry-run"));
        assertEquals(2, run("report"));
        final int before = err().length();
        assertEquals(2, run("run", "--bogus"));
        // one line, as the overlap command's usage errors: the reason, not a screen of options
        assertEquals("overlap bench run: unknown option '--bogus' (try 'overlap bench run --help')",
            err().substring(before).strip());
        assertEquals(0, run("--help"));
        assertTrue(out().contains("run") && out().contains("report"));
    }
}
