package dev.overlap.bench.report;

import dev.overlap.bench.report.Analysis.ClassTable;
import dev.overlap.bench.report.Analysis.Row;
import dev.overlap.bench.report.BenchmarkMeta.Comparison;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static dev.overlap.bench.report.Fixtures.FIXTURES;
import static dev.overlap.bench.report.Fixtures.comparison;
import static dev.overlap.bench.report.Fixtures.result;
import static dev.overlap.bench.report.Fixtures.row;
import static dev.overlap.bench.report.Fixtures.table;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class AnalysisTest {
    private static final ClassLoader LOADER = AnalysisTest.class.getClassLoader();

    private static List<ClassTable> analyze(final String... fixtures) throws ReportException {
        final List<JmhResult> all = new ArrayList<>();
        for (final String f : fixtures) {
            all.addAll(JmhJson.read(Fixtures.json(f)));
        }
        return Analysis.analyze(all, null, 2, LOADER);
    }

    @Test
    void proactSpeedupOverBulkAtTheSameChunkSize() throws ReportException {
        final ClassTable t = table(analyze("proact-sweep.json"), "ProactFig6Benchmark");
        assertEquals("proact", t.meta.family);
        final Comparison speedup = comparison(t, "speedup vs BULK");
        for (final String chunk : List.of("4096", "65536", "1048576")) {
            final Row bulk = row(t, "iteration", "mode", "BULK", "chunkBytes", chunk);
            for (final String mode : List.of("POLLING", "TRIGGERED", "TRIGGERED_INLINE", "NONE")) {
                final Row r = row(t, "iteration", "mode", mode, "chunkBytes", chunk);
                final Analysis.Ratio ratio = r.ratios.get(speedup);
                // avgt: lower is better, so the speedup is BULK's time over the mode's time
                assertEquals(bulk.result.primary().score() / r.result.primary().score(), ratio.times(), 1e-12);
                assertEquals(ratio.times(), ratio.display(RatioStyle.SPEEDUP), 1e-12);
                assertTrue(ratio.against() == bulk);
            }
            assertTrue(bulk.baselineOf.contains(speedup));
            assertNull(row(t, "iteration", "mode", "TRACK_ONLY", "chunkBytes", chunk).ratios.get(speedup),
                "TRACK_ONLY is not in compare = {...}");
        }
    }

    @Test
    void proactTrackingOverheadIsTrackOnlyOverNoneMinusOne() throws ReportException {
        final ClassTable t = table(analyze("proact-sweep.json"), "ProactFig6Benchmark");
        final Comparison overhead = comparison(t, "tracking overhead");
        assertEquals(RatioStyle.OVERHEAD, overhead.style);
        final Row none = row(t, "iteration", "mode", "NONE", "chunkBytes", "65536");
        final Row track = row(t, "iteration", "mode", "TRACK_ONLY", "chunkBytes", "65536");
        final double expected = (track.result.primary().score() / none.result.primary().score() - 1) * 100;
        assertEquals(expected, track.ratios.get(overhead).display(RatioStyle.OVERHEAD), 1e-9);
        assertEquals(1, t.rows.stream().filter(r -> r.ratios.containsKey(overhead)
            && r.result.params().get("chunkBytes").equals("65536")).count());
    }

    @Test
    void ratioErrorPropagatesBothRelativeErrors() throws ReportException {
        final ClassTable t = table(analyze("proact-sweep.json"), "ProactFig6Benchmark");
        final Row r = row(t, "iteration", "mode", "TRIGGERED", "chunkBytes", "65536");
        final Analysis.Ratio ratio = r.ratios.get(comparison(t, "speedup vs BULK"));
        final JmhResult.Metric a = r.result.primary();
        final JmhResult.Metric b = ratio.against().result.primary();
        assertEquals(Math.hypot(a.error() / a.score(), b.error() / b.score()), ratio.relError(), 1e-12);
        // without error bars (2 iterations) the ratio has no error
        final ClassTable tiny = table(analyze("proact-tiny.json"), "ProactFig6Benchmark");
        final Analysis.Ratio noError = row(tiny, "iteration", "mode", "TRIGGERED_INLINE").ratios
            .get(comparison(tiny, "speedup vs BULK"));
        assertTrue(Double.isNaN(noError.relError()));
        assertFalse(noError.format(RatioStyle.SPEEDUP).contains("±"));
    }

    @Test
    void methodVersusMethodWithEqualParamsHigherIsBetterForThroughput() throws ReportException {
        final ClassTable t = table(analyze("queues-thrpt.json"), "FakeQueueBenchmark");
        assertEquals("queues", t.meta.family);
        final Comparison jctools = comparison(t, "vs jctoolsMpmc");
        final Comparison clq = comparison(t, "vs CLQ");
        final Row ours = row(t, "overlapQueue", "threads", "2", "batch", "32");
        final Row peer = row(t, "jctoolsMpmc", "threads", "2", "batch", "32");
        assertEquals(ours.result.primary().score() / peer.result.primary().score(), ours.ratios.get(jctools).times(),
            1e-12);
        assertEquals(1.2, ours.ratios.get(jctools).times(), 1e-5);
        assertEquals(3.0, ours.ratios.get(clq).times(), 1e-5);
        assertTrue(peer.ratios.isEmpty());
        assertEquals(6, t.rows.stream().filter(r -> r.ratios.containsKey(jctools)).count());
    }

    @Test
    void peerWithFewerParamsMatchesOnTheSharedOnes() throws ReportException {
        final ClassTable t = table(analyze("core-mixed.json"), "FakeTrackingBenchmark");
        final Comparison c = comparison(t, "tracking overhead");
        assertEquals(15.0, row(t, "tracked", "chunkBytes", "4096").ratios.get(c).display(RatioStyle.OVERHEAD), 1e-9);
        assertEquals(1.0, row(t, "tracked", "chunkBytes", "1048576").ratios.get(c).display(RatioStyle.OVERHEAD), 1e-9);
    }

    @Test
    void ambiguousAndMissingPeersGiveNotesNotRatios() {
        final String cls = FIXTURES + "FakeAmbiguousBenchmark.";
        final List<JmhResult> rs = List.of(result(cls + "whole", "avgt", "ms/op", 10, 0.1),
            result(cls + "perChunk", "avgt", "ms/op", 11, 0.1, "chunkBytes", "4096"),
            result(cls + "perChunk", "avgt", "ms/op", 12, 0.1, "chunkBytes", "65536"));
        final ClassTable t = Analysis.analyze(rs, null, 2, LOADER).get(0);
        assertTrue(t.rows.stream().allMatch(r -> r.ratios.isEmpty()));
        assertTrue(t.comparisons.isEmpty());
        assertTrue(t.notes.stream().anyMatch(n -> n.contains("2 rows of `perChunk` match")), t.notes.toString());

        final ClassTable alone = Analysis.analyze(List.of(result(cls + "whole", "avgt", "ms/op", 10, 0.1)), null, 2,
            LOADER).get(0);
        assertTrue(alone.notes.stream().anyMatch(n -> n.contains("no row of `perChunk` in this run")),
            alone.notes.toString());
    }

    @Test
    void busyThreadsAndOversubscription() throws ReportException {
        final ClassTable q = table(analyze("queues-thrpt.json"), "FakeQueueBenchmark");
        assertEquals(4, row(q, "overlapQueue", "threads", "4", "batch", "1").busyThreads);
        assertTrue(row(q, "overlapQueue", "threads", "4", "batch", "1").oversubscribed);
        assertFalse(row(q, "overlapQueue", "threads", "2", "batch", "1").oversubscribed);
        final ClassTable p = table(analyze("proact-tiny.json"), "ProactFig6Benchmark");
        assertEquals(3, row(p, "iteration", "mode", "POLLING").busyThreads);
        assertTrue(row(p, "iteration", "mode", "TRIGGERED").oversubscribed);
        assertEquals(2, row(p, "iteration", "mode", "TRIGGERED_INLINE").busyThreads);
        assertFalse(row(p, "iteration", "mode", "BULK").oversubscribed);
    }

    @Test
    void busyThreadRules() {
        final BenchmarkMeta.BusyRule plusOne = BenchmarkMeta.BusyRule.parse(busy("threads + 1", ""));
        assertEquals(3, plusOne.eval(Map.of("threads", "2"), 1));
        assertEquals(-1, plusOne.eval(Map.of(), 1), "names a param the row lacks");
        final BenchmarkMeta.BusyRule cond = BenchmarkMeta.BusyRule.parse(busy("jmh + 2", "mode=A|B; kind=x"));
        assertTrue(cond.applies(Map.of("mode", "B", "kind", "x")));
        assertFalse(cond.applies(Map.of("mode", "C", "kind", "x")));
        assertFalse(cond.applies(Map.of("mode", "A")));
        assertEquals(6, cond.eval(Map.of(), 4));
    }

    @Test
    void classNotOnTheClassPathStillGetsASection() throws ReportException {
        final List<ClassTable> tables = analyze("core-mixed.json");
        final ClassTable gone = table(tables, "GoneBenchmark");
        assertEquals("worklist", gone.meta.family);
        assertFalse(gone.meta.loaded);
        assertTrue(gone.notes.get(0).contains("not on the report's class path"));
        // order: core (FakeCopy, FakeTracking), then worklist
        assertEquals(List.of("FakeCopyBenchmark", "FakeTrackingBenchmark", "GoneBenchmark"),
            tables.stream().map(t -> t.meta.simpleName).toList());
    }

    @Test
    void familiesAreOrderedAndUnknownOnesComeLast() throws ReportException {
        final List<JmhResult> rs = new ArrayList<>(JmhJson.read(Fixtures.json("proact-tiny.json")));
        rs.addAll(JmhJson.read(Fixtures.json("queues-thrpt.json")));
        rs.add(result("org.example.OtherBenchmark.x", "avgt", "ns/op", 1, 0.1));
        rs.addAll(JmhJson.read(Fixtures.json("core-mixed.json")));
        final List<String> families = Analysis.analyze(rs, null, 2, LOADER).stream().map(t -> t.meta.family)
            .distinct().toList();
        assertEquals(List.of("core", "queues", "proact", "worklist", "other"), families);
    }

    @Test
    void duplicateRowsKeepTheLaterOneWithANote() {
        final String cls = FIXTURES + "FakeTrackingBenchmark.";
        final ClassTable t = Analysis.analyze(List.of(result(cls + "untracked", "avgt", "ms/op", 10, 0.1),
            result(cls + "untracked", "avgt", "ms/op", 12, 0.1)), null, 2, LOADER).get(0);
        assertEquals(1, t.rows.size());
        assertEquals(12, t.rows.get(0).result.primary().score());
        assertTrue(t.notes.stream().anyMatch(n -> n.startsWith("duplicate result")));
    }

    private static BusyThreads busy(final String value, final String when) {
        return new BusyThreads() {
            @Override
            public String value() {
                return value;
            }

            @Override
            public String when() {
                return when;
            }

            @Override
            public Class<? extends java.lang.annotation.Annotation> annotationType() {
                return BusyThreads.class;
            }
        };
    }

    /**
     * A comparison declared on a secondary metric takes its ratio from that metric, not from the primary score
     * (which, for a producer/consumer group, also counts failed calls); a row without the metric gets no ratio.
     */
    @Test
    void aComparisonOnASecondaryMetricUsesThatMetric() {
        final String name = FIXTURES + "FakeGroupBenchmark.spsc";
        final JmhResult ours = withPolled(Fixtures.result(name, "thrpt", "ops/us", 900, 9, "impl", "ours"), 30);
        final JmhResult peer = withPolled(Fixtures.result(name, "thrpt", "ops/us", 100, 1, "impl", "peer"), 20);
        final JmhResult none = Fixtures.result(name, "thrpt", "ops/us", 500, 5, "impl", "other");
        final ClassTable t = table(Analysis.analyze(List.of(ours, peer, none), null, 2, LOADER), "FakeGroupBenchmark");
        final Comparison c = comparison(t, "vs peer, items polled");
        assertEquals("polled", c.metric);
        assertEquals(1.5, row(t, "spsc", "impl", "ours").ratios.get(c).times(), 1e-12, "30 / 20, not 900 / 100");
        assertNull(row(t, "spsc", "impl", "other").ratios.get(c), "no polled metric, no ratio");
    }

    private static JmhResult withPolled(final JmhResult r, final double polled) {
        return new JmhResult(r.benchmark(), r.mode(), r.threads(), r.forks(), r.jvm(), r.jvmArgs(), r.jdkVersion(),
            r.vmName(), r.vmVersion(), r.jmhVersion(), r.warmupIterations(), r.warmupTime(),
            r.measurementIterations(), r.measurementTime(), r.params(), r.primary(),
            Map.of("polled", new JmhResult.Metric(polled, 0.5, "ops/us", 3)));
    }
}
