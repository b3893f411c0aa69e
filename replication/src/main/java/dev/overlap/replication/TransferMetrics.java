package dev.overlap.replication;

import dev.overlap.core.Mesh;

/**
 * PROACT's overhead and overlap metrics (Figs. 8 and 9) for one workload and one decoupled configuration, from
 * median iteration times measured in one call:
 * <ul>
 *   <li>{@link #trackingOverhead()}: {@code TRACK_ONLY / NONE - 1}, what counting block completions costs;</li>
 *   <li>{@link #overlapFraction()}: {@code (BULK - config) / (BULK - NONE)}, the share of the bulk transfer time
 *   that the configuration hid under computation (1 = all of it, 0 = none), clamped to [0, 1];</li>
 *   <li>{@link #speedupOverBulk()}: {@code BULK / config}.</li>
 * </ul>
 * Immutable value; thread-safe.
 */
public final class TransferMetrics {
    private final TransferConfig config;
    private final long noneNanos;
    private final long trackOnlyNanos;
    private final long bulkNanos;
    private final long configNanos;

    TransferMetrics(final TransferConfig config, final long noneNanos, final long trackOnlyNanos,
        final long bulkNanos, final long configNanos) {
        this.config = config;
        this.noneNanos = noneNanos;
        this.trackOnlyNanos = trackOnlyNanos;
        this.bulkNanos = bulkNanos;
        this.configNanos = configNanos;
    }

    /**
     * Measures the four runs (NONE, TRACK_ONLY, BULK and {@code config}) with the same warm-up and repetitions.
     *
     * @param mesh     the mesh to run on
     * @param workload the user's workload
     * @param config   the decoupled configuration to judge
     * @param warmup   warm-up iterations per run, >= 0
     * @param measured measured iterations per run, >= 1 (the median is used)
     * @return the metrics
     */
    public static TransferMetrics measure(final Mesh mesh, final TransferWorkload workload,
        final TransferConfig config, final int warmup, final int measured) {
        TransferProfiler.checkRepetitions(warmup, measured);
        final int chunk = config.chunkBytes();
        final long none = IterationTimer.medianNanos(mesh, workload, new TransferConfig(TransferMode.NONE, chunk, 0),
            warmup, measured);
        final long track = IterationTimer.medianNanos(mesh, workload,
            new TransferConfig(TransferMode.TRACK_ONLY, chunk, 0), warmup, measured);
        final long bulk = IterationTimer.medianNanos(mesh, workload, new TransferConfig(TransferMode.BULK, chunk, 0),
            warmup, measured);
        final long mine = IterationTimer.medianNanos(mesh, workload, config, warmup, measured);
        return new TransferMetrics(config, none, track, bulk, mine);
    }

    /** @return the judged configuration */
    public TransferConfig config() {
        return config;
    }

    /** @return median iteration time without any copy */
    public long noneNanos() {
        return noneNanos;
    }

    /** @return median iteration time with tracking and no copy */
    public long trackOnlyNanos() {
        return trackOnlyNanos;
    }

    /** @return median iteration time of compute followed by a bulk copy */
    public long bulkNanos() {
        return bulkNanos;
    }

    /** @return median iteration time of the judged configuration */
    public long configNanos() {
        return configNanos;
    }

    /** @return tracking overhead relative to NONE (0.05 = 5%) */
    public double trackingOverhead() {
        return (double)trackOnlyNanos / noneNanos - 1;
    }

    /** @return share of the bulk transfer time hidden under computation, in [0, 1] */
    public double overlapFraction() {
        final double transfer = bulkNanos - noneNanos;
        if (transfer <= 0) {
            return 1;
        }
        return Math.max(0, Math.min(1, (bulkNanos - configNanos) / transfer));
    }

    /** @return BULK time over the configuration's time */
    public double speedupOverBulk() {
        return (double)bulkNanos / configNanos;
    }

    @Override
    public String toString() {
        return String.format("%s: none %.2f ms, track-only %.2f ms (overhead %.1f%%), bulk %.2f ms, %s %.2f ms "
                + "(%.2fx over bulk, %.0f%% of the transfer hidden)", config, noneNanos / 1e6, trackOnlyNanos / 1e6,
            trackingOverhead() * 100, bulkNanos / 1e6, config, configNanos / 1e6, speedupOverBulk(),
            overlapFraction() * 100);
    }
}
