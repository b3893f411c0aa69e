package dev.overlap.graph.solo;

import dev.overlap.core.KernelLaunch;
import dev.overlap.core.WorkerContext;
import dev.overlap.graph.app.AppResult;
import dev.overlap.graph.app.AppSettings;
import dev.overlap.graph.app.WorkCounts;
import dev.overlap.graph.partition.DeviceGraph;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Pull PageRank by every worker of one device in one persistent launch ({@code --mode coop}): the model, stopping
 * rule, rows and sweep of {@link SoloPageRank} (with Jacobi iterations, the same iterations and the same work per
 * iteration as every mode), the rows of an iteration taken in chunks ({@link #rowsPerClaim}) with one
 * {@code getAndAdd} per chunk, and the iterations separated by the launch's barrier
 * ({@link WorkerContext#syncWorkers()}) instead of a launch and a join each.
 *
 * <p>After each barrier every worker adds up the same per-worker partial sums (the L1 change and the dangling rank),
 * in worker order, so all take the same stopping decision (and, for Gauss-Seidel sweeps, the same scale). The partials
 * alternate between two halves by iteration parity: a half is written again only two barriers later, after every
 * worker has read it. The claim counters rotate over three slots, reset by worker 0 an iteration ahead.
 *
 * <p>The contributions (which hold the ranks, {@link SoloPageRank.PullState}) and any degrees are heap arrays; each row
 * is written by the one worker whose chunk holds it (plain stores, published by the barrier and, for the answer, by
 * the launch's completion). With {@link AppSettings.PageRankSweep#GAUSS_SEIDEL} the contributions are one array
 * updated in place, in {@code float} when its tolerance allows ({@link SoloPageRank.PullState#single}): a worker's
 * gather then races with the other workers' writes of the same sweep and reads each slot's value from before or after
 * its update (either is a valid Gauss-Seidel step; an aligned 4- or 8-byte heap access is never split by the 64-bit
 * JVMs this runs on), which is why that sweep is verified against the converged ranks and not against power iteration
 * step by step.
 *
 * <p>Thread-safety: one run at a time per placed graph.
 */
final class CoopPageRank {
    /** The most rows per claim: the GAP suite's chunk of its PageRank loop. */
    static final int MAX_ROWS = 16384;
    /** The fewest rows per claim. */
    static final int MIN_ROWS = 1024;
    /** Per worker and iteration: the L1 change, the dangling rank and the total rank of its rows. */
    private static final int PARTIALS = 3;
    private static final int PAD = 16;

    private CoopPageRank() {
    }

    /**
     * @return the rows a worker claims at once in a graph of {@code n} rows: {@code n / (8 workers)}, so each worker
     *         gets eight claims or more to even out rows of unequal lengths, within {@value #MIN_ROWS} and
     *         {@value #MAX_ROWS}. Large, because two workers' chunks meet at a boundary: where a row reads its
     *         neighbours' contributions across it (a grid row reads the rows a width away), the other worker may be
     *         writing those lines (in-place sweeps) or the lines next to them, so each boundary costs lines moved
     *         between the cores; fewer, larger chunks have fewer boundaries (measured on a grid:
     *         {@code bench/results/2026-11-30-pr-claims-and-halves/}).
     */
    static int rowsPerClaim(final int n, final int workers) {
        return Math.max(MIN_ROWS, Math.min(MAX_ROWS, n / (8 * workers)));
    }

    static AppResult run(final DeviceGraph in, final int[] outDegrees, final AppSettings settings) {
        final SoloGraph g = SoloGraph.of(in);
        final int n = g.vertices();
        final double damping = settings.damping();
        final double bound = damping / (1 - damping);
        final double tolerance = settings.tolerance();
        final int fixed = settings.fixedIterations();
        final int maxIterations = fixed > 0 ? fixed : settings.maxIterations();
        final int workers = in.mesh().device(0).workerCount();
        final int rows = rowsPerClaim(n, workers);
        final double[] partials = new double[2 * workers * PARTIALS];
        final AtomicLongArray claims = new AtomicLongArray(3 * PAD);
        final int[] iterationsDone = new int[1];
        final long off = g.offsetsAt();
        final long tgt = g.targetsAt();
        final long start = System.nanoTime();
        final SoloPageRank.PullState state = SoloPageRank.PullState.initial(g, outDegrees, settings);
        final int[] degree = state.degree;
        final float[] single = state.single;
        final double firstDangling = state.dangling;
        final KernelLaunch launch = in.mesh().device(0).launchPersistent(ctx -> {
            final int w = ctx.workerIndex();
            final double[] sums = new double[PARTIALS];
            final Relaxation relaxation = new Relaxation(); // each worker's, fed the same sums: the same factors
            int iterations = 0;
            int cur = 0;
            double delta = Double.POSITIVE_INFINITY;
            double dangling = firstDangling;
            double scale = 1;
            while (iterations < maxIterations && (fixed > 0 || !(delta * bound < tolerance))) {
                final int claim = (iterations % 3) * PAD;
                if (w == 0) {
                    claims.set(((iterations + 1) % 3) * PAD, 0);
                }
                final double base = (1 - damping) / n + damping * dangling / n;
                double myDelta = 0;
                double myDangling = 0;
                double myMass = 0;
                long k;
                while ((k = claims.getAndAdd(claim, rows)) < n) {
                    SoloPageRank.rows((int)k, (int)Math.min(n, k + rows), off, tgt, base, damping, scale,
                        relaxation.omega(), state.read(cur), state.written(cur), single, degree, sums);
                    myDelta += sums[0];
                    myDangling += sums[1];
                    myMass += sums[2];
                }
                final int half = (iterations & 1) * workers * PARTIALS;
                partials[half + PARTIALS * w] = myDelta;
                partials[half + PARTIALS * w + 1] = myDangling;
                partials[half + PARTIALS * w + 2] = myMass;
                if (!ctx.syncWorkers()) {
                    return 0;
                }
                delta = 0;
                dangling = 0;
                double mass = 0;
                for (int o = 0; o < workers; o++) {
                    delta += partials[half + PARTIALS * o];
                    dangling += partials[half + PARTIALS * o + 1];
                    mass += partials[half + PARTIALS * o + 2];
                }
                if (state.inPlace) { // back to a total rank of 1, every worker alike (SoloPageRank.PullState)
                    scale /= mass;
                    dangling /= mass;
                    relaxation.next(delta); // the next sweep's factor, every worker alike
                }
                cur ^= 1;
                iterations++;
            }
            if (w == 0) {
                iterationsDone[0] = iterations;
                state.scale = scale; // read after the join
            }
            ctx.stopLaunch();
            return 1;
        });
        CoopBfs.joinUninterruptibly(launch);
        final long it = iterationsDone[0];
        // the last iteration wrote contrib[it & 1] (iteration i reads contrib[i & 1] and writes the other)
        final double[] rank = state.answer((int)it);
        final long nanos = System.nanoTime() - start;
        return AppResult.pageRank(g.toOriginal(rank), nanos, new WorkCounts(it, n * it, n * it,
            in.summary().edgeCount() * it, 0, 0, 0, 0, 0));
    }
}
