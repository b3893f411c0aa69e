package dev.overlap.graph.cli;

import dev.overlap.core.Mesh;
import dev.overlap.graph.CsrGraph;
import dev.overlap.graph.Progress;
import dev.overlap.graph.app.AppResult;
import dev.overlap.graph.app.AppRunner;
import dev.overlap.graph.app.AppSettings;
import dev.overlap.graph.app.AutoMode;
import dev.overlap.graph.app.GraphAlgorithms;
import dev.overlap.graph.app.GraphApp;
import dev.overlap.graph.app.Warmup;
import dev.overlap.graph.app.WorkCounts;
import dev.overlap.graph.gen.GraphSpec;
import dev.overlap.graph.jacobi.BandedSystem;
import dev.overlap.graph.jacobi.JacobiSolver;
import dev.overlap.graph.jacobi.JacobiWorkload;
import dev.overlap.graph.jacobi.SequentialJacobi;
import dev.overlap.graph.ref.Verification;
import dev.overlap.replication.TransferConfig;
import dev.overlap.replication.TransferMode;
import dev.overlap.replication.TransferProfile;
import dev.overlap.replication.TransferProfiler;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Runs what {@code overlap demo} compares: per generated graph and app the single-threaded Java reference first
 * (its answer is what every other row is checked against), then each mode's provider on the mesh; then Jacobi with the
 * sequential solver, each PROACT transfer mode, and the profiler's choice. Every row gets the runner's {@link Warmup}
 * (untimed runs) and the median of {@code runs} timed ones, and every answer is verified. Rendering is
 * {@link DemoReport}'s job. Not thread-safe; one run per instance.
 */
final class DemoRun {
    /** Relative residual Jacobi solves to. */
    /** Appended to the mode of the row whose mode {@code --mode auto} (the apps' default) picks for its graph. */
    static final String AUTO_MARK = "<- auto";
    static final double JACOBI_TOLERANCE = 1e-8;
    static final int JACOBI_HALF_BAND = 4;
    private static final int JACOBI_MAX_ITERATIONS = 10_000;
    /** Progress steps of the Jacobi part: the sequential solve, five configurations and the profiler's choice. */
    private static final int JACOBI_STEPS = 7;

    private final List<GraphSpec> graphs;
    private final List<GraphApp> apps;
    private final Map<String, GraphAlgorithms> providers;
    private final AppRunner runner;
    private final boolean jacobi;
    private final int jacobiSize;
    private final long seed;

    /** What a demo run measured: the rows in order, the graphs, and the notes (skipped modes and apps). */
    static final class Result {
        final List<DemoRow> rows;
        final List<DemoGraph> graphs;
        final Set<String> notes;

        Result(final List<DemoRow> rows, final List<DemoGraph> graphs, final Set<String> notes) {
            this.rows = List.copyOf(rows);
            this.graphs = List.copyOf(graphs);
            this.notes = new LinkedHashSet<>(notes);
        }

        /** @return the rows whose answer failed its check */
        List<DemoRow> failed() {
            final List<DemoRow> failed = new ArrayList<>();
            for (final DemoRow r : rows) {
                if (!r.verification.passed()) {
                    failed.add(r);
                }
            }
            return failed;
        }
    }

    /**
     * @param graphs     the graphs to generate (none are generated when {@code apps} is empty)
     * @param apps       the graph apps
     * @param providers  the available modes' providers, in row order
     * @param runner     the mesh shape, partitioning, warm-ups and timed runs of every row
     * @param jacobi     whether Jacobi runs
     * @param jacobiSize Jacobi unknowns
     * @param seed       seed of the generators, the sources and the Jacobi matrix
     */
    DemoRun(final List<GraphSpec> graphs, final List<GraphApp> apps, final Map<String, GraphAlgorithms> providers,
        final AppRunner runner, final boolean jacobi, final int jacobiSize, final long seed) {
        this.graphs = apps.isEmpty() ? List.of() : List.copyOf(graphs);
        this.apps = List.copyOf(apps);
        this.providers = providers;
        this.runner = runner;
        this.jacobi = jacobi;
        this.jacobiSize = jacobiSize;
        this.seed = seed;
    }

    /** @return progress steps of {@link #run}: per graph its generation and per app the reference and each mode */
    long steps() {
        return (long)graphs.size() * (1 + apps.size() * (1L + providers.size())) + (jacobi ? JACOBI_STEPS : 0);
    }

    /**
     * @param notes notes so far (a mode without a provider); the run adds apps a provider does not support
     * @return the measurements
     */
    Result run(final Progress.Task task, final Set<String> notes) {
        final Set<String> allNotes = new LinkedHashSet<>(notes);
        final List<DemoRow> rows = new ArrayList<>();
        final List<DemoGraph> graphInfo = new ArrayList<>();
        for (final GraphSpec gs : graphs) {
            runGraph(gs, rows, graphInfo, allNotes, task);
        }
        if (jacobi) {
            runJacobi(rows, task);
        }
        return new Result(rows, graphInfo, allNotes);
    }

    private void runGraph(final GraphSpec gs, final List<DemoRow> rows, final List<DemoGraph> graphInfo,
        final Set<String> notes, final Progress.Task task) {
        boolean needWeights = false;
        for (final GraphApp a : apps) {
            needWeights |= a.weighted();
        }
        final long genStart = System.nanoTime();
        final CsrGraph weighted = gs.build(seed, needWeights, Progress.none());
        final double genMillis = (System.nanoTime() - genStart) / 1e6;
        task.stepBy(1);
        final CsrGraph plain = weighted.withoutWeights();
        final String name = gs.toString();
        final int source = GraphApp.defaultSource(plain, seed);
        graphInfo.add(new DemoGraph(name, plain.vertexCount(), plain.edgeCount(), source,
            needWeights ? "1.." + gs.maxWeight() + " (sssp)" : "none", genMillis));
        final int runs = runner.runs();
        for (final GraphApp app : apps) {
            final CsrGraph g = app.weighted() ? weighted : plain;
            // the app's own worklist (`--queue auto`): priority for SSSP (delta-stepping), FIFO for BFS and PageRank
            final AppSettings settings = AppSettings.builder().queue(app.autoQueue()).build();
            runner.warmup().perform(() -> app.sequential(g, source, settings));
            AppResult seq = null;
            final double[] seqTimes = new double[runs];
            for (int r = 0; r < runs; r++) {
                seq = app.sequential(g, source, settings);
                seqTimes[r] = seq.nanos() / 1e6;
            }
            task.stepBy(1);
            final GraphApp.Expected expected = app.expected(g, source, settings, seq);
            final DemoRow ref = DemoRow.reference(app.id(), name, seqTimes, app.edgesTraversed(g, seq), seq.counts(),
                Verification.pass("the single-threaded Java CSR reference"));
            rows.add(ref);
            // the mode `overlap <app>` takes by default on this graph and mesh, marked in the table
            final String autoPick = AutoMode.choose(app, g.vertexCount(), g.edgeCount(),
                runner.devices() * runner.threadsPerDevice()).mode();
            for (final Map.Entry<String, GraphAlgorithms> p : providers.entrySet()) {
                final AppRunner.Measurement m;
                try {
                    m = runner.measure(g, app, p.getValue(), source, settings);
                } catch (final UnsupportedOperationException e) {
                    notes.add(p.getKey() + " " + app.id() + " skipped: the provider does not support it ("
                        + e.getMessage() + ")");
                    task.stepBy(1);
                    continue;
                }
                task.stepBy(1);
                final DemoRow row = new DemoRow(app.id(), name, p.getKey(), Integer.toString(m.devices()
                    * m.threadsPerDevice()),
                    true, m.runMillis(),
                    app.edgesTraversed(g, m.result()), m.result().counts(), expected.check(m.result()), false,
                    ref.medianMillis, null, Double.NaN);
                rows.add(p.getKey().equals(autoPick) ? row.asAutoPick() : row);
            }
        }
    }

    private void runJacobi(final List<DemoRow> rows, final Progress.Task task) {
        final int devices = runner.devices();
        final int threads = runner.threadsPerDevice();
        final BandedSystem system = new BandedSystem(jacobiSize, JACOBI_HALF_BAND, seed);
        final String name = "banded n=" + jacobiSize + " k=" + JACOBI_HALF_BAND;
        runner.warmup().perform(() -> SequentialJacobi.solve(system, JACOBI_TOLERANCE, JACOBI_MAX_ITERATIONS));
        SequentialJacobi.Result seq = null;
        final double[] seqTimes = new double[runner.runs()];
        for (int r = 0; r < runner.runs(); r++) {
            seq = SequentialJacobi.solve(system, JACOBI_TOLERANCE, JACOBI_MAX_ITERATIONS);
            seqTimes[r] = seq.nanos() / 1e6;
        }
        task.stepBy(1);
        final long nnz = (long)jacobiSize * (2L * JACOBI_HALF_BAND + 1);
        final DemoRow ref = DemoRow.reference("jacobi", name, seqTimes, 0,
            new WorkCounts(seq.iterations(), 0, 0, nnz * Math.max(1, seq.iterations()), 0, 0, 0, 0, 0),
            Verification.pass(String.format(Locale.ROOT, "residual %.3g", seq.residual())));
        rows.add(ref);
        final TransferConfig[] configs = {
            new TransferConfig(TransferMode.BULK, 64 << 10, 0),
            new TransferConfig(TransferMode.INLINE, 64 << 10, 0),
            new TransferConfig(TransferMode.POLLING, 64 << 10, 1),
            new TransferConfig(TransferMode.TRIGGERED, 64 << 10, 0),
            TransferConfig.DEFAULT,
        };
        final long bytes = JacobiSolver.bytesPerDevice(system, devices) + (16L << 20);
        for (final TransferConfig c : configs) {
            try (Mesh mesh = Mesh.builder().name("overlap-jacobi").devices(devices).threadsPerDevice(threads)
                .memoryPerDevice(bytes).build()) {
                rows.add(jacobiRow(mesh, system, c, "proact " + c, seq, ref.medianMillis, nnz, threads, Double.NaN));
            }
            task.stepBy(1);
        }
        // The profiling workload holds a vector and a band of its own while it runs (freed before the solve).
        try (Mesh mesh = Mesh.builder().name("overlap-jacobi").devices(devices).threadsPerDevice(threads)
            .memoryPerDevice(2 * bytes).build()) {
            final long profileStart = System.nanoTime();
            final TransferConfig choice;
            try (JacobiWorkload w = new JacobiWorkload(mesh, system)) {
                final TransferProfile p = new TransferProfiler()
                    .chunkSizes(TransferProfiler.powersOfFour(16 << 10, 1 << 20)).transferThreads(List.of(0, 1))
                    .repetitions(1, 3).profile(mesh, w);
                choice = p.choice();
            }
            final double profileMillis = (System.nanoTime() - profileStart) / 1e6;
            rows.add(jacobiRow(mesh, system, choice, "proact profiler: " + choice, seq, ref.medianMillis, nnz, threads,
                profileMillis));
        }
        task.stepBy(1);
    }

    private DemoRow jacobiRow(final Mesh mesh, final BandedSystem system, final TransferConfig config,
        final String mode, final SequentialJacobi.Result seq, final double seqMillis, final long nnz, final int threads,
        final double profileMillis) {
        runner.warmup().perform(() -> JacobiSolver.solve(mesh, system, config, JACOBI_TOLERANCE,
            JACOBI_MAX_ITERATIONS));
        JacobiSolver.Result r = null;
        final double[] times = new double[runner.runs()];
        for (int i = 0; i < runner.runs(); i++) {
            r = JacobiSolver.solve(mesh, system, config, JACOBI_TOLERANCE, JACOBI_MAX_ITERATIONS);
            times[i] = r.nanos() / 1e6;
        }
        final int devices = mesh.deviceCount();
        final String thr = devices * threads + (config.transferThreads() > 0 ? "+" + config.transferThreads() + "t" : "");
        return new DemoRow("jacobi", "banded n=" + system.size() + " k=" + system.halfBand(), mode, thr, true, times, 0,
            new WorkCounts(r.iterations(), 0, 0, nnz * Math.max(1, r.iterations()), 0, 0, 0, r.copiedChunks(),
                r.copiedBytes()), SequentialJacobi.verify(system, r.x(), JACOBI_TOLERANCE, seq), false, seqMillis,
            config.toString(), profileMillis);
    }
}
