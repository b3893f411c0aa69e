package dev.overlap.graph.node;

import dev.overlap.graph.jacobi.BandedSystem;
import dev.overlap.graph.jacobi.JacobiSolver;
import dev.overlap.graph.jacobi.SequentialJacobi;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link NodeJacobi} with two ranks as threads of this JVM ({@link LoopbackRanks}), two devices each: on a system
 * whose rows span several kernel blocks and whose band crosses every device and rank boundary, both ranks stop in
 * the iteration {@link SequentialJacobi} stops in, with the same solution (the same row arithmetic, so equal to the
 * last bits) and a residual below the tolerance; two solves in a row on one instance agree; with the cap, both stop
 * at the cap.
 */
@Timeout(value = 180, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class NodeJacobiTest {
    private static final int RANKS = 2;
    private static final int DEVICES = 2;

    @Test
    void twoRanksSolveAsTheSequentialJacobiDoes() throws Exception {
        final BandedSystem system = new BandedSystem(4 * JacobiSolver.ROWS_PER_BLOCK + 77, 5, 3);
        final double tolerance = 1e-10;
        final SequentialJacobi.Result ref = SequentialJacobi.solve(system, tolerance, 10_000);
        final List<JacobiSolver.Result[]> got = onTwoRanks(system, tolerance, 10_000);
        for (int rank = 0; rank < RANKS; rank++) {
            for (final JacobiSolver.Result r : got.get(rank)) {
                assertEquals(ref.iterations(), r.iterations(), "rank " + rank + " stops where the sequential does");
                assertArrayEquals(ref.x(), r.x(), 0.0, "rank " + rank + " holds the sequential solution");
                assertTrue(r.residual() < tolerance, "residual " + r.residual());
                assertTrue(SequentialJacobi.verify(system, r.x(), tolerance, ref).passed());
                assertTrue(r.copiedChunks() > 0 && r.copiedBytes() > 0);
            }
        }
    }

    @Test
    void theCapStopsEveryRankAtTheCap() throws Exception {
        final BandedSystem system = new BandedSystem(1000, 3, 9);
        for (final JacobiSolver.Result[] rank : onTwoRanks(system, 1e-300, 4)) {
            assertEquals(4, rank[0].iterations());
            assertArrayEquals(SequentialJacobi.solve(system, 1e-300, 4).x(), rank[0].x(), 0.0);
        }
    }

    @Test
    void wrongSettingsAreRefusedNamingThem() throws Exception {
        final BandedSystem system = new BandedSystem(16, 1, 1);
        final List<String> errors = LoopbackRanks.run(RANKS, 1, NodeJacobi.bytesPerDevice(system, RANKS, 1), 0,
            "jacobi-bad", (rank, group, mesh, transport, ht) -> {
                final NodeJacobi j = new NodeJacobi(system, mesh, group, ht);
                return assertThrows(IllegalArgumentException.class, () -> j.solve(0, 10)).getMessage() + " / "
                    + assertThrows(IllegalArgumentException.class, () -> j.solve(1e-8, 0)).getMessage();
            });
        assertEquals("tolerance must be > 0, was 0.0 / maxIterations must be >= 1, was 0", errors.get(0));
    }

    /** @return each rank's two solves, by rank */
    private static List<JacobiSolver.Result[]> onTwoRanks(final BandedSystem system, final double tolerance,
        final int maxIterations) throws Exception {
        return LoopbackRanks.run(RANKS, DEVICES, NodeJacobi.bytesPerDevice(system, RANKS, DEVICES), 0, "jacobi",
            (rank, group, mesh, transport, ht) -> {
                final NodeJacobi j = new NodeJacobi(system, mesh, group, ht);
                return new JacobiSolver.Result[] {j.solve(tolerance, maxIterations), j.solve(tolerance, maxIterations)};
            });
    }
}
