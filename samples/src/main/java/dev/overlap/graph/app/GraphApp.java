package dev.overlap.graph.app;

import dev.overlap.graph.Csr;
import dev.overlap.graph.CsrGraph;
import dev.overlap.graph.GraphSummary;
import dev.overlap.graph.partition.DeviceGraph;
import dev.overlap.graph.ref.Dijkstra;
import dev.overlap.graph.ref.PowerIteration;
import dev.overlap.graph.ref.SequentialBfs;
import dev.overlap.graph.ref.Verification;

import java.util.Locale;
import java.util.SplittableRandom;
import java.util.function.IntUnaryOperator;

/**
 * The graph apps as values: what each needs (weights, a source, the reverse graph), how to run it on a provider,
 * its plain single-threaded Java run on the host CSR (the yardstick every table compares with), how its answer is
 * checked, and how many edges a run traverses (the TEPS numerator). The commands ({@code bfs}, {@code pr},
 * {@code sssp}, {@code demo}, {@code scaling}) and the comparison benchmark share these definitions so they measure
 * and verify the same way.
 *
 * <p>Thread-safety: stateless constants; thread-safe. {@link Expected} instances are immutable.
 */
public enum GraphApp {
    /** Breadth-first search depths from a source. */
    BFS("bfs"),
    /** PageRank with dangling rank spread evenly, to a tolerance or for a fixed number of iterations. */
    PAGERANK("pr"),
    /** Single-source shortest paths on non-negative int weights (unit weights when the graph has none). */
    SSSP("sssp");

    private final String id;

    GraphApp(final String id) {
        this.id = id;
    }

    /** @return the command-line name: {@code bfs}, {@code pr} or {@code sssp} */
    public String id() {
        return id;
    }

    /**
     * @param text {@code bfs}, {@code pr} or {@code sssp} (any case)
     * @return the app
     * @throws IllegalArgumentException naming the bad value and the choices
     */
    public static GraphApp parse(final String text) {
        for (final GraphApp a : values()) {
            if (a.id.equalsIgnoreCase(text.trim())) {
                return a;
            }
        }
        throw new IllegalArgumentException("unknown app '" + text + "': expected bfs, pr or sssp");
    }

    /** @return true when the app reads edge weights (generated graphs then get random weights) */
    public boolean weighted() {
        return this == SSSP;
    }

    /** @return true when the app starts from a source vertex */
    public boolean hasSource() {
        return this != PAGERANK;
    }

    /**
     * @return the graph to place on the mesh for {@code algorithms}: for PageRank the reverse graph when the model
     *         pulls along in-edges ({@link GraphAlgorithms#pageRankEdges()}), the graph itself when it pushes
     */
    public CsrGraph placed(final CsrGraph g, final GraphAlgorithms algorithms) {
        return this == PAGERANK && algorithms.pageRankEdges() == GraphAlgorithms.PageRankEdges.IN ? g.transpose() : g;
    }

    /** @return the async worklist {@code --queue auto} picks: priority for SSSP (delta-stepping), else FIFO */
    public AppSettings.Queue autoQueue() {
        return this == SSSP ? AppSettings.Queue.PRIORITY : AppSettings.Queue.FIFO;
    }

    /**
     * Runs the app on a provider, under a lease on the placed graph ({@link DeviceGraph#leased}): whatever the
     * provider does, the graph cannot be closed (its device memory freed) until the call returns; a close from
     * another thread meanwhile is refused. The result's {@code ideal} is set to the vertices reached (BFS, SSSP) so
     * {@link WorkCounts#normalizedWork()} is Atos' normalized workload whatever the provider filled in. The run reads
     * the host graph only through {@code graph}, so the host CSR need not be alive.
     *
     * @param algorithms the execution model
     * @param placed     {@link #placed(CsrGraph, GraphAlgorithms) placed(g)} on the mesh (with weights for SSSP)
     * @param graph      the summary of the host graph {@code g} (PageRank reads its out-degrees)
     * @param source     source vertex (ignored by PageRank)
     * @param settings   knobs
     * @return the answer in original vertex ids
     * @throws IllegalStateException for SSSP on a negative weight, or when the placed graph is closed
     */
    public AppResult run(final GraphAlgorithms algorithms, final DeviceGraph placed, final GraphSummary graph,
        final int source, final AppSettings settings) {
        return placed.leased(() -> runLeased(algorithms, placed, graph, source, settings));
    }

    private AppResult runLeased(final GraphAlgorithms algorithms, final DeviceGraph placed, final GraphSummary graph,
        final int source, final AppSettings settings) {
        switch (this) {
            case BFS: {
                final AppResult r = algorithms.bfs(placed, source, settings);
                return AppResult.bfs(r.depths(), r.nanos(), r.counts().withIdeal(reached(r.depths())));
            }
            case SSSP: {
                requireUsable(graph);
                final AppResult r = algorithms.sssp(placed, source, settings);
                return AppResult.sssp(r.distances(), r.nanos(), r.counts().withIdeal(reached(r.distances())));
            }
            default:
                // a copy of the degrees per run only for a model that reads them
                return algorithms.pageRank(placed, algorithms.pageRankReadsOutDegrees(placed) ? graph.outDegrees()
                    : null, settings);
        }
    }

    /**
     * Refuses Gauss-Seidel sweeps asked for by name in a mode that has none: only {@code solo} and {@code coop}
     * PageRank update in place ({@link AppSettings.PageRankSweep}; {@code AUTO} is Jacobi elsewhere).
     *
     * @param settings the run's settings
     * @param mode     the mode's name, for the message
     * @throws UnsupportedOperationException when {@code settings} ask for Gauss-Seidel sweeps
     */
    public static void requireJacobiSweep(final AppSettings settings, final String mode) {
        if (settings.pageRankSweep() == AppSettings.PageRankSweep.GAUSS_SEIDEL) {
            throw new UnsupportedOperationException(mode + " PageRank has no Gauss-Seidel sweep: solo and coop have "
                + "(the async pull, --async-variant pull, is a Gauss-Seidel of its own)");
        }
    }

    /**
     * Checks that the app can run on a graph of this summary: SSSP needs weights {@code >= 0}.
     *
     * @throws IllegalStateException naming the first negative weight, for SSSP
     */
    public void requireUsable(final GraphSummary graph) {
        if (this == SSSP && graph.negativeWeightEdge() >= 0) {
            throw negativeWeight(graph.negativeWeightEdge(), graph.negativeWeight());
        }
    }

    private static IllegalStateException negativeWeight(final long edge, final int weight) {
        return new IllegalStateException("edge " + edge + " has negative weight " + weight
            + ": shortest paths need weights >= 0");
    }

    /**
     * The plain single-threaded Java run on the host CSR, timed around the algorithm alone: {@link SequentialBfs},
     * {@link Dijkstra}, or {@link PowerIteration} with the same stopping rule as {@code settings} (the fixed
     * iterations, or the tolerance itself: what a sequential program needs for an answer of the same quality).
     *
     * @return the answer, its time and its work ({@code visited = ideal =} vertices reached; PageRank
     *         {@code n * iterations})
     */
    public AppResult sequential(final Csr g, final int source, final AppSettings settings) {
        final long start = System.nanoTime();
        switch (this) {
            case BFS: {
                final int[] depths = SequentialBfs.depths(g, source);
                final long nanos = System.nanoTime() - start;
                int levels = 0;
                for (final int d : depths) {
                    levels = Math.max(levels, d + 1);
                }
                final long reached = reached(depths);
                return AppResult.bfs(depths, nanos, new WorkCounts(levels, reached, reached,
                    edgesOfReached(g::degree, depths), 0, 0, 0, 0, 0));
            }
            case SSSP: {
                requireNonNegativeWeights(g);
                final long[] dist = Dijkstra.distances(g, source);
                final long nanos = System.nanoTime() - start;
                final long reached = reached(dist);
                return AppResult.sssp(dist, nanos, new WorkCounts(0, reached, reached, edgesOfReached(g::degree, dist),
                    0, 0, 0, 0, 0));
            }
            default: {
                final PowerIteration.Result r = settings.fixedIterations() > 0
                    ? PowerIteration.fixed(g, settings.damping(), settings.fixedIterations())
                    : PowerIteration.ranks(g, settings.damping(), settings.tolerance(), settings.maxIterations());
                final long nanos = System.nanoTime() - start;
                final long work = (long)g.vertexCount() * r.iterations();
                return AppResult.pageRank(r.ranks(), nanos, new WorkCounts(r.iterations(), work, work,
                    g.edgeCount() * r.iterations(), 0, 0, 0, 0, 0));
            }
        }
    }

    /**
     * The answer every run is checked against.
     *
     * @param sequential a result of {@link #sequential} with the same arguments to reuse when it is the exact
     *                   reference (BFS, SSSP, fixed-iteration PageRank), or null to compute the reference here
     * @return the checker
     */
    public Expected expected(final Csr g, final int source, final AppSettings settings,
        final AppResult sequential) {
        switch (this) {
            case BFS:
                return new Expected(this, sequential != null ? sequential.depths() : SequentialBfs.depths(g, source),
                    null, null, 0);
            case SSSP:
                return new Expected(this, null, sequential != null ? sequential.distances() : Dijkstra.distances(g, source),
                    null, 0);
            default: {
                if (settings.fixedIterations() > 0) {
                    final double[] ranks = sequential != null ? sequential.ranks()
                        : PowerIteration.fixed(g, settings.damping(), settings.fixedIterations()).ranks();
                    return new Expected(this, null, null, ranks, 1e-9);
                }
                // Power iteration to 1/100 of the tolerance: within tol/100 of the exact ranks, so an answer within
                // tol of the exact ranks is within tol + tol/100 of it.
                final double refTolerance = settings.tolerance() / 100;
                final PowerIteration.Result ref = PowerIteration.ranks(g, settings.damping(), refTolerance, 100_000);
                return new Expected(this, null, null, ref.ranks(), settings.tolerance() + refTolerance);
            }
        }
    }

    /**
     * @return the edges traversed (TEPS numerator): the CSR out-edges of every vertex the answer reaches, so an
     *         undirected edge counts once per direction; 0 for PageRank (not a traversal)
     */
    public long edgesTraversed(final Csr g, final AppResult result) {
        return edgesTraversed(g::degree, result);
    }

    /** @return {@link #edgesTraversed(Csr, AppResult)} from the graph's summary (its out-degrees) */
    public long edgesTraversed(final GraphSummary g, final AppResult result) {
        return edgesTraversed(g::degree, result);
    }

    private long edgesTraversed(final IntUnaryOperator degree, final AppResult result) {
        switch (this) {
            case BFS:
                return edgesOfReached(degree, result.depths());
            case SSSP:
                return edgesOfReached(degree, result.distances());
            default:
                return 0;
        }
    }

    /**
     * The default source of a traversal: a random vertex with out-edges, chosen by {@code seed} (the first vertex
     * with edges if 64 draws find none, 0 for a graph without edges).
     */
    public static int defaultSource(final Csr g, final long seed) {
        final SplittableRandom rnd = new SplittableRandom(seed ^ 0x5DEECE66DL);
        for (int tries = 0; tries < 64; tries++) {
            final int v = rnd.nextInt(g.vertexCount());
            if (g.degree(v) > 0) {
                return v;
            }
        }
        for (int v = 0; v < g.vertexCount(); v++) {
            if (g.degree(v) > 0) {
                return v;
            }
        }
        return 0;
    }

    /** @return the out-degree of every vertex */
    public static int[] outDegrees(final Csr g) {
        final int[] out = new int[g.vertexCount()];
        for (int v = 0; v < out.length; v++) {
            out[v] = g.degree(v);
        }
        return out;
    }

    /** @return vertices with a depth ({@code >= 0}) */
    public static long reached(final int[] depths) {
        long r = 0;
        for (final int d : depths) {
            r += d >= 0 ? 1 : 0;
        }
        return r;
    }

    /** @return vertices with a distance (not {@link Dijkstra#UNREACHED}) */
    public static long reached(final long[] distances) {
        long r = 0;
        for (final long d : distances) {
            r += d != Dijkstra.UNREACHED ? 1 : 0;
        }
        return r;
    }

    private static long edgesOfReached(final IntUnaryOperator degree, final int[] depths) {
        long m = 0;
        for (int v = 0; v < depths.length; v++) {
            if (depths[v] >= 0) {
                m += degree.applyAsInt(v);
            }
        }
        return m;
    }

    private static long edgesOfReached(final IntUnaryOperator degree, final long[] distances) {
        long m = 0;
        for (int v = 0; v < distances.length; v++) {
            if (distances[v] != Dijkstra.UNREACHED) {
                m += degree.applyAsInt(v);
            }
        }
        return m;
    }

    private static void requireNonNegativeWeights(final Csr g) {
        if (!g.isWeighted()) {
            return;
        }
        for (long e = 0; e < g.edgeCount(); e++) {
            if (g.weight(e) < 0) {
                throw negativeWeight(e, g.weight(e));
            }
        }
    }

    @Override
    public String toString() {
        return id;
    }

    /**
     * The reference answer of one (graph, source, settings): checks any implementation's answer exactly (BFS depths,
     * SSSP distances) or in the L1 norm (PageRank). Immutable; thread-safe (the arrays are never modified).
     */
    public static final class Expected {
        private final GraphApp app;
        private final int[] depths;
        private final long[] distances;
        private final double[] ranks;
        private final double rankTolerance;

        private Expected(final GraphApp app, final int[] depths, final long[] distances, final double[] ranks,
            final double rankTolerance) {
            this.app = app;
            this.depths = depths;
            this.distances = distances;
            this.ranks = ranks;
            this.rankTolerance = rankTolerance;
        }

        /** @return the app */
        public GraphApp app() {
            return app;
        }

        /** @return the reference depths (BFS) or null; do not modify */
        public int[] depths() {
            return depths;
        }

        /** @return the reference distances (SSSP) or null; do not modify */
        public long[] distances() {
            return distances;
        }

        /** @return the reference ranks (PageRank) or null; do not modify */
        public double[] ranks() {
            return ranks;
        }

        /** @return the L1 distance a PageRank answer may have from {@link #ranks()} */
        public double rankTolerance() {
            return rankTolerance;
        }

        /** @return the vertices the reference reaches (BFS, SSSP; every vertex for PageRank) */
        public long reached() {
            return depths != null ? GraphApp.reached(depths) : distances != null ? GraphApp.reached(distances)
                : ranks.length;
        }

        /** @return the outcome of comparing {@code actual} with the reference */
        public Verification check(final AppResult actual) {
            switch (app) {
                case BFS:
                    return actual.depths() == null ? Verification.fail("no depths in the result")
                        : Verification.depths(depths, actual.depths());
                case SSSP:
                    return actual.distances() == null ? Verification.fail("no distances in the result")
                        : Verification.distances(distances, actual.distances());
                default:
                    return actual.ranks() == null ? Verification.fail("no ranks in the result")
                        : Verification.ranks(ranks, actual.ranks(), rankTolerance);
            }
        }

        @Override
        public String toString() {
            return String.format(Locale.ROOT, "expected %s answer (%d vertices)", app, depths != null ? depths.length
                : distances != null ? distances.length : ranks.length);
        }
    }
}
