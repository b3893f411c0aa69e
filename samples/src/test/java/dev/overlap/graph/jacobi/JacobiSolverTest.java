package dev.overlap.graph.jacobi;

import dev.overlap.core.Mesh;
import dev.overlap.replication.TransferConfig;
import dev.overlap.replication.TransferMode;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class JacobiSolverTest {
    @Test
    void everyReplicatingModeConvergesToTheSameSolution() {
        final BandedSystem s = new BandedSystem(10_000, 5, 3);
        try (Mesh mesh = Mesh.builder().name("jac").devices(3).threadsPerDevice(1).memoryPerDevice(8 << 20).build()) {
            double[] first = null;
            for (final TransferMode mode : new TransferMode[] {TransferMode.INLINE, TransferMode.POLLING,
                TransferMode.TRIGGERED, TransferMode.BULK}) {
                final JacobiSolver.Result r = JacobiSolver.solve(mesh, s,
                    new TransferConfig(mode, 4096, mode == TransferMode.POLLING ? 1 : 0), 1e-10, 10_000);
                assertTrue(r.residual() < 1e-10, mode + ": " + r.residual());
                assertTrue(s.relativeResidual(r.x()) < 1e-10, mode + " host residual");
                if (mode != TransferMode.INLINE) {
                    assertTrue(r.copiedBytes() > 0, mode + " copies");
                }
                if (first == null) {
                    first = r.x();
                } else {
                    assertArrayEquals(first, r.x(), 0.0, mode + " computes the same iterates");
                }
            }
            assertEquals(mesh.memoryPerDevice(), mesh.freeMemory(1), "solve frees its memory");
        }
    }

    @Test
    void systemIsDiagonallyDominantAndDeterministic() {
        final BandedSystem s = new BandedSystem(100, 4, 9);
        for (int i = 0; i < 100; i++) {
            double off = 0;
            for (int j = 0; j < 100; j++) {
                off += Math.abs(s.offDiagonal(i, j));
            }
            assertTrue(s.diagonal(i) > off);
            assertEquals(s.rhs(i), new BandedSystem(100, 4, 9).rhs(i));
        }
        assertEquals(0.0, s.offDiagonal(0, 5));
    }

    @Test
    void nonReplicatingModesAreRefused() {
        try (Mesh mesh = Mesh.builder().name("jac2").devices(2).threadsPerDevice(1).memoryPerDevice(1 << 20).build()) {
            assertThrows(IllegalArgumentException.class, () -> JacobiSolver.solve(mesh, new BandedSystem(100, 1, 1),
                new TransferConfig(TransferMode.NONE, 64, 0), 1e-6, 10));
        }
    }
}
