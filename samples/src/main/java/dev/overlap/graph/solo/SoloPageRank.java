package dev.overlap.graph.solo;

import dev.overlap.graph.app.AppResult;
import dev.overlap.graph.app.AppSettings;
import dev.overlap.graph.app.WorkCounts;
import dev.overlap.graph.partition.DeviceGraph;
import dev.overlap.graph.partition.Partition;
import org.agrona.UnsafeApi;

/**
 * Pull PageRank on the calling thread over the device's in-edges (the reverse graph, as the BSP baseline places it): the
 * same model and stopping rule as {@link dev.overlap.graph.ref.PowerIteration} and the BSP pull (a row computes
 * {@code x'[v] = (1-d)/n + d * (sum of c[u] over in-neighbours u + dangling/n)} from the contributions
 * {@code c[u] = x[u] / outdeg(u)}, and the run stops once the L1 change times {@code d / (1-d)} is below the
 * tolerance, or after the fixed iterations). With Jacobi iterations ({@link AppSettings.PageRankSweep}) a row reads
 * the previous iteration's contributions, so the run does the same iterations and the same work per iteration as the
 * other modes; with Gauss-Seidel sweeps it reads the newest and needs fewer ({@link PullState}). The in-edges are read
 * from device memory without per-access checks ({@link SoloGraph}); the contributions, which hold the ranks, are heap
 * arrays.
 *
 * <p>Thread-safety: one run at a time per placed graph; the arrays are confined to the calling thread.
 */
final class SoloPageRank {
    /** Rows of fewer in-edges than this on average are short: an in-place sweep takes them in two halves. */
    static final int SHORT_ROW = 8;

    private SoloPageRank() {
    }

    static AppResult run(final DeviceGraph in, final int[] outDegrees, final AppSettings settings) {
        final SoloGraph g = SoloGraph.of(in);
        final int n = g.vertices();
        final int fixed = settings.fixedIterations();
        final long start = System.nanoTime();
        final PullState state = PullState.initial(g, outDegrees, settings);
        final int iterations = iterate(g, state, settings.damping(), fixed > 0 ? 0 : settings.tolerance(),
            fixed > 0 ? fixed : settings.maxIterations());
        final double[] rank = state.answer(iterations);
        final long nanos = System.nanoTime() - start;
        final long it = iterations;
        return AppResult.pageRank(g.toOriginal(rank), nanos, new WorkCounts(it, n * it, n * it,
            in.summary().edgeCount() * it, 0, 0, 0, 0, 0));
    }

    /**
     * Iterates on {@code state} until the L1 change times {@code d / (1-d)} is below {@code tolerance} (0: never) or
     * {@code maxIterations} have run.
     *
     * @return the iterations run; iteration {@code i} reads {@code contrib[i & 1]} and writes the other, so the
     *         answer is in {@code contrib[iterations & 1]}, divided by {@link PullState#scale}
     */
    static int iterate(final SoloGraph g, final PullState state, final double damping, final double tolerance,
        final int maxIterations) {
        final int n = g.vertices();
        final double bound = damping / (1 - damping);
        final int[] degree = state.degree;
        final float[] single = state.single;
        final long off = g.offsetsAt();
        final long tgt = g.targetsAt();
        final double[] sums = new double[3];
        final Relaxation relaxation = new Relaxation();
        double dangling = state.dangling;
        double delta = Double.POSITIVE_INFINITY;
        int iterations = 0;
        while (iterations < maxIterations && !(delta * bound < tolerance)) {
            final double base = (1 - damping) / n + damping * dangling / n;
            final int cur = iterations & 1;
            rows(0, n, off, tgt, base, damping, state.scale, relaxation.omega(), state.read(cur), state.written(cur),
                single, degree, sums);
            delta = sums[0];
            dangling = sums[1];
            if (state.inPlace) { // back to a total rank of 1 (see PullState), and the next sweep's relaxation
                state.scale /= sums[2];
                dangling /= sums[2];
                relaxation.next(delta);
            }
            iterations++;
        }
        return iterations;
    }

    /**
     * Rows {@code [from, to)} of one iteration: {@code r = base + damping * (sum of the contributions of v's
     * in-neighbours)}, kept as the next contribution {@code r / outdeg(v)}, or {@code r} itself for a dangling row
     * ({@link PullState}: the ranks are not stored apart, which saves reading and writing 8 bytes per row and
     * iteration; the L1 change reads the old rank back from the contributions). With {@code omega} other than 1 (in
     * place only, {@link Relaxation}) the row's new contribution is {@code old + omega * (r / outdeg - old)}; at 1 it
     * is the plain one exactly. The row's rank, for the L1 change and the total, is its stored contribution times
     * {@code outdeg * scale}: computed that way, a relaxed row has as many operations as a plain one (computed apart
     * from it, with the old value's share in each, a grid's sweep, close to the core's arithmetic throughput, was much
     * slower: {@code bench/results/2026-12-01-pr-float-sum-and-relaxation/}).
     * The contributions are {@code c} (read) and {@code next} (written), or, when {@code single} is not null, that one
     * {@code float} array read and written in place ({@link PullState#single}; a row's sum is then a {@code float}
     * sum ({@link #singleGather}), the rest of its arithmetic {@code double}, and each stored contribution is rounded
     * to a float). The arrays hold the contributions divided by {@code scale} ({@link PullState#scale}; 1 for
     * Jacobi). The out-degrees are {@code degree}, or the rows' own lengths when it is null
     * ({@link PullState#degree}). Leaves the rows' L1 change in {@code sums[0]}, their dangling rank in
     * {@code sums[1]} and their total rank in {@code sums[2]}. Shared with {@link CoopPageRank}. The null tests are
     * the same for every row of a call, so the JIT takes them out of the loop, or the branch predictor never misses.
     *
     * <p>In an in-place sweep a row's sum reads the contributions the rows just before it stored, so on a graph of
     * short rows whose neighbours are close (a grid: the row before is a neighbour) a sweep takes as long as the chain
     * from one stored contribution to the next row's: the load, the additions, the rank, the stored value. The
     * stored value is computed from the sum as {@code omega * base * f + omega * damping * scale * f * sum + (1 -
     * omega) * old} with {@code f = 1 / (scale * outdeg)} ({@code 1 / scale} for a dangling row, whose slot holds its
     * rank) and {@code old} the row's own slot: {@code f} depends on the degree only, so its division runs beside the
     * sum, not after it, and the chain holds a multiply and an add where it held a division (the rank, for the L1
     * change and the total, comes from the stored value, but nothing on the chain waits for it).
     * Measured: {@code bench/results/2026-11-29-words-and-chains/}. And an in-place sweep over {@code float}
     * contributions whose rows are short (fewer than {@value #SHORT_ROW} in-edges on average, over the call's rows)
     * takes them as two interleaved halves ({@link #floatHalves}), so that two such chains are in flight at once;
     * longer rows hide the chain behind their gathers, and there the halves measured slower.
     */
    static void rows(final int from, final int to, final long off, final long tgt, final double base,
        final double damping, final double scale, final double omega, final double[] c, final double[] next,
        final float[] single, final int[] degree, final double[] sums) {
        if (single != null && to - from >= 2 && UnsafeApi.getLong(null, off + ((long)to << 3))
            - UnsafeApi.getLong(null, off + ((long)from << 3)) < (long)SHORT_ROW * (to - from)) {
            floatHalves(from, to, off, tgt, base, damping, scale, omega, single, degree, sums);
            return;
        }
        final double unscale = 1 / scale;
        final double omegaBase = omega * base;
        final double omegaGather = omega * damping * scale;
        final double keep = 1 - omega; // the old value's weight in a relaxed row
        double delta = 0;
        double dangling = 0;
        double mass = 0;
        long first = tgt + (UnsafeApi.getLong(null, off + ((long)from << 3)) << 2);
        for (int v = from; v < to; v++) {
            final long last = tgt + (UnsafeApi.getLong(null, off + ((long)(v + 1) << 3)) << 2);
            final int k = degree != null ? degree[v] : (int)((last - first) >> 2); // null: the row's length
            final double sum = single != null ? singleGather(single, first, last) : gather(c, first, last);
            // the factors from the sum to the stored contribution depend on the degree only, not on the sum: the
            // division is not on the path from one row's stored contribution to the next row's (method comment)
            final double out = k == 0 ? unscale : unscale / k; // the stored value per unit of rank
            final double perStored = k == 0 ? scale : k * scale; // and the rank per stored unit, 1 / out
            final double old = single != null ? single[v] : c[v];
            final double storedBase = omegaBase * out + keep * old; // the old value's share is off the chain too
            final double storedFactor = omegaGather * out;
            first = last;
            final double stored = storedBase + storedFactor * sum;
            final double r = stored * perStored; // the row's new rank
            mass += r;
            delta += Math.abs(stored - old) * perStored;
            if (k == 0) {
                dangling += r;
            }
            if (single != null) {
                single[v] = (float)stored;
            } else {
                next[v] = stored;
            }
        }
        sums[0] = delta;
        sums[1] = dangling;
        sums[2] = mass;
    }

    /**
     * {@link #rows} of an in-place sweep over the {@code float} contributions {@code single}, in another order: the
     * rows {@code a} of the first half of {@code [from, to)} alternate with the rows {@code b} of the second half, and
     * the last row of an odd count comes last. In an in-place sweep each row's sum waits for the contributions the
     * rows before it stored (the class comment of {@link #rows}); with two halves, two such chains, independent of
     * each other, are in flight at once. A row still reads every contribution its half has stored before it (a
     * Gauss-Seidel step, in another row order) and the other half's as they stand. Measured on a grid (where the
     * chain is the sweep's time): {@code bench/results/2026-11-30-pr-claims-and-halves/}. The rows' arithmetic is
     * that of {@link #rows}, written out for both halves in one loop body; of the other forms tried there, none was
     * faster, and two were slower.
     */
    private static void floatHalves(final int from, final int to, final long off, final long tgt, final double base,
        final double damping, final double scale, final double omega, final float[] single, final int[] degree,
        final double[] sums) {
        final double unscale = 1 / scale;
        final double omegaBase = omega * base;
        final double omegaGather = omega * damping * scale;
        final double keep = 1 - omega;
        double delta = 0;
        double dangling = 0;
        double mass = 0;
        final int mid = from + ((to - from) >> 1);
        long firstA = tgt + (UnsafeApi.getLong(null, off + ((long)from << 3)) << 2);
        long firstB = tgt + (UnsafeApi.getLong(null, off + ((long)mid << 3)) << 2);
        for (int a = from, b = mid; a < mid; a++, b++) {
            final long lastA = tgt + (UnsafeApi.getLong(null, off + ((long)(a + 1) << 3)) << 2);
            final long lastB = tgt + (UnsafeApi.getLong(null, off + ((long)(b + 1) << 3)) << 2);
            final int ka = degree != null ? degree[a] : (int)((lastA - firstA) >> 2);
            final int kb = degree != null ? degree[b] : (int)((lastB - firstB) >> 2);
            final double sumA = singleGather(single, firstA, lastA);
            final double sumB = singleGather(single, firstB, lastB);
            final double outA = ka == 0 ? unscale : unscale / ka; // off the chain, as in rows
            final double outB = kb == 0 ? unscale : unscale / kb;
            final double perStoredA = ka == 0 ? scale : ka * scale;
            final double perStoredB = kb == 0 ? scale : kb * scale;
            final float oldA = single[a];
            final float oldB = single[b];
            final double storedA = omegaBase * outA + keep * oldA + omegaGather * outA * sumA; // the sum's term last
            final double storedB = omegaBase * outB + keep * oldB + omegaGather * outB * sumB;
            final double ra = storedA * perStoredA;
            final double rb = storedB * perStoredB;
            mass += ra + rb;
            delta += Math.abs(storedA - oldA) * perStoredA + Math.abs(storedB - oldB) * perStoredB;
            dangling += (ka == 0 ? ra : 0) + (kb == 0 ? rb : 0);
            single[a] = (float)storedA;
            single[b] = (float)storedB;
            firstA = lastA;
            firstB = lastB;
        }
        if (((to - from) & 1) != 0) { // the odd row: rows' own loop, over one row
            rows(to - 1, to, off, tgt, base, damping, scale, omega, null, null, single, degree, sums);
            delta += sums[0];
            dangling += sums[1];
            mass += sums[2];
        }
        sums[0] = delta;
        sums[1] = dangling;
        sums[2] = mass;
    }

    /**
     * As {@link #gather} over {@code float} contributions, summed in {@code float} (the GAP suite's sum): a
     * {@code double} sum costs a conversion per edge, and the gather is a sweep's time (measured on kron:
     * {@code bench/results/2026-12-01-pr-float-sum-and-relaxation/}). A row's sum of {@code k}
     * floats is within about {@code k * 2^-24} of the exact sum, relatively; summed over the rows, this stays well
     * below the least tolerance of a float state ({@link PullState#SINGLE_TOLERANCE}).
     */
    private static double singleGather(final float[] c, final long at, final long end) {
        float sum = 0;
        for (int i = 0, k = (int)((end - at) >> 2); i < k; i++) {
            sum += c[UnsafeApi.getInt(null, at + ((long)i << 2))];
        }
        return sum;
    }

    /**
     * @return the sum of {@code c} over the targets at absolute addresses {@code [at, end)}: one vertex's in-neighbours.
     *         A method of its own, called once per vertex and iteration, so the JIT compiles it within the first
     *         iteration rather than only on-stack inside a method called once per run.
     */
    private static double gather(final double[] c, final long at, final long end) {
        double sum = 0;
        for (int i = 0, k = (int)((end - at) >> 2); i < k; i++) { // int-counted: C2 optimises it fully
            sum += c[UnsafeApi.getInt(null, at + ((long)i << 2))];
        }
        return sum;
    }

    /**
     * The state of a pull run before its first iteration, in internal ids: every rank {@code 1/n}, held as the
     * contributions {@code rank / outdeg} in {@code contrib[0]}, the out-degrees, and the dangling rows' rank. A
     * dangling row (out-degree 0) passes nothing on, so no row ever gathers its slot (a row gathers the slots of
     * its in-neighbours, each of which has an out-edge): that slot holds the row's rank instead, and the ranks are
     * not stored apart until the run ends ({@link #answer}). Shared by {@link SoloPageRank} and {@link CoopPageRank};
     * heap arrays, confined to the run.
     *
     * <p><b>Jacobi</b> ({@link AppSettings.PageRankSweep#JACOBI}): iteration {@code i} reads {@code contrib[i & 1]}
     * and writes the other: power iteration step for step, and the total rank stays 1.
     *
     * <p><b>Gauss-Seidel</b> ({@link AppSettings.PageRankSweep#GAUSS_SEIDEL}): both entries of {@code contrib} are
     * one array, so a sweep updates the contributions in place. An in-place sweep does not keep the total rank at 1,
     * and left alone the total's error is the slowest part to fade (slower than Jacobi's whole error on Kronecker
     * graphs): so after each sweep the ranks are scaled back to a total of 1. Not by a pass over the array:
     * {@link #scale} records the factor, the arrays hold the contributions divided by it, and the next sweep
     * multiplies what it gathers (and divides what it stores) by it. The start is the vector of total 1 with the
     * isolated rows (no edge in or out; Kronecker graphs have many) at the rank they converge to when they are the
     * only dangling rows, {@code ((1-d)/n) / (1 - d I/n)} for {@code I} of them, and the other rows equal, which
     * saves sweeps over a start of every rank at {@code 1/n}. The replays behind both choices:
     * {@code bench/results/2026-11-29-pr-rows/}.
     */
    static final class PullState {
        /**
         * The least tolerance an in-place sweep runs to over {@code float} contributions: their rounding (a relative
         * 2^-24 per stored value) leaves an L1 change of a few 1e-8 between sweeps that changed nothing, which times
         * {@code d / (1-d)} must stay well below the tolerance for the stopping rule to see convergence.
         */
        static final double SINGLE_TOLERANCE = 1e-5;
        /**
         * The out-degrees in internal ids, or null when they are the placed rows' lengths: on a symmetric graph the
         * placed in-edges are the out-edges, so the caller need not copy its degrees for every run
         * ({@link SoloAlgorithms#pageRankReadsOutDegrees}).
         */
        final int[] degree;
        /** The absolute address of the placed graph's offsets (the rows' lengths). */
        private final long off;
        /** The contributions in {@code double}: two arrays (Jacobi) or one twice (in place); null with a float state. */
        final double[][] contrib;
        /**
         * The contributions of an in-place sweep in {@code float} (the GAP suite's precision), or null: half the bytes
         * per gathered neighbour, and a gather is where a sweep's time goes on a graph whose contributions do not fit
         * in the cache. Chosen for in-place sweeps (which only run to a tolerance) to a tolerance of at least
         * {@link #SINGLE_TOLERANCE}: their answer is checked against the converged ranks to the tolerance, not bit for
         * bit, so the rounding only has to stay below it. Jacobi keeps {@code double}: it is power iteration step for
         * step, verified to 1e-9.
         */
        final float[] single;
        /** The dangling rows' rank before the first iteration. */
        final double dangling;
        /** Whether the iterations are in-place sweeps, scaled back to a total rank of 1 each. */
        final boolean inPlace;
        /** The arrays hold the contributions divided by this (1 until an in-place sweep scales them). */
        double scale = 1;

        private PullState(final int[] degree, final long off, final double[][] contrib, final float[] single,
            final double dangling, final boolean inPlace) {
            this.degree = degree;
            this.off = off;
            this.contrib = contrib;
            this.single = single;
            this.dangling = dangling;
            this.inPlace = inPlace;
        }

        /**
         * @param outDegrees the out-degrees, original ids (read, never written), or null on a symmetric graph: its
         *                   rows' lengths
         * @param settings   the sweep
         * @throws IllegalArgumentException when {@code outDegrees} (original ids) does not cover the graph, or is null
         *                                  for a directed one
         */
        static PullState initial(final SoloGraph g, final int[] outDegrees, final AppSettings settings) {
            final int n = g.vertices();
            if (outDegrees == null && !g.graph().summary().isSymmetric()) {
                throw new IllegalArgumentException("no out-degrees for a directed graph: its placed rows are its "
                    + "in-edges, whose lengths are not the out-degrees");
            }
            if (outDegrees != null && outDegrees.length != n) {
                throw new IllegalArgumentException(outDegrees.length + " out-degrees for a graph of " + n
                    + " vertices");
            }
            final boolean inPlace = settings.pageRankSweep().inPlace(settings.fixedIterations(), n,
                g.graph().summary().edgeCount());
            final Partition p = g.partition();
            final long off = g.offsetsAt();
            // in internal ids: the caller's array itself when they are the original ids (read, never written)
            final int[] degree = outDegrees == null || p.isIdentity() ? outDegrees : new int[n];
            int isolated = 0;
            for (int i = 0; i < n; i++) {
                if (degree != outDegrees) {
                    degree[i] = outDegrees[p.original(i)];
                }
                isolated += inPlace && degreeOf(degree, off, i) == 0 && rowLength(off, i) == 0 ? 1 : 0; // in place
            }
            // Jacobi: every rank 1/n. Gauss-Seidel: total rank 1, the isolated rows at the rank they converge to when
            // every dangling row is isolated, ((1-d)/n) / (1 - d I/n), the others equal (see the class comment).
            final double d = settings.damping();
            final double isolatedRank = isolated == n ? 1.0 / n : (1 - d) / n / (1 - d * isolated / n);
            final double otherRank = isolated == n ? 1.0 / n : (1 - isolated * isolatedRank) / (n - isolated);
            final boolean single = inPlace && settings.tolerance() >= SINGLE_TOLERANCE; // in-place runs to a tolerance
            final double[] c0 = single ? null : new double[n];
            final float[] f0 = single ? new float[n] : null;
            double dangling = 0;
            for (int i = 0; i < n; i++) {
                final int k = degreeOf(degree, off, i);
                final double r = inPlace && k == 0 && rowLength(off, i) == 0 ? isolatedRank : otherRank;
                if (single) {
                    f0[i] = (float)(k == 0 ? r : r / k);
                } else {
                    c0[i] = k == 0 ? r : r / k;
                }
                dangling += k == 0 ? r : 0;
            }
            return new PullState(degree, off, single ? null : new double[][] {c0, inPlace ? c0 : new double[n]}, f0,
                dangling, inPlace);
        }

        /** @return the out-degree of row {@code v}: {@code degree[v]}, or the row's length when there is no array */
        private static int degreeOf(final int[] degree, final long off, final int v) {
            return degree != null ? degree[v] : rowLength(off, v);
        }

        /**
         * @return the length of row {@code v} of the placed reverse graph (offsets at {@code off}): its in-edges, and
         *         on a symmetric graph its out-degree
         */
        private static int rowLength(final long off, final int v) {
            return (int)(UnsafeApi.getLong(null, off + ((long)(v + 1) << 3))
                - UnsafeApi.getLong(null, off + ((long)v << 3)));
        }

        /** @return the double contributions iteration {@code i} reads, or null with {@link #single} */
        double[] read(final int i) {
            return contrib == null ? null : contrib[i & 1];
        }

        /** @return the double contributions iteration {@code i} writes, or null with {@link #single} */
        double[] written(final int i) {
            return contrib == null ? null : contrib[(i & 1) ^ 1];
        }

        /**
         * @param iterations the iterations run (the last wrote {@code contrib[iterations & 1]})
         * @return the ranks, internal ids: {@code c[v] * outdeg(v)}, or {@code c[v]} for a dangling row (whose slot
         *         holds its rank), times {@link #scale} (a product within an ulp of the rank the iteration computed);
         *         written over the last double contributions, which the run no longer needs (a second array of
         *         {@code n} doubles per run would be garbage the size of the answer), or from {@link #single} into a
         *         new array
         */
        double[] answer(final int iterations) {
            final double[] rank = single == null ? contrib[iterations & 1] : new double[single.length];
            for (int v = 0; v < rank.length; v++) {
                final int k = degreeOf(degree, off, v);
                final double c = single == null ? rank[v] : single[v];
                rank[v] = (k == 0 ? c : c * k) * scale;
            }
            return rank;
        }
    }
}
