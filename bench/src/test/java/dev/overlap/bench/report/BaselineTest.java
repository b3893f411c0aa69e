package dev.overlap.bench.report;

import dev.overlap.bench.report.Analysis.ClassTable;
import dev.overlap.bench.report.Analysis.Verdict;
import org.junit.jupiter.api.Test;

import java.util.List;

import static dev.overlap.bench.report.Fixtures.result;
import static dev.overlap.bench.report.Fixtures.row;
import static dev.overlap.bench.report.Fixtures.table;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

class BaselineTest {
    @Test
    void throughputLowerBeyondTheErrorBarsIsARegression() {
        final Analysis.Change c = Analysis.change(result("a.B.m", "thrpt", "ops/us", 60, 2.4),
            result("a.B.m", "thrpt", "ops/us", 80, 1));
        assertEquals(Verdict.REGRESSION, c.verdict());
        assertEquals(-25.0, c.percent(), 1e-9);
    }

    @Test
    void timeHigherBeyondTheErrorBarsIsARegression() {
        assertEquals(Verdict.REGRESSION, Analysis.change(result("a.B.m", "avgt", "ms/op", 12, 0.5),
            result("a.B.m", "avgt", "ms/op", 10, 0.5)).verdict());
        assertEquals(Verdict.IMPROVEMENT, Analysis.change(result("a.B.m", "avgt", "ms/op", 8, 0.5),
            result("a.B.m", "avgt", "ms/op", 10, 0.5)).verdict());
    }

    @Test
    void overlappingIntervalsAreWithinError() {
        // 10 ± 1 vs 12 ± 1.5: [9, 11] and [10.5, 13.5] overlap although the change is 17%
        final Analysis.Change c = Analysis.change(result("a.B.m", "avgt", "ms/op", 12, 1.5),
            result("a.B.m", "avgt", "ms/op", 10, 1));
        assertEquals(Verdict.WITHIN_ERROR, c.verdict());
        assertEquals(20.0, c.percent(), 1e-9);
        // touching intervals count as overlapping
        assertEquals(Verdict.WITHIN_ERROR, Analysis.change(result("a.B.m", "avgt", "ms/op", 12, 1),
            result("a.B.m", "avgt", "ms/op", 10, 1)).verdict());
    }

    @Test
    void missingErrorOrRowIsNotJudged() {
        assertEquals(Verdict.NO_ERROR, Analysis.change(result("a.B.m", "avgt", "ms/op", 20, Double.NaN),
            result("a.B.m", "avgt", "ms/op", 10, 1)).verdict());
        final Analysis.Change added = Analysis.change(result("a.B.m", "avgt", "ms/op", 20, 1), null);
        assertEquals(Verdict.NEW, added.verdict());
        assertNull(added.old());
    }

    @Test
    void rowsOfARunAreMatchedByBenchmarkModeAndParams() throws ReportException {
        final List<ClassTable> tables = Analysis.analyze(JmhJson.read(Fixtures.json("queues-thrpt.json")),
            JmhJson.read(Fixtures.json("queues-thrpt-baseline.json")), 2, getClass().getClassLoader());
        final ClassTable t = table(tables, "FakeQueueBenchmark");
        assertEquals(Verdict.REGRESSION, row(t, "overlapQueue", "batch", "1", "threads", "1").change.verdict());
        assertEquals(Verdict.IMPROVEMENT, row(t, "jctoolsMpmc", "batch", "1", "threads", "1").change.verdict());
        assertEquals(Verdict.WITHIN_ERROR,
            row(t, "concurrentLinkedQueue", "batch", "1", "threads", "1").change.verdict());
        assertEquals(Verdict.NO_ERROR, row(t, "overlapQueue", "batch", "32", "threads", "1").change.verdict());
        assertEquals(Verdict.NEW, row(t, "concurrentLinkedQueue", "batch", "32", "threads", "4").change.verdict());
        assertEquals(1, t.rows.stream().filter(r -> r.change.verdict() == Verdict.REGRESSION).count());
        assertEquals(14, t.rows.stream().filter(r -> r.change.verdict() == Verdict.WITHIN_ERROR).count());
    }
}
