package dev.overlap.bench.graph;

import com.fasterxml.jackson.jr.ob.JSON;
import dev.overlap.graph.app.GraphApp;
import dev.overlap.graph.app.Warmup;
import dev.overlap.graph.ref.Verification;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What the comparison's rows become, from rows made up here (no runs). */
class ComparisonReportTest {
    private static Map<String, Object> machine(final String load) {
        final Map<String, Object> m = new LinkedHashMap<>();
        m.put("date", "2026-11-25T10:00:00Z");
        m.put("cores", 2);
        m.put("cpu", "Test CPU");
        m.put("memoryBytes", 8L << 30);
        m.put("javaVersion", "17");
        m.put("javaVendor", "Test");
        m.put("loadAverage", load);
        m.put("commit", "abc123");
        return m;
    }

    private static ComparisonReport report(final String load) {
        final ComparisonRow java = new ComparisonRow("kron:8", GraphApp.BFS, ComparisonRun.JAVA, "1",
            new double[] {10, 12, 8}, 5000, Verification.pass("the reference")).withJavaMillis(10);
        final ComparisonRow bsp = new ComparisonRow("kron:8", GraphApp.BFS, "overlap bsp", "2x1",
            new double[] {4, 5, 6}, 5000, Verification.fail("vertex 1, wrong")).withJavaMillis(10);
        final ComparisonRow pr = new ComparisonRow("kron:8", GraphApp.PAGERANK, "overlap bsp", "2x1",
            new double[] {2}, 0, Verification.pass("ok")).withJavaMillis(8);
        final LinkedHashSet<String> notes = new LinkedHashSet<>(List.of("first note", "second note"));
        return new ComparisonReport(machine(load), "0.50 0.40 0.30", new ComparisonReport.Settings(true, 2, 2,
            Warmup.ofRuns(1), 3,
            20, 1e-5, " --quick", -1, null), List.of(new ComparisonGraph("kron:8", 256, 5000, 3, 12.3456)),
            List.of(java, bsp, pr), notes, 4.56);
    }

    @Test
    void rowsDeriveTheirFiguresFromTheTimedRuns() {
        final ComparisonRow r = new ComparisonRow("g", GraphApp.BFS, "x", "1", new double[] {4, 6, 5}, 5000,
            Verification.pass("ok"));
        assertEquals(5, r.median());
        assertEquals(4, r.min());
        assertEquals(6, r.max());
        assertEquals(1, r.mteps());
        assertTrue(Double.isNaN(r.vsJava()), "not compared before the graph is done");
        assertEquals(2, r.withJavaMillis(10).vsJava());
        assertEquals("kron:8 bfs overlap bsp: median 5.00 ms, 1.0 MTEPS, verification FAILED",
            ComparisonReport.statusLine(new ComparisonRow("kron:8", GraphApp.BFS, "overlap bsp", "2x1",
                new double[] {5}, 5000, Verification.fail("x"))));
        assertEquals("g pr x: median 2.00 ms, verified", ComparisonReport.statusLine(new ComparisonRow("g",
            GraphApp.PAGERANK, "x", "1", new double[] {2}, 0, Verification.pass("ok"))));
    }

    @Test
    void csvQuotesFieldsWithCommasAndLeavesPageRanksMtepsEmpty() {
        final String[] lines = report("0.1").csv().split("\n");
        assertEquals("graph,app,implementation,threads,warmups,runs,medianMs,minMs,maxMs,runTimesMs,mteps,vsJavaCsr,"
            + "prError,peakRssKiB,timeVsGap,rssLessIdleVsGap,settings,verified,verification", lines[0]);
        assertEquals("kron:8,bfs,java csr,1,1,3,10,8,12,10 12 8,0.5,1,,,,,,passed,the reference", lines[1]);
        assertEquals("kron:8,bfs,overlap bsp,2x1,1,3,5,4,6,4 5 6,1,2,,,,,,FAILED,\"vertex 1, wrong\"", lines[2]);
        assertEquals("kron:8,pr,overlap bsp,2x1,1,3,2,2,2,2,,4,,,,,,passed,ok", lines[3]);
    }

    @Test
    void markdownSaysWhatRanWhereAndWarnsOnlyWhenTheMachineWasBusy() {
        final String md = report("0.20 0.10 0.00").markdown();
        assertTrue(md.startsWith("# Graph apps: Overlap vs plain Java vs JGraphT (quick smoke run, not a measurement)"
            + "\n\n2026-11-25T10:00:00Z, 2 cores (Test CPU), 8 GiB, Java 17 (Test); load average 0.20 0.10 0.00 at "
            + "the start, 0.50 0.40 0.30 at the end; commit abc123."), md);
        assertTrue(md.contains("Overlap runs on 2 devices x 1 worker = 2 threads (overlap solo on the calling "
            + "thread, overlap coop on one device with all of them)"), md);
        assertTrue(md.contains("java csr, overlap bsp, solo and coop and JGraphT run exactly 20 iterations "
            + "(--pr-iterations)"), md);
        assertTrue(md.contains("| kron:8 | 256 | 5,000 | 3 | 12 |"), md);
        assertTrue(md.contains("| FAILED |"), md);
        assertTrue(md.contains("- note: first note\n- note: second note\n"), md);
        assertTrue(md.endsWith("Wall time 4.6 s. Command: `overlap bench-graphs --quick`.\n"), md);
        assertFalse(md.contains("Warning"), md);
        assertTrue(report("1.5 1.0 1.0").markdown().contains("**Warning: the machine was busy (load 1.50 on 2 cores)"));
        assertEquals(1.5, ComparisonReport.firstNumber("1.5 1.0 1.0"));
        assertTrue(Double.isNaN(ComparisonReport.firstNumber("?")));
        assertTrue(Double.isNaN(ComparisonReport.firstNumber(null)));
    }

    @Test
    void jsonCarriesTheMachineTheSettingsAndRoundedFigures() throws IOException {
        final Map<String, Object> m = JSON.std.mapFrom(report("0.1").json());
        assertEquals("bench-graphs", m.get("command"));
        assertEquals(true, m.get("quick"));
        assertEquals("abc123", ((Map<?, ?>)m.get("machine")).get("commit"));
        assertEquals(1, ((Number)m.get("threadsPerDevice")).intValue());
        assertEquals(List.of("first note", "second note"), m.get("notes"));
        @SuppressWarnings("unchecked")
        final List<Map<String, Object>> graphs = (List<Map<String, Object>>)m.get("graphs");
        assertEquals(12.346, ((Number)graphs.get(0).get("generateMs")).doubleValue());
        @SuppressWarnings("unchecked")
        final List<Map<String, Object>> rows = (List<Map<String, Object>>)m.get("rows");
        assertEquals(3, rows.size());
        assertEquals(2.0, ((Number)rows.get(1).get("vsJavaCsr")).doubleValue());
        assertFalse(rows.get(2).containsKey("mteps"));
        assertEquals("FAILED", rows.get(1).get("verified"));
    }

    /** With a GAP row: each other row's time and RSS (less the idle JVM) over GAP's, the error and RSS columns. */
    @Test
    void gapRatiosRssAndErrorsAreDerivedPerGraphAndApp() throws IOException {
        final ComparisonRow gap = new ComparisonRow("g", GraphApp.PAGERANK, GapMeasurement.GAP, "2",
            new double[] {10}, 0, Verification.pass("ok")).withPeakRss(100 << 10).withPrError(9e-6)
            .withSettings("-t 1e-06 -i 1000: 7 iterations");
        final ComparisonRow async = new ComparisonRow("g", GraphApp.PAGERANK, "overlap async", "2x1",
            new double[] {15}, 0, Verification.pass("ok")).withPeakRss(190 << 10).withPrError(8e-6)
            .withSettings("tolerance 3e-05").withJavaMillis(30);
        final ComparisonRow java = new ComparisonRow("g", GraphApp.PAGERANK, ComparisonRun.JAVA, "1",
            new double[] {30}, 0, Verification.pass("ref")).withPrError(9.5e-6).withJavaMillis(30);
        final ComparisonRow otherGraph = new ComparisonRow("h", GraphApp.BFS, "overlap bsp", "2x1",
            new double[] {1}, 10, Verification.pass("ok")).withPeakRss(50 << 10).withJavaMillis(2);
        final ComparisonReport r = new ComparisonReport(machine("0.1"), "0.1", new ComparisonReport.Settings(false, 2,
            2, new Warmup(2, 500), 5, 0, 1e-5, "", 40 << 10, "/opt/gapbs"), List.of(new ComparisonGraph("g", 10, 20, 0, 1, "/tmp/g.wel",
            "file")), List.of(java, async, gap, otherGraph), Set.of(), 1);
        assertEquals(1.5, ComparisonReport.timeVsGap(async, gap));
        assertEquals(1.5, ComparisonReport.rssVsGap(async, gap, 40 << 10), "(190 - 40) / 100");
        assertTrue(Double.isNaN(ComparisonReport.rssVsGap(java, gap, 40 << 10)), "measured in the parent: no RSS");
        assertTrue(Double.isNaN(ComparisonReport.rssVsGap(async, gap, -1)), "no idle JVM figure");
        final String md = r.markdown();
        assertTrue(md.contains("| graph | app | implementation | threads | median ms | min ms | MTEPS | vs java csr | "
            + "L1 error | peak RSS MiB | time / gap | rss-idle / gap | verified | settings |"), md);
        assertTrue(md.contains("| g | pr | overlap async | 2x1 | 15.00 | 15.00 | - | 2.00x | 8.00e-06 | 190 | 1.50x | "
            + "1.50x | passed | tolerance 3e-05 |"), md);
        assertTrue(md.contains("| g | pr | gap | 2 | 10.00 | 10.00 | - | - | 9.00e-06 | 100 | - | - | passed | "
            + "-t 1e-06 -i 1000: 7 iterations |"), md);
        assertTrue(md.contains("| h | bfs | overlap bsp | 2x1 | 1.00 | 1.00 | 0.0 | 2.00x | - | 50 | - | - | passed"),
            "no GAP row for h: no ratio");
        assertTrue(md.contains("An idle JVM started with the same flags: 40 MiB."), md);
        assertTrue(md.contains("| g | 10 | 20 | 0 | 1 | `/tmp/g.wel` |"), md);
        assertTrue(md.contains("`OMP_NUM_THREADS=2 bfs -f FILE -s -r SOURCE -n 7 -v -a`"), md);
        assertTrue(md.contains("PageRank at equal accuracy"), md);
        final String[] csv = r.csv().split("\n");
        assertEquals("g,pr,overlap async,2x1,2,5,15,15,15,15,,2,8.000e-06,194560,1.5,1.5,tolerance 3e-05,passed,ok",
            csv[2]);
        final Map<String, Object> json = JSON.std.mapFrom(r.json());
        assertEquals("/opt/gapbs", json.get("gap"));
        assertEquals(40960, ((Number)json.get("idleJvmRssKiB")).intValue());
        assertEquals("per graph, for prError", json.get("prIterations"));
        @SuppressWarnings("unchecked")
        final Map<String, Object> row = ((List<Map<String, Object>>)json.get("rows")).get(1);
        assertEquals(1.5, ((Number)row.get("timeVsGap")).doubleValue());
        assertEquals(1.5, ((Number)row.get("rssLessIdleVsGap")).doubleValue());
        assertEquals(8e-6, ((Number)row.get("prError")).doubleValue());
        assertTrue(r.text().contains("time / gap"), r.text());
        assertFalse(r.text().contains("settings"), "the terminal table leaves the settings out");
    }
}
