package dev.overlap.bench.graph;

import dev.overlap.graph.CsrGraph;
import dev.overlap.graph.Progress;
import dev.overlap.graph.app.AppSettings;
import dev.overlap.graph.app.GraphApp;
import dev.overlap.graph.gen.GraphSpec;
import dev.overlap.graph.ref.PowerIteration;
import dev.overlap.graph.ref.Verification;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** GAP's verdicts and the cross-checks, on canned output for a real small graph. */
class GapMeasurementTest {
    private static final CsrGraph G = GraphSpec.parse("kron:8").build(1, true, Progress.none());
    private static final int SOURCE = GraphApp.defaultSource(G, 1);

    private static GapMeasurement.Graph graph(final PageRankReference ref) {
        final AppSettings s = AppSettings.builder().fixedIterations(5).build();
        final Map<GraphApp, GraphApp.Expected> expected = Map.of(
            GraphApp.BFS, GraphApp.BFS.expected(G.withoutWeights(), SOURCE, s, null),
            GraphApp.SSSP, GraphApp.SSSP.expected(G, SOURCE, s, null));
        final long edges = GraphApp.BFS.edgesTraversed(G, GraphApp.BFS.sequential(G.withoutWeights(), SOURCE, s));
        return new GapMeasurement.Graph("kron:8", Path.of("kron.wel"), true, G, SOURCE, expected,
            Map.of(GraphApp.BFS, edges), ref);
    }

    private static List<String> stats(final long nodes, final long edges, final String kind) {
        return List.of("Graph has " + nodes + " nodes and " + edges + " " + kind + " edges for degree: 9");
    }

    private static GapOutput output(final List<String> head, final int trials, final String verdict,
        final String... tail) {
        final List<String> lines = new ArrayList<>(head);
        for (int i = 0; i < trials; i++) {
            lines.add("Trial Time:          0.00100");
            lines.add("Verification:           " + verdict);
        }
        lines.addAll(List.of(tail));
        return GapOutput.parse(lines);
    }

    @Test
    void matchingOutputPassesAndEveryMismatchFails() {
        final GapMeasurement.Graph g = graph(null);
        final long n = G.vertexCount();
        final long m = G.edgeCount() / 2;
        final GraphApp.Expected bfs = g.expected().get(GraphApp.BFS);
        final long edges = g.edgesTraversed().get(GraphApp.BFS);
        final String tree = "BFS Tree has " + bfs.reached() + " nodes and " + edges + " edges";
        final Verification ok = GapMeasurement.check(GraphApp.BFS, output(stats(n, m, "undirected"), 3, "PASS", tree),
            g, 3);
        assertTrue(ok.passed(), ok.detail());
        assertTrue(ok.detail().startsWith("GAP -v: 3/3 PASS; same graph (" + n + " vertices, " + m), ok.detail());
        final String[][] bad = {
            {"another graph", "GAP built another graph: " + (n + 1) + " nodes"},
            {"directed", "directed edges, Overlap"},
            {"a FAIL", "GAP's own verification (-v): 2 of 3 trials PASS"},
            {"too few verdicts", "1 of 3 trials PASS (1 verdicts printed)"},
            {"another tree", "GAP's BFS tree has " + (bfs.reached() - 1) + " vertices"},
        };
        final GapOutput[] outputs = {
            output(stats(n + 1, m, "undirected"), 3, "PASS", tree),
            output(stats(n, m, "directed"), 3, "PASS", tree),
            GapOutput.parse(List.of(stats(n, m, "undirected").get(0), "Verification:           PASS",
                "Verification:           FAIL", "Verification:           PASS")),
            output(stats(n, m, "undirected"), 1, "PASS", tree),
            output(stats(n, m, "undirected"), 3, "PASS", "BFS Tree has " + (bfs.reached() - 1) + " nodes and " + edges
                + " edges"),
        };
        for (int i = 0; i < bad.length; i++) {
            final Verification v = GapMeasurement.check(GraphApp.BFS, outputs[i], g, 3);
            assertFalse(v.passed(), bad[i][0]);
            assertTrue(v.detail().contains(bad[i][1]), bad[i][0] + ": " + v.detail());
        }
        final long reached = g.expected().get(GraphApp.SSSP).reached();
        assertTrue(GapMeasurement.check(GraphApp.SSSP, output(stats(n, m, "undirected"), 2, "PASS",
            "SSSP Tree reaches " + reached + " nodes"), g, 2).passed());
        final Verification sssp = GapMeasurement.check(GraphApp.SSSP, output(stats(n, m, "undirected"), 2, "PASS",
            "SSSP Tree reaches 3 nodes"), g, 2);
        assertEquals("GAP's SSSP reaches 3 vertices, Dijkstra " + reached, sssp.detail());
    }

    @Test
    void topScoresAreComparedWithTheReferenceInGapsModel() {
        final PageRankReference ref = PageRankReference.compute(G.withoutWeights(), PowerIteration.DAMPING);
        final double scale = ref.unnormalizedSum(GapPageRankModel.DAMPING);
        final double[] y = ref.ranks();
        int top = 0;
        for (int v = 0; v < y.length; v++) {
            top = y[v] > y[top] ? v : top;
        }
        final String exact = String.format(Locale.ROOT, "%d:%.6g", top, scale * y[top]);
        final Verification ok = GapMeasurement.checkTopScores(GapOutput.parse(List.of(exact)), ref, 1e-6);
        assertTrue(ok.passed(), ok.detail());
        // off by more than twice the answer's whole L1 error: no vector within that error has this score
        final String off = String.format(Locale.ROOT, "%d:%.6g", top, scale * y[top] + 1e-4);
        final Verification wrong = GapMeasurement.checkTopScores(GapOutput.parse(List.of(off)), ref, 1e-6);
        assertFalse(wrong.passed());
        assertTrue(wrong.detail().startsWith("GAP's score of vertex " + top), wrong.detail());
        assertTrue(GapMeasurement.checkTopScores(GapOutput.parse(List.of(off)), ref, 1e-4).passed(),
            "a looser answer allows more");
        assertFalse(GapMeasurement.checkTopScores(GapOutput.parse(List.of()), ref, 1e-6).passed());
        assertFalse(GapMeasurement.checkTopScores(GapOutput.parse(List.of("999999:0.1")), ref, 1e-6).passed());
        assertFalse(GapMeasurement.checkTopScores(GapOutput.parse(List.of(top + ":nan")), ref, 1e-6).passed());
    }

    @Test
    void theDefaultDeltaFollowsTheMeanDegree() {
        assertEquals(2, GapMeasurement.defaultDelta(GraphSpec.parse("kron:10").build(1, false, Progress.none())));
        assertEquals(2, GapMeasurement.defaultDelta(GraphSpec.parse("urand:10").build(1, false, Progress.none())));
        assertEquals(256, GapMeasurement.defaultDelta(GraphSpec.parse("grid:30x30").build(1, false,
            Progress.none())));
        assertEquals(256, GapMeasurement.defaultDelta(GraphSpec.parse("road:900").build(1, false, Progress.none())));
    }
}
