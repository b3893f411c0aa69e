package dev.overlap.graph.bsp;

import dev.overlap.core.DeviceArray;
import dev.overlap.core.DoubleArray;
import dev.overlap.core.IntArray;
import dev.overlap.core.LongArray;
import dev.overlap.graph.partition.DeviceGraph;
import dev.overlap.graph.partition.RawArrays;
import org.agrona.UnsafeApi;

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
 * <p><b>Raw addresses.</b> The row loop reads and writes device memory at raw addresses kept in locals (see
 * {@link RawArrays}): no per-access index checks in the gather, which reads one target and one contribution per
 * edge. So every index is checked before a block runs: the constructor checks that the arrays are long enough for
 * the rows and learns the largest id the targets hold (the public constructor in one pass over the slice;
 * {@link #of} from the graph's vertex count, which {@link DeviceGraph#place} validated every target against), and
 * {@link #block} checks that {@code c} covers those ids and {@code next} the rows, before its loop. Device memory is
 * always off the heap, so every array has an address ({@link RawArrays#addressOf} refuses heap memory).
 *
 * <p><b>Contributions in {@code float} or {@code double}.</b> The contribution vectors are either
 * {@link DoubleArray}s or {@link IntArray}s whose elements hold {@code float} bits ({@link #setContribution}); the
 * ranks, the sums and the partials are {@code double} either way. The gather reads one contribution per edge at an
 * effectively random id, so on graphs whose vector outgrows the caches its cost is the vector's footprint, which
 * {@code float} halves (the GAP suite keeps its scores in {@code float} too); that is why a run to a tolerance uses
 * it when it can. The price is rounding: each contribution is off by at most 2<sup>-24</sup> of itself, so one
 * iteration moves the ranks by at most {@code d} 2<sup>-24</sup> in L1 (each rank is passed on through its out-edges
 * once), and with the iteration's contraction by {@code d} the distance to the exact ranks is at most
 * {@code d / (1 - d) (delta + 2^-24)} instead of {@code d / (1 - d) delta}. A run to a tolerance therefore adds
 * {@link #FLOAT_ROUNDING} (2<sup>-23</sup>, with room for the sum of the ranks being slightly above 1) to the change
 * it compares, and uses {@code float} only when that term is at most a sixteenth of the tolerance
 * ({@link #floatFits}); fixed iterations keep {@code double}, the same iterates as the power iteration.
 *
 * <p>Immutable; thread-safe (blocks of one iteration run concurrently). The arrays are the caller's: they must stay
 * allocated while a block may run (freed by the caller after joining the last launch), as the addresses held here
 * point into them with no lifetime check of their own.
 */
public final class PullRows {
    /** Rows per block of the kernel (and per partial sum). */
    public static final int ROWS_PER_BLOCK = 1024;
    /**
     * What a run with {@code float} contributions adds to the change of an iteration before its stopping test
     * ({@code (delta + FLOAT_ROUNDING) d / (1 - d) < tolerance}): a bound of the L1 rounding of one iteration over
     * {@code d} (see the class comment).
     */
    public static final double FLOAT_ROUNDING = 0x1p-23;

    private final long offsetsAt;
    private final long targetsAt;
    private final long ranksAt;
    private final long outDegreesAt;
    private final int owned;
    /** Ids in the targets are below this: the contribution vector must have at least as many elements. */
    private final int idLimit;

    /**
     * Checks the slice in one pass over its offsets and targets (the offsets rise from 0 to at most the targets'
     * length; every target is at least 0), finding the largest target.
     *
     * @param offsets    {@code owned + 1} edge offsets of the rows' in-edges (from 0)
     * @param targets    the in-neighbours, ids in the contribution vector
     * @param ranks      where the rows' ranks are kept (read for the change, then written)
     * @param ranksAt    index in {@code ranks} of row 0
     * @param outDegrees the rows' out-degrees, by row
     * @param owned      rows of this device
     * @throws IllegalArgumentException naming the array and the index, if an array is too short for the rows, the
     *                                  offsets do not rise or go beyond the targets, or a target is negative
     */
    public PullRows(final LongArray offsets, final IntArray targets, final DoubleArray ranks, final int ranksAt,
        final IntArray outDegrees, final int owned) {
        this(offsets, targets, ranks, ranksAt, outDegrees, owned, idLimit(offsets, targets, owned));
    }

    private PullRows(final LongArray offsets, final IntArray targets, final DoubleArray ranks, final int ranksAt,
        final IntArray outDegrees, final int owned, final int idLimit) {
        if (owned < 0 || offsets.length() < owned + 1L || outDegrees.length() < owned || ranksAt < 0
            || ranks.length() < (long)ranksAt + owned) {
            throw new IllegalArgumentException(owned + " rows do not fit: offsets " + offsets + ", out-degrees "
                + outDegrees + ", ranks " + ranks + " from " + ranksAt);
        }
        this.offsetsAt = RawArrays.addressOf(offsets);
        this.targetsAt = RawArrays.addressOf(targets);
        this.ranksAt = RawArrays.addressOf(ranks) + ((long)ranksAt << 3);
        this.outDegreesAt = RawArrays.addressOf(outDegrees);
        this.owned = owned;
        this.idLimit = idLimit;
    }

    /**
     * The rows of device {@code d} of a placed in-edge graph (its offsets and targets, validated at placement: every
     * target is an internal id below the vertex count), with no pass over the slice.
     *
     * @param in         the placed in-edges ({@code g.transpose()}); must stay placed while blocks run
     * @param d          the device
     * @param ranks      where the rows' ranks are kept
     * @param ranksAt    index in {@code ranks} of row 0
     * @param outDegrees the rows' out-degrees, by row
     * @return device {@code d}'s rows
     * @throws IllegalArgumentException if an array is too short for the rows
     */
    public static PullRows of(final DeviceGraph in, final int d, final DoubleArray ranks, final int ranksAt,
        final IntArray outDegrees) {
        return new PullRows(in.offsets(d), in.targets(d), ranks, ranksAt, outDegrees, in.partition().size(d),
            in.partition().vertexCount());
    }

    /**
     * @param damping   {@code d}
     * @param tolerance the L1 tolerance a run stops at
     * @return whether {@code float} contributions suit a run to {@code tolerance}: their rounding term
     *         {@code d / (1 - d) FLOAT_ROUNDING} is at most a sixteenth of it
     */
    public static boolean floatFits(final double damping, final double tolerance) {
        return 16 * FLOAT_ROUNDING * damping / (1 - damping) <= tolerance;
    }

    /**
     * Sets contribution {@code i} of a vector of either precision (host or kernel code that fills a vector).
     *
     * @param c     a contribution vector: {@link IntArray} ({@code float} bits) or {@link DoubleArray}
     * @param i     the element
     * @param value the contribution (rounded to {@code float} in an {@link IntArray})
     */
    public static void setContribution(final DeviceArray c, final int i, final double value) {
        if (c instanceof IntArray) {
            ((IntArray)c).set(i, Float.floatToRawIntBits((float)value));
        } else {
            ((DoubleArray)c).set(i, value);
        }
    }

    /** @return one more than the largest target of the rows' in-edges (0 without edges), after checking the slice */
    private static int idLimit(final LongArray offsets, final IntArray targets, final int owned) {
        if (owned < 0 || offsets.length() < owned + 1L) {
            throw new IllegalArgumentException(owned + " rows need " + (owned + 1L) + " offsets: " + offsets);
        }
        long previous = 0;
        for (int v = 0; v <= owned; v++) {
            final long e = offsets.get(v);
            if (e < previous || e > targets.length()) {
                throw new IllegalArgumentException("offset " + v + " of " + offsets + " is " + e + ": the offsets "
                    + "must rise from " + previous + " to at most the " + targets.length() + " targets");
            }
            previous = e;
        }
        int max = -1;
        for (int e = (int)offsets.get(0), end = (int)offsets.get(owned); e < end; e++) {
            final int u = targets.get(e);
            if (u < 0) {
                throw new IllegalArgumentException("target " + e + " of " + targets + " is negative: " + u);
            }
            max = Math.max(max, u);
        }
        return max + 1;
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
     * @param c        this iteration's contribution vector (read): an {@link IntArray} of {@code float} bits or a
     *                 {@link DoubleArray}
     * @param next     the next iteration's contribution vector, the same type (this device's rows written)
     * @param nextAt   index in {@code next} of row 0
     * @param partials where the block leaves its change and dangling rank
     * @param part     index in {@code partials} of this iteration's first partial
     * @param base     {@code (1 - d) / n + d * dangling / n} of this iteration
     * @param damping  {@code d}
     * @throws IllegalArgumentException if the vectors are not both {@code IntArray} or both {@code DoubleArray},
     *                                  or {@code c} is shorter than the largest target id or {@code next} than the
     *                                  rows (nothing is read or written then)
     */
    public void block(final int block, final DeviceArray c, final DeviceArray next, final int nextAt,
        final DoubleArray partials, final int part, final double base, final double damping) {
        final boolean single = c instanceof IntArray;
        if (!single && !(c instanceof DoubleArray) || c.getClass() != next.getClass()) {
            throw new IllegalArgumentException("contribution vectors are both IntArray (float bits) or both "
                + "DoubleArray: " + c + ", " + next);
        }
        if (c.length() < idLimit || nextAt < 0 || next.length() < (long)nextAt + owned) {
            throw new IllegalArgumentException("the vectors do not fit the rows: contributions " + c + " for ids below "
                + idLimit + ", next " + next + " for " + owned + " rows from " + nextAt);
        }
        // Locals, not fields: the loop reads them on every edge.
        final long cAt = RawArrays.addressOf(c);
        final int shift = single ? 2 : 3;
        final long nAt = RawArrays.addressOf(next) + ((long)nextAt << shift);
        final long offsetsAt = this.offsetsAt;
        final long targetsAt = this.targetsAt;
        final long ranksAt = this.ranksAt;
        final long outDegreesAt = this.outDegreesAt;
        double delta = 0;
        double dangling = 0;
        final int from = block * ROWS_PER_BLOCK;
        final int to = Math.min(owned, from + ROWS_PER_BLOCK);
        long begin = from < to ? UnsafeApi.getLong(null, offsetsAt + ((long)from << 3)) : 0;
        for (int v = from; v < to; v++) {
            final long end = UnsafeApi.getLong(null, offsetsAt + ((long)(v + 1) << 3));
            double sum = 0;
            for (long at = targetsAt + (begin << 2), stop = targetsAt + (end << 2); at < stop; at += 4) {
                final long ci = cAt + ((long)UnsafeApi.getInt(null, at) << shift);
                sum += single ? UnsafeApi.getFloat(null, ci) : UnsafeApi.getDouble(null, ci);
            }
            begin = end;
            final double r = base + damping * sum;
            final long ri = ranksAt + ((long)v << 3);
            delta += Math.abs(r - UnsafeApi.getDouble(null, ri));
            UnsafeApi.putDouble(null, ri, r);
            final int k = UnsafeApi.getInt(null, outDegreesAt + ((long)v << 2));
            if (k == 0) {
                dangling += r;
            }
            final double x = k == 0 ? 0 : r / k;
            final long ni = nAt + ((long)v << shift);
            if (single) {
                UnsafeApi.putFloat(null, ni, (float)x);
            } else {
                UnsafeApi.putDouble(null, ni, x);
            }
        }
        partials.set(part + 2 * block, delta);
        partials.set(part + 2 * block + 1, dangling);
    }
}
