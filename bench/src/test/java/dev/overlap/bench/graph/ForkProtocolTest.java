package dev.overlap.bench.graph;

import dev.overlap.graph.app.GraphApp;
import dev.overlap.graph.ref.Verification;
import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What a forked measurement prints is what its parent reads back. */
class ForkProtocolTest {
    private static List<String> lines(final List<ComparisonRow> rows, final Set<String> notes, final int exit) {
        final StringWriter w = new StringWriter();
        assertEquals(exit, ForkProtocol.print(rows, notes, new PrintWriter(w)));
        return w.toString().lines().toList();
    }

    @Test
    void aRowAndItsNotesSurviveTheRoundTrip() {
        final double[] times = {1.0 / 3, 2.5, 1e-7};
        final ComparisonRow row = new ComparisonRow("kron:8", GraphApp.SSSP, "overlap async", "2x1", times, 4321,
            Verification.pass("distances\tmatch\nexactly")).withPeakRss(123456).withSettings("tolerance\t1e-5");
        final List<String> lines = lines(List.of(row), Set.of("a\tnote"), 0);
        assertEquals(List.of("OVERLAP-FORK {\"note\":\"a\\tnote\"}", "OVERLAP-FORK {\"row\":{\"impl\":\"overlap async\","
            + "\"threads\":\"2x1\",\"runMillis\":[0.3333333333333333,2.5,1.0E-7],\"edgesTraversed\":4321,"
            + "\"verification\":\"passed\",\"detail\":\"distances\\tmatch\\nexactly\",\"peakRssKib\":123456,"
            + "\"settings\":\"tolerance\\t1e-5\"}}"), lines);
        final ForkProtocol.Reply reply = ForkProtocol.read(lines, "kron:8", GraphApp.SSSP);
        assertNull(reply.error);
        assertEquals(List.of("a\tnote"), reply.notes, "text keeps its tabs and line breaks");
        assertEquals("overlap async", reply.row.impl);
        assertEquals("2x1", reply.row.threads);
        assertArrayEquals(times, reply.row.runMillis(), "full precision");
        assertEquals(4321, reply.row.edgesTraversed);
        assertTrue(reply.row.verification.passed());
        assertEquals("distances\tmatch\nexactly", reply.row.verification.detail());
        assertTrue(Double.isNaN(reply.row.javaMillis), "the parent compares it with its own Java run");
        assertEquals(123456, reply.row.peakRssKib, "the child's peak RSS");
        assertTrue(Double.isNaN(reply.row.prError));
        assertEquals("tolerance\t1e-5", reply.row.settings);
        final ComparisonRow pr = new ComparisonRow("g", GraphApp.PAGERANK, "overlap bsp", "2x1", new double[] {1}, 0,
            Verification.pass("ok")).withPrError(1.2345678901234567e-6);
        assertEquals(1.2345678901234567e-6, ForkProtocol.read(lines(List.of(pr), Set.of(), 0), "g",
            GraphApp.PAGERANK).row.prError, "full precision");
    }

    @Test
    void aFailedVerificationExitsOneAndReadsBackAsFailed() {
        final ComparisonRow row = new ComparisonRow("g", GraphApp.BFS, "overlap bsp", "2x1", new double[] {3}, 10,
            Verification.fail("vertex 3 has depth 2"));
        final ForkProtocol.Reply reply = ForkProtocol.read(lines(List.of(row), Set.of(), 1), "g", GraphApp.BFS);
        assertFalse(reply.row.verification.passed());
        assertEquals("vertex 3 has depth 2", reply.row.verification.detail());
    }

    @Test
    void anErrorOrASkipReadsBackWithoutARow() {
        final ForkProtocol.Reply error = ForkProtocol.read(List.of("some JVM warning",
            ForkProtocol.errorLine("out of heap\tmemory")), "g", GraphApp.PAGERANK);
        assertEquals("out of heap\tmemory", error.error);
        assertNull(error.row);
        final ForkProtocol.Reply skipped = ForkProtocol.read(lines(List.of(), Set.of("async pr skipped"), 0), "g",
            GraphApp.PAGERANK);
        assertNull(skipped.row);
        assertNull(skipped.error);
        assertEquals(List.of("async pr skipped"), skipped.notes);
    }

    @Test
    void anUnreadableProtocolLineIsTheChildsError() {
        final ForkProtocol.Reply reply = ForkProtocol.read(List.of(ForkProtocol.PREFIX + "{\"row\": {\"impl\": "),
            "g", GraphApp.BFS);
        assertNull(reply.row);
        assertTrue(reply.error.startsWith("unreadable reply ("), reply.error);
        assertTrue(reply.error.endsWith(": OVERLAP-FORK {\"row\": {\"impl\": "), reply.error);
        final ForkProtocol.Reply unknown = ForkProtocol.read(List.of(ForkProtocol.PREFIX + "{\"what\": 1}"), "g",
            GraphApp.BFS);
        assertEquals("unknown reply OVERLAP-FORK {\"what\": 1}", unknown.error);
    }
}
