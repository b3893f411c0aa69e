package dev.overlap.graph.async;

import dev.overlap.core.DoubleArray;
import dev.overlap.core.KernelLaunch;
import dev.overlap.core.Mesh;
import dev.overlap.core.World;
import dev.overlap.graph.partition.Partition;

import java.util.concurrent.atomic.DoubleAdder;

/**
 * The sums the push variant's host needs after a pass, computed by every device over its own vertices in parallel
 * (one kernel per device, blocks of {@value #SUM_PER_BLOCK} vertices, each block adding its partial sums once): the
 * rank sum and the residuals' sum and L1 norm, or {@code |r - beta|_1} for a given {@code beta}. Between runs only
 * (the residuals are read as {@link PushKernel#residual} reads them).
 *
 * <p><b>The same sums on every rank.</b> Each device's sums go to its slot of a symmetric array; after a barrier every
 * rank adds the slots of every device in device order, so every rank of a mesh across processes gets the same sums
 * bit for bit and takes the same decisions (stop, or the next threshold). Two sets of slots are used in turn: a rank
 * that computes the next sums writes the other set while a slower rank may still read these (it can only come back
 * to this set after the next barrier, which the slower rank reaches after reading). In one process the barrier
 * returns at once.
 *
 * <p>Thread-safety: host only, one call at a time (collective across processes).
 */
final class ResidualSums {
    static final int RANKS = 0;
    static final int SUM = 1;
    static final int ABS = 2;
    private static final int SUM_PER_BLOCK = 1 << 15;
    /** Doubles per device and set: the three sums, padded to a cache line. */
    private static final int SLOT = 8;

    private final Mesh mesh;
    private final World world;
    private final Partition p;
    private final PushKernel kernel;
    /** Per device, two sets of {@link #SLOT} doubles: its sums, written by its rank, read by every rank. */
    private final DoubleArray[] slots;
    private int set;

    /** Allocates the slots in the kernel's symmetric state (collective across processes; freed with the kernel). */
    ResidualSums(final Partition p, final PushKernel kernel) {
        this.mesh = kernel.mesh;
        this.world = mesh.world();
        this.p = p;
        this.kernel = kernel;
        this.slots = kernel.state.doubles(2 * SLOT);
    }

    /** @return device bytes of the slots (and their alignment) */
    static long bytesPerDevice() {
        return 2 * SLOT * 8 + 64;
    }

    /**
     * Collective across processes: every rank calls it at the same point with the same {@code beta}.
     *
     * @param beta NaN for the rank sum, residual sum and L1 norm; otherwise {@code |r - beta|_1} lands in
     *             {@link #ABS}
     * @return the sums over every device, indexed by {@link #RANKS}, {@link #SUM}, {@link #ABS}
     */
    double[] of(final double beta) {
        final int devices = p.devices();
        final DoubleAdder[][] adders = new DoubleAdder[devices][];
        final boolean plain = Double.isNaN(beta);
        final KernelLaunch[] launches = new KernelLaunch[devices];
        for (int d = world.firstLocalDevice(), last = d + world.localDeviceCount(); d < last; d++) {
            final int dev = d;
            final int size = p.size(d);
            final DoubleAdder ranks = new DoubleAdder();
            final DoubleAdder sum = new DoubleAdder();
            final DoubleAdder abs = new DoubleAdder();
            adders[d] = new DoubleAdder[] {ranks, sum, abs};
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
        final int at = set * SLOT;
        for (int d = world.firstLocalDevice(), last = d + world.localDeviceCount(); d < last; d++) {
            for (int i = RANKS; i <= ABS; i++) {
                slots[d].set(at + i, adders[d][i].sum());
            }
        }
        world.barrier(); // every device's slot is written before any rank reads it
        final double[] sums = new double[3];
        for (int d = 0; d < devices; d++) {
            for (int i = RANKS; i <= ABS; i++) {
                sums[i] += slots[d].get(at + i);
            }
        }
        set ^= 1;
        return sums;
    }
}
