package dev.overlap.graph.cli;

import dev.overlap.graph.CsrGraph;
import dev.overlap.graph.Progress;
import dev.overlap.graph.app.AppResult;
import dev.overlap.graph.app.AppRunner;
import dev.overlap.graph.app.AppSettings;
import dev.overlap.graph.app.GraphAlgorithms;
import dev.overlap.graph.app.GraphApp;
import dev.overlap.graph.ref.Verification;

import java.util.ArrayList;
import java.util.List;

/**
 * Runs a strong-scaling sweep: the single-threaded Java run on the host CSR first (its answer is the reference), then
 * the app on 1, 2, ..., {@code maxDevices} devices, a fresh mesh each, every count with the same warm-ups and timed
 * runs, each answer verified unless verification is off. Rendering the result is {@link ScalingReport}'s job.
 * Not thread-safe; one sweep per instance.
 */
final class ScalingSweep {
    private final GraphApp app;
    private final GraphAlgorithms algorithms;
    private final AppSettings settings;
    private final int maxDevices;
    private final int threadsPerDevice;
    private final AppRunner.Partitioning partitioning;
    private final int warmups;
    private final int runs;
    private final boolean verify;

    /** What a sweep measured: the sequential median and one point per device count. */
    static final class Result {
        final double sequentialMillis;
        final List<ScalingPoint> points;

        Result(final double sequentialMillis, final List<ScalingPoint> points) {
            this.sequentialMillis = sequentialMillis;
            this.points = List.copyOf(points);
        }
    }

    ScalingSweep(final GraphApp app, final GraphAlgorithms algorithms, final AppSettings settings, final int maxDevices,
        final int threadsPerDevice, final AppRunner.Partitioning partitioning, final int warmups, final int runs,
        final boolean verify) {
        this.app = app;
        this.algorithms = algorithms;
        this.settings = settings;
        this.maxDevices = maxDevices;
        this.threadsPerDevice = threadsPerDevice;
        this.partitioning = partitioning;
        this.warmups = warmups;
        this.runs = runs;
        this.verify = verify;
    }

    /**
     * @param g      the graph
     * @param source the source of BFS and SSSP (ignored by PageRank)
     * @param cores  the machine's cores: device counts whose busy threads outnumber them are marked oversubscribed
     * @return the measurements
     */
    Result run(final CsrGraph g, final int source, final int cores, final Progress progress) {
        final List<ScalingPoint> points = new ArrayList<>();
        final double seqMillis;
        try (Progress.Task task = progress.start("overlap scaling " + app, maxDevices + 1, "runs", 1)) {
            AppResult seq = null;
            final double[] seqTimes = new double[runs];
            for (int r = -warmups; r < runs; r++) {
                seq = app.sequential(g, source, settings);
                if (r >= 0) {
                    seqTimes[r] = seq.nanos() / 1e6;
                }
            }
            seqMillis = AppRunner.median(seqTimes);
            final GraphApp.Expected expected = verify ? app.expected(g, source, settings, seq) : null;
            task.stepBy(1);
            for (int d = 1; d <= maxDevices; d++) {
                final AppRunner runner = AppRunner.builder().devices(d).threadsPerDevice(threadsPerDevice)
                    .partitioning(partitioning).warmups(warmups).runs(runs).build();
                final AppRunner.Measurement m = runner.measure(g, app, algorithms, source, settings);
                final Verification v = expected == null ? Verification.skipped() : expected.check(m.result());
                points.add(new ScalingPoint(d, m.runMillis(), m.result().counts(), app.edgesTraversed(g, m.result()),
                    v, d * threadsPerDevice > cores));
                task.stepBy(1);
            }
        }
        return new Result(seqMillis, points);
    }
}
