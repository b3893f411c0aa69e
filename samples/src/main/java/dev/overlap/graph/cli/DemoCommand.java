package dev.overlap.graph.cli;

import com.fasterxml.jackson.jr.ob.JSON;
import dev.overlap.core.Mesh;
import dev.overlap.graph.ConsoleProgress;
import dev.overlap.graph.CsrGraph;
import dev.overlap.graph.Progress;
import dev.overlap.graph.app.AppResult;
import dev.overlap.graph.app.AppRunner;
import dev.overlap.graph.app.AppSettings;
import dev.overlap.graph.app.Algorithms;
import dev.overlap.graph.app.GraphAlgorithms;
import dev.overlap.graph.app.GraphApp;
import dev.overlap.graph.app.WorkCounts;
import dev.overlap.graph.gen.GraphSpec;
import dev.overlap.graph.jacobi.BandedSystem;
import dev.overlap.graph.jacobi.JacobiSolver;
import dev.overlap.graph.jacobi.JacobiWorkload;
import dev.overlap.graph.jacobi.SequentialJacobi;
import dev.overlap.graph.ref.Verification;
import dev.overlap.graph.report.TextTable;
import dev.overlap.replication.TransferConfig;
import dev.overlap.replication.TransferMode;
import dev.overlap.replication.TransferProfile;
import dev.overlap.replication.TransferProfiler;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.function.Function;

/**
 * {@code overlap demo}, the main job: every app — BFS, PageRank, SSSP in each execution mode that is available
 * ({@code bsp}, {@code async} once its provider is registered) and Jacobi in the PROACT transfer modes, including
 * the profiler's choice — on graphs generated in memory, each answer verified against the single-threaded Java
 * reference, and one comparison table (or one JSON object with {@code --json}) with the time of the plain
 * single-threaded Java CSR run beside every mesh run.
 *
 * <p>Each measured row is one untimed warm-up run (JIT) and the median of {@code --runs} timed runs on the placed
 * graph; the sequential reference is measured the same way. A mode without a provider is skipped with a one-line
 * note, and so is an app a provider does not support. Exit codes: 0 every answer verified, 1 a verification failed
 * (each failure in one line on standard error) or a runtime problem, 2 wrong arguments.
 *
 * <p>Not thread-safe: picocli fills and runs one instance per invocation, in one thread.
 */
@Command(name = "demo", mixinStandardHelpOptions = true, sortOptions = false,
    description = "The main job: BFS, PageRank and SSSP (bsp and async modes) and Jacobi (PROACT transfer modes, incl. "
        + "the profiler's choice) on generated graphs; every answer verified; one comparison table with the "
        + "single-threaded Java CSR time.")
public final class DemoCommand implements Callable<Integer> {
    /** Relative residual Jacobi solves to. */
    static final double JACOBI_TOLERANCE = 1e-8;
    private static final int JACOBI_HALF_BAND = 4;
    private static final int JACOBI_MAX_ITERATIONS = 10_000;
    private static final List<String> KNOWN_MODES = List.of("bsp", "async");
    private static final List<String> KNOWN_APPS = List.of("bfs", "pr", "sssp", "jacobi");

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--graphs", paramLabel = "SPEC", split = ",", splitSynopsisLabel = ",", defaultValue = "kron:16,grid:512x512",
        converter = GraphInputOptions.SpecConverter.class,
        description = "generated graphs: kron:SCALE[:EF], urand:SCALE[:EF], grid:WxH (default: ${DEFAULT-VALUE})")
    List<GraphSpec> graphs;

    @Option(names = "--apps", paramLabel = "APP", split = ",", splitSynopsisLabel = ",", defaultValue = "bfs,pr,sssp,jacobi",
        description = "apps: bfs, pr, sssp, jacobi (default: ${DEFAULT-VALUE})")
    List<String> apps;

    @Option(names = "--modes", paramLabel = "MODE", split = ",", splitSynopsisLabel = ",", defaultValue = "bsp,async",
        description = "execution modes of bfs/pr/sssp; one without a provider is skipped with a note "
            + "(default: ${DEFAULT-VALUE})")
    List<String> modes;

    @Mixin
    MeshOptions meshOptions;

    @Option(names = "--warmups", paramLabel = "N", defaultValue = "1", description = "untimed runs before the timed "
        + "ones, per row (default: ${DEFAULT-VALUE})")
    int warmups;

    @Option(names = "--runs", paramLabel = "N", defaultValue = "3", description = "timed runs per row; the table shows "
        + "the median (default: ${DEFAULT-VALUE})")
    int runs;

    @Option(names = "--jacobi-size", paramLabel = "N", defaultValue = "262144", description = "Jacobi unknowns (banded, "
        + "half-band 4) (default: ${DEFAULT-VALUE})")
    int jacobiSize;

    @Option(names = "--seed", paramLabel = "S", defaultValue = "1", description = "seed of the generators, the sources "
        + "and the Jacobi matrix (default: ${DEFAULT-VALUE})")
    long seed;

    @Option(names = {"-q", "--quiet"}, description = "no progress bar on standard error")
    boolean quiet;

    @Option(names = "--json", description = "print one JSON object (settings, graphs, rows, notes) instead of the table")
    boolean json;

    /** Finds the provider of a mode; tests replace it to plug in providers that are not registered. */
    Function<String, GraphAlgorithms> lookup = Algorithms::forMode;

    /** One line of the comparison. */
    static final class Row {
        final String app;
        final String graph;
        final String mode;
        final String threads;
        final boolean onMesh;
        final double[] runMillis;
        final double medianMillis;
        final long edgesTraversed;
        final WorkCounts counts;
        final Verification verification;
        final boolean reference;
        final Map<String, Object> extras = new LinkedHashMap<>();
        double sequentialMillis = Double.NaN;

        Row(final String app, final String graph, final String mode, final String threads, final boolean onMesh,
            final double[] runMillis, final long edgesTraversed, final WorkCounts counts,
            final Verification verification, final boolean reference) {
            this.app = app;
            this.graph = graph;
            this.mode = mode;
            this.threads = threads;
            this.onMesh = onMesh;
            this.runMillis = runMillis;
            this.medianMillis = AppRunner.median(runMillis);
            this.edgesTraversed = edgesTraversed;
            this.counts = counts;
            this.verification = verification;
            this.reference = reference;
        }

        double mteps() {
            return edgesTraversed > 0 && medianMillis > 0 ? edgesTraversed / (medianMillis * 1e3) : Double.NaN;
        }

        double vsSequential() {
            return medianMillis > 0 ? sequentialMillis / medianMillis : Double.NaN;
        }

        String verified() {
            return reference ? "reference" : verification.passed() ? "passed" : "FAILED";
        }

        Map<String, Object> toMap() {
            final Map<String, Object> m = new LinkedHashMap<>();
            m.put("app", app);
            m.put("graph", graph);
            m.put("mode", mode);
            m.put("threads", threads);
            m.put("timeMs", round(medianMillis));
            final List<Double> times = new ArrayList<>();
            for (final double t : runMillis) {
                times.add(round(t));
            }
            m.put("runTimesMs", times);
            if (!Double.isNaN(mteps())) {
                m.put("edgesTraversed", edgesTraversed);
                m.put("mteps", round(mteps()));
            }
            if (!Double.isNaN(sequentialMillis)) {
                m.put("sequentialMs", round(sequentialMillis));
                m.put("vsSequential", round(vsSequential()));
            }
            if (counts != null) {
                m.put("iterations", counts.iterations());
                m.put("visited", counts.visited());
                m.put("ideal", counts.ideal());
                m.put("normalizedWork", round(counts.normalizedWork()));
                m.put("edgesScanned", counts.edgesScanned());
                m.put("localPushes", counts.localPushes());
                m.put("remotePushes", counts.remotePushes());
                m.put("remoteAtomics", counts.remoteAtomics());
                m.put("messages", counts.messages());
                m.put("bytesSent", counts.bytesSent());
            }
            m.putAll(extras);
            m.put("verified", verified());
            m.put("verification", verification.detail());
            return m;
        }
    }

    private static double round(final double x) {
        return Double.isFinite(x) ? Math.round(x * 1000) / 1000.0 : x;
    }

    @Override
    public Integer call() throws IOException {
        final long wallStart = System.nanoTime();
        final CommandLine cl = spec.commandLine();
        meshOptions.validate(cl);
        validate(cl);
        final Set<String> appSet = new LinkedHashSet<>();
        for (final String a : apps) {
            appSet.add(a.trim().toLowerCase(Locale.ROOT));
        }
        final List<GraphApp> graphApps = new ArrayList<>();
        for (final String a : appSet) {
            if (!a.equals("jacobi")) {
                graphApps.add(GraphApp.parse(a));
            }
        }
        final Set<String> notes = new LinkedHashSet<>();
        final Map<String, GraphAlgorithms> providers = new LinkedHashMap<>();
        final Set<String> modeSet = new LinkedHashSet<>();
        for (final String m : modes) {
            modeSet.add(m.trim().toLowerCase(Locale.ROOT));
        }
        for (final String m : modeSet) {
            if (graphApps.isEmpty()) {
                break;
            }
            try {
                providers.put(m, lookup.apply(m));
            } catch (final IllegalArgumentException e) {
                notes.add(m + " mode not available (" + e.getMessage() + "): its rows are skipped");
            }
        }
        final int devices = meshOptions.devices;
        final int threads = meshOptions.threads();
        final AppRunner runner = AppRunner.builder().devices(devices).threadsPerDevice(threads)
            .partitioning(meshOptions.partitioning()).warmups(warmups).runs(runs).build();
        final boolean jacobi = appSet.contains("jacobi");
        final List<GraphSpec> graphRuns = graphApps.isEmpty() ? List.of() : graphs;
        final long steps = (long)graphRuns.size() * (1 + graphApps.size() * (1L + providers.size()))
            + (jacobi ? 7 : 0);
        final List<Row> rows = new ArrayList<>();
        final List<Map<String, Object>> graphInfo = new ArrayList<>();
        try (Progress.Task task = ConsoleProgress.forConsole(quiet).start("overlap demo", steps, "steps", 1)) {
            for (final GraphSpec gs : graphRuns) {
                runGraph(gs, graphApps, providers, runner, rows, graphInfo, notes, task);
            }
            if (jacobi) {
                runJacobi(devices, threads, rows, task);
            }
        }
        final double wallSeconds = (System.nanoTime() - wallStart) / 1e9;
        final List<Row> failed = new ArrayList<>();
        for (final Row r : rows) {
            if (!r.verification.passed()) {
                failed.add(r);
            }
        }
        final PrintWriter out = cl.getOut();
        if (json) {
            final Map<String, Object> m = new LinkedHashMap<>();
            m.put("command", "demo");
            m.put("devices", devices);
            m.put("threadsPerDevice", threads);
            m.put("partition", meshOptions.partition.name());
            m.put("warmups", warmups);
            m.put("runs", runs);
            m.put("graphs", graphInfo);
            final List<Map<String, Object>> list = new ArrayList<>();
            for (final Row r : rows) {
                list.add(r.toMap());
            }
            m.put("rows", list);
            m.put("notes", new ArrayList<>(notes));
            m.put("verified", failed.isEmpty() ? "passed" : "FAILED");
            m.put("wallSeconds", round(wallSeconds));
            out.println(JSON.std.asString(m));
        } else {
            printTable(out, devices, threads, graphInfo, rows, notes, failed.isEmpty(), wallSeconds);
        }
        out.flush();
        for (final Row r : failed) {
            cl.getErr().println("overlap demo: verification FAILED: " + r.app + " " + r.graph + " " + r.mode + ": "
                + r.verification.detail());
        }
        cl.getErr().flush();
        return failed.isEmpty() ? 0 : 1;
    }

    private void validate(final CommandLine cl) {
        for (final String a : apps) {
            if (!KNOWN_APPS.contains(a.trim().toLowerCase(Locale.ROOT))) {
                throw new CommandLine.ParameterException(cl, "--apps: unknown app '" + a + "': expected bfs, pr, sssp "
                    + "or jacobi");
            }
        }
        for (final String m : modes) {
            if (!KNOWN_MODES.contains(m.trim().toLowerCase(Locale.ROOT))) {
                throw new CommandLine.ParameterException(cl, "--modes: unknown mode '" + m + "': expected bsp or async");
            }
        }
        if (warmups < 0 || warmups > 100) {
            throw new CommandLine.ParameterException(cl, "--warmups must be in 0..100, was " + warmups);
        }
        if (runs < 1 || runs > 100) {
            throw new CommandLine.ParameterException(cl, "--runs must be in 1..100, was " + runs);
        }
        if (jacobiSize < meshOptions.devices || jacobiSize > Integer.MAX_VALUE / 16) {
            throw new CommandLine.ParameterException(cl, "--jacobi-size must be in " + meshOptions.devices + ".."
                + Integer.MAX_VALUE / 16 + " (at least one row per device), was " + jacobiSize);
        }
    }

    private void runGraph(final GraphSpec gs, final List<GraphApp> graphApps, final Map<String, GraphAlgorithms> providers,
        final AppRunner runner, final List<Row> rows, final List<Map<String, Object>> graphInfo, final Set<String> notes,
        final Progress.Task task) {
        boolean needWeights = false;
        for (final GraphApp a : graphApps) {
            needWeights |= a.weighted();
        }
        final long genStart = System.nanoTime();
        final CsrGraph weighted = gs.build(seed, needWeights, Progress.none());
        final double genMillis = (System.nanoTime() - genStart) / 1e6;
        task.stepBy(1);
        final CsrGraph plain = weighted.withoutWeights();
        final String name = gs.toString();
        final int source = GraphApp.defaultSource(plain, seed);
        final Map<String, Object> info = new LinkedHashMap<>();
        info.put("name", name);
        info.put("vertices", plain.vertexCount());
        info.put("edges", plain.edgeCount());
        info.put("source", source);
        info.put("weights", needWeights ? "1.." + gs.maxWeight() + " (sssp)" : "none");
        info.put("generateMs", round(genMillis));
        graphInfo.add(info);
        final int meshThreads = runner.devices() * runner.threadsPerDevice();
        for (final GraphApp app : graphApps) {
            final CsrGraph g = app.weighted() ? weighted : plain;
            // the app's own worklist (`--queue auto`): priority for SSSP (delta-stepping), FIFO for BFS and PageRank
            final AppSettings settings = AppSettings.builder().queue(app.autoQueue()).build();
            AppResult seq = null;
            final double[] seqTimes = new double[runs];
            for (int r = -warmups; r < runs; r++) {
                seq = app.sequential(g, source, settings);
                if (r >= 0) {
                    seqTimes[r] = seq.nanos() / 1e6;
                }
            }
            task.stepBy(1);
            final GraphApp.Expected expected = app.expected(g, source, settings, seq);
            final Row ref = new Row(app.id(), name, "java seq", "1", false, seqTimes, app.edgesTraversed(g, seq),
                seq.counts(), Verification.pass("the single-threaded Java CSR reference"), true);
            ref.sequentialMillis = ref.medianMillis;
            rows.add(ref);
            for (final Map.Entry<String, GraphAlgorithms> p : providers.entrySet()) {
                final AppRunner.Measurement m;
                try {
                    m = runner.measure(g, app, p.getValue(), source, settings);
                } catch (final UnsupportedOperationException e) {
                    notes.add(p.getKey() + " " + app.id() + " skipped: the provider does not support it (" + e.getMessage()
                        + ")");
                    task.stepBy(1);
                    continue;
                }
                task.stepBy(1);
                final Row row = new Row(app.id(), name, p.getKey(), Integer.toString(meshThreads), true, m.runMillis(),
                    app.edgesTraversed(g, m.result()), m.result().counts(), expected.check(m.result()), false);
                row.sequentialMillis = ref.medianMillis;
                rows.add(row);
            }
        }
    }

    private void runJacobi(final int devices, final int threads, final List<Row> rows, final Progress.Task task) {
        final BandedSystem system = new BandedSystem(jacobiSize, JACOBI_HALF_BAND, seed);
        final String name = "banded n=" + jacobiSize + " k=" + JACOBI_HALF_BAND;
        SequentialJacobi.Result seq = null;
        final double[] seqTimes = new double[runs];
        for (int r = -warmups; r < runs; r++) {
            seq = SequentialJacobi.solve(system, JACOBI_TOLERANCE, JACOBI_MAX_ITERATIONS);
            if (r >= 0) {
                seqTimes[r] = seq.nanos() / 1e6;
            }
        }
        task.stepBy(1);
        final long nnz = (long)jacobiSize * (2L * JACOBI_HALF_BAND + 1);
        final Row ref = new Row("jacobi", name, "java seq", "1", false, seqTimes, 0,
            new WorkCounts(seq.iterations(), 0, 0, nnz * Math.max(1, seq.iterations()), 0, 0, 0, 0, 0),
            Verification.pass(String.format(Locale.ROOT, "residual %.3g", seq.residual())), true);
        ref.sequentialMillis = ref.medianMillis;
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
                rows.add(jacobiRow(mesh, system, c, "proact " + c, seq, ref.medianMillis, nnz, threads));
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
            final Row row = jacobiRow(mesh, system, choice, "proact profiler: " + choice, seq, ref.medianMillis, nnz,
                threads);
            row.extras.put("profileMs", round(profileMillis));
            rows.add(row);
        }
        task.stepBy(1);
    }

    private Row jacobiRow(final Mesh mesh, final BandedSystem system, final TransferConfig config, final String mode,
        final SequentialJacobi.Result seq, final double seqMillis, final long nnz, final int threads) {
        JacobiSolver.Result r = null;
        final double[] times = new double[runs];
        for (int i = -warmups; i < runs; i++) {
            r = JacobiSolver.solve(mesh, system, config, JACOBI_TOLERANCE, JACOBI_MAX_ITERATIONS);
            if (i >= 0) {
                times[i] = r.nanos() / 1e6;
            }
        }
        final int devices = mesh.deviceCount();
        final String thr = devices * threads + (config.transferThreads() > 0 ? "+" + config.transferThreads() + "t" : "");
        final Row row = new Row("jacobi", "banded n=" + system.size() + " k=" + system.halfBand(), mode, thr, true, times,
            0, new WorkCounts(r.iterations(), 0, 0, nnz * Math.max(1, r.iterations()), 0, 0, 0, r.copiedChunks(),
                r.copiedBytes()), SequentialJacobi.verify(system, r.x(), JACOBI_TOLERANCE, seq), false);
        row.sequentialMillis = seqMillis;
        row.extras.put("transfer", config.toString());
        return row;
    }

    private void printTable(final PrintWriter out, final int devices, final int threads,
        final List<Map<String, Object>> graphInfo, final List<Row> rows, final Set<String> notes, final boolean ok,
        final double wallSeconds) {
        out.printf(Locale.ROOT, "overlap demo: %d devices x %d worker%s (%s partitioning, %d cores), %d warm-up run%s then"
            + " the median of %d%n", devices, threads, threads == 1 ? "" : "s", meshOptions.partition.name(),
            Runtime.getRuntime().availableProcessors(), warmups, warmups == 1 ? "" : "s", runs);
        for (final Map<String, Object> g : graphInfo) {
            out.printf(Locale.ROOT, "  %s: %,d vertices, %,d edges, source %d, weights %s, generated in %.0f ms%n",
                g.get("name"), ((Number)g.get("vertices")).longValue(), ((Number)g.get("edges")).longValue(),
                ((Number)g.get("source")).intValue(), g.get("weights"), ((Number)g.get("generateMs")).doubleValue());
        }
        out.println();
        final TextTable t = new TextTable("<app", "<graph", "<mode", "threads", "time ms", "MTEPS", "vs seq",
            "visited/ideal", "local pushes", "remote pushes", "messages", "<verified");
        for (final Row r : rows) {
            final boolean work = r.counts != null && r.counts.ideal() > 0;
            t.row(r.app, r.graph, r.mode, r.threads, TextTable.fixed(r.medianMillis, r.medianMillis < 10 ? 2 : 1),
                TextTable.fixed(r.mteps(), 1), TextTable.fixed(r.vsSequential(), 2) + "x",
                work ? TextTable.fixed(r.counts.normalizedWork(), 2) : null,
                r.onMesh && work ? TextTable.count(r.counts.localPushes()) : null,
                r.onMesh && work ? TextTable.count(r.counts.remotePushes()) : null,
                r.onMesh ? TextTable.count(r.counts.messages()) : null, r.reference ? "reference" : r.verification.passed()
                    ? "yes" : "NO");
        }
        out.print(t.toText());
        out.println();
        out.println("time: median of the timed runs, algorithm only (not generation or placement); MTEPS: edges out of "
            + "the reached vertices per microsecond; vs seq: single-threaded Java CSR time / this time; messages: "
            + "batched puts to other devices (Jacobi: chunk copies)");
        for (final String n : notes) {
            out.println("note: " + n);
        }
        out.printf(Locale.ROOT, "%s; wall time %.1f s (generation, JIT warm-up and checks included)%n", ok
            ? "every answer verified against the sequential reference" : "VERIFICATION FAILED (see standard error)",
            wallSeconds);
    }
}
