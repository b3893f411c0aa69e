package dev.overlap.graph.cli;

import com.fasterxml.jackson.jr.ob.JSON;
import dev.overlap.graph.app.GraphApp;
import dev.overlap.graph.app.WorkCounts;
import dev.overlap.graph.ref.Verification;
import dev.overlap.graph.report.chart.ChartData;
import dev.overlap.testing.Xml;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What a scaling sweep's figures become, from points made up here (no runs). */
class ScalingReportTest {
    private static final WorkCounts COUNTS = new WorkCounts(1, 120, 100, 900, 70, 30, 5, 4, 256);

    /** 1 device: 10 ms median; 2 devices: 6 ms, over the machine's single core; sequential 12 ms. */
    private static ScalingReport report(final GraphApp app, final long edgesTraversed, final Verification second) {
        final ScalingSweep.Result r = new ScalingSweep.Result(12, List.of(
            new ScalingPoint(1, new double[] {11, 10, 9}, COUNTS, edgesTraversed, Verification.pass("ok"), false),
            new ScalingPoint(2, new double[] {5, 6, 8}, COUNTS, edgesTraversed, second, true)));
        return new ScalingReport(app, "async", "kron:8, seed 1", 256, 4000, 1, 3, 1, r);
    }

    @Test
    void csvHasOneLinePerDeviceCountWithSpeedupAndEfficiencyAgainstOneDevice() {
        final String[] lines = report(GraphApp.BFS, 3000, Verification.fail("wrong")).csv().split("\n");
        assertEquals(ScalingReport.CSV_HEADER, lines[0]);
        assertEquals(3, lines.length);
        assertEquals("bfs,async,\"kron:8, seed 1\",256,4000,1,1,1,false,10,9,11,11 10 9,0.3,1,1,12,1.2,1,120,100,1.2,70,"
            + "30,5,4,256,passed", lines[1]);
        assertEquals("bfs,async,\"kron:8, seed 1\",256,4000,2,1,2,true,6,5,8,5 6 8,0.5,1.6667,0.8333,12,2,1,120,100,"
            + "1.2,70,30,5,4,256,FAILED", lines[2]);
    }

    @Test
    void theTableMarksOversubscribedRowsAndSaysWhereTheFilesWent() {
        final StringWriter w = new StringWriter();
        report(GraphApp.BFS, 3000, Verification.skipped()).print(new PrintWriter(w), Path.of("d/scaling.csv"),
            Path.of("d/scaling.svg"));
        final String out = w.toString();
        assertTrue(out.startsWith("overlap scaling: bfs async on kron:8, seed 1: 1 worker per device, 1 cores\n"),
            out);
        assertTrue(out.contains("single-threaded Java CSR: 12.00 ms (median of 3)"), out);
        assertTrue(out.lines().anyMatch(l -> l.trim().startsWith("2 ") && l.contains("2*") && l.contains("1.67x")
            && l.contains("83%") && l.endsWith("skipped")), out);
        assertTrue(out.contains("* more busy threads than the 1 cores"), out);
        assertTrue(out.endsWith("wrote d/scaling.csv and d/scaling.svg\n"), out);
    }

    @Test
    void theChartStacksTimeOverSpeedupWithHollowOversubscribedPoints() {
        final ScalingReport report = report(GraphApp.BFS, 3000, Verification.pass("ok"));
        final ChartData chart = report.chart();
        assertEquals(2, chart.panels().size());
        final ChartData.Panel time = chart.panels().get(0);
        final ChartData.Point twoDevices = time.series().get(0).points().get(1);
        assertEquals(6, twoDevices.y());
        assertEquals(5, twoDevices.low());
        assertEquals(8, twoDevices.high());
        assertTrue(twoDevices.flagged());
        assertEquals("single-threaded Java CSR: 12.00 ms", time.references().get(0).label());
        final List<ChartData.Series> speedup = chart.panels().get(1).series();
        assertEquals(List.of("speedup over 1 device", "speedup over single-threaded Java CSR", "ideal (linear)"),
            speedup.stream().map(ChartData.Series::name).toList());
        assertEquals(10 / 6.0, speedup.get(0).points().get(1).y(), 1e-12);
        assertEquals(2, speedup.get(1).points().get(1).y(), 1e-12);
        assertTrue(speedup.get(2).guide());

        final Document svg = Xml.parse(report.svg());
        assertEquals(6, Xml.points(svg).size());
        assertEquals(3, Xml.points(svg).stream().filter(Xml::hollow).count(), "the 2-device point of each series");
        assertTrue(Xml.elements(svg, "title").stream()
            .anyMatch(t -> t.getTextContent().equals("2 devices: 6 ms (5..8)")), "tooltips");
        assertTrue(Xml.texts(svg).contains("more busy threads than the 1 cores"), Xml.texts(svg).toString());
    }

    @Test
    void jsonLeavesOutTheSourceAndMtepsOfPageRank() throws IOException {
        final Map<String, Object> pr = JSON.std.mapFrom(report(GraphApp.PAGERANK, 0, Verification.pass("ok"))
            .json(7, Path.of("c"), Path.of("s")));
        assertFalse(pr.containsKey("source"));
        @SuppressWarnings("unchecked")
        final List<Map<String, Object>> rows = (List<Map<String, Object>>)pr.get("rows");
        assertFalse(rows.get(0).containsKey("mteps"));
        assertEquals(1.6667, ((Number)rows.get(1).get("speedup")).doubleValue());
        final Map<String, Object> bfs = JSON.std.mapFrom(report(GraphApp.BFS, 3000, Verification.pass("ok"))
            .json(7, Path.of("c"), Path.of("s")));
        assertEquals(7, ((Number)bfs.get("source")).intValue());
        assertEquals("c", bfs.get("csv"));
    }

    @Test
    void csvQuotingAndNumbers() {
        assertEquals("plain", ScalingReport.csvQuote("plain"));
        assertEquals("\"a,b\"", ScalingReport.csvQuote("a,b"));
        assertEquals("\"say \"\"hi\"\"\"", ScalingReport.csvQuote("say \"hi\""));
        assertEquals("1.5", ScalingReport.num(1.5));
        assertEquals("2", ScalingReport.num(2.0));
        assertEquals("0.3333", ScalingReport.num(1.0 / 3));
        assertThrows(IllegalArgumentException.class, () -> new ScalingReport(GraphApp.BFS, "bsp", "g", 1, 1, 1, 1, 1,
            new ScalingSweep.Result(1, List.of())));
    }
}
