package dev.overlap.graph.app;

import java.util.Objects;

/**
 * Knobs of a graph app run, as given on the command line. The BSP baselines use {@code pageRank*} and
 * {@code direction}; the queue, kernel, batch, wait, fetch and delta settings are for the asynchronous (Atos) apps.
 * Immutable; thread-safe.
 */
public final class AppSettings {
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

    private final Queue queue;
    private final KernelStyle kernel;
    private final PageRankVariant pageRankVariant;
    private final int batchBytes;
    private final int waitPolls;
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
        this.batchBytes = b.batchBytes;
        this.waitPolls = b.waitPolls;
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

    /** @return aggregation batch size in bytes, 0 for eager sends (every remote task its own message) (async) */
    public int batchBytes() {
        return batchBytes;
    }

    /** @return polls before a partial batch is sent (async, Atos WAIT_TIME) */
    public int waitPolls() {
        return waitPolls;
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

    /** @return SSSP priority bucket width (delta-stepping's delta), or 0 to derive it from the weights (async) */
    public int delta() {
        return delta;
    }

    /** Validating builder; not thread-safe. */
    public static final class Builder {
        private Queue queue = Queue.FIFO;
        private KernelStyle kernel = KernelStyle.PERSISTENT;
        private PageRankVariant pageRankVariant = PageRankVariant.AUTO;
        private int batchBytes = 64 << 10;
        private int waitPolls = 64;
        private Direction direction = Direction.OPTIMIZING;
        private double damping = 0.85;
        private double tolerance = 1e-4;
        private int maxIterations = 1000;
        private int fixedIterations;
        /**
         * 128 rather than Atos' 32 (a warp): a pop, the publication of the tasks pushed meanwhile and an inbox poll
         * (once per 32 tasks or more) come once per fetch; on 2 devices x 1 worker (medians of steady runs) 128 took
         * grid:1000x1000 BFS from 33-34 to 27-28 ms and kron:20 SSSP from 537 to 385 ms, and changed kron:20 BFS
         * and grid PageRank by less than the noise.
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

        /** @param k kernel style */
        public Builder kernel(final KernelStyle k) {
            this.kernel = Objects.requireNonNull(k);
            return this;
        }

        /**
         * @param bytes batch size including the 8-byte batch header, 16 .. 64 MiB, or 0 for eager sends
         */
        public Builder batchBytes(final int bytes) {
            if (bytes != 0 && (bytes < 16 || bytes > (64 << 20))) {
                throw new IllegalArgumentException("batch bytes must be 0 (eager) or in 16.." + (64 << 20) + ", was "
                    + bytes);
            }
            this.batchBytes = bytes;
            return this;
        }

        /** @param polls wait polls, >= 0 */
        public Builder waitPolls(final int polls) {
            if (polls < 0) {
                throw new IllegalArgumentException("wait must be >= 0, was " + polls);
            }
            this.waitPolls = polls;
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
            return new AppSettings(this);
        }
    }
}
