package dev.overlap.graph.app;

import dev.overlap.graph.GraphSummary;
import dev.overlap.transport.AggregatorConfig;

import java.util.Locale;
import java.util.Objects;

/**
 * Knobs of a graph app run, as given on the command line. The BSP baselines use {@code pageRank*} and
 * {@code direction}; the queue, kernel, remote-send, fetch and delta settings are for the asynchronous (Atos) apps.
 * Remote sends are the transport's own {@link AggregatorConfig} (batched, or eager: every task its own message), so
 * what "eager" means is stated once, by the transport; the command line's {@code --batch-bytes 0} is only its
 * spelling there. Immutable; thread-safe.
 */
public final class AppSettings {
    /**
     * Largest remote batch the apps accept: each device's inbox ring holds
     * {@value AggregatorConfig#RING_PER_BATCH} batches, so a 64 MiB batch already takes 512 MiB of device memory per
     * device.
     */
    public static final int MAX_BATCH_BYTES = 64 << 20;
    /** Worklist discipline of the async apps. */
    public enum Queue { FIFO, PRIORITY }

    /** Kernel style of the async apps. */
    public enum KernelStyle { PERSISTENT, DISCRETE }

    /** Direction policy of the BSP BFS. */
    public enum Direction {
        /** Top-down only (push from the frontier). */
        TOP_DOWN,
        /** Beamer's direction-optimizing BFS: bottom-up steps when the frontier is large (symmetric graphs). */
        OPTIMIZING
    }

    /**
     * Formulation of the async PageRank: push with residuals (Atos; any graph), Gauss-Seidel pull with block
     * activation (symmetric graphs), or {@link #AUTO}: pull on a skewed or dense symmetric graph, push otherwise.
     */
    public enum PageRankVariant { AUTO, PUSH, PULL }

    /**
     * How the one-device pulls ({@code solo}, {@code coop}) update the ranks within an iteration. The model and the
     * answer they converge to are the same (power iteration's, dangling rank spread evenly).
     */
    public enum PageRankSweep {
        /**
         * Every row from the previous iteration's contributions: power iteration step for step, so a fixed number of
         * iterations gives power iteration's answer (verified to 1e-9); the total rank stays 1 in every iteration.
         */
        JACOBI,
        /**
         * Rows updated in place, each from the newest contributions (Gauss-Seidel, as the GAP suite's PageRank), the
         * total rank scaled back to 1 after each sweep, and from the third sweep on over-relaxed by a factor chosen
         * from the sweeps' changes (successive over-relaxation, 1 to 1.5: most on grids, next to nothing where the
         * sweeps already converge fast; {@code solo}'s {@code Relaxation}): fewer sweeps than Jacobi's iterations to the same error, but
         * a sweep can cost more than an iteration, because a row that reads the row just written waits for it (on
         * grids, where every row reads its left neighbour, more than the sweeps save). Its answer depends on the
         * workers' interleaving, so it runs to a tolerance only and is verified against the converged ranks; so
         * {@code solo} and {@code coop} keep its contributions in {@code float} (the GAP suite's precision, half the
         * bytes per gathered neighbour) unless the tolerance is below what float rounding lets the stopping rule see
         * (1e-5). The measurements: {@code bench/results/2026-11-29-pr-rows/} and
         * {@code bench/results/2026-11-29-float-gs/}.
         */
        GAUSS_SEIDEL,
        /**
         * {@link #GAUSS_SEIDEL} when it pays and may run: a run to a tolerance (no fixed iterations) on a graph of
         * mean degree {@link AutoMode#LOW_DEGREE} or more, where the edges dominate, so a sweep costs what an
         * iteration does and fewer are needed; {@link #JACOBI} otherwise (fixed iterations; grids and road networks,
         * where a sweep can cost several iterations). The default.
         */
        AUTO;

        /**
         * @param fixedIterations the run's fixed iterations, 0 when it runs to a tolerance
         * @param vertices        the graph's vertices
         * @param edges           its directed edges
         * @return whether a run with this setting updates in place ({@link #GAUSS_SEIDEL}, or {@link #AUTO}'s rule)
         */
        public boolean inPlace(final int fixedIterations, final long vertices, final long edges) {
            return this == GAUSS_SEIDEL || this == AUTO && fixedIterations == 0
                && edges >= AutoMode.LOW_DEGREE * Math.max(1, vertices);
        }

        /**
         * @param fixedIterations the run's fixed iterations, 0 when it runs to a tolerance
         * @param vertices        the graph's vertices
         * @param edges           its directed edges
         * @return the sweep {@link #inPlace} picks and why, as a report line: {@code "sweep auto -> gauss-seidel (to a
         *         tolerance, mean degree 23.6 >= 8)"}; {@code "sweep jacobi -> jacobi (as asked)"} for a named sweep
         */
        public String choice(final int fixedIterations, final long vertices, final long edges) {
            final String chosen = inPlace(fixedIterations, vertices, edges) ? "gauss-seidel" : "jacobi";
            final String line = "sweep " + name().toLowerCase(Locale.ROOT).replace('_', '-') + " -> " + chosen;
            if (this != AUTO) {
                return line + " (as asked)";
            }
            if (fixedIterations > 0) {
                return line + " (fixed iterations: power iteration step for step)";
            }
            return line + " (to a tolerance, " + AutoMode.shape(Math.max(1, vertices), edges) + ")";
        }
    }

    private final Queue queue;
    private final KernelStyle kernel;
    private final PageRankVariant pageRankVariant;
    private final PageRankSweep pageRankSweep;
    private final AggregatorConfig remote;
    private final Direction direction;
    private final double damping;
    private final double tolerance;
    private final int maxIterations;
    private final int fixedIterations;
    private final int fetch;
    private final int delta;

    private AppSettings(final Builder b) {
        this.queue = b.queue;
        this.kernel = b.kernel;
        this.pageRankVariant = b.pageRankVariant;
        this.pageRankSweep = b.pageRankSweep;
        this.remote = b.remote;
        this.direction = b.direction;
        this.damping = b.damping;
        this.tolerance = b.tolerance;
        this.maxIterations = b.maxIterations;
        this.fixedIterations = b.fixedIterations;
        this.fetch = b.fetch;
        this.delta = b.delta;
    }

    /** @return a builder with the defaults */
    public static Builder builder() {
        return new Builder();
    }

    /** @return the defaults */
    public static AppSettings defaults() {
        return builder().build();
    }

    /** @return worklist discipline (async) */
    public Queue queue() {
        return queue;
    }

    /** @return kernel style (async) */
    public KernelStyle kernel() {
        return kernel;
    }

    /**
     * @return how a worker's aggregator sends remote tasks (async): batches of a size flushed after a number of
     *         polls (Atos' BATCH_SIZE and WAIT_TIME), or eager
     */
    public AggregatorConfig remote() {
        return remote;
    }

    /** @return BFS direction policy (BSP) */
    public Direction direction() {
        return direction;
    }

    /** @return PageRank damping factor */
    public double damping() {
        return damping;
    }

    /** @return PageRank L1 tolerance against the exact ranks */
    public double tolerance() {
        return tolerance;
    }

    /** @return PageRank iteration cap */
    public int maxIterations() {
        return maxIterations;
    }

    /** @return PageRank fixed iteration count, or 0 to iterate to the tolerance */
    public int fixedIterations() {
        return fixedIterations;
    }

    /** @return tasks a worker takes per pop (async; 1 = Atos thread worker, 32 = warp; default 128) */
    public int fetch() {
        return fetch;
    }

    /** @return the async PageRank formulation */
    public PageRankVariant pageRankVariant() {
        return pageRankVariant;
    }

    /** @return how solo and coop PageRank update the ranks within an iteration */
    public PageRankSweep pageRankSweep() {
        return pageRankSweep;
    }

    /** @return SSSP priority bucket width (delta-stepping's delta), or 0 to derive it from the weights (async) */
    public int delta() {
        return delta;
    }

    /**
     * The delta-stepping bucket width of an SSSP run on {@code g}: {@link #delta()}, or when that is 0 Meyer and
     * Sanders' {@code max weight / mean degree}, with the max weight estimated as twice the mean (uniform weights),
     * at least 1 and at most 2^24.
     *
     * @param g the summary of the graph (unit weights when it has none)
     * @return the width, at least 1
     */
    public int deltaFor(final GraphSummary g) {
        if (delta > 0) {
            return delta;
        }
        final long m = g.edgeCount();
        if (m == 0) {
            return 1;
        }
        final double meanWeight = (double)g.weightSum() / m;
        final double meanDegree = (double)m / g.verticesWithEdges();
        return (int)Math.max(1, Math.min(1 << 24, Math.round(2 * meanWeight / meanDegree)));
    }

    /**
     * @return a hash of every setting (equal settings, equal fingerprints, in any process: enums by ordinal, not by
     *         their identity hash): the ranks of a run across processes check that they were given the same settings
     */
    public int fingerprint() {
        return Objects.hash(queue.ordinal(), kernel.ordinal(), pageRankVariant.ordinal(), pageRankSweep.ordinal(),
            remote.isEager(), remote.isEager() ? 0 : remote.batchBytes(), remote.waitPolls(), direction.ordinal(), damping, tolerance,
            maxIterations, fixedIterations, fetch, delta);
    }

    /** Validating builder; not thread-safe. */
    public static final class Builder {
        private Queue queue = Queue.FIFO;
        private KernelStyle kernel = KernelStyle.PERSISTENT;
        private PageRankVariant pageRankVariant = PageRankVariant.AUTO;
        private PageRankSweep pageRankSweep = PageRankSweep.AUTO;
        private AggregatorConfig remote = AggregatorConfig.batched(64 << 10, 64);
        private Direction direction = Direction.OPTIMIZING;
        private double damping = 0.85;
        private double tolerance = 1e-4;
        private int maxIterations = 1000;
        private int fixedIterations;
        /**
         * 128 rather than Atos' 32 (a warp): a pop, the publication of the tasks pushed meanwhile and an inbox poll
         * (once per 32 tasks or more) come once per fetch, so a larger fetch pays them less often; 128 was faster on
         * the apps it moved and neutral on the others (bench/results/2026-11-25-async-fetch-size.md).
         */
        private int fetch = 128;
        private int delta;

        private Builder() {
        }

        /** @param q worklist discipline */
        public Builder queue(final Queue q) {
            this.queue = Objects.requireNonNull(q);
            return this;
        }

        /** @param v async PageRank formulation */
        public Builder pageRankVariant(final PageRankVariant v) {
            this.pageRankVariant = Objects.requireNonNull(v);
            return this;
        }

        /** @param s how solo and coop PageRank update the ranks within an iteration */
        public Builder pageRankSweep(final PageRankSweep s) {
            this.pageRankSweep = Objects.requireNonNull(s);
            return this;
        }

        /** @param k kernel style */
        public Builder kernel(final KernelStyle k) {
            this.kernel = Objects.requireNonNull(k);
            return this;
        }

        /**
         * @param config how remote tasks are sent: {@link AggregatorConfig#eager()}, or batches of at most
         *               {@link #MAX_BATCH_BYTES}
         */
        public Builder remote(final AggregatorConfig config) {
            Objects.requireNonNull(config, "config");
            if (!config.isEager() && config.batchBytes() > MAX_BATCH_BYTES) {
                throw new IllegalArgumentException("remote batches must be at most " + MAX_BATCH_BYTES + " bytes, was "
                    + config.batchBytes());
            }
            this.remote = config;
            return this;
        }

        /** @param d BFS direction policy */
        public Builder direction(final Direction d) {
            this.direction = Objects.requireNonNull(d);
            return this;
        }

        /** @param d damping in (0, 1) */
        public Builder damping(final double d) {
            if (!(d > 0 && d < 1)) {
                throw new IllegalArgumentException("damping must be in (0, 1), was " + d);
            }
            this.damping = d;
            return this;
        }

        /** @param t L1 tolerance, > 0 */
        public Builder tolerance(final double t) {
            if (!(t > 0) || Double.isInfinite(t)) {
                throw new IllegalArgumentException("tolerance must be > 0, was " + t);
            }
            this.tolerance = t;
            return this;
        }

        /** @param n iteration cap, >= 1 */
        public Builder maxIterations(final int n) {
            if (n < 1) {
                throw new IllegalArgumentException("max iterations must be >= 1, was " + n);
            }
            this.maxIterations = n;
            return this;
        }

        /** @param n fixed iterations (0 = iterate to tolerance) */
        public Builder fixedIterations(final int n) {
            if (n < 0) {
                throw new IllegalArgumentException("iterations must be >= 0, was " + n);
            }
            this.fixedIterations = n;
            return this;
        }

        /** @param tasks tasks per pop, 1..65536 */
        public Builder fetch(final int tasks) {
            if (tasks < 1 || tasks > (1 << 16)) {
                throw new IllegalArgumentException("fetch must be in 1.." + (1 << 16) + ", was " + tasks);
            }
            this.fetch = tasks;
            return this;
        }

        /** @param d SSSP priority bucket width, >= 1, or 0 to derive it from the weights */
        public Builder delta(final int d) {
            if (d < 0) {
                throw new IllegalArgumentException("delta must be >= 0 (0 = from the weights), was " + d);
            }
            this.delta = d;
            return this;
        }

        /** @return the settings */
        public AppSettings build() {
            if (pageRankSweep == PageRankSweep.GAUSS_SEIDEL && fixedIterations > 0) {
                throw new IllegalArgumentException("Gauss-Seidel PageRank runs to a tolerance (its answer after a "
                    + "fixed number of sweeps depends on the workers' interleaving): fixed iterations do not apply");
            }
            return new AppSettings(this);
        }
    }
}
