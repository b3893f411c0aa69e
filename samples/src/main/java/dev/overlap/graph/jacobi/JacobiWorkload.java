package dev.overlap.graph.jacobi;

import dev.overlap.core.BlockMapping;
import dev.overlap.core.DoubleArray;
import dev.overlap.core.Mesh;
import dev.overlap.core.SymmetricArray;
import dev.overlap.replication.ReplicatedRegion;
import dev.overlap.replication.TransferWorkload;

/**
 * One Jacobi iteration as a PROACT {@link TransferWorkload}, so the {@link dev.overlap.replication.TransferProfiler}
 * can choose the transfer mode on this very workload: each device computes its rows' band products from a fixed
 * vector (a symmetric array, so the profiled kernel reads and writes like the solver without racing on the region
 * it fills) into the region. Not thread-safe; one profiling run at a time. Close to free the vector and band.
 */
public final class JacobiWorkload implements TransferWorkload, AutoCloseable {
    private final Mesh mesh;
    private final BandedSystem system;
    private final SymmetricArray<DoubleArray> vector;
    private final DoubleArray[] band;
    private final DoubleArray[] rhs;
    private final DoubleArray[] partial;
    private final int grid;

    /**
     * @param mesh   the mesh
     * @param system the system whose iteration is profiled
     */
    public JacobiWorkload(final Mesh mesh, final BandedSystem system) {
        this.mesh = mesh;
        this.system = system;
        final int devices = mesh.deviceCount();
        final int n = system.size();
        final int width = 2 * system.halfBand() + 1;
        this.grid = (int)(((n + devices - 1L) / devices + JacobiSolver.ROWS_PER_BLOCK - 1) / JacobiSolver.ROWS_PER_BLOCK);
        this.vector = mesh.allocateDoubles(n);
        this.band = new DoubleArray[devices];
        this.rhs = new DoubleArray[devices];
        this.partial = new DoubleArray[devices];
        for (int d = 0; d < devices; d++) {
            final long rows = (long)n * (d + 1) / devices - (long)n * d / devices;
            band[d] = mesh.device(d).allocateDoubles(Math.max(1, rows * width));
            band[d].fill(0.1);
            rhs[d] = mesh.device(d).allocateDoubles(Math.max(1, rows));
            partial[d] = mesh.device(d).allocateDoubles(grid);
            vector.on(d).fill(1.0);
        }
    }

    @Override
    public String name() {
        return "jacobi-n" + system.size() + "-k" + system.halfBand() + "-d" + mesh.deviceCount();
    }

    @Override
    public long elements() {
        return system.size();
    }

    @Override
    public int gridSize() {
        return grid;
    }

    @Override
    public BlockMapping mapping() {
        return BlockMapping.oneToOne(JacobiSolver.ROWS_PER_BLOCK * 8L);
    }

    @Override
    public void launchIteration(final ReplicatedRegion region, final int iteration) {
        for (int d = 0; d < mesh.deviceCount(); d++) {
            region.launch(d, kernel(region, d));
        }
    }

    private dev.overlap.core.Kernel kernel(final ReplicatedRegion region, final int d) {
        final int start = (int)region.sliceStart(d);
        final int rows = (int)region.sliceLength(d);
        final int k = system.halfBand();
        final int n = system.size();
        final int width = 2 * k + 1;
        final DoubleArray xs = vector.on(d);
        final DoubleArray a = band[d];
        final DoubleArray b = rhs[d];
        final DoubleArray p = partial[d];
        return (ctx, block) -> {
            double r2 = 0;
            for (int r = block * JacobiSolver.ROWS_PER_BLOCK, end = Math.min(rows, r + JacobiSolver.ROWS_PER_BLOCK);
                r < end; r++) {
                final int i = start + r;
                double off = 0;
                for (int j = Math.max(0, i - k); j <= Math.min(n - 1, i + k); j++) {
                    off += a.get(r * width + j - i + k) * xs.get(j);
                }
                r2 += off * off;
                region.putDouble(d, i, b.get(r) - off);
            }
            p.set(block, r2);
        };
    }

    @Override
    public void close() {
        if (mesh.isClosed()) {
            return;
        }
        vector.close();
        for (int d = 0; d < mesh.deviceCount(); d++) {
            mesh.device(d).free(band[d]);
            mesh.device(d).free(rhs[d]);
            mesh.device(d).free(partial[d]);
        }
    }
}
