package dev.overlap.bench.graph;

import dev.overlap.graph.ConsoleProgress;
import dev.overlap.graph.Csr;
import dev.overlap.graph.CsrGraph;
import dev.overlap.graph.app.AppResult;
import dev.overlap.graph.app.AppRunner;
import dev.overlap.graph.app.AppSettings;
import dev.overlap.graph.app.GraphAlgorithms;
import dev.overlap.graph.app.GraphApp;
import dev.overlap.graph.app.Warmup;
import dev.overlap.graph.io.EdgeListWriter;
import dev.overlap.graph.partition.DeviceGraph;
import dev.overlap.graph.ref.PowerIteration;
import dev.overlap.graph.ref.Verification;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import java.util.function.ToDoubleFunction;

/**
 * Runs the comparison graph by graph: generates the graph (or loads the file), and when GAP is a peer writes it to
 * the edge-list file both systems then load (checking that it reads back as the same graph); measures the
 * single-threaded Java CSR references first (their answers are what every other row is checked against), then each
 * Overlap mode (in a forked JVM unless told otherwise), then JGraphT on a copy when it fits in the heap, then GAP's
 * kernels on the file. Every implementation gets the same warm-ups and timed runs, and every answer is verified.
 *
 * <p>PageRank is compared at equal accuracy: a converged reference ({@link PageRankReference}) is computed once per
 * graph, the fixed-iteration implementations (Java CSR, BSP, JGraphT) run the fewest power-iteration steps that get
 * within {@code --pr-error} of it (unless {@code --pr-iterations} fixes them), async PageRank (which has no iterations)
 * runs to a tolerance calibrated by untimed runs so that its error is about {@code --pr-error}, GAP to a tolerance
 * chosen likewise ({@link GapMeasurement}), and every PageRank row carries its answer's L1 error against the reference.
 * Rendering is {@link ComparisonReport}'s job. Not thread-safe; one run per instance.
 */
final class ComparisonRun {
    static final String JGRAPHT = "jgrapht 1.5.3";
    static final String JAVA = "java csr";
    /** Calibration runs of async PageRank's tolerance at most, before its warm-ups. */
    static final int CALIBRATION_RUNS = 8;
    /** The implementation name of solo's PageRank with Gauss-Seidel sweeps. */
    static final String SOLO_GS = "solo-gs";
    /** The implementation name of coop's PageRank with Gauss-Seidel sweeps. */
    static final String COOP_GS = "coop-gs";

    /** @return the mode whose provider an implementation runs: {@code coop} for {@value #COOP_GS}, and so on */
    static String providerMode(final String impl) {
        return isGaussSeidel(impl) ? impl.substring(0, impl.length() - "-gs".length()) : impl;
    }

    /** @return whether the implementation is a PageRank with Gauss-Seidel sweeps (it has no BFS or SSSP rows) */
    static boolean isGaussSeidel(final String impl) {
        return SOLO_GS.equals(impl) || COOP_GS.equals(impl);
    }

    /** @return whether an implementation has a row for the app: the Gauss-Seidel ones have PageRank rows only */
    static boolean hasRow(final String impl, final GraphApp app) {
        return !isGaussSeidel(impl) || app == GraphApp.PAGERANK;
    }

    /** @return whether the app runs to a calibrated tolerance in this mode (async and Gauss-Seidel PageRank) */
    static boolean toTolerance(final GraphApp app, final String mode) {
        return app == GraphApp.PAGERANK && ("async".equals(mode) || isGaussSeidel(mode));
    }

    private final long seed;
    private final boolean quiet;
    private final boolean child;
    private final boolean childWeights;
    private final ForkedMeasurement forker;
    private final Warmup warmup;
    private final int runs;
    private final int prIterations;
    private final double prError;
    private final Path prReferenceFile;
    private final GapMeasurement gap;
    private final Path graphDir;
    private final boolean keepGraphFiles;
    private final LongSupplier heapAvailable;
    private final Consumer<String> status;
    private final List<ComparisonRow> rows = new ArrayList<>();
    private final List<ComparisonGraph> graphs = new ArrayList<>();
    private final Set<String> notes;

    /** Where a run's graph files go and what PageRank accuracy it compares at. */
    record GraphFiles(Path graphDir, boolean keep, Path prReference) {
    }

    /**
     * @param child         whether this JVM is a forked measurement (one mode and app; the references run once)
     * @param childWeights  a forked measurement whose parent generated the graphs with weights
     * @param forker        measures each Overlap mode and app in a JVM of its own, or null to measure here
     * @param prIterations  PageRank iterations of the fixed-iteration implementations, or 0 to choose them per graph
     *                      for {@code prError}
     * @param prError       the L1 error every PageRank answer aims for
     * @param gap           GAP's kernels, or null when GAP is not a peer of this run
     * @param files         where the graph files go (used when GAP is a peer), whether they stay, and a child's
     *                      PageRank reference from its parent (or null)
     * @param heapAvailable heap bytes free for the JGraphT copy
     * @param status        where progress lines go
     * @param notes         notes so far (modes without a provider)
     */
    ComparisonRun(final long seed, final boolean quiet, final boolean child, final boolean childWeights,
        final ForkedMeasurement forker, final Warmup warmup, final int runs, final int prIterations,
        final double prError, final GapMeasurement gap, final GraphFiles files, final LongSupplier heapAvailable,
        final Consumer<String> status, final Set<String> notes) {
        this.seed = seed;
        this.quiet = quiet;
        this.child = child;
        this.childWeights = childWeights;
        this.forker = forker;
        this.warmup = warmup;
        this.runs = runs;
        this.prIterations = prIterations;
        this.prError = prError;
        this.prReferenceFile = files.prReference();
        this.gap = gap;
        this.graphDir = files.graphDir();
        this.keepGraphFiles = files.keep();
        this.heapAvailable = heapAvailable;
        this.status = status;
        this.notes = new LinkedHashSet<>(notes);
    }

    /** @return the rows so far, graph by graph, app by app within a graph */
    List<ComparisonRow> rows() {
        return List.copyOf(rows);
    }

    /** @return the graphs so far */
    List<ComparisonGraph> graphs() {
        return List.copyOf(graphs);
    }

    /** @return the notes so far */
    Set<String> notes() {
        return new LinkedHashSet<>(notes);
    }

    /**
     * Measures every app of {@code apps} on one graph with every implementation of {@code impls}.
     *
     * @param providers Overlap's available modes
     * @param runner    the Overlap mesh, warm-ups and runs
     */
    void measureGraph(final ComparisonInput input, final Set<GraphApp> apps, final Set<String> impls,
        final Map<String, GraphAlgorithms> providers, final AppRunner runner) throws IOException {
        if (child) {
            for (final Map.Entry<String, GraphAlgorithms> p : providers.entrySet()) {
                for (final GraphApp app : apps) {
                    measureForked(input, app, p.getKey(), p.getValue(), runner);
                }
            }
            return;
        }
        boolean needWeights = childWeights;
        for (final GraphApp a : apps) {
            needWeights |= a.weighted();
        }
        final long genStart = System.nanoTime();
        final CsrGraph weighted = input.load(seed, needWeights, ConsoleProgress.forConsole(quiet));
        final double genMillis = (System.nanoTime() - genStart) / 1e6;
        final CsrGraph plain = weighted.withoutWeights();
        final String name = input.name();
        final int source = GraphApp.defaultSource(plain, seed);
        // The file both systems load when GAP is a peer: a generated graph is written out and read back here.
        Path shared = null;
        boolean written = false;
        if (gap != null && impls.contains(GapMeasurement.GAP)) {
            if (!input.isFile()) {
                shared = writeShared(input, weighted);
                written = true;
            } else if (input.gapReadable()) {
                shared = input.path();
            } else {
                notes.add("gap skipped on " + name + ": GAP reads .el, .wel, .gr and .mtx files (uncompressed), not "
                    + input.path().getFileName());
            }
        }
        final String childInput = shared != null ? shared.toString() : input.toString();
        graphs.add(new ComparisonGraph(name, plain.vertexCount(), plain.edgeCount(), source, genMillis,
            shared != null ? shared.toString() : input.isFile() ? input.toString() : null, input.family()));
        status.accept(String.format(Locale.ROOT, "%s: %,d vertices, %,d edges, source %d, %s in %.0f ms%s", name,
            plain.vertexCount(), plain.edgeCount(), source, input.isFile() ? "loaded" : "generated", genMillis,
            written ? "; written to " + shared + " for both systems" : ""));
        // PageRank at equal accuracy: the converged reference, and the iterations that reach the target.
        PageRankReference ref = null;
        Path refFile = null;
        int iterations = prIterations;
        if (apps.contains(GraphApp.PAGERANK)) {
            final long t0 = System.nanoTime();
            ref = PageRankReference.compute(plain, PowerIteration.DAMPING);
            if (iterations == 0) {
                iterations = ref.powerIterationsFor(plain, PowerIteration.DAMPING, prError);
            }
            status.accept(String.format(Locale.ROOT, "%s: PageRank reference converged in %d iterations, %.0f ms; "
                + "fixed-iteration runs do %d", name, ref.iterations(), (System.nanoTime() - t0) / 1e6, iterations));
            if (forker != null) {
                refFile = Files.createTempFile(graphDir(), "pr-reference", ".bin");
                ref.write(refFile);
            }
        }
        final AppSettings settings = AppSettings.builder().fixedIterations(Math.max(1, iterations)).build();
        try {
            measureAll(name, weighted, plain, source, apps, impls, providers, runner, settings, ref, refFile,
                childInput, needWeights && shared == null, shared, weighted.isWeighted());
        } finally {
            if (refFile != null) {
                Files.deleteIfExists(refFile);
            }
            if (written && !keepGraphFiles) {
                Files.deleteIfExists(shared);
            }
            if (!keepGraphFiles && (written || refFile != null)) {
                try {
                    Files.deleteIfExists(graphDir);
                } catch (final java.nio.file.DirectoryNotEmptyException e) {
                    // files someone else put there, or kept ones: the directory stays
                }
            }
        }
    }

    private Path graphDir() throws IOException {
        Files.createDirectories(graphDir);
        return graphDir;
    }

    /**
     * Writes a generated graph as the edge list both systems load ({@code .wel} when weighted) and checks that
     * Overlap's reader gives the same graph back.
     */
    private Path writeShared(final ComparisonInput input, final CsrGraph g) throws IOException {
        final Path file = graphDir().resolve(input.name().replace(':', '-') + "-seed" + seed
            + (g.isWeighted() ? ".wel" : ".el"));
        EdgeListWriter.write(g, file, ConsoleProgress.forConsole(quiet));
        final CsrGraph back = ComparisonInput.file(file).load(seed, g.isWeighted(),
            ConsoleProgress.forConsole(quiet));
        if (!back.sameAs(g)) {
            throw new IllegalStateException(file + " does not read back as the generated " + input.name() + " ("
                + back.vertexCount() + " vertices and " + back.edgeCount() + " edges, generated " + g.vertexCount()
                + " and " + g.edgeCount() + ")");
        }
        return file;
    }

    private void measureAll(final String name, final CsrGraph weighted, final CsrGraph plain, final int source,
        final Set<GraphApp> apps, final Set<String> impls, final Map<String, GraphAlgorithms> providers,
        final AppRunner runner, final AppSettings settings, final PageRankReference ref, final Path refFile,
        final String childInput, final boolean childWeighted, final Path shared, final boolean sharedWeighted)
        throws IOException {
        // The sequential runs come first: their answers are the references of every other row.
        final Map<GraphApp, GraphApp.Expected> expected = new LinkedHashMap<>();
        final Map<GraphApp, Double> javaMillis = new LinkedHashMap<>();
        final Map<GraphApp, Long> traversed = new LinkedHashMap<>();
        final int firstRow = rows.size();
        for (final GraphApp app : apps) {
            final CsrGraph g = app.weighted() ? weighted : plain;
            System.gc();
            warmup.perform(() -> app.sequential(g, source, settings));
            AppResult seq = null;
            final double[] times = new double[runs];
            for (int i = 0; i < runs; i++) {
                seq = app.sequential(g, source, settings);
                times[i] = seq.nanos() / 1e6;
            }
            expected.put(app, app.expected(g, source, settings, seq));
            traversed.put(app, app.edgesTraversed(g, seq));
            ComparisonRow row = new ComparisonRow(name, app, JAVA, "1", times, app.edgesTraversed(g, seq),
                Verification.pass("the reference (checked against itself: its answer is the expected one)"));
            if (app == GraphApp.PAGERANK) {
                row = row.withPrError(ref.error(seq.ranks())).withSettings(settings.fixedIterations() + " iterations");
            }
            javaMillis.put(app, row.median());
            if (impls.contains("java")) {
                add(row);
            }
        }
        for (final Map.Entry<String, GraphAlgorithms> p : providers.entrySet()) {
            for (final GraphApp app : apps) {
                if (!hasRow(p.getKey(), app)) {
                    continue; // the same BFS and SSSP as the mode's own rows
                }
                if (forker != null) {
                    final ComparisonRow row = forker.measure(childInput, name, app, p.getKey(), childWeighted,
                        settings.fixedIterations(), refFile, notes);
                    if (row != null) {
                        add(row);
                    }
                    continue;
                }
                measureOverlap(name, app.weighted() ? weighted : plain, source, app, p.getKey(), p.getValue(), runner,
                    expected.get(app), settings, ref);
            }
        }
        if (impls.contains("jgrapht")) {
            measureJGraphT(name, weighted, plain, source, apps, settings, expected, ref);
        }
        if (shared != null) {
            for (final ComparisonRow row : gap.measure(new GapMeasurement.Graph(name, shared, sharedWeighted, weighted,
                source, expected, traversed, ref), apps, notes)) {
                rows.add(row);
            }
        }
        // Measured implementation by implementation (one JGraphT copy at a time); shown app by app.
        final List<ComparisonRow> mine = new ArrayList<>();
        for (final ComparisonRow row : rows.subList(firstRow, rows.size())) {
            mine.add(row.withJavaMillis(javaMillis.get(row.app)));
        }
        mine.sort(Comparator.comparing((ComparisonRow x) -> x.app));
        rows.subList(firstRow, rows.size()).clear();
        rows.addAll(mine);
    }

    private void add(final ComparisonRow row) {
        rows.add(row);
        status.accept(ComparisonReport.statusLine(row));
    }

    private void measureOverlap(final String name, final CsrGraph g, final int source, final GraphApp app,
        final String mode, final GraphAlgorithms provider, final AppRunner runner, final GraphApp.Expected expected,
        final AppSettings fixed, final PageRankReference ref) {
        System.gc();
        final boolean toTolerance = toTolerance(app, mode);
        final AppRunner.Measurement m;
        AppSettings s;
        try {
            // the app's own worklist, as `--queue auto` picks it: priority for SSSP, FIFO for BFS and PageRank
            s = AppSettings.builder().fixedIterations(fixed.fixedIterations()).queue(app.autoQueue()).build();
            if (toTolerance) {
                s = calibratedTolerance(name, app, mode, hostTrials(g, app, provider, runner, ref));
            }
            m = runner.measure(g, app, provider, source, s);
        } catch (final UnsupportedOperationException | IllegalStateException e) {
            skipped(name, app, mode, e);
            return;
        }
        add(overlapRow(name, app, mode, m, s, toTolerance, app.edgesTraversed(g, m.result()), expected, ref));
    }

    /** Notes a row that could not be measured: the provider lacks the app, or the run could not be set up. */
    private void skipped(final String name, final GraphApp app, final String mode, final RuntimeException e) {
        notes.add(e instanceof UnsupportedOperationException
            ? mode + " " + app + " skipped: the provider does not support it (" + e.getMessage() + ")"
            : mode + " " + app + " on " + name + " skipped: " + e.getMessage());
    }

    /** @return the row of an Overlap measurement, its answer verified */
    private static ComparisonRow overlapRow(final String name, final GraphApp app, final String mode,
        final AppRunner.Measurement m, final AppSettings s, final boolean toTolerance, final long traversed,
        final GraphApp.Expected expected, final PageRankReference ref) {
        ComparisonRow row = new ComparisonRow(name, app, "overlap " + mode, m.devices() + "x" + m.threadsPerDevice(),
            m.runMillis(), traversed, toTolerance
            ? Verification.ranks(ref.ranks(), m.result().ranks(), s.tolerance() + PageRankReference.TOLERANCE)
            : expected.check(m.result()));
        if (app == GraphApp.PAGERANK) {
            row = row.withPrError(ref.error(m.result().ranks())).withSettings(!toTolerance
                ? s.fixedIterations() + " iterations" : isGaussSeidel(mode)
                ? String.format(Locale.ROOT, "tolerance %.3g: %d sweeps", s.tolerance(),
                    m.result().counts().iterations())
                : String.format(Locale.ROOT, "tolerance %.3g", s.tolerance()));
        }
        return row;
    }

    /**
     * A forked measurement of one mode on one app, shaped like {@code overlap bfs|pr|sssp} so that its peak RSS is a
     * user's run's: the graph is loaded with weights only when the app reads them; a one-device mode's graph loads
     * straight into its device's memory ({@link AppRunner#loading}), where the reference answer reads it and, for a
     * PageRank to a calibrated tolerance, the calibration's trials run on it (so the measured process holds the graph
     * once, as {@code overlap pr --tolerance} does); otherwise the sequential reference answer is computed by the host
     * graph's last reader, and the runner drops the graph once it is placed ({@link dev.overlap.graph.app.HostGraph});
     * nothing here keeps a reference to it. The edges traversed come from the reference answer (a verified answer
     * reaches the same vertices).
     */
    private void measureForked(final ComparisonInput input, final GraphApp app, final String mode,
        final GraphAlgorithms provider, final AppRunner runner) throws IOException {
        if (!hasRow(mode, app)) {
            return;
        }
        final String name = input.name();
        final boolean toTolerance = toTolerance(app, mode);
        final ForkedAnswers answers = new ForkedAnswers();
        final ForkedInput in;
        final AppRunner.Measurement m;
        try {
            if (provider.singleWorker() || provider.oneDevice()) {
                final ForkedInput loaded = loadedInput(input, app, provider, runner, answers);
                if (toTolerance) { // the calibration's trials run on the loaded graph: it exists once, in the device
                    final AppSettings[] chosen = new AppSettings[1];
                    m = runner.measure(loaded.loaded, app, provider, loaded.source, trial -> chosen[0] =
                        calibratedTolerance(name, app, mode, t -> loaded.ref.error(trial.apply(t).ranks())));
                    in = new ForkedInput(null, null, loaded.source, chosen[0], loaded.ref);
                } else {
                    in = loaded;
                    m = runner.measure(in.loaded, app, provider, in.source, in.settings);
                }
            } else {
                in = forkedInput(input, app, mode, provider, runner, toTolerance, answers);
                m = runner.measure(in.host, app, provider, in.source, in.settings);
            }
        } catch (final UnsupportedOperationException | IllegalStateException e) {
            answers.discard();
            skipped(name, app, mode, e);
            return;
        }
        add(overlapRow(name, app, mode, m, in.settings, toTolerance, answers.traversed, answers.expected.expected(),
            in.ref));
    }

    /**
     * What a forked measurement's graph leaves behind besides itself: its reference answer (in a file until the runs
     * are over) and its edges.
     */
    private static final class ForkedAnswers {
        SpilledAnswer expected;
        long traversed;

        void discard() {
            if (expected != null) {
                expected.discard();
            }
        }
    }

    /**
     * A forked measurement's graph, held by its {@link dev.overlap.graph.app.HostGraph} alone or loaded into the
     * runner's mesh (one of the two), and its settings.
     */
    private record ForkedInput(dev.overlap.graph.app.HostGraph host, DeviceGraph loaded, int source,
        AppSettings settings, PageRankReference ref) {
    }

    /**
     * Loads the graph of a forked measurement into the runner's mesh for {@code provider} and computes the reference
     * answer into {@code answers} from that copy; closes it if anything fails before the runner takes it.
     */
    private ForkedInput loadedInput(final ComparisonInput input, final GraphApp app, final GraphAlgorithms provider,
        final AppRunner runner, final ForkedAnswers answers) throws IOException {
        final DeviceGraph dg = input.load(seed, app.weighted(), ConsoleProgress.forConsole(quiet),
            runner.loading(app, provider));
        boolean handed = false;
        try {
            final Csr g = dg.csr();
            final int source = GraphApp.defaultSource(g, seed);
            final AppSettings fixed = AppSettings.builder().fixedIterations(Math.max(1, prIterations))
                .queue(app.autoQueue()).build();
            PageRankReference ref = null;
            if (app == GraphApp.PAGERANK) {
                ref = prReferenceFile != null ? PageRankReference.read(prReferenceFile, g)
                    : PageRankReference.compute(g, PowerIteration.DAMPING);
            }
            final AppResult seq = app.sequential(g, source, fixed);
            answers.traversed = app.edgesTraversed(g, seq);
            answers.expected = SpilledAnswer.of(app, source, fixed, seq, graphDir());
            handed = true;
            return new ForkedInput(null, dg, source, fixed, ref);
        } finally {
            if (!handed) {
                dg.closeWithMesh();
            }
        }
    }

    /**
     * Loads the graph of a forked measurement and hands it to a host graph whose last reader computes the
     * reference answer into {@code answers}; calibrates a to-tolerance PageRank on it first. The graph is a local of
     * this frame only, so once it returns the host graph holds the only reference.
     */
    private ForkedInput forkedInput(final ComparisonInput input, final GraphApp app, final String mode,
        final GraphAlgorithms provider, final AppRunner runner, final boolean toTolerance,
        final ForkedAnswers answers) throws IOException {
        CsrGraph g = input.load(seed, app.weighted() || childWeights, ConsoleProgress.forConsole(quiet));
        if (!app.weighted() && g.isWeighted()) {
            g = g.withoutWeights();
        }
        final int source = GraphApp.defaultSource(g, seed);
        AppSettings s = AppSettings.builder().fixedIterations(Math.max(1, prIterations)).queue(app.autoQueue())
            .build();
        PageRankReference ref = null;
        if (app == GraphApp.PAGERANK) {
            ref = prReferenceFile != null ? PageRankReference.read(prReferenceFile, g)
                : PageRankReference.compute(g, PowerIteration.DAMPING);
            if (toTolerance) {
                s = calibratedTolerance(input.name(), app, mode, hostTrials(g, app, provider, runner, ref));
            }
        }
        // the reference runs the fixed iterations (a to-tolerance row is verified against the converged ranks)
        final AppSettings fixed = AppSettings.builder().fixedIterations(Math.max(1, prIterations)).build();
        return new ForkedInput(dev.overlap.graph.app.HostGraph.of(g, h -> {
            final AppResult seq = app.sequential(h, source, fixed);
            answers.traversed = app.edgesTraversed(h, seq);
            try {
                answers.expected = SpilledAnswer.of(app, source, fixed, seq, graphDir());
            } catch (final IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }), null, source, s, ref);
    }

    /**
     * @return the L1 error of one untimed run with the settings it is given, on a host graph the caller keeps (placed
     *         on a mesh of its own each time): the calibration's trials of a mode that cannot run on a loaded graph
     */
    private static ToDoubleFunction<AppSettings> hostTrials(final CsrGraph g, final GraphApp app,
        final GraphAlgorithms provider, final AppRunner runner, final PageRankReference ref) {
        final AppRunner once = AppRunner.builder().devices(runner.devices()).threadsPerDevice(
            runner.threadsPerDevice()).warmups(0).runs(1).build();
        return t -> ref.error(once.measure(g, app, provider, 0, t).result().ranks());
    }

    /**
     * Async PageRank has no iterations (Atos: push residuals until every one is below a threshold); its tolerance is
     * an upper bound on the error, often well above the error it gets. Untimed runs look for the largest tolerance
     * whose error stays within {@code prError}: starting at {@code prError}, the tolerance grows by the error's
     * shortfall (at most 10x) until a run's error exceeds {@code prError}, then the search bisects (geometrically)
     * between the largest tolerance within and the smallest beyond; it stops once an error is at least half of
     * {@code prError} or after {@value #CALIBRATION_RUNS} runs, and keeps the largest tolerance that was within. Async
     * then does the work of that accuracy and no more. The runs are not timed (extra warm-ups, in effect).
     */
    private AppSettings calibratedTolerance(final String name, final GraphApp app, final String mode,
        final ToDoubleFunction<AppSettings> errorOf) {
        final AppSettings.PageRankSweep sweep = isGaussSeidel(mode) ? AppSettings.PageRankSweep.GAUSS_SEIDEL
            : AppSettings.PageRankSweep.JACOBI;
        double good = 0;
        double goodError = Double.NaN;
        double bad = Double.POSITIVE_INFINITY;
        double tolerance = prError;
        for (int i = 0; i < CALIBRATION_RUNS; i++) {
            final AppSettings s = AppSettings.builder().tolerance(tolerance).queue(app.autoQueue())
                .pageRankSweep(sweep).build();
            final double error = errorOf.applyAsDouble(s);
            if (error > prError) {
                bad = tolerance;
            } else {
                good = tolerance;
                goodError = error;
                if (error >= prError / 2 || error == 0) {
                    break;
                }
            }
            tolerance = good == 0 ? tolerance / 10 : bad == Double.POSITIVE_INFINITY
                ? good * Math.min(10, 0.8 * prError / goodError) : Math.sqrt(good * bad);
        }
        final double chosen = good > 0 ? good : tolerance;
        final String which = "async".equals(mode) ? "async pr has no iterations: it"
            : mode + " pr (Gauss-Seidel sweeps, whose answer depends on the workers' interleaving)";
        notes.add(String.format(Locale.ROOT, "%s runs to an L1 tolerance calibrated by up to %d untimed runs so that "
            + "its error is close to --pr-error %.3g (the tolerance is a bound, usually well above the error it gets), "
            + "and is verified against the converged reference to that tolerance", which, CALIBRATION_RUNS, prError));
        status.accept(String.format(Locale.ROOT, "%s: %s pr tolerance %.3g (calibration error %.3g)", name, mode,
            chosen, goodError));
        return AppSettings.builder().tolerance(chosen).queue(app.autoQueue()).pageRankSweep(sweep).build();
    }

    private void measureJGraphT(final String name, final CsrGraph weighted, final CsrGraph plain, final int source,
        final Set<GraphApp> apps, final AppSettings settings, final Map<GraphApp, GraphApp.Expected> expected,
        final PageRankReference ref) {
        System.gc();
        final long need = JGraphTPeer.estimateBytes(weighted);
        final long free = heapAvailable.getAsLong();
        if (need > free) {
            notes.add(String.format(Locale.ROOT, "%s skipped on %s: needs about %,d MiB of heap, %,d MiB free (raise "
                + "-Xmx, e.g. OVERLAP_JAVA_OPTS=-Xmx16g)", JGRAPHT, name, need >> 20, free >> 20));
            return;
        }
        final JGraphTPeer peer;
        try {
            final long buildStart = System.nanoTime();
            peer = JGraphTPeer.copyOf(weighted);
            status.accept(String.format(Locale.ROOT, "%s: %s copy built in %.0f ms", name, JGRAPHT,
                (System.nanoTime() - buildStart) / 1e6));
        } catch (final OutOfMemoryError e) {
            notes.add(JGRAPHT + " skipped on " + name + ": the heap ran out while copying the graph (raise -Xmx)");
            return;
        }
        try {
            for (final GraphApp app : apps) {
                final CsrGraph g = app.weighted() ? weighted : plain;
                final GraphApp.Expected ex = expected.get(app);
                System.gc();
                final double[] times = new double[runs];
                Verification v = null;
                long traversed = 0;
                double error = Double.NaN;
                warmup.perform(() -> untimed(peer, app, source, settings));
                for (int i = 0; i < runs; i++) {
                    final long t0 = System.nanoTime();
                    switch (app) {
                        case BFS: {
                            final JGraphTPeer.Bfs b = peer.bfs(source);
                            final long t1 = System.nanoTime();
                            if (i == runs - 1) {
                                final int[] depths = b.depths(ex.depths());
                                v = b.reached() != ex.reached() ? Verification.fail("JGraphT reached " + b.reached()
                                    + " vertices, sequential BFS " + ex.reached()) : Verification.depths(ex.depths(),
                                    depths);
                                traversed = app.edgesTraversed(g, AppResult.bfs(depths, 0, null));
                            }
                            record(times, i, t0, t1);
                            break;
                        }
                        case SSSP: {
                            final var paths = peer.dijkstra(source);
                            final long t1 = System.nanoTime();
                            if (i == runs - 1) {
                                final long[] d = peer.distances(paths);
                                v = Verification.distances(ex.distances(), d);
                                traversed = app.edgesTraversed(g, AppResult.sssp(d, 0, null));
                            }
                            record(times, i, t0, t1);
                            break;
                        }
                        default: {
                            final double[] ranks = peer.pageRank(settings.damping(), settings.fixedIterations());
                            final long t1 = System.nanoTime();
                            if (i == runs - 1) {
                                v = ex.check(AppResult.pageRank(ranks, 0, null));
                                error = ref.error(ranks);
                            }
                            record(times, i, t0, t1);
                            break;
                        }
                    }
                }
                final ComparisonRow row = new ComparisonRow(name, app, JGRAPHT, "1", times, traversed, v);
                add(app == GraphApp.PAGERANK ? row.withPrError(error).withSettings(settings.fixedIterations()
                    + " iterations") : row);
            }
        } catch (final OutOfMemoryError e) {
            notes.add(JGRAPHT + " on " + name + " stopped: the heap ran out during a run (raise -Xmx)");
        }
    }

    private static void record(final double[] times, final int i, final long t0, final long t1) {
        times[i] = (t1 - t0) / 1e6;
    }

    /** One untimed JGraphT run of {@code app}, for the warm-up. */
    private static void untimed(final JGraphTPeer peer, final GraphApp app, final int source,
        final AppSettings settings) {
        switch (app) {
            case BFS:
                peer.bfs(source);
                break;
            case SSSP:
                peer.dijkstra(source);
                break;
            default:
                peer.pageRank(settings.damping(), settings.fixedIterations());
                break;
        }
    }
}
