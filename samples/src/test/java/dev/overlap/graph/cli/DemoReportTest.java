package dev.overlap.graph.cli;

import com.fasterxml.jackson.jr.ob.JSON;
import dev.overlap.graph.app.Warmup;
import dev.overlap.graph.app.WorkCounts;
import dev.overlap.graph.ref.Verification;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What the demo's rows become, from rows made up here (no runs). */
class DemoReportTest {
    private static final WorkCounts COUNTS = new WorkCounts(3, 150, 100, 2000, 60, 40, 7, 5, 512);
    private static final DemoReport REPORT = new DemoReport(2, 1, "range", Warmup.ofRuns(1), 3, 2);

    /** A reference row of 20 ms and a bsp row of 5 ms (verified or not), and a Jacobi row with a profile time. */
    private static DemoRun.Result result(final Verification bsp) {
        final DemoRow ref = DemoRow.reference("bfs", "kron:8", new double[] {21, 20, 19}, 4000, COUNTS,
            Verification.pass("reference"));
        final DemoRow mesh = new DemoRow("bfs", "kron:8", "bsp", "2", true, new double[] {4, 5, 6}, 4000, COUNTS, bsp,
            false, ref.medianMillis, null, Double.NaN);
        final DemoRow jacobi = new DemoRow("jacobi", "banded n=64 k=4", "proact profiler: X", "2+1t", true,
            new double[] {1.23456}, 0, COUNTS, Verification.pass("residual 1e-9"), false, 2.5, "X", 12.34567);
        return new DemoRun.Result(List.of(ref, mesh, jacobi),
            List.of(new DemoGraph("kron:8", 256, 4000, 3, "none", 1.4)), Set.of("a note"));
    }

    @Test
    void rowsDeriveThroughputAndSpeedupFromTheirMedian() {
        final DemoRun.Result r = result(Verification.pass("ok"));
        final DemoRow ref = r.rows.get(0);
        final DemoRow mesh = r.rows.get(1);
        assertEquals(20, ref.sequentialMillis, "the reference is compared with itself");
        assertEquals(1, ref.vsSequential());
        assertEquals("reference", ref.verified());
        assertEquals(5, mesh.medianMillis);
        assertEquals(0.8, mesh.mteps(), 1e-12);
        assertEquals(4, mesh.vsSequential());
        assertEquals("passed", mesh.verified());
        assertTrue(Double.isNaN(r.rows.get(2).mteps()), "Jacobi traverses no edges");
        assertTrue(r.failed().isEmpty());
        final List<DemoRow> failed = result(Verification.fail("off")).failed();
        assertEquals(1, failed.size());
        assertEquals("bsp", failed.get(0).mode);
    }

    @Test
    void theTableShowsEveryRowTheNotesAndTheVerdict() {
        final StringWriter w = new StringWriter();
        REPORT.print(new PrintWriter(w), result(Verification.fail("off")), 1.5);
        final String out = w.toString();
        assertTrue(out.startsWith("overlap demo: 2 devices x 1 worker (range partitioning, 2 cores), 1 warm-up run then "
            + "the median of 3\n"), out);
        assertTrue(out.contains("  kron:8: 256 vertices, 4,000 edges, source 3, weights none, generated in 1 ms"), out);
        assertTrue(out.lines().anyMatch(l -> l.startsWith("bfs ") && l.contains("java seq") && l.endsWith("reference")),
            out);
        assertTrue(out.lines().anyMatch(l -> l.startsWith("bfs ") && l.contains(" bsp ") && l.contains("4.00x")
            && l.endsWith("NO")), out);
        assertTrue(out.contains("note: a note\n"), out);
        assertTrue(out.endsWith("VERIFICATION FAILED (see standard error); wall time 1.5 s (generation, JIT warm-up "
            + "and checks included)\n"), out);
    }

    @Test
    void jsonRoundsTimesAndCarriesJacobisTransferAndProfile() throws IOException {
        final Map<String, Object> m = JSON.std.mapFrom(REPORT.json(result(Verification.pass("ok")), 1.23456));
        assertEquals("demo", m.get("command"));
        assertEquals("passed", m.get("verified"));
        assertEquals(1.235, ((Number)m.get("wallSeconds")).doubleValue());
        @SuppressWarnings("unchecked")
        final List<Map<String, Object>> rows = (List<Map<String, Object>>)m.get("rows");
        assertEquals(3, rows.size());
        assertEquals(20.0, ((Number)rows.get(0).get("sequentialMs")).doubleValue());
        assertEquals(4.0, ((Number)rows.get(1).get("vsSequential")).doubleValue());
        final Map<String, Object> jacobi = rows.get(2);
        assertEquals(1.235, ((Number)jacobi.get("timeMs")).doubleValue());
        assertFalse(jacobi.containsKey("mteps"));
        assertEquals("X", jacobi.get("transfer"));
        assertEquals(12.346, ((Number)jacobi.get("profileMs")).doubleValue());
        assertFalse(rows.get(1).containsKey("transfer"));
        assertEquals(List.of("transfer", "profileMs", "verified", "verification"),
            List.copyOf(jacobi.keySet()).subList(jacobi.size() - 4, jacobi.size()));
        @SuppressWarnings("unchecked")
        final List<Map<String, Object>> graphs = (List<Map<String, Object>>)m.get("graphs");
        assertEquals(1.4, ((Number)graphs.get(0).get("generateMs")).doubleValue());
        assertEquals("FAILED", JSON.std.mapFrom(REPORT.json(result(Verification.fail("off")), 1)).get("verified"));
    }
}
