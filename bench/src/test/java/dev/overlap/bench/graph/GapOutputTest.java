package dev.overlap.bench.graph;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** GAP's output parsed from canned text (made-up figures in GAP's formats: util.h's printf widths). */
class GapOutputTest {
    @Test
    void bfsTrialsVerdictsAndTreeAreRead() {
        final GapOutput o = GapOutput.parse(List.of(
            "Read Time:           1.23456",
            "Build Time:          0.54321",
            "Graph has 1000 nodes and 7400 undirected edges for degree: 7",
            "Trial Time:          0.00250",
            "Verification:           PASS",
            "Verification Time:   0.00100",
            "Trial Time:          0.00125",
            "BFS Tree has 812 nodes and 14700 edges",
            "Verification:           FAIL",
            "Verification Time:   0.00100",
            "Average Time:        0.00188"));
        assertEquals(1000, o.nodes);
        assertEquals(7400, o.edges);
        assertFalse(o.directed);
        assertArrayEquals(new double[] {2.5, 1.25}, o.trialMillis(), 1e-12);
        assertEquals(List.of(true, false), o.verifications());
        assertEquals(812, o.bfsTreeNodes);
        assertEquals(14700, o.bfsTreeEdges);
        assertEquals(-1, o.ssspReached);
        assertTrue(o.topScores().isEmpty());
        assertArrayEquals(new int[] {0, 0}, o.prIterations(), "no -l lines");
        assertTrue(o.otherLines().isEmpty(), "times other than the trials' are skipped: " + o.otherLines());
    }

    @Test
    void ssspReachedAndTheVerifiersComplaintsAreRead() {
        final GapOutput o = GapOutput.parse(List.of(
            "Graph has 64 nodes and 300 directed edges for degree: 4",
            "Trial Time:          0.00001",
            "SSSP Tree reaches 60 nodes",
            "17: 30 != 29",
            "Verification:           FAIL"));
        assertTrue(o.directed);
        assertEquals(60, o.ssspReached);
        assertEquals(List.of(false), o.verifications());
        assertEquals(List.of("17: 30 != 29"), o.otherLines());
        assertArrayEquals(new double[] {0.01}, o.trialMillis(), 1e-12);
    }

    @Test
    void pageRankIterationsPerTrialAndTopScoresAreRead() {
        final GapOutput o = GapOutput.parse(List.of(
            "Graph has 5 nodes and 4 undirected edges for degree: 0",
            "    0                0.17000",
            "    1                0.00021",
            "    2                0.00000",
            "Trial Time:          0.01000",
            "Total Error:         0.00000",
            "Verification:           PASS",
            "    0                0.17000",
            "    1                0.00021",
            "Trial Time:          0.02000",
            "3:0.2",
            "2:0.19",
            "4:1.5e-05",
            "Total Error:         0.00000",
            "Verification:           PASS"));
        assertArrayEquals(new int[] {3, 2}, o.prIterations());
        assertArrayEquals(new double[] {10, 20}, o.trialMillis(), 1e-12);
        assertEquals(Map.of(3, 0.2, 2, 0.19, 4, 1.5e-5), o.topScores());
        assertEquals(List.of(3, 2, 4), List.copyOf(o.topScores().keySet()), "in the order printed");
        assertEquals(List.of(true, true), o.verifications());
    }

    @Test
    void anErrorRunHasNoStatsAndNoTrials() {
        final GapOutput o = GapOutput.parse(List.of("Couldn't open file /nope.el"));
        assertEquals(-1, o.nodes);
        assertEquals(0, o.trialMillis().length);
        assertEquals(List.of("Couldn't open file /nope.el"), o.otherLines());
    }
}
