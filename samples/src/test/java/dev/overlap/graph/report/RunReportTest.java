package dev.overlap.graph.report;

import com.fasterxml.jackson.jr.ob.JSON;
import dev.overlap.graph.app.WorkCounts;
import dev.overlap.graph.ref.Verification;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RunReportTest {
    private static RunReport report() {
        return RunReport.builder().app("bfs").mode("bsp").graph("kron:10", 1024, 30000).mesh(2, 1, "range")
            .times(10, 2, 4).edgesTraversed(20000).counts(new WorkCounts(7, 1100, 1000, 5000, 900, 200, 200, 3, 800))
            .verification(Verification.pass("ok")).extra("source", 5).build();
    }

    @Test
    void mtepsIsEdgesTraversedOverTime() {
        assertEquals(5.0, report().mteps(), 1e-12);
        assertEquals(1.1, report().counts().normalizedWork(), 1e-12);
    }

    @Test
    void jsonCarriesEveryField() throws IOException {
        final Map<String, Object> m = JSON.std.mapFrom(report().toJson());
        assertEquals("bfs", m.get("app"));
        assertEquals(5.0, ((Number)m.get("mteps")).doubleValue());
        assertEquals(1.1, ((Number)m.get("normalizedWork")).doubleValue());
        assertEquals(200, ((Number)m.get("remotePushes")).intValue());
        assertEquals(800, ((Number)m.get("bytesSent")).intValue());
        assertEquals(5, ((Number)m.get("source")).intValue());
        assertEquals("passed", m.get("verified"));
    }

    @Test
    void tableAlignsOneFieldPerLine() {
        final String t = report().toTable();
        assertTrue(t.contains("mteps             5.000"), t);
        assertTrue(t.contains("edges             30,000"), t);
        assertTrue(t.contains("verified          passed"), t);
    }
}
