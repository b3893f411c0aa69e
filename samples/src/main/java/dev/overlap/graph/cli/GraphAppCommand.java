package dev.overlap.graph.cli;

import dev.overlap.core.IdleStrategies;
import dev.overlap.core.counters.CountersFile;
import dev.overlap.graph.ConsoleProgress;
import dev.overlap.graph.Csr;
import dev.overlap.graph.CsrGraph;
import dev.overlap.graph.GraphSummary;
import dev.overlap.graph.answer.Answer;
import dev.overlap.graph.app.AppResult;
import dev.overlap.graph.app.AppRunner;
import dev.overlap.graph.app.AppSettings;
import dev.overlap.graph.app.Algorithms;
import dev.overlap.graph.app.AutoMode;
import dev.overlap.graph.app.GraphAlgorithms;
import dev.overlap.graph.app.GraphApp;
import dev.overlap.graph.app.HostGraph;
import dev.overlap.graph.app.Warmup;
import dev.overlap.graph.io.GraphFormatException;
import dev.overlap.graph.partition.DeviceGraph;
import dev.overlap.graph.ref.Verification;
import dev.overlap.graph.report.RunReport;
import dev.overlap.graph.solo.CoopAlgorithms;
import dev.overlap.graph.solo.SoloAlgorithms;
import picocli.CommandLine;
import picocli.CommandLine.Mixin;

import java.io.IOException;
import java.util.concurrent.Callable;
import java.util.function.BooleanSupplier;

/**
 * The shared flow of {@code overlap bfs|pr|sssp}: validate, open the {@code --output} file, load or generate the
 * graph, choose the mode ({@code --mode auto}, the default: {@link AutoMode}, announced in one line), hand the graph
 * to the {@link AppRunner} (which computes the sequential reference from it, partitions it, sizes and builds the mesh,
 * places the graph and drops the host copy: the command keeps no reference to it, so one copy of the graph lives
 * during the runs), run the app in that mode ({@code --warmups} untimed runs, then {@code --runs} timed ones), verify
 * the last answer against the reference, write the answer, print the report (the median time, and the fastest and
 * slowest run). Exit codes: 0 verified (or not checked), 1 verification failed or a runtime problem (bad file: file:line: reason; the answer is written all the
 * same), 2 wrong arguments (one line with the reason and a hint, {@link UsageErrors}).
 *
 * <p><b>Across processes</b> (started by {@code overlap launch}, {@link LaunchedWorld}): every rank loads or
 * generates the same graph and runs the app on its own devices of the mesh that spans them ({@code --devices} is the
 * total); rank 0 alone verifies the whole answer (its reference computed once the graph is placed, so that the others
 * do not wait at the mesh's join), writes {@code --output} and prints the report, every other rank one status line. A rank that fails ends every other's run with one line naming it (exit 1).
 */
abstract class GraphAppCommand implements Callable<Integer>, RunsAcrossProcesses {
    /** The {@code --mode} values, as the usage error lists them. */
    static final java.util.List<String> MODES = java.util.List.of("async", "bsp", SoloAlgorithms.MODE,
        CoopAlgorithms.MODE, AutoMode.MODE);

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Mixin
    GraphInputOptions input;

    @Mixin
    MeshOptions meshOptions;

    @Mixin
    ModeOptions modeOptions;

    @Mixin
    OutputOptions output;

    @Mixin
    AnswerOptions answers;

    @CommandLine.Option(names = "--source", paramLabel = "V", description = "source vertex (default: a random vertex "
        + "with edges, chosen by --seed)")
    Integer source;

    @CommandLine.Option(names = "--warmups", paramLabel = "N", defaultValue = "1", description = "untimed runs on the "
        + "placed graph before the timed ones, so the time is the steady state and not JIT compilation (default: "
        + "${DEFAULT-VALUE})")
    int warmups;

    @CommandLine.Option(names = "--warmup-ms", paramLabel = "MS", defaultValue = "0", description = "keep warming up "
        + "past --warmups until the untimed runs have lasted this long: runs of a few milliseconds can end before the "
        + "JIT has compiled their loops; one process only (default: ${DEFAULT-VALUE})")
    long warmupMillis;

    @CommandLine.Option(names = "--runs", paramLabel = "N", defaultValue = "1", description = "timed runs on the placed "
        + "graph; the report gives their median (timeMs), the fastest and slowest and every run's time, and verifies "
        + "the last (default: ${DEFAULT-VALUE})")
    int runs;

    @CommandLine.Option(names = "--counters-dir", paramLabel = "DIR", description = "publish the counters of the "
        + "transport and the worklist to this process's counters file in DIR (overlap-<pid>.counters, deleted at the "
        + "end), where 'overlap stat --counters-dir DIR' reads them while the app runs; 'default' is "
        + "/dev/shm/overlap-<user> (or the temp directory)")
    String countersDir;

    @CommandLine.Option(names = "--until-stdin-closes", description = "end the timed runs early, after the run in "
        + "progress, once standard input is closed (e.g. run with --runs 1000 and watch with overlap stat, then close "
        + "the input); the report covers the runs done")
    boolean untilStdinCloses;

    @CommandLine.Option(names = "--idle-strategy", paramLabel = "NAME", description = "the workers' idle strategy, "
        + "named as Aeron names them: an Agrona alias (spin, noop, yield, sleep-ns, sleep-ms, backoff) or the fully "
        + "qualified name of an IdleStrategy class with a public no-argument constructor (default: backoff tuned to "
        + "the cores)")
    String idleStrategy;

    /** @return the app */
    abstract GraphApp app();

    /** Adds app-specific settings; throws ParameterException for bad values. */
    void configure(final AppSettings.Builder settings) {
    }

    /** Adds app-specific report fields. */
    void extras(final RunReport.Builder report, final AppResult result) {
    }

    /**
     * Adds the app's own choices of the run (what an {@code auto} setting took on this graph, and why), beside
     * {@code modeChoice}.
     *
     * @param graph    the graph the runs were on
     * @param mode     the mode that ran ({@code --mode auto} resolved)
     * @param settings the runs' settings
     */
    void choices(final RunReport.Builder report, final GraphSummary graph, final String mode,
        final AppSettings settings) {
    }

    /**
     * @param result the last run's result
     * @param source the source vertex (ignored by PageRank)
     * @return the answer {@code --output} writes
     */
    abstract Answer answer(AppResult result, int source);

    @Override
    public Integer call() throws IOException {
        final CommandLine cl = spec.commandLine();
        final GraphApp app = app();
        final LaunchedWorld world = LaunchedWorld.current();
        final AppSettings settings = validate(cl);
        if (world != null) {
            checkAcrossProcesses(cl, world.ranks());
        }
        final boolean lead = world == null || world.rank() == 0;
        // rank 0 alone writes the answer
        return leadWritesAnswer(cl, lead, d -> run(cl, app, settings, d, world));
    }

    /** @return {@code --mode}, lower case: auto when not given */
    private String mode(final CommandLine cl) {
        return modeOptions.mode(cl, AutoMode.MODE, MODES);
    }

    /**
     * Checks the arguments (ranges, the mode and its knobs, the app's own options).
     *
     * @return the run's settings
     * @throws CommandLine.ParameterException naming a wrong argument
     */
    AppSettings validate(final CommandLine cl) {
        meshOptions.validate(cl);
        if (runs < 1 || runs > 1000) {
            throw new CommandLine.ParameterException(cl, "--runs must be in 1..1000, was " + runs);
        }
        if (warmups < 0 || warmups > 100) {
            throw new CommandLine.ParameterException(cl, "--warmups must be in 0..100, was " + warmups);
        }
        if (warmupMillis < 0 || warmupMillis > 60_000) {
            throw new CommandLine.ParameterException(cl, "--warmup-ms must be in 0..60000, was " + warmupMillis);
        }
        final String mode = mode(cl);
        final AppSettings.Builder sb = modeOptions.settings(cl, app().autoQueue());
        configure(sb);
        if (!mode.equals(AutoMode.MODE)) {
            try {
                Algorithms.forMode(mode);
            } catch (final IllegalArgumentException e) {
                throw new CommandLine.ParameterException(cl, e.getMessage());
            }
        }
        return sb.build();
    }

    @Override
    public void checkAcrossProcesses(final CommandLine cl, final int ranks) {
        validate(cl);
        if (mode(cl).equals(SoloAlgorithms.MODE) || mode(cl).equals(CoopAlgorithms.MODE)) {
            throw new CommandLine.ParameterException(cl, "--mode " + mode(cl) + " runs on one device in one process, "
                + "not across processes");
        }
        meshOptions.checkAcrossProcesses(cl, ranks);
    }

    /**
     * The provider that runs: the one {@code --mode} names, or for {@code auto} the one {@link AutoMode} chooses for
     * this graph and mesh (across processes the multi-device one: solo and coop run in one), announced in one line
     * on standard error unless {@code --quiet}; then a note for each async knob given to a mode that ignores it, and
     * for each mesh option given to the single-worker mode.
     *
     * @return the provider, and the auto line (null when the mode was given)
     */
    private Resolved resolve(final CommandLine cl, final GraphApp app, final Csr g, final LaunchedWorld world,
        final boolean lead) {
        final String mode = mode(cl);
        AutoMode.Choice choice = null;
        if (mode.equals(AutoMode.MODE)) {
            choice = world != null ? AutoMode.acrossProcesses(app)
                : AutoMode.choose(app, g.vertexCount(), g.edgeCount(), meshOptions.devices * meshOptions.threads());
            say(cl, lead, "overlap " + app + ": " + choice.line());
        }
        final GraphAlgorithms algorithms = Algorithms.forMode(choice != null ? choice.mode() : mode);
        if (!algorithms.mode().equals("async")) {
            // --delta is not among them: every mode's SSSP is delta-stepping
            for (final String async : new String[] {"--queue", "--kernel", "--batch-bytes", "--wait", "--fetch"}) {
                if (cl.getParseResult().hasMatchedOption(async)) {
                    say(cl, lead, "overlap " + app + ": note: " + async + " applies to --mode async; " + (algorithms
                        .mode().equals("bsp") ? "the bsp baseline" : "--mode " + algorithms.mode()) + " ignores it");
                }
            }
        }
        if (algorithms.singleWorker()) {
            for (final String mesh : new String[] {"--devices", "--threads-per-device"}) {
                if (cl.getParseResult().hasMatchedOption(mesh)) {
                    say(cl, lead, "overlap " + app + ": note: " + mesh + " does not apply to --mode "
                        + algorithms.mode() + ", which runs one thread over one device's memory");
                }
            }
        }
        return new Resolved(algorithms, choice);
    }

    private void say(final CommandLine cl, final boolean lead, final String line) {
        if (lead && !output.quiet) {
            cl.getErr().println(line);
            cl.getErr().flush();
        }
    }

    /** The provider that runs and, under {@code --mode auto}, the choice that picked it (else null). */
    private record Resolved(GraphAlgorithms algorithms, AutoMode.Choice choice) {
    }

    private int run(final CommandLine cl, final GraphApp app, final AppSettings settings,
        final AnswerDestination destination, final LaunchedWorld world) throws IOException {
        final boolean lead = world == null || world.rank() == 0;
        final Reference reference = new Reference();
        final AppRunner.Builder rb0 = AppRunner.builder().devices(meshOptions.devices)
            .threadsPerDevice(meshOptions.threads()).partitioning(meshOptions.partitioning()).warmups(warmups)
            .warmupMillis(warmupMillis).runs(runs);
        if (world != null) {
            refuseWarmupTime(cl);
            rb0.world(world.config("overlap " + app, cl.getErr(), Runtime.getRuntime()::halt));
        }
        if (countersDir != null) {
            rb0.countersDirectory(countersDirectory(countersDir));
        }
        if (idleStrategy != null) {
            try {
                rb0.idleStrategy(IdleStrategies.parse(idleStrategy));
            } catch (final IllegalArgumentException e) {
                throw new CommandLine.ParameterException(cl, "--idle-strategy: " + e.getMessage());
            }
        }
        final BooleanSupplier stop = stopRuns(lead);
        if (stop != null) {
            rb0.stopRunsWhen(stop);
        }
        final AppRunner runner = rb0.build();
        // the loaded graph is referenced by the input alone: the runner drops a host graph once placed, and closes a
        // graph loaded into its mesh once measured
        final Input in = input(cl, app, settings, world, lead, reference, runner);
        final GraphAlgorithms algorithms = in.resolved().algorithms();
        final AppRunner.Measurement m = in.loaded() != null
            ? runner.measure(in.loaded(), app, algorithms, in.source(), settings)
            : runner.measure(in.host(), app, algorithms, in.source(), settings);
        if (!lead) {
            if (!output.quiet) {
                cl.getErr().println("overlap " + app + ": " + MeshOptions.describeRank(world, meshOptions.devices)
                    + " done");
                cl.getErr().flush();
            }
            return 0;
        }
        final AppResult result = m.result();
        final double[] times = m.runMillis();
        final GraphSummary g = m.graph();
        final Verification v = output.noVerify ? Verification.skipped() : reference.expected.check(result);
        final RunReport.Builder rb = RunReport.builder().app(app.id()).mode(algorithms.mode())
            .graph(in.name(), g.vertexCount(), g.edgeCount())
            .mesh(m.devices(), m.threadsPerDevice(), meshOptions.partition.name())
            .times(in.loadMillis(), m.placeMillis(), m.medianMillis())
            .edgesTraversed(app.edgesTraversed(g, result)).counts(result.counts()).verification(v);
        if (world != null) {
            rb.extra("processes", world.ranks());
        }
        if (in.resolved().choice() != null) {
            rb.extra("modeChoice", in.resolved().choice().line());
        }
        choices(rb, g, algorithms.mode(), settings);
        if (app.hasSource()) {
            rb.extra("source", in.source());
        }
        if (!output.noVerify) {
            rb.extra("referenceMs", Math.round(reference.millis * 1000) / 1000.0);
        }
        rb.extra("warmups", warmups);
        if (warmupMillis > 0) {
            rb.extra("warmupMs", warmupMillis);
        }
        runTimes(rb, runs, times, m.bestMillis(), m.worstMillis());
        extras(rb, result);
        return report(cl, rb, destination, answer(result, in.source()), v, "overlap " + app);
    }

    /**
     * Loads or generates the graph, chooses the source and the mode, and hands the graph over: the returned input
     * holds it in its {@link HostGraph} only, whose last reader computes the reference answer into {@code reference}
     * (on the lead rank, unless {@code --no-verify}) once the graph is placed; or, for a one-device mode in one
     * process ({@link #loadsIntoDevice}), builds it straight into the memory of the runner's mesh, where the source,
     * the mode and the reference read it, so that the graph never exists twice. Nothing of this method's frame
     * outlives it, so a host graph is unreachable once the runner drops it.
     */
    private Input input(final CommandLine cl, final GraphApp app, final AppSettings settings,
        final LaunchedWorld world, final boolean lead, final Reference reference, final AppRunner runner)
        throws IOException {
        if (loadsIntoDevice(cl, app, world)) {
            return loadIntoDevice(cl, app, settings, reference, runner);
        }
        final GraphInputOptions.Loaded loaded = loadGraph(lead);
        final CsrGraph g = loaded.graph;
        final int src = app.hasSource() ? chooseSource(g, cl) : 0;
        final Resolved resolved = resolve(cl, app, g, world, lead);
        final HostGraph host = lead && !output.noVerify ? HostGraph.of(g, h -> reference.compute(app, h, src, settings))
            : HostGraph.of(g);
        return new Input(host, null, loaded.name, loaded.millis, src, resolved);
    }

    /**
     * Whether the graph loads straight into a device's memory: in one process, for the one-device modes ({@code solo},
     * {@code coop}, and {@code auto}, which picks one of them), with the default range partition (a renumbering
     * partition needs the whole graph first), and for PageRank only on a graph known to be symmetric (the one-device
     * modes pull along in-edges: a directed graph's reverse is built from a host copy).
     */
    private boolean loadsIntoDevice(final CommandLine cl, final GraphApp app, final LaunchedWorld world) {
        final String mode = mode(cl);
        return world == null && (mode.equals(AutoMode.MODE) || candidates(mode)[0].singleWorker()
            || candidates(mode)[0].oneDevice()) && meshOptions.partitioning() == AppRunner.Partitioning.RANGE
            && (app != GraphApp.PAGERANK || input.symmetric());
    }

    /** @return the models a mode's loaded graph is sized for: auto's two, or the mode's own */
    private static GraphAlgorithms[] candidates(final String mode) {
        return mode.equals(AutoMode.MODE) ? new GraphAlgorithms[] {Algorithms.forMode("solo"), Algorithms.forMode(
            "coop")} : new GraphAlgorithms[] {Algorithms.forMode(mode)};
    }

    /** {@link #input} for a graph built in the runner's mesh: closed here if anything fails before the runs. */
    private Input loadIntoDevice(final CommandLine cl, final GraphApp app, final AppSettings settings,
        final Reference reference, final AppRunner runner) throws IOException {
        final GraphInputOptions.Into<DeviceGraph> loaded = input.load(app.weighted(),
            ConsoleProgress.forConsole(output.quiet), runner.loading(app, candidates(mode(cl))));
        final DeviceGraph dg = loaded.graph();
        boolean handed = false;
        try {
            if (dg.summary().vertexCount() == 0) {
                throw new GraphFormatException(loaded.name(), 0, "no vertices: the file holds no edges");
            }
            final Csr g = dg.csr();
            final int src = app.hasSource() ? chooseSource(g, cl) : 0;
            final Resolved resolved = resolve(cl, app, g, null, true);
            if (!output.noVerify) {
                reference.compute(app, g, src, settings);
            }
            handed = true;
            return new Input(null, dg, loaded.name(), loaded.millis(), src, resolved);
        } finally {
            if (!handed) {
                dg.closeWithMesh();
            }
        }
    }

    /**
     * @return what ends the timed runs early, asked after each but the last ({@code --until-stdin-closes} on the lead
     *         rank, which has the launcher's input: its stop ends every rank's runs), or null to run them all
     */
    BooleanSupplier stopRuns(final boolean lead) {
        return untilStdinCloses && lead ? StdinWatch.start() : null;
    }

    /**
     * The graph handed to the runner (a host graph to place, or one loaded into the runner's mesh: one of the two),
     * what the report says of its loading, the source and the mode.
     */
    private record Input(HostGraph host, DeviceGraph loaded, String name, double loadMillis, int source,
        Resolved resolved) {
    }

    /**
     * The reference answer, computed from the host graph before the runner drops it (or from the graph loaded into the
     * device's memory), and its time.
     */
    private static final class Reference {
        GraphApp.Expected expected;
        double millis;

        void compute(final GraphApp app, final Csr g, final int source, final AppSettings settings) {
            final long start = System.nanoTime();
            expected = app.expected(g, source, settings, null);
            millis = (System.nanoTime() - start) / 1e6;
        }
    }

    /** A rank's run, given where the answer goes (null: this rank writes none). */
    interface RankRun {
        /** @return the exit code */
        int run(AnswerDestination destination) throws IOException;
    }

    /** @return the graph of the input options (with weights if the app needs them), progress shown on the lead */
    GraphInputOptions.Loaded loadGraph(final boolean lead) throws IOException {
        return input.load(app().weighted(), ConsoleProgress.forConsole(output.quiet || !lead));
    }

    /**
     * Runs {@code run}; the lead rank opens the {@code --output} destination for it (and closes it after).
     *
     * @return the run's exit code
     */
    int leadWritesAnswer(final CommandLine cl, final boolean lead, final RankRun run) throws IOException {
        if (!lead) {
            return run.run(null);
        }
        try (AnswerDestination destination = answers.open(cl, input.file())) {
            return run.run(destination);
        }
    }

    /**
     * Refuses {@code --warmup-ms} for a run across processes: a time floor ends after different runs on different
     * ranks, whose runs meet at barriers.
     *
     * @throws CommandLine.ParameterException when {@code --warmup-ms} was given
     */
    void refuseWarmupTime(final CommandLine cl) {
        if (warmupMillis > 0) {
            throw new CommandLine.ParameterException(cl, "--warmup-ms needs one process: ranks across processes must "
                + "make the same runs (give --warmups)");
        }
    }

    /**
     * Runs {@code run} {@code --warmups} times untimed, then {@code --runs} times timed.
     *
     * @param times filled with each timed run's milliseconds ({@code --runs} of them)
     * @return the last run's result
     */
    <T> T timedRuns(final java.util.function.Supplier<T> run, final double[] times) {
        Warmup.ofRuns(warmups).perform(run::get); // runs only: across hosts every rank makes the same runs
        T last = null;
        for (int i = 0; i < runs; i++) {
            final long t0 = System.nanoTime();
            last = run.get();
            times[i] = (System.nanoTime() - t0) / 1e6;
        }
        return last;
    }

    /**
     * The lead rank's part of a run across hosts ({@code overlap node APP}): verifies {@code result} (unless
     * {@code --no-verify}) against the sequential reference and fills the report's common fields: the app, the
     * mode, the graph, the global devices, the times (the median of {@code times}), the counts, the verdict, the
     * hosts and devices per host, the reference's time, the warmups and the runs.
     *
     * @return the verdict
     */
    Verification verifyAcrossHosts(final RunReport.Builder rb, final String mode, final GraphInputOptions.Loaded loaded,
        final int src, final AppSettings settings, final AppResult result, final int ranks, final int devices,
        final double placeMillis, final double[] times) {
        final GraphApp app = app();
        final CsrGraph g = loaded.graph;
        final long refStart = System.nanoTime();
        final Verification v = output.noVerify ? Verification.skipped()
            : app.expected(g, src, settings, null).check(result);
        final double referenceMillis = (System.nanoTime() - refStart) / 1e6;
        final double[] sorted = times.clone();
        java.util.Arrays.sort(sorted);
        rb.app(app.id()).mode(mode).graph(loaded.name, g.vertexCount(), g.edgeCount())
            .mesh(ranks * devices, meshOptions.threads(), "range")
            .times(loaded.millis, placeMillis, median(times))
            .edgesTraversed(app.edgesTraversed(g, result)).counts(result.counts()).verification(v)
            .extra("hosts", ranks).extra("devicesPerHost", devices);
        if (!output.noVerify) {
            rb.extra("referenceMs", Math.round(referenceMillis * 1000) / 1000.0);
        }
        rb.extra("warmups", warmups);
        runTimes(rb, runs, times, sorted[0], sorted[sorted.length - 1]);
        return v;
    }

    /** @return the median of {@code times} (the upper one of an even count) */
    static double median(final double[] times) {
        final double[] sorted = times.clone();
        java.util.Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }

    /**
     * Adds the timed runs to the report when several were asked for: their count, the fastest, slowest and each. The
     * fastest and slowest are rounded to the microsecond as the report rounds the median ({@code timeMs}), so that
     * {@code minMs <= timeMs <= maxMs} holds as printed (unrounded, a median of 0.1418 printed as 0.142 exceeded a
     * maximum printed as 0.141973).
     */
    static void runTimes(final RunReport.Builder rb, final int runs, final double[] times, final double best,
        final double worst) {
        if (runs > 1) {
            final StringBuilder list = new StringBuilder();
            for (final double t : times) {
                // sub-10 ms runs (the solo path on small graphs) keep three decimals, as timeMs does
                list.append(list.length() == 0 ? "" : " ").append(String.format(java.util.Locale.ROOT, t < 10 ? "%.3f"
                    : "%.1f", t));
            }
            rb.extra("runs", runs).extra("minMs", Math.round(best * 1000) / 1000.0)
                .extra("maxMs", Math.round(worst * 1000) / 1000.0).extra("runTimesMs", list.toString());
        }
    }

    /**
     * The end of a lead rank's run: writes the answer (whether or not the check passed: a wrong answer is worth
     * looking at), prints the report, and says a failed verification in one line.
     *
     * @return the exit code: 0, or 1 when the verification failed
     */
    int report(final CommandLine cl, final RunReport.Builder rb, final AnswerDestination destination,
        final Answer answer, final Verification v, final String command) throws IOException {
        return answers.finish(cl, output.json, rb, destination, answer, v, command);
    }

    /** @return the directory {@code --counters-dir} names ({@code default}: the library's default) */
    static java.nio.file.Path countersDirectory(final String dir) {
        return "default".equals(dir) ? CountersFile.defaultDirectory() : java.nio.file.Paths.get(dir);
    }

    int chooseSource(final Csr g, final CommandLine cl) {
        if (source != null) {
            if (source < 0 || source >= g.vertexCount()) {
                throw new CommandLine.ParameterException(cl, "--source " + source + " is outside 0.."
                    + (g.vertexCount() - 1));
            }
            return source;
        }
        return GraphApp.defaultSource(g, input.seed);
    }
}
