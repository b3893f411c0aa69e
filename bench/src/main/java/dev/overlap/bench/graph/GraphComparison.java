package dev.overlap.bench.graph;

import dev.overlap.bench.report.RunInfo;
import dev.overlap.graph.app.AppRunner;
import dev.overlap.graph.app.Algorithms;
import dev.overlap.graph.app.GraphAlgorithms;
import dev.overlap.graph.app.GraphApp;
import dev.overlap.graph.app.Warmup;
import dev.overlap.graph.cli.CliErrors;
import dev.overlap.graph.cli.UsageErrors;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.function.Function;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * {@code overlap bench-graphs}: BFS, PageRank and SSSP on the same graphs (generated, or files), measured for
 * Overlap's execution modes (each mode and app in a forked JVM of its own unless {@code --no-fork}) ({@code bsp},
 * {@code async}, the one-thread path {@code solo} on the calling thread, and {@code coop}, every worker of one device in
 * one persistent launch) on a mesh of {@code --devices} x {@code threads / devices} workers,
 * the plain single-threaded Java CSR implementations (the reference classes
 * {@link dev.overlap.graph.ref.SequentialBfs}, {@link dev.overlap.graph.ref.Dijkstra},
 * {@link dev.overlap.graph.ref.PowerIteration}: array loops over the CSR, no boxing; the floor every parallel run must
 * beat), JGraphT 1.5.3 ({@link JGraphTPeer}) where it fits in the heap, and, when a build is given
 * ({@code --gap DIR} or {@value GapBuild#ENV}), the GAP benchmark suite's C++ kernels ({@link GapMeasurement}) on the
 * very file Overlap loads, with {@code OMP_NUM_THREADS} set to Overlap's threads. Every implementation gets
 * {@code --warmups} untimed runs, then {@code --runs} timed ones; the table shows the median (and MTEPS for BFS and
 * SSSP: edges out of the reached vertices per microsecond). PageRank is compared at equal accuracy, every answer's L1
 * error against a converged reference shown ({@link ComparisonRun}). Every answer is verified: BFS depths and SSSP
 * distances exactly against the sequential references (JGraphT's BFS by its reached-set size and depths, its Dijkstra
 * distances exactly; GAP by its own {@code -v} and cross-checks), PageRank in the L1 norm. Forked Overlap measurements
 * and GAP report their peak RSS, beside an idle JVM's. Writes {@code comparison.md}, {@code comparison.csv} and
 * {@code comparison.json} to {@code --out}; {@code --sweep} runs a series of sizes and adds the time-per-edge charts
 * ({@link SweepReport}).
 *
 * <p>Exit codes: 0 every answer verified, 1 a verification failed (the files are still written) or a runtime
 * problem, 2 wrong arguments. Not thread-safe (a command object runs once).
 *
 * <p>The command parses and checks its options, finds the modes' providers and the GAP build, and writes the files;
 * {@link ComparisonRun} runs, times and verifies (forked measurements through {@link ForkedMeasurement} and
 * {@link ForkProtocol}), and {@link ComparisonReport} renders the Markdown, CSV, JSON and table.
 */
@Command(name = "overlap bench-graphs", mixinStandardHelpOptions = true, sortOptions = false,
    description = "Compare Overlap's graph apps (bsp, async, solo, coop) with plain single-threaded Java CSR loops, JGraphT 1.5.3 "
        + "and, given a build, the GAP benchmark suite (C++/OpenMP) on the same graphs: warm-up runs, then the median "
        + "of R runs; PageRank at equal accuracy; every answer verified; peak RSS; writes comparison.md, .csv and "
        + ".json.")
public final class GraphComparison implements Callable<Integer> {
    private static final List<String> IMPLS = List.of("bsp", "async", "solo", "coop", ComparisonRun.SOLO_GS,
        ComparisonRun.COOP_GS, "java", "jgrapht", GapMeasurement.GAP);
    /** Overlap's modes among {@link #IMPLS}, measured in that order. */
    private static final List<String> MODES = List.of("bsp", "async", "solo", "coop", ComparisonRun.SOLO_GS,
        ComparisonRun.COOP_GS);
    private static final String FULL_GRAPHS = "kron:20,grid:1000x1000";
    private static final String QUICK_GRAPHS = "kron:14,grid:200x200";

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--graphs", paramLabel = "SPEC", split = ",", splitSynopsisLabel = ",", description = "generated graphs "
        + "kron:SCALE[:EF], urand:SCALE[:EF], grid:WxH, road:N, or graph files (.el, .wel, .gr, .mtx, ...; read "
        + "symmetrized, without self-loops and duplicates), e.g. an edge list GAP's converter wrote (default: "
        + FULL_GRAPHS + "; with --quick: " + QUICK_GRAPHS + "; with --sweep: the sweep's sizes)")
    List<String> graphs;

    @Option(names = "--apps", paramLabel = "APP", split = ",", splitSynopsisLabel = ",", defaultValue = "bfs,pr,sssp",
        description = "apps: bfs, pr, sssp (default: ${DEFAULT-VALUE})")
    List<String> apps;

    @Option(names = "--impls", paramLabel = "IMPL", split = ",", splitSynopsisLabel = ",",
        defaultValue = "bsp,async,solo,coop,java,jgrapht,gap", description = "implementations: bsp, async, solo, coop "
            + "(Overlap's modes: solo the one-thread path, coop every worker of one device; one without a provider, or "
            + "an app a mode does not have, is skipped with a "
            + "note), solo-gs and coop-gs (their PageRank with Gauss-Seidel sweeps, to a calibrated tolerance; "
            + "PageRank only), java (single-threaded CSR), jgrapht, gap (the GAP benchmark "
            + "suite, when --gap or " + GapBuild.ENV + " names a build; skipped with a note otherwise) (default: "
            + "${DEFAULT-VALUE})")
    List<String> impls;

    @Option(names = "--devices", paramLabel = "D", defaultValue = "2", description = "devices of the Overlap mesh "
        + "(default: ${DEFAULT-VALUE})")
    int devices;

    @Option(names = "--threads", paramLabel = "N", defaultValue = "2", description = "worker threads of the Overlap "
        + "mesh in total, a multiple of --devices (default: ${DEFAULT-VALUE})")
    int threads;

    @Option(names = "--warmups", paramLabel = "W", description = "untimed runs per implementation and app (default: "
        + "2; with --quick: 1)")
    Integer warmups;

    @Option(names = "--warmup-ms", paramLabel = "MS", description = "keep warming up past --warmups until the "
        + "untimed runs have lasted this long, per implementation and app (default: 500; with --quick: 0): a few runs "
        + "of milliseconds can end before the JIT has compiled their loops")
    Long warmupMillis;

    @Option(names = "--runs", paramLabel = "R", description = "timed runs; the median is reported (default: 5; with "
        + "--quick: 3)")
    Integer runs;

    @Option(names = "--pr-error", paramLabel = "E", defaultValue = "1e-5", description = "the L1 error against the "
        + "converged PageRank every PageRank answer aims for: fixed-iteration implementations run the fewest "
        + "iterations that reach it, async and GAP a tolerance chosen for it (default: ${DEFAULT-VALUE})")
    double prError;

    @Option(names = "--pr-iterations", paramLabel = "N", description = "fix the PageRank iterations of java csr, "
        + "overlap bsp and JGraphT instead of choosing them for --pr-error (their L1 errors are still shown)")
    Integer prIterations;

    @Option(names = "--gap", paramLabel = "DIR", description = "a build of the GAP benchmark suite (github.com/sbeamer/"
        + "gapbs, built with make outside this repository) to run as a peer: its bfs, sssp and pr on the same graph "
        + "file (default: $" + GapBuild.ENV + ")")
    Path gap;

    @Option(names = "--gap-delta", paramLabel = "D", defaultValue = "0", description = "GAP's SSSP delta for every "
        + "graph; 0 picks per graph: 2 when the mean degree is 8 or more (as GAP's scripts run kron), else 256 "
        + "(default: ${DEFAULT-VALUE})")
    int gapDelta;

    @Option(names = "--keep-graph-files", description = "keep the edge-list files written for GAP in --out/graphs "
        + "(default: deleted after each graph)")
    boolean keepGraphFiles;

    @Option(names = "--sweep", description = "a size sweep: time per edge against graph size for every implementation "
        + "(default graphs: " + SweepReport.FULL + "; with --quick: " + SweepReport.QUICK + "), written as sweep.csv, "
        + "sweep.json and sweep-FAMILY-APP.svg charts beside comparison.md")
    boolean sweep;

    @Option(names = "--quick", description = "small graphs and few runs (" + QUICK_GRAPHS + ", 1 warm-up, 3 runs): a "
        + "smoke run for CI, not a measurement")
    boolean quick;

    @Option(names = "--seed", paramLabel = "S", defaultValue = "1", description = "seed of the generators and the "
        + "sources (default: ${DEFAULT-VALUE})")
    long seed;

    @Option(names = "--out", paramLabel = "DIR", defaultValue = "${env:OVERLAP_ROOT:-.}/bench/target/graph-comparison",
        description = "directory for comparison.md, comparison.csv, comparison.json (default: ${DEFAULT-VALUE})")
    Path out;

    @Option(names = {"-q", "--quiet"}, description = "no progress bars or status lines on standard error")
    boolean quiet;

    @Option(names = "--fork", negatable = true, defaultValue = "true", fallbackValue = "true", description = "measure "
        + "each Overlap mode and app in a JVM of its own, as JMH forks (default: ${DEFAULT-VALUE}); with --no-fork "
        + "everything runs in this JVM, where the kernels of the apps measured earlier make the worklist's call sites "
        + "megamorphic for the later ones (async SSSP on kron:20 ran ~1.5x slower that way)")
    boolean fork;

    /** Set in a forked measurement: one mode and app, results on standard output as {@link ForkProtocol} lines. */
    @Option(names = "--child", hidden = true)
    boolean child;

    /** Set in a forked measurement whose parent generated the graphs with weights (they change the edge set). */
    @Option(names = "--child-weights", hidden = true)
    boolean childWeights;

    /** Set in a forked measurement: the parent's converged PageRank, to measure the answer's error against. */
    @Option(names = "--pr-reference", hidden = true)
    Path prReference;

    /** Finds Overlap's provider of a mode; tests replace it. */
    Function<String, GraphAlgorithms> lookup = Algorithms::forMode;

    /** Heap bytes free for the JGraphT copy; tests replace it. */
    LongSupplier heapAvailable = GraphComparison::freeHeap;

    /** The value of {@value GapBuild#ENV}; tests replace it. */
    Supplier<String> gapEnv = () -> System.getenv(GapBuild.ENV);

    /** Runs GAP and measures its peak RSS; tests replace it. */
    ExternalRun gapRunner = ExternalRun.onThisMachine();

    /** Runs the command and exits with its code. */
    public static void main(final String[] args) {
        if (System.getProperty("agrona.disable.bounds.checks") == null) {
            // As the overlap launcher: the apps' typed arrays check every index themselves.
            System.setProperty("agrona.disable.bounds.checks", "true");
        }
        final CommandLine cl = commandLine();
        final boolean child = java.util.Arrays.asList(args).contains("--child");
        CliErrors.exitOnUncaught(cl.getErr(), () -> NAME, System::exit);
        int exit;
        try {
            exit = cl.execute(args);
        } catch (final Throwable t) {
            // Errors (an OutOfMemoryError of the main thread) pass picocli's handler by
            exit = child ? reportToParent(cl, t) : CliErrors.report(cl.getErr(), NAME, t);
        }
        System.exit(exit);
    }

    private static final String NAME = "overlap bench-graphs";

    /**
     * @return the configured command line: wrong arguments as one line on standard error and exit 2, as the
     * {@code overlap} command reports them ({@link UsageErrors}); runtime failures as one line on standard error and
     * exit 1 (see {@link CliErrors}); in a forked measurement as an {@code ERROR} line for the parent, which reports it
     */
    public static CommandLine commandLine() {
        final CommandLine cl = new CommandLine(new GraphComparison());
        cl.setParameterExceptionHandler(new UsageErrors());
        final CommandLine.IExecutionExceptionHandler oneLine = CliErrors.handler();
        cl.setExecutionExceptionHandler((ex, commandLine, parseResult) -> ((GraphComparison)commandLine.getCommand())
            .child ? reportToParent(commandLine, ex) : oneLine.handleExecutionException(ex, commandLine, parseResult));
        return cl;
    }

    /** A forked measurement's failure: one {@code ERROR} line on standard output, read by its parent. */
    private static int reportToParent(final CommandLine cl, final Throwable failure) {
        String line;
        try {
            line = CliErrors.describe(failure);
        } catch (final Throwable t) {
            line = failure.getClass().getName();
        }
        cl.getOut().println(ForkProtocol.errorLine(line));
        cl.getOut().flush();
        return CliErrors.FAILURE;
    }

    @Override
    public Integer call() throws IOException {
        final CommandLine cl = spec.commandLine();
        final List<ComparisonInput> inputs = new ArrayList<>();
        final String defaults = sweep ? (quick ? SweepReport.QUICK : SweepReport.FULL) : quick ? QUICK_GRAPHS
            : FULL_GRAPHS;
        for (final String s : graphs != null ? graphs : List.of(defaults.split(","))) {
            try {
                inputs.add(ComparisonInput.parse(s));
            } catch (final IllegalArgumentException e) {
                throw new CommandLine.ParameterException(cl, "--graphs: " + e.getMessage());
            }
        }
        final Set<GraphApp> appSet = new LinkedHashSet<>();
        for (final String a : apps) {
            try {
                appSet.add(GraphApp.parse(a));
            } catch (final IllegalArgumentException e) {
                throw new CommandLine.ParameterException(cl, "--apps: " + e.getMessage());
            }
        }
        final Set<String> implSet = new LinkedHashSet<>();
        for (final String i : impls) {
            final String v = i.trim().toLowerCase(Locale.ROOT);
            if (!IMPLS.contains(v)) {
                throw new CommandLine.ParameterException(cl, "--impls: unknown implementation '" + i + "': expected "
                    + String.join(", ", IMPLS.subList(0, IMPLS.size() - 1)) + " or " + IMPLS.get(IMPLS.size() - 1));
            }
            implSet.add(v);
        }
        final int w = warmups != null ? warmups : quick ? 1 : 2;
        final int r = runs != null ? runs : quick ? 3 : 5;
        final long wMillis = warmupMillis != null ? warmupMillis : quick ? 0 : 500;
        validate(cl, w, r);
        if (wMillis < 0 || wMillis > 60_000) {
            throw new CommandLine.ParameterException(cl, "--warmup-ms must be in 0..60000, was " + wMillis);
        }
        final Warmup warmup = new Warmup(w, wMillis);
        if (Files.exists(out) && !Files.isDirectory(out)) {
            throw new CommandLine.ParameterException(cl, "--out " + out + " exists and is not a directory");
        }
        if (!child) {
            // before the measurements: a directory that cannot be created fails at once, naming it
            CliErrors.createOutputDirectory(out, "--out");
        }
        final Set<String> notes = new LinkedHashSet<>();
        final Map<String, GraphAlgorithms> providers = new LinkedHashMap<>();
        for (final String mode : MODES) {
            if (implSet.contains(mode)) {
                try {
                    providers.put(mode, lookup.apply(ComparisonRun.providerMode(mode)));
                } catch (final IllegalArgumentException e) {
                    notes.add(mode + " mode not available (" + e.getMessage() + "): its rows are skipped");
                }
            }
        }
        GapMeasurement gapPeer = null;
        GapBuild build = null;
        if (!child && implSet.contains(GapMeasurement.GAP)) {
            build = GapBuild.locate(gap, gapEnv.get(), notes);
            if (build != null) {
                gapPeer = new GapMeasurement(build, gapRunner, threads, w, r, gapDelta, prError, this::status);
            }
        }
        final RunInfo info = RunInfo.capture(Path.of(System.getenv().getOrDefault("OVERLAP_ROOT", ".")),
            "at run start");
        final AppRunner runner = AppRunner.builder().devices(devices).threadsPerDevice(threads / devices).warmups(w)
            .warmupMillis(wMillis).runs(r).build();
        final ForkedMeasurement forker = fork && !child
            ? new ForkedMeasurement(warmup, r, seed, devices, threads, prError) : null;
        final int fixedIterations = prIterations != null ? prIterations : 0;
        final ComparisonRun run = new ComparisonRun(seed, quiet, child, childWeights, forker, warmup, r,
            fixedIterations, prError, gapPeer, new ComparisonRun.GraphFiles(out.resolve("graphs"), keepGraphFiles,
            prReference), heapAvailable, this::status, notes);
        final long idleJvm = forker != null && !providers.isEmpty() ? ForkedMeasurement.idleJvmKib() : PeakRss.UNKNOWN;
        final long start = System.nanoTime();
        for (final ComparisonInput in : inputs) {
            run.measureGraph(in, appSet, implSet, providers, runner);
        }
        final double wallSeconds = (System.nanoTime() - start) / 1e9;
        if (child) {
            final long rss = PeakRss.selfKib();
            final List<ComparisonRow> mine = new ArrayList<>();
            for (final ComparisonRow row : run.rows()) {
                mine.add(row.impl.startsWith("overlap") ? row.withPeakRss(rss) : row);
            }
            return ForkProtocol.print(mine, run.notes(), cl.getOut());
        }
        final String loadAtEnd = RunInfo.capture(null, "at run end").asMap().getOrDefault("loadAverage", "?")
            .toString();
        final ComparisonReport report = new ComparisonReport(info.asMap(), loadAtEnd, new ComparisonReport.Settings(
            quick, devices, threads, warmup, r, fixedIterations, prError, commandLineText(), idleJvm,
            build != null ? build.dir().toString() : null), run.graphs(), run.rows(), run.notes(), wallSeconds);
        String markdown = report.markdown();
        if (sweep) {
            final SweepReport sw = new SweepReport(run.graphs(), run.rows());
            write(out.resolve("sweep.csv"), sw.csv());
            write(out.resolve("sweep.json"), sw.json());
            for (final Map.Entry<String, String> chart : sw.charts().entrySet()) {
                write(out.resolve(chart.getKey()), chart.getValue());
            }
            markdown += sw.markdown();
        }
        write(out.resolve("comparison.md"), markdown);
        write(out.resolve("comparison.csv"), report.csv());
        write(out.resolve("comparison.json"), report.json());
        final PrintWriter pw = cl.getOut();
        pw.print(report.text());
        for (final String n : run.notes()) {
            pw.println("note: " + n);
        }
        pw.printf(Locale.ROOT, "wrote %s/comparison.{md,csv,json}%s (%.1f s)%n", out,
            sweep ? " and sweep.{csv,json}, sweep-*.svg" : "", wallSeconds);
        pw.flush();
        int failed = 0;
        for (final ComparisonRow row : run.rows()) {
            if (!row.verification.passed()) {
                cl.getErr().println("overlap bench-graphs: verification FAILED: " + row.graph + " " + row.app + " "
                    + row.impl + ": " + row.verification.detail());
                failed++;
            }
        }
        cl.getErr().flush();
        return failed == 0 ? 0 : 1;
    }

    private void validate(final CommandLine cl, final int w, final int r) {
        if (devices < 1 || devices > 64) {
            throw new CommandLine.ParameterException(cl, "--devices must be in 1..64, was " + devices);
        }
        if (threads < 1 || threads > 1024) {
            throw new CommandLine.ParameterException(cl, "--threads must be in 1..1024, was " + threads);
        }
        if (threads % devices != 0) {
            throw new CommandLine.ParameterException(cl, "--threads " + threads + " is not a multiple of --devices "
                + devices + " (every device gets threads / devices workers)");
        }
        if (w < 0 || w > 100) {
            throw new CommandLine.ParameterException(cl, "--warmups must be in 0..100, was " + w);
        }
        if (r < 1 || r > 1000) {
            throw new CommandLine.ParameterException(cl, "--runs must be in 1..1000, was " + r);
        }
        if (prIterations != null && (prIterations < 1 || prIterations > 10_000)) {
            throw new CommandLine.ParameterException(cl, "--pr-iterations must be in 1..10000, was " + prIterations);
        }
        if (!(prError >= 1e-9 && prError < 1)) {
            throw new CommandLine.ParameterException(cl, "--pr-error must be in [1e-9, 1), was " + prError);
        }
        if (gapDelta < 0) {
            throw new CommandLine.ParameterException(cl, "--gap-delta must be >= 0 (0: per graph), was " + gapDelta);
        }
    }

    /** @return heap bytes the JVM can still give: the maximum minus what is in use now */
    static long freeHeap() {
        final Runtime rt = Runtime.getRuntime();
        return rt.maxMemory() - (rt.totalMemory() - rt.freeMemory());
    }

    /** A progress line on standard error, unless {@code --quiet}. */
    private void status(final String line) {
        if (!quiet) {
            spec.commandLine().getErr().println("bench-graphs: " + line);
            spec.commandLine().getErr().flush();
        }
    }

    private String commandLineText() {
        final StringBuilder sb = new StringBuilder();
        for (final String a : spec.commandLine().getParseResult().originalArgs()) {
            sb.append(' ').append(a);
        }
        return sb.toString();
    }

    private static void write(final Path file, final String text) throws IOException {
        final Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.write(tmp, text.getBytes(StandardCharsets.UTF_8));
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }
}
