package dev.overlap.bench.graph;

import com.fasterxml.jackson.jr.ob.JSON;
import dev.overlap.bench.report.RunInfo;
import dev.overlap.graph.ConsoleProgress;
import dev.overlap.graph.CsrGraph;
import dev.overlap.graph.app.AppResult;
import dev.overlap.graph.app.AppRunner;
import dev.overlap.graph.app.AppSettings;
import dev.overlap.graph.app.Algorithms;
import dev.overlap.graph.app.GraphAlgorithms;
import dev.overlap.graph.app.GraphApp;
import dev.overlap.graph.cli.CliErrors;
import dev.overlap.graph.gen.GraphSpec;
import dev.overlap.graph.ref.Verification;
import dev.overlap.graph.report.TextTable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
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

/**
 * {@code overlap bench-graphs}: BFS, PageRank and SSSP on the same generated graphs, measured for
 * Overlap's execution modes (each mode and app in a forked JVM of its own unless {@code --no-fork}) ({@code bsp}, and {@code async} once its provider is registered) on a mesh of
 * {@code --devices} x {@code threads / devices} workers, the plain single-threaded Java CSR implementations (the
 * reference classes {@link dev.overlap.graph.ref.SequentialBfs}, {@link dev.overlap.graph.ref.Dijkstra},
 * {@link dev.overlap.graph.ref.PowerIteration}: array loops over the CSR, no boxing; the floor every parallel run must
 * beat), and JGraphT 1.5.3 ({@link JGraphTPeer}) where it fits in the heap. Every implementation gets
 * {@code --warmups} untimed runs, then {@code --runs} timed ones; the table shows the median (and MTEPS for BFS and
 * SSSP: edges out of the reached vertices per microsecond). PageRank runs a fixed {@code --pr-iterations} (20) for
 * every implementation. Every answer is verified: BFS depths and SSSP distances exactly against the sequential
 * references (JGraphT's BFS by its reached-set size and depths, its Dijkstra distances exactly), PageRank within
 * 1e-9 (L1) of power iteration. Writes {@code comparison.md}, {@code comparison.csv} and {@code comparison.json} to
 * {@code --out}.
 *
 * <p>Exit codes: 0 every answer verified, 1 a verification failed (the files are still written) or a runtime
 * problem, 2 wrong arguments. Not thread-safe (a command object runs once).
 */
@Command(name = "overlap bench-graphs", mixinStandardHelpOptions = true, sortOptions = false,
    description = "Compare Overlap's graph apps (bsp, async) with plain single-threaded Java CSR loops and JGraphT "
        + "1.5.3 on generated graphs: warm-up runs, then the median of R runs; every answer verified; writes "
        + "comparison.md, .csv and .json.")
public final class GraphComparison implements Callable<Integer> {
    /** The JGraphT version on the class path (pinned in the parent pom). */
    static final String JGRAPHT = "jgrapht 1.5.3";
    static final String JAVA = "java csr";
    private static final List<String> IMPLS = List.of("bsp", "async", "java", "jgrapht");
    private static final double ASYNC_PR_TOLERANCE = 1e-4;
    private static final String FULL_GRAPHS = "kron:20,grid:1000x1000";
    private static final String QUICK_GRAPHS = "kron:14,grid:200x200";

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--graphs", paramLabel = "SPEC", split = ",", splitSynopsisLabel = ",", description = "generated graphs: "
        + "kron:SCALE[:EF], urand:SCALE[:EF], grid:WxH (default: " + FULL_GRAPHS + "; with --quick: " + QUICK_GRAPHS
        + ")")
    List<String> graphs;

    @Option(names = "--apps", paramLabel = "APP", split = ",", splitSynopsisLabel = ",", defaultValue = "bfs,pr,sssp",
        description = "apps: bfs, pr, sssp (default: ${DEFAULT-VALUE})")
    List<String> apps;

    @Option(names = "--impls", paramLabel = "IMPL", split = ",", splitSynopsisLabel = ",", defaultValue = "bsp,async,java,jgrapht",
        description = "implementations: bsp, async (Overlap's modes; one without a provider is skipped with a note), "
            + "java (single-threaded CSR), jgrapht (default: ${DEFAULT-VALUE})")
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

    @Option(names = "--runs", paramLabel = "R", description = "timed runs; the median is reported (default: 5; with "
        + "--quick: 3)")
    Integer runs;

    @Option(names = "--pr-iterations", paramLabel = "N", defaultValue = "20", description = "PageRank iterations, the "
        + "same for every implementation (default: ${DEFAULT-VALUE})")
    int prIterations;

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

    /** Set in a forked measurement: one mode and app, results on standard output as tab-separated lines. */
    @Option(names = "--child", hidden = true)
    boolean child;

    /** Set in a forked measurement whose parent generated the graphs with weights (they change the edge set). */
    @Option(names = "--child-weights", hidden = true)
    boolean childWeights;

    /** Finds Overlap's provider of a mode; tests replace it. */
    Function<String, GraphAlgorithms> lookup = Algorithms::forMode;

    /** Heap bytes free for the JGraphT copy; tests replace it. */
    LongSupplier heapAvailable = GraphComparison::freeHeap;

    /** One implementation's measurement of one app on one graph. */
    static final class Row {
        final String graph;
        final GraphApp app;
        final String impl;
        final String threads;
        final double[] runMillis;
        final long edgesTraversed;
        final Verification verification;
        double javaMillis = Double.NaN;

        Row(final String graph, final GraphApp app, final String impl, final String threads, final double[] runMillis,
            final long edgesTraversed, final Verification verification) {
            this.graph = graph;
            this.app = app;
            this.impl = impl;
            this.threads = threads;
            this.runMillis = runMillis;
            this.edgesTraversed = edgesTraversed;
            this.verification = verification;
        }

        double median() {
            return AppRunner.median(runMillis);
        }

        double min() {
            double m = Double.POSITIVE_INFINITY;
            for (final double t : runMillis) {
                m = Math.min(m, t);
            }
            return m;
        }

        double max() {
            double m = 0;
            for (final double t : runMillis) {
                m = Math.max(m, t);
            }
            return m;
        }

        double mteps() {
            return edgesTraversed > 0 ? edgesTraversed / (median() * 1e3) : Double.NaN;
        }

        double vsJava() {
            return javaMillis / median();
        }

        String verified() {
            return verification.passed() ? "passed" : "FAILED";
        }
    }

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
     * @return the configured command line: runtime failures as one line on standard error and exit 1 (see
     * {@link CliErrors}); in a forked measurement as an {@code ERROR} line for the parent, which reports it
     */
    public static CommandLine commandLine() {
        final CommandLine cl = new CommandLine(new GraphComparison());
        final CommandLine.IExecutionExceptionHandler oneLine = CliErrors.handler();
        cl.setExecutionExceptionHandler((ex, commandLine, parseResult) -> ((GraphComparison)commandLine.getCommand())
            .child ? reportToParent(commandLine, ex) : oneLine.handleExecutionException(ex, commandLine, parseResult));
        return cl;
    }

    /** A forked measurement's failure: one {@code ERROR} line on standard output, read by {@link #forked}. */
    private static int reportToParent(final CommandLine cl, final Throwable failure) {
        String line;
        try {
            line = CliErrors.describe(failure);
        } catch (final Throwable t) {
            line = failure.getClass().getName();
        }
        cl.getOut().println("ERROR\t" + line.replace('\t', ' '));
        cl.getOut().flush();
        return CliErrors.FAILURE;
    }

    @Override
    public Integer call() throws IOException {
        final CommandLine cl = spec.commandLine();
        final List<GraphSpec> specs = new ArrayList<>();
        for (final String s : graphs != null ? graphs : List.of((quick ? QUICK_GRAPHS : FULL_GRAPHS).split(","))) {
            try {
                specs.add(GraphSpec.parse(s));
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
                    + "bsp, async, java or jgrapht");
            }
            implSet.add(v);
        }
        final int w = warmups != null ? warmups : quick ? 1 : 2;
        final int r = runs != null ? runs : quick ? 3 : 5;
        validate(cl, w, r);
        if (Files.exists(out) && !Files.isDirectory(out)) {
            throw new CommandLine.ParameterException(cl, "--out " + out + " exists and is not a directory");
        }
        if (!child) {
            // before the measurements: a directory that cannot be created fails at once, naming it
            CliErrors.createOutputDirectory(out, "--out");
        }
        final Set<String> notes = new LinkedHashSet<>();
        final Map<String, GraphAlgorithms> providers = new LinkedHashMap<>();
        for (final String mode : new String[] {"bsp", "async"}) {
            if (implSet.contains(mode)) {
                try {
                    providers.put(mode, lookup.apply(mode));
                } catch (final IllegalArgumentException e) {
                    notes.add(mode + " mode not available (" + e.getMessage() + "): its rows are skipped");
                }
            }
        }
        final RunInfo info = RunInfo.capture(Path.of(System.getenv().getOrDefault("OVERLAP_ROOT", ".")),
            "at run start");
        final AppRunner runner = AppRunner.builder().devices(devices).threadsPerDevice(threads / devices).warmups(w)
            .runs(r).build();
        final AppSettings settings = AppSettings.builder().fixedIterations(prIterations).build();
        final List<Row> rows = new ArrayList<>();
        final List<Map<String, Object>> graphInfo = new ArrayList<>();
        final long start = System.nanoTime();
        for (final GraphSpec gs : specs) {
            measureGraph(gs, appSet, implSet, providers, runner, settings, w, r, rows, graphInfo, notes);
        }
        final double wallSeconds = (System.nanoTime() - start) / 1e9;
        if (child) {
            return printForParent(rows, notes, cl.getOut());
        }
        final String loadAtEnd = RunInfo.capture(null, "at run end").asMap().getOrDefault("loadAverage", "?")
            .toString();
        write(out.resolve("comparison.md"), markdown(info, loadAtEnd, w, r, graphInfo, rows, notes, wallSeconds));
        write(out.resolve("comparison.csv"), csv(w, r, rows));
        write(out.resolve("comparison.json"), json(info, loadAtEnd, w, r, graphInfo, rows, notes, wallSeconds));
        final PrintWriter pw = cl.getOut();
        pw.print(table(rows).toText());
        for (final String n : notes) {
            pw.println("note: " + n);
        }
        pw.printf(Locale.ROOT, "wrote %s/comparison.{md,csv,json} (%.1f s)%n", out, wallSeconds);
        pw.flush();
        int failed = 0;
        for (final Row row : rows) {
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
        if (prIterations < 1 || prIterations > 10_000) {
            throw new CommandLine.ParameterException(cl, "--pr-iterations must be in 1..10000, was " + prIterations);
        }
    }

    private void measureGraph(final GraphSpec gs, final Set<GraphApp> appSet, final Set<String> implSet,
        final Map<String, GraphAlgorithms> providers, final AppRunner runner, final AppSettings settings, final int w,
        final int r, final List<Row> rows, final List<Map<String, Object>> graphInfo, final Set<String> notes)
        throws IOException {
        boolean needWeights = childWeights;
        for (final GraphApp a : appSet) {
            needWeights |= a.weighted();
        }
        final long genStart = System.nanoTime();
        final CsrGraph weighted = gs.build(seed, needWeights, ConsoleProgress.forConsole(quiet));
        final double genMillis = (System.nanoTime() - genStart) / 1e6;
        final CsrGraph plain = weighted.withoutWeights();
        final String name = gs.toString();
        final int source = GraphApp.defaultSource(plain, seed);
        final Map<String, Object> gi = new LinkedHashMap<>();
        gi.put("name", name);
        gi.put("vertices", plain.vertexCount());
        gi.put("edges", plain.edgeCount());
        gi.put("source", source);
        gi.put("generateMs", round(genMillis));
        graphInfo.add(gi);
        status("%s: %,d vertices, %,d edges, source %d, generated in %.0f ms", name, plain.vertexCount(),
            plain.edgeCount(), source, genMillis);
        // The sequential runs come first: their answers are the references of every other row.
        final Map<GraphApp, GraphApp.Expected> expected = new LinkedHashMap<>();
        final Map<GraphApp, Double> javaMillis = new LinkedHashMap<>();
        final int firstRow = rows.size();
        for (final GraphApp app : appSet) {
            final CsrGraph g = app.weighted() ? weighted : plain;
            System.gc();
            AppResult seq = null;
            // a forked measurement only needs the answer, once
            final int seqRuns = child ? 1 : r;
            final double[] times = new double[seqRuns];
            for (int i = child ? 0 : -w; i < seqRuns; i++) {
                seq = app.sequential(g, source, settings);
                if (i >= 0) {
                    times[i] = seq.nanos() / 1e6;
                }
            }
            expected.put(app, app.expected(g, source, settings, seq));
            final Row row = new Row(name, app, JAVA, "1", times, app.edgesTraversed(g, seq),
                Verification.pass("the reference (checked against itself: its answer is the expected one)"));
            javaMillis.put(app, row.median());
            if (implSet.contains("java")) {
                rows.add(row);
                report(row);
            }
        }
        for (final Map.Entry<String, GraphAlgorithms> p : providers.entrySet()) {
            for (final GraphApp app : appSet) {
                final CsrGraph g = app.weighted() ? weighted : plain;
                if (fork && !child) {
                    final Row row = forked(gs, name, app, p.getKey(), needWeights, w, r, notes);
                    if (row != null) {
                        rows.add(row);
                        report(row);
                    }
                    continue;
                }
                System.gc();
                // async PageRank has no iterations (Atos: push residuals until every one is below a threshold): it
                // runs to an L1 tolerance and is verified against power iteration to that tolerance
                final boolean toTolerance = app == GraphApp.PAGERANK && "async".equals(p.getKey());
                // the app's own worklist, as `--queue auto` picks it: priority for SSSP, FIFO for BFS and PageRank
                final AppSettings s = toTolerance
                    ? AppSettings.builder().tolerance(ASYNC_PR_TOLERANCE).queue(app.autoQueue()).build()
                    : AppSettings.builder().fixedIterations(prIterations).queue(app.autoQueue()).build();
                if (toTolerance) {
                    notes.add("async pr has no iterations: it runs to an L1 tolerance of " + ASYNC_PR_TOLERANCE
                        + " and is verified against power iteration to that tolerance (the others run " + prIterations
                        + " iterations)");
                }
                final AppRunner.Measurement m;
                try {
                    m = runner.measure(g, app, p.getValue(), source, s);
                } catch (final UnsupportedOperationException e) {
                    notes.add(p.getKey() + " " + app + " skipped: the provider does not support it (" + e.getMessage()
                        + ")");
                    continue;
                } catch (final IllegalStateException e) {
                    notes.add(p.getKey() + " " + app + " on " + name + " skipped: " + e.getMessage());
                    continue;
                }
                final Row row = new Row(name, app, "overlap " + p.getKey(), runner.devices() + "x"
                    + runner.threadsPerDevice(), m.runMillis(), app.edgesTraversed(g, m.result()),
                    (toTolerance ? app.expected(g, source, s, null) : expected.get(app)).check(m.result()));
                rows.add(row);
                report(row);
            }
        }
        if (implSet.contains("jgrapht")) {
            measureJGraphT(name, weighted, plain, source, appSet, settings, expected, w, r, rows, notes);
        }
        for (int i = firstRow; i < rows.size(); i++) {
            rows.get(i).javaMillis = javaMillis.get(rows.get(i).app);
        }
        // Measured implementation by implementation (one JGraphT copy at a time); shown app by app.
        final List<Row> mine = new ArrayList<>(rows.subList(firstRow, rows.size()));
        mine.sort(java.util.Comparator.comparing((Row x) -> x.app));
        rows.subList(firstRow, rows.size()).clear();
        rows.addAll(mine);
    }

    private void measureJGraphT(final String name, final CsrGraph weighted, final CsrGraph plain, final int source,
        final Set<GraphApp> appSet, final AppSettings settings, final Map<GraphApp, GraphApp.Expected> expected,
        final int w, final int r, final List<Row> rows, final Set<String> notes) {
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
            status("%s: %s copy built in %.0f ms", name, JGRAPHT, (System.nanoTime() - buildStart) / 1e6);
        } catch (final OutOfMemoryError e) {
            notes.add(JGRAPHT + " skipped on " + name + ": the heap ran out while copying the graph (raise -Xmx)");
            return;
        }
        try {
            for (final GraphApp app : appSet) {
                final CsrGraph g = app.weighted() ? weighted : plain;
                final GraphApp.Expected ex = expected.get(app);
                System.gc();
                final double[] times = new double[r];
                Verification v = null;
                long traversed = 0;
                for (int i = -w; i < r; i++) {
                    final long t0 = System.nanoTime();
                    switch (app) {
                        case BFS: {
                            final JGraphTPeer.Bfs b = peer.bfs(source);
                            final long t1 = System.nanoTime();
                            if (i == r - 1) {
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
                            if (i == r - 1) {
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
                            if (i == r - 1) {
                                v = ex.check(AppResult.pageRank(ranks, 0, null));
                            }
                            record(times, i, t0, t1);
                            break;
                        }
                    }
                }
                final Row row = new Row(name, app, JGRAPHT, "1", times, traversed, v);
                rows.add(row);
                report(row);
            }
        } catch (final OutOfMemoryError e) {
            notes.add(JGRAPHT + " on " + name + " stopped: the heap ran out during a run (raise -Xmx)");
        }
    }

    /**
     * Measures one Overlap mode on one app in a forked JVM (the same java, JVM options and class path; the child
     * generates the same graph from the same seed and verifies its answer itself).
     *
     * @return its row, or null when the child skipped it (its note is added)
     * @throws IllegalStateException when the child fails
     */
    private Row forked(final GraphSpec gs, final String name, final GraphApp app, final String mode,
        final boolean weights, final int w, final int r, final Set<String> notes) throws IOException {
        final List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(ManagementFactory.getRuntimeMXBean().getInputArguments());
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), GraphComparison.class.getName(), "--child",
            "--quiet", "--graphs", gs.toString(), "--apps", app.id(), "--impls", mode, "--warmups",
            Integer.toString(w), "--runs", Integer.toString(r), "--seed", Long.toString(seed), "--devices",
            Integer.toString(devices), "--threads", Integer.toString(threads), "--pr-iterations",
            Integer.toString(prIterations)));
        if (weights) {
            cmd.add("--child-weights");
        }
        final Process child = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        final List<String> lines = new ArrayList<>();
        try (java.io.BufferedReader in = new java.io.BufferedReader(new java.io.InputStreamReader(
            child.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line; (line = in.readLine()) != null; ) {
                lines.add(line);
            }
        }
        final int exit;
        try {
            exit = child.waitFor();
        } catch (final InterruptedException e) {
            child.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while measuring " + mode + " " + app + " on " + name);
        }
        Row row = null;
        String error = null;
        for (final String line : lines) {
            final String[] f = line.split("\t", -1);
            if (f[0].equals("ERROR") && f.length == 2) {
                error = f[1];
            } else if (f[0].equals("NOTE") && f.length == 2) {
                notes.add(f[1]);
            } else if (f[0].equals("ROW") && f.length == 7) {
                final String[] ts = f[3].trim().split(" ");
                final double[] times = new double[ts.length];
                for (int i = 0; i < ts.length; i++) {
                    times[i] = Double.parseDouble(ts[i]);
                }
                row = new Row(name, app, f[1], f[2], times, Long.parseLong(f[4]),
                    "passed".equals(f[5]) ? Verification.pass(f[6]) : Verification.fail(f[6]));
            }
        }
        if (error != null) {
            throw new IllegalStateException(error + " (in the forked measurement of " + mode + " " + app + " on "
                + name + ")");
        }
        if (row == null && (exit != 0 || lines.stream().noneMatch(l -> l.startsWith("NOTE\t")))) {
            throw new IllegalStateException("the forked measurement of " + mode + " " + app + " on " + name
                + " exited with " + exit + " and no result (its errors are above)");
        }
        return row;
    }

    /** A forked measurement's output: its rows and notes as tab-separated lines; @return 0, or 1 if one failed */
    private static int printForParent(final List<Row> rows, final Set<String> notes, final PrintWriter out) {
        int failed = 0;
        for (final String n : notes) {
            out.println("NOTE\t" + n.replace('\t', ' ').replace('\n', ' '));
        }
        for (final Row row : rows) {
            final StringBuilder times = new StringBuilder();
            for (final double t : row.runMillis) {
                times.append(times.length() == 0 ? "" : " ").append(t);
            }
            out.println(String.join("\t", "ROW", row.impl, row.threads, times, Long.toString(row.edgesTraversed),
                row.verified(), row.verification.detail().replace('\t', ' ').replace('\n', ' ')));
            failed += row.verification.passed() ? 0 : 1;
        }
        out.flush();
        return failed == 0 ? 0 : 1;
    }

    private static void record(final double[] times, final int i, final long t0, final long t1) {
        if (i >= 0) {
            times[i] = (t1 - t0) / 1e6;
        }
    }

    /** @return heap bytes the JVM can still give: the maximum minus what is in use now */
    static long freeHeap() {
        final Runtime rt = Runtime.getRuntime();
        return rt.maxMemory() - (rt.totalMemory() - rt.freeMemory());
    }

    private void status(final String format, final Object... args) {
        if (!quiet) {
            spec.commandLine().getErr().println("bench-graphs: " + String.format(Locale.ROOT, format, args));
            spec.commandLine().getErr().flush();
        }
    }

    private void report(final Row row) {
        status("%s %s %s: median %.2f ms%s, %s", row.graph, row.app, row.impl, row.median(),
            Double.isNaN(row.mteps()) ? "" : String.format(Locale.ROOT, ", %.1f MTEPS", row.mteps()),
            row.verification.passed() ? "verified" : "verification FAILED");
    }

    private static TextTable table(final List<Row> rows) {
        final TextTable t = new TextTable("<graph", "<app", "<implementation", "threads", "median ms", "min ms",
            "MTEPS", "vs java csr", "<verified");
        for (final Row row : rows) {
            t.row(row.graph, row.app, row.impl, row.threads, TextTable.fixed(row.median(), 2),
                TextTable.fixed(row.min(), 2), TextTable.fixed(row.mteps(), 1), TextTable.fixed(row.vsJava(), 2) + "x",
                row.verified());
        }
        return t;
    }

    private String markdown(final RunInfo info, final String loadAtEnd, final int w, final int r,
        final List<Map<String, Object>> graphInfo, final List<Row> rows, final Set<String> notes,
        final double wallSeconds) {
        final Map<String, Object> m = info.asMap();
        final StringBuilder sb = new StringBuilder();
        sb.append("# Graph apps: Overlap vs plain Java vs JGraphT").append(quick ? " (quick smoke run, not a "
            + "measurement)" : "").append("\n\n");
        sb.append(String.format(Locale.ROOT, "%s, %s cores (%s), %s GiB, Java %s (%s); load average %s at the start, "
            + "%s at the end; commit %s%s.%n%n", m.get("date"), m.get("cores"), m.get("cpu"),
            m.get("memoryBytes") instanceof Number ? String.format(Locale.ROOT, "%.0f",
                ((Number)m.get("memoryBytes")).doubleValue() / (1L << 30)) : "?", m.get("javaVersion"),
            m.get("javaVendor"), m.get("loadAverage"), loadAtEnd, m.getOrDefault("commit", "?"),
            Boolean.TRUE.equals(m.get("dirty")) ? " (with uncommitted changes)" : ""));
        sb.append(String.format(Locale.ROOT, "Every implementation: %d untimed warm-up run%s, then the median of %d "
            + "timed runs (min beside it), algorithm time only (not generation, copying or placement). Overlap runs on "
            + "%d devices x %d worker%s = %d threads; the Java CSR and JGraphT runs use one thread. PageRank: damping "
            + "0.85, exactly %d iterations everywhere. MTEPS: edges out of the reached vertices (each undirected edge "
            + "once per direction) per microsecond. \"vs java csr\": the single-threaded Java CSR median / this median."
            + "%n%n", w, w == 1 ? "" : "s", r, devices, threads / devices, threads / devices == 1 ? "" : "s", threads,
            prIterations));
        final double load = firstNumber(m.get("loadAverage"));
        final int cores = m.get("cores") instanceof Number ? ((Number)m.get("cores")).intValue() : 1;
        if (load > cores / 2.0) {
            sb.append(String.format(Locale.ROOT, "**Warning: the machine was busy (load %.2f on %d cores) when the run "
                + "started: other processes shared the cores, so these figures are unreliable.**%n%n", load, cores));
        }
        final TextTable gt = new TextTable("<graph", "vertices", "directed edges", "source", "generated ms");
        for (final Map<String, Object> g : graphInfo) {
            gt.row(g.get("name"), TextTable.count(((Number)g.get("vertices")).longValue()),
                TextTable.count(((Number)g.get("edges")).longValue()), g.get("source"),
                TextTable.fixed(((Number)g.get("generateMs")).doubleValue(), 0));
        }
        sb.append(gt.toMarkdown()).append('\n');
        sb.append(table(rows).toMarkdown()).append('\n');
        sb.append("Implementations:\n\n");
        sb.append("- **overlap bsp**: the bulk-synchronous apps on the mesh (BFS direction-optimizing: it scans far "
            + "fewer edges than it traverses; PageRank pulls over the reverse graph; SSSP Bellman-Ford rounds).\n");
        sb.append("- **overlap async**: the Atos-style apps on the distributed worklist, when its provider is "
            + "registered.\n");
        sb.append("- **java csr**: `SequentialBfs`, `Dijkstra` (indexed binary heap) and `PowerIteration` (push) of "
            + "`dev.overlap.graph.ref`: plain array loops over the CSR, no boxing, no allocation per edge. They are the "
            + "references every other answer is checked against.\n");
        sb.append("- **" + JGRAPHT + "**: `BreadthFirstIterator`, `PageRank` on the `AsUnweightedGraph` view, "
            + "`DijkstraShortestPath.getPaths` on an undirected weighted graph of `Integer` vertices with the "
            + "memory-lean `DefaultGraphSpecificsStrategy` (copy not timed). JGraphT's `PageRank` builds its index "
            + "inside the call, so its time includes it.\n\n");
        sb.append("Verification: BFS depths and SSSP distances equal the sequential references exactly (JGraphT: "
            + "reached-set size and depths; Dijkstra distances); PageRank within 1e-9 (L1) of power iteration with the "
            + "same iterations.\n");
        if (!notes.isEmpty()) {
            sb.append('\n');
            for (final String n : notes) {
                sb.append("- note: ").append(n).append('\n');
            }
        }
        sb.append(String.format(Locale.ROOT, "%nWall time %.1f s. Command: `overlap bench-graphs%s`.%n", wallSeconds,
            commandLineText()));
        return sb.toString();
    }

    /** @return the first number of a load-average string such as {@code "0.52 0.40 0.31"}, NaN if none */
    static double firstNumber(final Object loadAverage) {
        if (loadAverage == null) {
            return Double.NaN;
        }
        try {
            return Double.parseDouble(loadAverage.toString().trim().split("\\s+")[0]);
        } catch (final NumberFormatException e) {
            return Double.NaN;
        }
    }

    private String commandLineText() {
        final StringBuilder sb = new StringBuilder();
        for (final String a : spec.commandLine().getParseResult().originalArgs()) {
            sb.append(' ').append(a);
        }
        return sb.toString();
    }

    private String csv(final int w, final int r, final List<Row> rows) {
        final StringBuilder sb = new StringBuilder("graph,app,implementation,threads,warmups,runs,medianMs,minMs,maxMs,"
            + "runTimesMs,mteps,vsJavaCsr,verified,verification\n");
        for (final Row row : rows) {
            final StringBuilder times = new StringBuilder();
            for (final double t : row.runMillis) {
                times.append(times.length() == 0 ? "" : " ").append(num(t));
            }
            sb.append(String.join(",", quote(row.graph), row.app.id(), row.impl, row.threads, Integer.toString(w),
                Integer.toString(r), num(row.median()), num(row.min()), num(row.max()), times,
                Double.isNaN(row.mteps()) ? "" : num(row.mteps()), num(row.vsJava()), row.verified(),
                quote(row.verification.detail()))).append('\n');
        }
        return sb.toString();
    }

    private String json(final RunInfo info, final String loadAtEnd, final int w, final int r,
        final List<Map<String, Object>> graphInfo, final List<Row> rows, final Set<String> notes,
        final double wallSeconds) throws IOException {
        final Map<String, Object> m = new LinkedHashMap<>();
        m.put("command", "bench-graphs");
        m.put("quick", quick);
        m.put("machine", info.asMap());
        m.put("loadAverageAtEnd", loadAtEnd);
        m.put("devices", devices);
        m.put("threadsPerDevice", threads / devices);
        m.put("warmups", w);
        m.put("runs", r);
        m.put("prIterations", prIterations);
        m.put("graphs", graphInfo);
        final List<Map<String, Object>> list = new ArrayList<>();
        for (final Row row : rows) {
            final Map<String, Object> x = new LinkedHashMap<>();
            x.put("graph", row.graph);
            x.put("app", row.app.id());
            x.put("implementation", row.impl);
            x.put("threads", row.threads);
            x.put("medianMs", round(row.median()));
            x.put("minMs", round(row.min()));
            x.put("maxMs", round(row.max()));
            final List<Double> times = new ArrayList<>();
            for (final double t : row.runMillis) {
                times.add(round(t));
            }
            x.put("runTimesMs", times);
            if (!Double.isNaN(row.mteps())) {
                x.put("edgesTraversed", row.edgesTraversed);
                x.put("mteps", round(row.mteps()));
            }
            x.put("vsJavaCsr", round(row.vsJava()));
            x.put("verified", row.verified());
            x.put("verification", row.verification.detail());
            list.add(x);
        }
        m.put("rows", list);
        m.put("notes", new ArrayList<>(notes));
        m.put("wallSeconds", round(wallSeconds));
        return JSON.std.with(JSON.Feature.PRETTY_PRINT_OUTPUT).asString(m) + "\n";
    }

    private static String quote(final String s) {
        return s.indexOf(',') < 0 && s.indexOf('"') < 0 && s.indexOf('\n') < 0 ? s : '"' + s.replace("\"", "\"\"") + '"';
    }

    private static String num(final double v) {
        return Double.isNaN(v) ? "" : String.format(Locale.ROOT, "%.4f", v).replaceAll("0+$", "").replaceAll("\\.$", "");
    }

    private static double round(final double x) {
        return Double.isFinite(x) ? Math.round(x * 1000) / 1000.0 : x;
    }

    private static void write(final Path file, final String text) throws IOException {
        final Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.write(tmp, text.getBytes(StandardCharsets.UTF_8));
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }
}
