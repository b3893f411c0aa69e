package dev.overlap.graph.cli;

import com.fasterxml.jackson.jr.ob.JSON;
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
import dev.overlap.graph.ref.Verification;
import dev.overlap.graph.report.ScalingChart;
import dev.overlap.graph.report.TextTable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code overlap scaling bfs|pr|sssp}: a strong-scaling sweep. The same graph and source run on 1, 2, ...,
 * {@code --max-devices} devices of {@code --threads-per-device} workers each (a fresh mesh per device count,
 * {@code --warmups} untimed runs, the median of {@code --runs}), each answer verified, beside the single-threaded Java
 * run on the host CSR. Writes {@code DIR/scaling.csv} and {@code DIR/scaling.svg} (time and speedup against devices) and prints
 * a table. Device counts whose busy threads outnumber the cores are marked: they measure time slicing as much as
 * the code.
 *
 * <p>Exit codes: 0 done and verified, 1 a verification failed or a runtime problem (both files are still written,
 * with the failure in the {@code verified} column), 2 wrong arguments.
 *
 * <p>Not thread-safe: picocli fills and runs one instance per invocation, in one thread.
 */
@Command(name = "scaling", mixinStandardHelpOptions = true, sortOptions = false,
    description = "Strong scaling: run bfs, pr or sssp on 1..N devices, verify each, write DIR/scaling.csv and "
        + "DIR/scaling.svg and print a table.")
public final class ScalingCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /** Parses the app name; a bad one is a usage error listing the choices. */
    static final class AppConverter implements CommandLine.ITypeConverter<GraphApp> {
        @Override
        public GraphApp convert(final String value) {
            try {
                return GraphApp.parse(value);
            } catch (final IllegalArgumentException e) {
                throw new CommandLine.TypeConversionException(e.getMessage());
            }
        }
    }

    @Parameters(index = "0", paramLabel = "APP", converter = AppConverter.class, description = "bfs, pr or sssp")
    GraphApp app;

    @Mixin
    GraphInputOptions input;

    @Option(names = "--max-devices", paramLabel = "N", defaultValue = "4", description = "largest device count; the "
        + "sweep runs 1..N (default: ${DEFAULT-VALUE})")
    int maxDevices;

    @Option(names = "--threads-per-device", paramLabel = "T", defaultValue = "1", description = "workers per device "
        + "(default: ${DEFAULT-VALUE})")
    int threadsPerDevice;

    @Option(names = "--partition", paramLabel = "KIND", defaultValue = "range", description = "range, hash or degree "
        + "(default: ${DEFAULT-VALUE})")
    MeshOptions.PartitionKind partition;

    @Mixin
    ModeOptions modeOptions;

    @Option(names = "--warmups", paramLabel = "N", defaultValue = "3", description = "untimed runs per device count, so "
        + "the first count is not charged for JIT compilation (default: ${DEFAULT-VALUE})")
    int warmups;

    @Option(names = "--runs", paramLabel = "R", defaultValue = "3", description = "timed runs per device count; the "
        + "median is reported (default: ${DEFAULT-VALUE})")
    int runs;

    @Option(names = "--out", paramLabel = "DIR", defaultValue = "scaling", description = "directory for scaling.csv and "
        + "scaling.svg, created if missing (default: ${DEFAULT-VALUE})")
    Path out;

    @Option(names = "--source", paramLabel = "V", description = "bfs/sssp source (default: a random vertex with edges, "
        + "chosen by --seed)")
    Integer source;

    @Option(names = "--direction", paramLabel = "DIR", defaultValue = "optimizing", description = "bfs: top-down "
        + "or optimizing (BSP direction switching, or the async hybrid) (default: ${DEFAULT-VALUE})")
    String direction;

    @Option(names = "--iterations", paramLabel = "N", description = "pr: exactly N iterations instead of iterating to "
        + "the tolerance")
    Integer iterations;

    @Option(names = "--tolerance", paramLabel = "T", defaultValue = "1e-4", description = "pr: L1 distance to the exact "
        + "ranks (default: ${DEFAULT-VALUE})")
    double tolerance;

    @Mixin
    OutputOptions output;

    /** Finds the provider of a mode; tests replace it. */
    java.util.function.Function<String, GraphAlgorithms> lookup = Algorithms::forMode;

    @Override
    public Integer call() throws IOException {
        final CommandLine cl = spec.commandLine();
        validate(cl);
        final AppSettings settings = settings(cl);
        final GraphAlgorithms algorithms;
        try {
            algorithms = lookup.apply(modeOptions.mode.toLowerCase(Locale.ROOT));
        } catch (final IllegalArgumentException e) {
            throw new CommandLine.ParameterException(cl, e.getMessage());
        }
        if (Files.exists(out) && !Files.isDirectory(out)) {
            throw new CommandLine.ParameterException(cl, "--out " + out + " exists and is not a directory");
        }
        // before the runs, so that a directory that cannot be created fails at once (naming it), not after them
        CliErrors.createOutputDirectory(out, "--out");
        final Progress progress = ConsoleProgress.forConsole(output.quiet);
        final GraphInputOptions.Loaded loaded = input.load(app.weighted(), progress);
        final CsrGraph g = loaded.graph;
        if (g.vertexCount() == 0) {
            throw new CommandLine.ParameterException(cl, "the graph has no vertices");
        }
        final int src;
        if (source != null) {
            if (!app.hasSource()) {
                throw new CommandLine.ParameterException(cl, "pr ranks every vertex: --source does not apply");
            }
            if (source < 0 || source >= g.vertexCount()) {
                throw new CommandLine.ParameterException(cl, "--source " + source + " is outside 0.."
                    + (g.vertexCount() - 1));
            }
            src = source;
        } else {
            src = GraphApp.defaultSource(g, input.seed);
        }
        final int cores = Runtime.getRuntime().availableProcessors();
        final List<Point> points = new ArrayList<>();
        final double seqMillis;
        final GraphApp.Expected expected;
        try (Progress.Task task = progress.start("overlap scaling " + app, maxDevices + 1, "runs", 1)) {
            AppResult seq = null;
            final double[] seqTimes = new double[runs];
            for (int r = -warmups; r < runs; r++) {
                seq = app.sequential(g, src, settings);
                if (r >= 0) {
                    seqTimes[r] = seq.nanos() / 1e6;
                }
            }
            seqMillis = AppRunner.median(seqTimes);
            expected = output.noVerify ? null : app.expected(g, src, settings, seq);
            task.stepBy(1);
            for (int d = 1; d <= maxDevices; d++) {
                final AppRunner runner = AppRunner.builder().devices(d).threadsPerDevice(threadsPerDevice)
                    .partitioning(partitionOf()).warmups(warmups).runs(runs).build();
                final AppRunner.Measurement m = runner.measure(g, app, algorithms, src, settings);
                final Verification v = expected == null ? Verification.skipped() : expected.check(m.result());
                points.add(new Point(d, m, app.edgesTraversed(g, m.result()), v, d * threadsPerDevice > cores));
                task.stepBy(1);
            }
        }
        final String title = app + " " + algorithms.mode() + " on " + loaded.name + ": " + threadsPerDevice
            + " worker" + (threadsPerDevice == 1 ? "" : "s") + " per device, " + cores + " cores";
        final Path csv = out.resolve("scaling.csv");
        final Path svg = out.resolve("scaling.svg");
        write(csv, csv(loaded.name, g, algorithms.mode(), points, seqMillis));
        write(svg, chart(title, points, seqMillis));
        final PrintWriter pw = cl.getOut();
        if (output.json) {
            pw.println(json(loaded.name, g, algorithms.mode(), src, points, seqMillis, csv, svg));
        } else {
            printTable(pw, title, points, seqMillis, cores, csv, svg);
        }
        pw.flush();
        int failed = 0;
        for (final Point p : points) {
            if (!p.verification.passed()) {
                cl.getErr().println("overlap scaling: verification FAILED on " + p.devices + " device"
                    + (p.devices == 1 ? "" : "s") + ": " + p.verification.detail());
                failed++;
            }
        }
        cl.getErr().flush();
        return failed == 0 ? 0 : 1;
    }

    /** One device count's measurement. */
    private static final class Point {
        final int devices;
        final AppRunner.Measurement m;
        final long edgesTraversed;
        final Verification verification;
        final boolean oversubscribed;

        Point(final int devices, final AppRunner.Measurement m, final long edgesTraversed, final Verification v,
            final boolean oversubscribed) {
            this.devices = devices;
            this.m = m;
            this.edgesTraversed = edgesTraversed;
            this.verification = v;
            this.oversubscribed = oversubscribed;
        }

        double median() {
            return m.medianMillis();
        }

        double worst() {
            double w = 0;
            for (final double t : m.runMillis()) {
                w = Math.max(w, t);
            }
            return w;
        }

        double mteps() {
            return edgesTraversed > 0 && median() > 0 ? edgesTraversed / (median() * 1e3) : Double.NaN;
        }

        String verified() {
            return verification.isSkipped() ? "skipped" : verification.passed() ? "passed" : "FAILED";
        }
    }

    private void validate(final CommandLine cl) {
        if (maxDevices < 1 || maxDevices > 64) {
            throw new CommandLine.ParameterException(cl, "--max-devices must be in 1..64, was " + maxDevices);
        }
        if (threadsPerDevice < 1 || threadsPerDevice > 1024) {
            throw new CommandLine.ParameterException(cl, "--threads-per-device must be in 1..1024, was "
                + threadsPerDevice);
        }
        if (runs < 1 || runs > 1000) {
            throw new CommandLine.ParameterException(cl, "--runs must be in 1..1000, was " + runs);
        }
        if (warmups < 0 || warmups > 100) {
            throw new CommandLine.ParameterException(cl, "--warmups must be in 0..100, was " + warmups);
        }
        if (app != GraphApp.PAGERANK && (iterations != null || cl.getParseResult().hasMatchedOption("--tolerance"))) {
            throw new CommandLine.ParameterException(cl, "--iterations and --tolerance are pr options, not " + app);
        }
        if (app != GraphApp.BFS && cl.getParseResult().hasMatchedOption("--direction")) {
            throw new CommandLine.ParameterException(cl, "--direction is a bfs option, not " + app);
        }
    }

    private AppSettings settings(final CommandLine cl) {
        final AppSettings.Builder b = modeOptions.settings(cl, app.autoQueue());
        switch (direction) {
            case "top-down":
                b.direction(AppSettings.Direction.TOP_DOWN);
                break;
            case "optimizing":
                b.direction(AppSettings.Direction.OPTIMIZING);
                break;
            default:
                throw new CommandLine.ParameterException(cl, "--direction must be top-down or optimizing, was '"
                    + direction + "'");
        }
        try {
            b.tolerance(tolerance);
            if (iterations != null) {
                if (iterations < 1) {
                    throw new IllegalArgumentException("--iterations must be >= 1, was " + iterations);
                }
                b.fixedIterations(iterations);
            }
        } catch (final IllegalArgumentException e) {
            throw new CommandLine.ParameterException(cl, e.getMessage());
        }
        return b.build();
    }

    private AppRunner.Partitioning partitionOf() {
        switch (partition) {
            case hash:
                return AppRunner.Partitioning.HASH;
            case degree:
                return AppRunner.Partitioning.DEGREE;
            default:
                return AppRunner.Partitioning.RANGE;
        }
    }

    private static void write(final Path file, final String text) throws IOException {
        final Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.write(tmp, text.getBytes(StandardCharsets.UTF_8));
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    private static String chart(final String title, final List<Point> points, final double seqMillis) {
        final int n = points.size();
        final int[] devices = new int[n];
        final double[] median = new double[n];
        final double[] min = new double[n];
        final double[] max = new double[n];
        final boolean[] over = new boolean[n];
        for (int i = 0; i < n; i++) {
            final Point p = points.get(i);
            devices[i] = p.devices;
            median[i] = p.median();
            min[i] = p.m.bestMillis();
            max[i] = p.worst();
            over[i] = p.oversubscribed;
        }
        return ScalingChart.svg(title, devices, median, min, max, over, seqMillis);
    }

    /** CSV header; one line per device count follows. */
    static final String CSV_HEADER = "app,mode,graph,vertices,edges,devices,threadsPerDevice,threads,oversubscribed,"
        + "medianMs,minMs,maxMs,runTimesMs,mteps,speedup,efficiency,sequentialMs,vsSequential,iterations,visited,ideal,"
        + "normalizedWork,localPushes,remotePushes,remoteAtomics,messages,bytesSent,verified";

    private String csv(final String graph, final CsrGraph g, final String mode, final List<Point> points,
        final double seqMillis) {
        final StringBuilder sb = new StringBuilder(CSV_HEADER).append('\n');
        final double base = points.get(0).median();
        for (final Point p : points) {
            final WorkCounts c = p.m.result().counts();
            final StringBuilder times = new StringBuilder();
            for (final double t : p.m.runMillis()) {
                times.append(times.length() == 0 ? "" : " ").append(num(t));
            }
            final String[] cells = {app.id(), mode, csvQuote(graph), Long.toString(g.vertexCount()),
                Long.toString(g.edgeCount()), Integer.toString(p.devices), Integer.toString(threadsPerDevice),
                Integer.toString(p.devices * threadsPerDevice), Boolean.toString(p.oversubscribed), num(p.median()),
                num(p.m.bestMillis()), num(p.worst()), times.toString(), Double.isNaN(p.mteps()) ? "" : num(p.mteps()),
                num(base / p.median()), num(base / p.median() / p.devices), num(seqMillis), num(seqMillis / p.median()),
                Long.toString(c.iterations()), Long.toString(c.visited()), Long.toString(c.ideal()),
                num(c.normalizedWork()), Long.toString(c.localPushes()), Long.toString(c.remotePushes()),
                Long.toString(c.remoteAtomics()), Long.toString(c.messages()), Long.toString(c.bytesSent()),
                p.verified()};
            sb.append(String.join(",", cells)).append('\n');
        }
        return sb.toString();
    }

    private static String num(final double v) {
        return String.format(Locale.ROOT, "%.4f", v).replaceAll("0+$", "").replaceAll("\\.$", "");
    }

    /** @return {@code s} quoted for CSV when it holds a comma, quote or line break */
    static String csvQuote(final String s) {
        if (s.indexOf(',') < 0 && s.indexOf('"') < 0 && s.indexOf('\n') < 0 && s.indexOf('\r') < 0) {
            return s;
        }
        return '"' + s.replace("\"", "\"\"") + '"';
    }

    private String json(final String graph, final CsrGraph g, final String mode, final int src,
        final List<Point> points, final double seqMillis, final Path csv, final Path svg) throws IOException {
        final Map<String, Object> m = new LinkedHashMap<>();
        m.put("command", "scaling");
        m.put("app", app.id());
        m.put("mode", mode);
        m.put("graph", graph);
        m.put("vertices", g.vertexCount());
        m.put("edges", g.edgeCount());
        if (app.hasSource()) {
            m.put("source", src);
        }
        m.put("threadsPerDevice", threadsPerDevice);
        m.put("cores", Runtime.getRuntime().availableProcessors());
        m.put("sequentialMs", Double.parseDouble(num(seqMillis)));
        final double base = points.get(0).median();
        final List<Map<String, Object>> rows = new ArrayList<>();
        for (final Point p : points) {
            final Map<String, Object> r = new LinkedHashMap<>();
            r.put("devices", p.devices);
            r.put("threads", p.devices * threadsPerDevice);
            r.put("oversubscribed", p.oversubscribed);
            r.put("medianMs", Double.parseDouble(num(p.median())));
            r.put("minMs", Double.parseDouble(num(p.m.bestMillis())));
            r.put("maxMs", Double.parseDouble(num(p.worst())));
            if (!Double.isNaN(p.mteps())) {
                r.put("mteps", Double.parseDouble(num(p.mteps())));
            }
            r.put("speedup", Double.parseDouble(num(base / p.median())));
            r.put("vsSequential", Double.parseDouble(num(seqMillis / p.median())));
            r.put("normalizedWork", Double.parseDouble(num(p.m.result().counts().normalizedWork())));
            r.put("remotePushes", p.m.result().counts().remotePushes());
            r.put("messages", p.m.result().counts().messages());
            r.put("verified", p.verified());
            r.put("verification", p.verification.detail());
            rows.add(r);
        }
        m.put("rows", rows);
        m.put("csv", csv.toString());
        m.put("svg", svg.toString());
        return JSON.std.asString(m);
    }

    private void printTable(final PrintWriter pw, final String title, final List<Point> points, final double seqMillis,
        final int cores, final Path csv, final Path svg) {
        pw.println("overlap scaling: " + title);
        pw.printf(Locale.ROOT, "single-threaded Java CSR: %.2f ms (median of %d)%n%n", seqMillis, runs);
        final TextTable t = new TextTable("devices", "threads", "median ms", "min ms", "max ms", "MTEPS", "speedup",
            "efficiency", "vs seq", "visited/ideal", "remote pushes", "messages", "<verified");
        final double base = points.get(0).median();
        boolean anyOver = false;
        for (final Point p : points) {
            anyOver |= p.oversubscribed;
            final WorkCounts c = p.m.result().counts();
            t.row(p.devices, p.devices * threadsPerDevice + (p.oversubscribed ? "*" : ""),
                TextTable.fixed(p.median(), 2), TextTable.fixed(p.m.bestMillis(), 2), TextTable.fixed(p.worst(), 2),
                TextTable.fixed(p.mteps(), 1), TextTable.fixed(base / p.median(), 2) + "x",
                TextTable.fixed(base / p.median() / p.devices * 100, 0) + "%",
                TextTable.fixed(seqMillis / p.median(), 2) + "x", TextTable.fixed(c.normalizedWork(), 2),
                TextTable.count(c.remotePushes()), TextTable.count(c.messages()), p.verified());
        }
        pw.print(t.toText());
        if (anyOver) {
            pw.printf(Locale.ROOT, "* more busy threads than the %d cores: time-sliced, so these rows measure the "
                + "scheduler as much as the code%n", cores);
        }
        pw.println("wrote " + csv + " and " + svg);
    }
}
