package dev.overlap.graph.bsp;

import dev.overlap.core.DoubleArray;
import dev.overlap.core.IntArray;
import dev.overlap.core.LongArray;
import org.agrona.concurrent.AtomicBuffer;

/**
 * One device's rows of the pull PageRank iteration, the kernel shared by the one-JVM BSP PageRank
 * ({@link BspPageRank}) and the PageRank across hosts ({@code dev.overlap.graph.node.NodePageRank}): the same model
 * as {@link dev.overlap.graph.ref.PowerIteration}.
 *
 * <p>The device holds its rows' in-edges as a CSR slice in its memory ({@code offsets}: {@code owned + 1} longs
 * from 0, {@code targets}: the in-neighbours' ids in the contribution vector). A block of {@link #ROWS_PER_BLOCK}
 * rows computes, for each row {@code v}, {@code x'[v] = base + d * (sum of c[u] over in-neighbours u)}, stores
 * {@code x'[v]} in {@code ranks[ranksAt + v]} and the contribution {@code x'[v] / outdeg(v)} (0 for a dangling row)
 * in {@code next[nextAt + v]}, and leaves two partial sums in {@code partials[part + 2 block]}: the L1 change of its
 * rows, then the rank of its dangling rows. Blocks write disjoint rows and partials, so the blocks of one launch
 * run on any workers in any order; plain stores, published by the kernel's completion.
 *
 * <p>Immutable; the arrays are the caller's (freed by it, after the last launch).
 */
public final class PullRows {
    /** Rows per block of the kernel (and per partial sum). */
    public static final int ROWS_PER_BLOCK = 1024;

    private final LongArray offsets;
    private final AtomicBuffer targets;
    private final int targetsBase;
    private final DoubleArray ranks;
    private final int ranksAt;
    private final IntArray outDegrees;
    private final int owned;

    /**
     * @param offsets    {@code owned + 1} edge offsets of the rows' in-edges (from 0)
     * @param targets    the in-neighbours, ids in the contribution vector (validated below its length by the caller)
     * @param ranks      where the rows' ranks are kept (read for the change, then written)
     * @param ranksAt    index in {@code ranks} of row 0
     * @param outDegrees the rows' out-degrees, by row
     * @param owned      rows of this device
     */
    public PullRows(final LongArray offsets, final IntArray targets, final DoubleArray ranks, final int ranksAt,
        final IntArray outDegrees, final int owned) {
        this.offsets = offsets;
        this.targets = targets.memory().buffer();
        this.targetsBase = (int)targets.offset();
        this.ranks = ranks;
        this.ranksAt = ranksAt;
        this.outDegrees = outDegrees;
        this.owned = owned;
    }

    /** @return the rows of this device */
    public int rows() {
        return owned;
    }

    /** @return blocks one iteration launches, at least 1 */
    public int blocks() {
        return Math.max(1, (owned + ROWS_PER_BLOCK - 1) / ROWS_PER_BLOCK);
    }

    /**
     * Runs one block of one iteration (called by the kernel's workers, one call per block).
     *
     * @param block    the block
     * @param c        this iteration's contribution vector (read)
     * @param next     the next iteration's contribution vector (this device's rows written)
     * @param nextAt   index in {@code next} of row 0
     * @param partials where the block leaves its change and dangling rank
     * @param part     index in {@code partials} of this iteration's first partial
     * @param base     {@code (1 - d) / n + d * dangling / n} of this iteration
     * @param damping  {@code d}
     */
    public void block(final int block, final DoubleArray c, final DoubleArray next, final int nextAt,
        final DoubleArray partials, final int part, final double base, final double damping) {
        // The gather loop reads the contributions and the targets through the device buffers with precomputed byte
        // offsets: targets are ids below the vector's length, validated when the graph was placed, so the typed
        // arrays' index checks would only repeat that (Agrona still checks bounds unless disabled).
        final AtomicBuffer cBuf = c.memory().buffer();
        final int cBase = (int)c.offset();
        final AtomicBuffer tBuf = targets;
        final int tBase = targetsBase;
        double delta = 0;
        double dangling = 0;
        final int from = block * ROWS_PER_BLOCK;
        final int to = Math.min(owned, from + ROWS_PER_BLOCK);
        for (int v = from; v < to; v++) {
            double sum = 0;
            final int end = tBase + (int)offsets.get(v + 1) * 4;
            for (int at = tBase + (int)offsets.get(v) * 4; at < end; at += 4) {
                sum += cBuf.getDouble(cBase + (tBuf.getInt(at) << 3));
            }
            final double r = base + damping * sum;
            delta += Math.abs(r - ranks.get(ranksAt + v));
            ranks.set(ranksAt + v, r);
            final int k = outDegrees.get(v);
            if (k == 0) {
                dangling += r;
                next.set(nextAt + v, 0);
            } else {
                next.set(nextAt + v, r / k);
            }
        }
        partials.set(part + 2 * block, delta);
        partials.set(part + 2 * block + 1, dangling);
    }
}
