package dev.overlap.graph.app;

import java.util.Objects;

/**
 * Knobs of a graph app run, as given on the command line. The BSP baselines use {@code pageRank*} and
 * {@code direction}; the queue, kernel, batch and wait settings are for the asynchronous (Atos) apps and are carried
 * here so they can plug in without changing the command line. Immutable; thread-safe.
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

    private final Queue queue;
    private final KernelStyle kernel;
    private final int batchBytes;
    private final int waitPolls;
    private final Direction direction;
    private final double damping;
    private final double tolerance;
    private final int maxIterations;
    private final int fixedIterations;

    private AppSettings(final Builder b) {
        this.queue = b.queue;
        this.kernel = b.kernel;
        this.batchBytes = b.batchBytes;
        this.waitPolls = b.waitPolls;
        this.direction = b.direction;
        this.damping = b.damping;
        this.tolerance = b.tolerance;
        this.maxIterations = b.maxIterations;
        this.fixedIterations = b.fixedIterations;
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

    /** @return aggregation batch size in bytes (async) */
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

    /** Validating builder; not thread-safe. */
    public static final class Builder {
        private Queue queue = Queue.FIFO;
        private KernelStyle kernel = KernelStyle.PERSISTENT;
        private int batchBytes = 64 << 10;
        private int waitPolls = 64;
        private Direction direction = Direction.OPTIMIZING;
        private double damping = 0.85;
        private double tolerance = 1e-4;
        private int maxIterations = 1000;
        private int fixedIterations;

        private Builder() {
        }

        /** @param q worklist discipline */
        public Builder queue(final Queue q) {
            this.queue = Objects.requireNonNull(q);
            return this;
        }

        /** @param k kernel style */
        public Builder kernel(final KernelStyle k) {
            this.kernel = Objects.requireNonNull(k);
            return this;
        }

        /** @param bytes batch size, 8 .. 64 MiB */
        public Builder batchBytes(final int bytes) {
            if (bytes < 8 || bytes > (64 << 20)) {
                throw new IllegalArgumentException("batch bytes must be in 8.." + (64 << 20) + ", was " + bytes);
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

        /** @return the settings */
        public AppSettings build() {
            return new AppSettings(this);
        }
    }
}
