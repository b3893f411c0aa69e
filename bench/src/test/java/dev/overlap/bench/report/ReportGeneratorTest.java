package dev.overlap.bench.report;

import dev.overlap.testing.Xml;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ReportGeneratorTest {
    @TempDir
    Path tmp;

    private ReportGenerator.Summary generate(final Path out, final Path baseline, final String... fixtures)
        throws Exception {
        return ReportGenerator.generate(new ReportGenerator.Options(
            Stream.of(fixtures).map(Fixtures::json).toList(), out, baseline, null, "Test report",
            getClass().getClassLoader()));
    }

    @Test
    void proactReportHasHeaderTablesAndRenderableCharts() throws Exception {
        final Path out = tmp.resolve("report");
        final ReportGenerator.Summary s = generate(out, null, "proact-sweep.json");
        assertEquals(18, s.results());
        assertEquals(2, s.charts());
        assertEquals(6, s.oversubscribed());
        final String md = Files.readString(out.resolve("report.md"));
        // header from run.json beside the fixtures (captured "at run start") and from the JMH JSON
        assertTrue(md.startsWith("# Test report\n"), md);
        assertTrue(md.contains("| Machine | 2 cores (AMD EPYC), 23.5 GiB memory, Linux 6.1 amd64 |"), md);
        assertTrue(md.contains("| JVM | OpenJDK 64-Bit Server VM 17.0.15+6-Debian-1deb12u1 (JDK 17.0.15, vendor "
            + "Debian), `/usr/lib/jvm/java-17-openjdk-amd64/bin/java` |"), md);
        assertTrue(md.contains("| Fork JVM flags | `-Djava.io.tmpdir=bench/target/jmh-tmp --add-exports "
            + "java.base/jdk.internal.misc=ALL-UNNAMED -Xmx2g -XX:MaxDirectMemorySize=4g` |"), md);
        assertTrue(md.contains("| Commit | `36b951f3958ccd1d777937fa0f6bf7714ca8218d` on bench-report |"), md);
        assertTrue(md.contains("| Load average | 0.12 0.30 0.25 (1, 5, 15 min) (at run start) |"), md);
        assertTrue(md.contains("| Run time | 7 min 32 s (estimated 8 min 0 s) |"), md);
        assertTrue(md.contains("| Oversubscribed rows | ⚠ 6 of 18 (busy threads > 2 cores) |"), md);
        assertTrue(md.contains("Suite **quick**"), md);
        // family section, class table with ratio columns, oversubscription marks
        assertTrue(md.contains("## PROACT: per-chunk transfers overlapping computation"), md);
        assertTrue(md.contains("| Benchmark | chunkBytes | mode | Busy threads | Score | Error (±) | Unit | "
            + "speedup vs BULK | tracking overhead |"), md);
        assertTrue(md.contains("| `iteration` | 64 KiB | TRIGGERED | 3 ⚠ | 19.23 | 3.87 | ms/op | 1.50× ±21 ⚠ |  |"), md);
        assertTrue(md.contains("| `iteration` | 64 KiB | BULK | 2 | 28.78 | 397.65 | ms/op | (reference) |  |"), md);
        assertTrue(md.contains("fixed params: regionMiB=16, work=auto"), md);
        // at a glance
        assertTrue(md.contains("| proact | [ProactFig6Benchmark](#proactfig6benchmark) | speedup vs BULK | "
            + "mode=TRIGGERED_INLINE | 1.28× | 0.98× @ chunkBytes=4 KiB | 1.70× @ chunkBytes=64 KiB | 3 |"), md);
        assertTrue(md.contains("| tracking overhead | mode=TRACK_ONLY | +25.8% |"), md);
        assertTrue(md.contains("mode=POLLING | ⚠ 0.65× |"), md);
        assertTrue(md.contains("![ProactFig6Benchmark: Speedup over BULK vs chunk size]"
            + "(charts/ProactFig6Benchmark-1.svg)"), md);
        assertCharts(out, 2);
        Xml.parse(Files.readString(out.resolve("report.html")));
        assertTrue(Files.exists(out.resolve(ReportGenerator.MARKER)));
        assertEquals(JmhJson.read(Fixtures.json("proact-sweep.json")), JmhJson.read(out.resolve("results.json")));
        assertEquals(2, RunInfo.read(out.resolve("run.json")).cores());
    }

    @Test
    void mergedRunHasEveryFamilyInOrderAndEveryComparisonAtAGlance() throws Exception {
        final Path out = tmp.resolve("all");
        final ReportGenerator.Summary s = generate(out, null, "proact-tiny.json", "queues-thrpt.json",
            "core-mixed.json");
        assertEquals(6 + 18 + 11, s.results());
        final String md = Files.readString(out.resolve("report.md"));
        final int core = md.indexOf("\n## Core");
        final int queues = md.indexOf("\n## Queues");
        final int proact = md.indexOf("\n## PROACT");
        final int worklist = md.indexOf("\n## Worklist");
        assertTrue(0 < core && core < queues && queues < proact && proact < worklist, md);
        for (final String glance : List.of("| core | [FakeCopyBenchmark](#fakecopybenchmark) | vs rawAgronaCopy | "
                + "`meshCopy` |", "| core | [FakeTrackingBenchmark](#faketrackingbenchmark) | tracking overhead | "
                + "`tracked` | +6.2% | +15.0% @ chunkBytes=4 KiB | +1.0% @ chunkBytes=1 MiB | 3 |",
            "| queues | [FakeQueueBenchmark](#fakequeuebenchmark) | vs jctoolsMpmc | `overlapQueue` | 1.20× |",
            "| vs CLQ | `overlapQueue` | 3.00× |", "| 4 (+2 ⚠ not counted) |")) {
            assertTrue(md.contains(glance), glance + "\n" + md);
        }
        // byte-sized param from @ByteSize, secondary metric table, oversubscribed rows in the queue table
        assertTrue(md.contains("| `meshCopy` | 64 KiB |"), md);
        assertTrue(md.contains("| `meshCopy` | 64 KiB | bytes |"), md);
        assertTrue(md.contains("| `overlapQueue` | 1 | 4 | 4 ⚠ |"), md);
        // class missing from the class path: a note, a section all the same
        assertTrue(md.contains("Note: class `dev.overlap.bench.worklist.GoneBenchmark` is not on the report's class "
            + "path"), md);
        assertTrue(md.contains("| `run` | 5.000 | n/a | us/op |"), md);
        // charts: queue score chart x 2 batch facets + ratio chart, copy bandwidth, default tracking chart, proact 2
        assertTrue(md.contains("(charts/FakeQueueBenchmark-3.svg)"), md);
        assertFalse(md.contains("(charts/FakeQueueBenchmark-4.svg)"), md);
        assertTrue(md.contains("FakeQueueBenchmark: Throughput vs threads (batch=32)"), md);
        assertTrue(md.contains("(charts/FakeCopyBenchmark-1.svg)"), md);
        assertTrue(md.contains("(charts/FakeTrackingBenchmark-1.svg)"), md);
        assertCharts(out, s.charts());
        Xml.parse(Files.readString(out.resolve("report.html")));
        final String queueChart = Files.readString(out.resolve("charts/FakeQueueBenchmark-1.svg"));
        assertEquals(3, Xml.points(Xml.parse(queueChart)).stream().filter(Xml::hollow).count(),
            "threads=4 drawn hollow");
        assertTrue(queueChart.contains(">oversubscribed</text>"), "threads > 2 shaded");
    }

    @Test
    void baselineAddsAChangeColumnAndListsRegressions() throws Exception {
        final Path out = tmp.resolve("cmp");
        final ReportGenerator.Summary s = generate(out, Fixtures.json("queues-thrpt-baseline.json"),
            "queues-thrpt.json");
        assertEquals(1, s.regressions());
        assertEquals(1, s.improvements());
        final String md = Files.readString(out.resolve("report.md"));
        assertTrue(md.contains("## Changes against the baseline"), md);
        assertTrue(md.contains("**1 regression**, 1 improvement, 14 within error, 1 without error bars (too few "
            + "iterations to judge), 1 not in the baseline."), md);
        assertTrue(md.contains("| [FakeQueueBenchmark](#fakequeuebenchmark) | `overlapQueue` | batch=1, threads=1 "
            + "| 60.00 ± 2.400 | 80.00 ± 1.000 | ops/us | **-25.0% ✗ regression** |"), md);
        assertTrue(md.contains("| vs jctoolsMpmc | vs CLQ | vs baseline |"), md);
        assertTrue(md.contains("| `jctoolsMpmc` | 1 | 1 | 1 | 50.00 | 2.00 | ops/us | (peer) |  | +25.0% ✓ improved |"),
            md);
        assertTrue(md.contains("+25.0% ✓ improved |"), md);
        assertTrue(md.contains("| new |"), md);
        final String html = Files.readString(out.resolve("report.html"));
        Xml.parse(html);
        assertTrue(html.contains("<strong class=\"bad\">-25.0% ✗ regression</strong>"));
    }

    @Test
    void malformedInputWritesNothing() throws Exception {
        final Path out = tmp.resolve("never");
        final ReportException e = assertThrows(ReportException.class,
            () -> generate(out, null, "proact-tiny.json", "malformed-truncated.json"));
        assertTrue(e.getMessage().contains("malformed-truncated.json: truncated JSON"), e.getMessage());
        assertFalse(Files.exists(out));
        try (Stream<Path> left = Files.list(tmp)) {
            assertEquals(List.of(), left.toList(), "no temporary folder left behind");
        }
    }

    @Test
    void malformedInputLeavesAnEarlierReportUntouched() throws Exception {
        final Path out = tmp.resolve("kept");
        generate(out, null, "proact-tiny.json");
        final String before = Files.readString(out.resolve("report.md"));
        assertThrows(ReportException.class, () -> generate(out, null, "malformed-missing-metric.json"));
        assertThrows(ReportException.class, () -> generate(out, Fixtures.json("malformed-not-array.json"),
            "proact-tiny.json"));
        assertEquals(before, Files.readString(out.resolve("report.md")));
        try (Stream<Path> left = Files.list(tmp)) {
            assertEquals(List.of(out), left.toList());
        }
    }

    @Test
    void anEarlierReportIsReplacedWhole() throws Exception {
        final Path out = tmp.resolve("replaced");
        generate(out, null, "queues-thrpt.json");
        assertTrue(Files.exists(out.resolve("charts/FakeQueueBenchmark-1.svg")));
        generate(out, null, "proact-tiny.json");
        assertFalse(Files.exists(out.resolve("charts/FakeQueueBenchmark-1.svg")), "stale charts are gone");
        assertTrue(Files.readString(out.resolve("report.md")).contains("ProactFig6Benchmark"));
        // regenerating from the report's own results.json works (read before the folder is replaced)
        ReportGenerator.generate(new ReportGenerator.Options(List.of(out.resolve("results.json")), out, null, null,
            "again", getClass().getClassLoader()));
        assertTrue(Files.readString(out.resolve("report.md")).startsWith("# again"));
    }

    @Test
    void refusesToReplaceAFolderItDidNotWrite() throws IOException {
        final Path mine = Files.createDirectories(tmp.resolve("mine"));
        Files.writeString(mine.resolve("notes.txt"), "keep me");
        final ReportException e = assertThrows(ReportException.class, () -> generate(mine, null, "proact-tiny.json"));
        assertTrue(e.getMessage().contains("refusing to replace it"), e.getMessage());
        assertEquals("keep me", Files.readString(mine.resolve("notes.txt")));
        final Path file = Files.writeString(tmp.resolve("file"), "x");
        assertThrows(ReportException.class, () -> generate(file, null, "proact-tiny.json"));
    }

    private static void assertCharts(final Path out, final int expected) throws IOException {
        try (Stream<Path> charts = Files.list(out.resolve("charts"))) {
            final List<Path> svgs = charts.toList();
            assertEquals(expected, svgs.size());
            for (final Path svg : svgs) {
                assertEquals("svg", Xml.parse(Files.readString(svg)).getDocumentElement().getLocalName());
            }
        }
    }
}
