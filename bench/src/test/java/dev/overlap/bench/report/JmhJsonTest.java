package dev.overlap.bench.report;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class JmhJsonTest {
    @TempDir
    Path tmp;

    @Test
    void readsARecordedRun() throws ReportException {
        final List<JmhResult> rs = JmhJson.read(Fixtures.json("proact-tiny.json"));
        assertEquals(6, rs.size());
        final JmhResult bulk = rs.get(0);
        assertEquals("dev.overlap.bench.proact.ProactFig6Benchmark", bulk.className());
        assertEquals("iteration", bulk.method());
        assertEquals("avgt", bulk.mode());
        assertEquals("ms/op", bulk.primary().unit());
        assertTrue(Double.isNaN(bulk.primary().error()), "2 iterations: JMH writes \"NaN\" as the error");
        assertEquals(2, bulk.primary().samples());
        assertEquals(List.of("chunkBytes", "mode", "regionMiB", "work"), List.copyOf(bulk.params().keySet()));
        assertEquals("BULK", bulk.params().get("mode"));
        assertTrue(bulk.jvmArgs().contains("java.base/jdk.internal.misc=ALL-UNNAMED"));
        assertEquals("1.37", bulk.jmhVersion());
        assertTrue(!bulk.higherIsBetter());
    }

    @Test
    void readsErrorsAndSecondaryMetrics() throws ReportException {
        final List<JmhResult> rs = JmhJson.read(Fixtures.json("core-mixed.json"));
        final JmhResult copy = rs.get(0);
        assertTrue(copy.higherIsBetter());
        assertTrue(copy.primary().error() > 0);
        assertEquals("bytes/s", copy.secondary().get("bytes").unit());
    }

    @Test
    void truncatedFileIsAClearErrorNamingTheFile() {
        final Path f = Fixtures.json("malformed-truncated.json");
        final ReportException e = assertThrows(ReportException.class, () -> JmhJson.read(f));
        assertTrue(e.getMessage().startsWith(f.toString() + ": truncated JSON"), e.getMessage());
        assertTrue(e.getMessage().contains("line "), e.getMessage());
    }

    @Test
    void syntaxErrorNamesLineAndColumn() throws IOException {
        final Path f = Files.writeString(tmp.resolve("bad.json"), "[\n  { \"benchmark\" : x }\n]\n");
        final ReportException e = assertThrows(ReportException.class, () -> JmhJson.read(f));
        assertTrue(e.getMessage().startsWith(f + ": malformed JSON at line 2"), e.getMessage());
    }

    @Test
    void wrongShapesAreNamed() {
        assertMessage("malformed-not-array.json", "expected a JSON array of results, found an object");
        assertMessage("malformed-missing-metric.json", "result #2 (dev.overlap.bench.proact.ProactFig6Benchmark"
            + ".iteration): 'primaryMetric' is missing");
        assertMessage("malformed-empty-array.json", "contains no benchmark results");
    }

    @Test
    void missingEmptyAndTrailingContent() throws IOException {
        final Path missing = tmp.resolve("nope.json");
        assertTrue(assertThrows(ReportException.class, () -> JmhJson.read(missing)).getMessage()
            .equals(missing + ": no such file"));
        final Path empty = Files.writeString(tmp.resolve("empty.json"), "");
        assertTrue(assertThrows(ReportException.class, () -> JmhJson.read(empty)).getMessage().contains("empty file"));
        final String one = Files.readString(Fixtures.json("proact-tiny.json"));
        final Path twice = Files.writeString(tmp.resolve("twice.json"), one + one);
        assertTrue(assertThrows(ReportException.class, () -> JmhJson.read(twice)).getMessage()
            .contains("unexpected content after the results array"));
    }

    @Test
    void badFieldsAreNamed() throws IOException {
        final String ok = Files.readString(Fixtures.json("proact-tiny.json"));
        final Path mode = Files.writeString(tmp.resolve("mode.json"), ok.replaceFirst("\"avgt\"", "\"fast\""));
        assertTrue(assertThrows(ReportException.class, () -> JmhJson.read(mode)).getMessage()
            .contains("result #1 (dev.overlap.bench.proact.ProactFig6Benchmark.iteration): unknown JMH mode 'fast'"));
        final Path score = Files.writeString(tmp.resolve("score.json"),
            ok.replaceFirst("\"score\" : [0-9.]+", "\"score\" : \"fast\""));
        assertTrue(assertThrows(ReportException.class, () -> JmhJson.read(score)).getMessage()
            .contains("primaryMetric.score is not a number: fast"));
        final Path name = Files.writeString(tmp.resolve("name.json"),
            ok.replaceFirst("\"dev.overlap.bench.proact.ProactFig6Benchmark.iteration\"", "\"iteration\""));
        assertTrue(assertThrows(ReportException.class, () -> JmhJson.read(name)).getMessage()
            .contains("not a qualified Class.method name"));
    }

    @Test
    void rawRoundTripKeepsEverything() throws Exception {
        final List<Object> raw = JmhJson.readRaw(Fixtures.json("proact-sweep.json"));
        final Path out = tmp.resolve("copy.json");
        JmhJson.writeRaw(raw, out);
        assertEquals(JmhJson.read(Fixtures.json("proact-sweep.json")), JmhJson.read(out));
    }

    private static void assertMessage(final String fixture, final String expected) {
        final Path f = Fixtures.json(fixture);
        final ReportException e = assertThrows(ReportException.class, () -> JmhJson.read(f));
        assertTrue(e.getMessage().startsWith(f.toString() + ": "), e.getMessage());
        assertTrue(e.getMessage().contains(expected), e.getMessage());
    }
}
