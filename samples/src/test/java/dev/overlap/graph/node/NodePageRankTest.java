package dev.overlap.graph.node;

import dev.overlap.graph.CsrGraph;
import dev.overlap.graph.app.AppResult;
import dev.overlap.graph.app.AppSettings;
import dev.overlap.graph.ref.PowerIteration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link NodePageRank} with two ranks as threads of this JVM ({@link LoopbackRanks}, two devices each): the answer
 * rank 0 gathers is power iteration's, on a graph with dangling vertices, vertices without in-edges and an isolated
 * vertex, owned across four global devices (one owns a single vertex). Every wait is bounded.
 */
@Timeout(value = 180, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class NodePageRankTest {
    private static final int RANKS = 2;

    /**
     * 0 -> 1, 2; 1 -> 2, 4; 2 -> 0; 3 -> 2 (3 has no in-edges); 4 dangling; 5 isolated (dangling, no in-edges);
     * 6 -> 4, 6 (a self-loop).
     */
    private static CsrGraph graph() {
        final long[] offsets = {0, 2, 4, 5, 6, 6, 6, 8};
        final int[] targets = {1, 2, 2, 4, 0, 2, 4, 6};
        return CsrGraph.wrap(offsets, targets, null, false);
    }

    @Test
    void twoRanksAgreeWithPowerIterationToTheTolerance() throws Exception {
        final CsrGraph g = graph();
        final AppSettings settings = AppSettings.builder().damping(0.85).tolerance(1e-9).maxIterations(1000).build();
        final double[] ref = PowerIteration.ranks(g, 0.85, 1e-12, 100_000).ranks();
        final List<double[]> answers = onTwoRanks(g, settings, 2);
        assertNull(answers.get(1), "only rank 0 gathers");
        final double[] got = answers.get(0);
        double l1 = 0;
        double sum = 0;
        for (int v = 0; v < ref.length; v++) {
            l1 += Math.abs(got[v] - ref[v]);
            sum += got[v];
        }
        assertTrue(l1 <= 1e-9 + 1e-12, "L1 distance to power iteration " + l1);
        assertEquals(1.0, sum, 1e-12, "ranks sum to 1");
        assertEquals((1 - 0.85) / 7 + 0.85 * (got[4] + got[5]) / 7, got[3], 1e-9,
            "a vertex without in-edges gets the base and the dangling share only");
    }

    @Test
    void fixedIterationsAreThoseOfPowerIteration() throws Exception {
        final CsrGraph g = graph();
        final AppSettings settings = AppSettings.builder().damping(0.85).fixedIterations(7).build();
        final double[] ref = PowerIteration.fixed(g, 0.85, 7).ranks();
        final double[] got = onTwoRanks(g, settings, 1).get(0);
        for (int v = 0; v < ref.length; v++) {
            assertEquals(ref[v], got[v], 1e-14, "vertex " + v);
        }
    }

    /**
     * Runs {@code runs} PageRanks on two ranks at once, then gathers.
     *
     * @return what each rank's gather returned, by rank
     */
    private static List<double[]> onTwoRanks(final CsrGraph g, final AppSettings settings, final int runs)
        throws Exception {
        final CsrGraph in = g.transpose();
        return LoopbackRanks.run(RANKS, 2, NodePageRank.memoryPerDevice(in, RANKS, 2), 0, "pr",
            (rank, group, mesh, transport, ht) -> {
                final NodePageRank pr = new NodePageRank(g, in, mesh, group, ht);
                AppResult last = null;
                for (int i = 0; i < runs; i++) {
                    last = pr.run(settings);
                }
                assertTrue(last.counts().iterations() > 0);
                return pr.gather();
            });
    }
}
