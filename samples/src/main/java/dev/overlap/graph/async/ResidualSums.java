package dev.overlap.graph.async;

import dev.overlap.core.KernelLaunch;
import dev.overlap.core.Mesh;
import dev.overlap.graph.partition.Partition;

import java.util.concurrent.atomic.DoubleAdder;

/**
 * The sums the push variant's host needs after a pass, computed by every device over its own vertices in parallel
 * (one kernel per device, blocks of {@value #SUM_PER_BLOCK} vertices, each block adding its partial sums once): the
 * rank sum and the residuals' sum and L1 norm, or {@code |r - beta|_1} for a given {@code beta}. Between runs only
 * (the residuals are read as {@link PushKernel#residual} reads them). Stateless; thread-safe.
 */
final class ResidualSums {
    static final int RANKS = 0;
    static final int SUM = 1;
    static final int ABS = 2;
    private static final int SUM_PER_BLOCK = 1 << 15;

    private ResidualSums() {
    }

    /**
     * @param beta NaN for the rank sum, residual sum and L1 norm; otherwise {@code |r - beta|_1} lands in
     *             {@link #ABS}
     * @return the sums, indexed by {@link #RANKS}, {@link #SUM}, {@link #ABS}
     */
    static double[] of(final Mesh mesh, final Partition p, final PushKernel kernel, final double beta) {
        final DoubleAdder ranks = new DoubleAdder();
        final DoubleAdder sum = new DoubleAdder();
        final DoubleAdder abs = new DoubleAdder();
        final boolean plain = Double.isNaN(beta);
        final KernelLaunch[] launches = new KernelLaunch[p.devices()];
        for (int d = 0; d < launches.length; d++) {
            final int dev = d;
            final int size = p.size(d);
            launches[d] = mesh.device(d).launch(Math.max(1, (size + SUM_PER_BLOCK - 1) / SUM_PER_BLOCK),
                (ctx, b) -> {
                    double x = 0;
                    double s = 0;
                    double a = 0;
                    for (int i = b * SUM_PER_BLOCK, end = Math.min(size, (b + 1) * SUM_PER_BLOCK); i < end; i++) {
                        final double r = kernel.residual(dev, i);
                        if (plain) {
                            x += kernel.rank(dev, i);
                            s += r;
                            a += Math.abs(r);
                        } else {
                            a += Math.abs(r - beta);
                        }
                    }
                    ranks.add(x);
                    sum.add(s);
                    abs.add(a);
                });
        }
        AsyncBfs.join(launches);
        return new double[] {ranks.sum(), sum.sum(), abs.sum()};
    }
}
