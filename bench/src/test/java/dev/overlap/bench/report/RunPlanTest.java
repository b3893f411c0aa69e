package dev.overlap.bench.report;

import org.junit.jupiter.api.Test;
import org.openjdk.jmh.runner.BenchmarkList;
import org.openjdk.jmh.runner.BenchmarkListEntry;
import org.openjdk.jmh.runner.format.OutputFormatFactory;
import org.openjdk.jmh.runner.options.VerboseMode;

import java.util.Collection;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RunPlanTest {
    private static final ClassLoader LOADER = RunPlanTest.class.getClassLoader();
    private static final String PROACT = "dev.overlap.bench.proact.ProactFig6Benchmark";

    static Collection<BenchmarkListEntry> suite() {
        return BenchmarkList.defaultList().getAll(OutputFormatFactory.createFormatInstance(System.out,
            VerboseMode.SILENT), List.of());
    }

    private static RunPlan.ClassRun proact(final RunPlan plan) {
        return plan.runs.stream().filter(r -> r.className().equals(PROACT)).findFirst().orElseThrow();
    }

    @Test
    void quickUsesTheSuiteSettingsAndTheClassOverrides() throws ReportException {
        final RunPlan.ClassRun r = proact(RunPlan.plan(suite(), List.of("ProactFig6"), true, List.of(), LOADER));
        assertEquals(List.of("^\\Q" + PROACT + ".iteration\\E$", "-f", "1", "-wi", "1", "-w", "500ms", "-i", "3",
            "-r", "500ms", "-p", "regionMiB=64", "-p", "chunkBytes=4096,65536,1048576,16777216"), r.args());
        // 6 modes x 4 chunk sizes, one fork each: JVM start 1 s + set-up 1.5 s + (1 + 3) x 0.5 s
        assertEquals(24, r.combos());
        assertEquals(24 * 4.5, r.estimateSeconds(), 1e-9);
    }

    @Test
    void userArgumentsWinOverTheClassOverrides() throws ReportException {
        final RunPlan plan = RunPlan.plan(suite(), List.of("ProactFig6"), true,
            List.of("-p", "chunkBytes=65536", "-p", "mode=BULK,TRIGGERED_INLINE"), LOADER);
        final RunPlan.ClassRun r = proact(plan);
        assertFalse(r.args().contains("chunkBytes=4096,65536,1048576,16777216"));
        assertTrue(r.args().contains("regionMiB=64"));
        assertEquals(List.of("-p", "chunkBytes=65536", "-p", "mode=BULK,TRIGGERED_INLINE"),
            r.args().subList(r.args().size() - 4, r.args().size()));
        assertEquals(2, r.combos());
    }

    @Test
    void fullUsesTheBenchmarksOwnAnnotations() throws ReportException {
        final RunPlan.ClassRun r = proact(RunPlan.plan(suite(), List.of("ProactFig6"), false, List.of(), LOADER));
        assertEquals(List.of("^\\Q" + PROACT + ".iteration\\E$"), r.args());
        // @Fork(1), @Warmup(2 x 2 s), @Measurement(5 x 2 s): 30 combinations x (1 + 4 + 10) s
        assertEquals(30, r.combos());
        assertEquals(30 * 15.0, r.estimateSeconds(), 1e-9);
    }

    @Test
    void jvmArgsAppendGetsTheAddExportsFlagRepeated() throws ReportException {
        final RunPlan plan = RunPlan.plan(suite(), List.of("ProactFig6"), true, List.of("-jvmArgsAppend", "-Xmx1g"),
            LOADER);
        assertTrue(proact(plan).args().contains("-Xmx1g " + RunPlan.ADD_EXPORTS));
        assertEquals(1, plan.notes.size());
    }

    @Test
    void badArgumentsAreReportExceptions() {
        assertTrue(assertThrows(ReportException.class, () -> RunPlan.plan(suite(), List.of("("), true, List.of(),
            LOADER)).getMessage().contains("not a valid regular expression"));
        assertTrue(assertThrows(ReportException.class, () -> RunPlan.plan(suite(), List.of(), true,
            List.of("-f", "many"), LOADER)).getMessage().contains("not valid JMH options"));
    }

    @Test
    void includeSelectsByFullName() throws ReportException {
        assertTrue(RunPlan.plan(suite(), List.of("NoSuchThing"), true, List.of(), LOADER).runs.isEmpty());
        assertEquals(1, RunPlan.plan(suite(), List.of("proact\\.Proact"), true, List.of(), LOADER).runs.size());
    }
}
