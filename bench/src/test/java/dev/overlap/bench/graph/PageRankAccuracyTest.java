package dev.overlap.bench.graph;

import dev.overlap.graph.CsrGraph;
import dev.overlap.graph.Progress;
import dev.overlap.graph.gen.GraphSpec;
import dev.overlap.graph.ref.PowerIteration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The converged PageRank, the iterations a target error needs, and GAP's replayed accuracy. */
class PageRankAccuracyTest {
    @TempDir
    Path dir;

    private static final CsrGraph KRON = GraphSpec.parse("kron:10").build(2, false, Progress.none());
    private static final CsrGraph GRID = GraphSpec.parse("grid:20x15").build(2, false, Progress.none());

    @Test
    void powerIterationsForATargetAreTheFewestThatReachIt() {
        for (final CsrGraph g : new CsrGraph[] {KRON, GRID}) {
            final PageRankReference ref = PageRankReference.compute(g, PowerIteration.DAMPING);
            assertEquals(1, sum(ref.ranks()), 1e-12);
            for (final double target : new double[] {1e-3, 1e-5}) {
                final int k = ref.powerIterationsFor(g, PowerIteration.DAMPING, target);
                assertTrue(ref.error(PowerIteration.fixed(g, PowerIteration.DAMPING, k).ranks()) <= target);
                assertTrue(k == 1 || ref.error(PowerIteration.fixed(g, PowerIteration.DAMPING, k - 1).ranks())
                    > target, "one step fewer is not enough");
            }
        }
    }

    @Test
    void gapsModelIsTheReferenceScaledByItsUnnormalizedSum() {
        // GAP's fixed point: iterate its documented model (dangling rank lost) to convergence in double precision.
        final CsrGraph g = KRON;
        final int n = g.vertexCount();
        final double d = PowerIteration.DAMPING;
        double[] x = new double[n];
        java.util.Arrays.fill(x, 1.0 / n);
        for (int it = 0; it < 400; it++) {
            final double[] next = new double[n];
            for (int u = 0; u < n; u++) {
                double in = 0;
                for (long e = g.edgeStart(u); e < g.edgeEnd(u); e++) {
                    final int v = g.target(e);
                    in += x[v] / g.degree(v);
                }
                next[u] = (1 - d) / n + d * in;
            }
            x = next;
        }
        final PageRankReference ref = PageRankReference.compute(g, d);
        final double scale = ref.unnormalizedSum(d);
        assertTrue(scale < 1, "kron has isolated vertices: GAP's scores sum to less than 1");
        assertEquals(scale, sum(x), 1e-9);
        for (int v = 0; v < n; v++) {
            assertEquals(scale * ref.ranks()[v], x[v], 1e-12);
        }
    }

    @Test
    void theReplayPlansAToleranceThatStopsAtTheFirstIterationWithinTheTarget() {
        for (final CsrGraph g : new CsrGraph[] {KRON, GRID}) {
            final PageRankReference ref = PageRankReference.compute(g, PowerIteration.DAMPING);
            final double target = 1e-4;
            final GapPageRankModel.Replay r = GapPageRankModel.replay(g, ref, target);
            assertTrue(r.error(r.iterations()) < target / 8, "replayed past the target");
            final GapPageRankModel.Plan plan = GapPageRankModel.plan(r, target);
            final int k = plan.iterations();
            assertTrue(plan.reached());
            assertTrue(r.error(k) <= target && (k == 1 || r.error(k - 1) > target), "first iteration within");
            assertEquals(r.error(k), plan.error());
            // GAP stops after the first iteration whose change is below the tolerance: that must be k
            for (int j = 1; j < k; j++) {
                assertTrue(r.change(j) >= plan.tolerance(), "GAP would stop at " + j + " instead of " + k);
            }
            assertTrue(r.change(k) < plan.tolerance());
            assertEquals(plan.tolerance(), Double.parseDouble(plan.toleranceArgument()));
        }
    }

    @Test
    void anUnreachableTargetPlansTheBestIteration() {
        final PageRankReference ref = PageRankReference.compute(GRID, PowerIteration.DAMPING);
        // float scores cannot get within 1e-12 of the reference
        final GapPageRankModel.Replay r = GapPageRankModel.replay(GRID, ref, 1e-12);
        final GapPageRankModel.Plan plan = GapPageRankModel.plan(r, 1e-12);
        assertTrue(!plan.reached());
        for (int j = 1; j <= r.iterations(); j++) {
            assertTrue(r.error(j) >= plan.error(), "the best iteration is planned");
        }
    }

    @Test
    void theReferenceTravelsToAForkedMeasurementThroughAFile() throws IOException {
        final PageRankReference ref = PageRankReference.compute(GRID, PowerIteration.DAMPING);
        final Path f = dir.resolve("ref.bin");
        ref.write(f);
        final PageRankReference back = PageRankReference.read(f, GRID);
        assertEquals(0, ref.error(back.ranks()));
        assertEquals(ref.unnormalizedSum(0.85), back.unnormalizedSum(0.85));
        assertTrue(assertThrows(IOException.class, () -> PageRankReference.read(f, KRON)).getMessage()
            .contains("ranks of 300 vertices for a graph of 1024"));
    }

    private static double sum(final double[] a) {
        double s = 0;
        for (final double x : a) {
            s += x;
        }
        return s;
    }
}
