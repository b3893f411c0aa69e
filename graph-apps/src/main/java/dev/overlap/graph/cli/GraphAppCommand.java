package dev.overlap.graph.cli;

import dev.overlap.core.Mesh;
import dev.overlap.graph.ConsoleProgress;
import dev.overlap.graph.CsrGraph;
import dev.overlap.graph.Progress;
import dev.overlap.graph.app.AppResult;
import dev.overlap.graph.app.AppSettings;
import dev.overlap.graph.app.Algorithms;
import dev.overlap.graph.app.GraphAlgorithms;
import dev.overlap.graph.partition.DeviceGraph;
import dev.overlap.graph.partition.Partition;
import dev.overlap.graph.ref.Verification;
import dev.overlap.graph.report.RunReport;
import picocli.CommandLine;
import picocli.CommandLine.Mixin;

import java.io.IOException;
import java.io.PrintWriter;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;

/**
 * The shared flow of {@code overlap bfs|pr|sssp}: validate, load or generate the graph, partition it, size and
 * build the mesh, place the graph, run the app in the chosen mode, verify against the sequential reference, print
 * the report. Exit codes: 0 verified (or not checked), 1 verification failed or a runtime problem (bad file:
 * file:line: reason), 2 wrong arguments (picocli usage with the reason).
 */
abstract class GraphAppCommand implements Callable<Integer> {
    private static final long SLACK = 8L << 20;
    private static final long MAX_DEVICE_BYTES = Integer.MAX_VALUE - 4095L;

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

    @CommandLine.Option(names = "--source", paramLabel = "V", description = "source vertex (default: a random vertex "
        + "with edges, chosen by --seed)")
    Integer source;

    @CommandLine.Option(names = "--runs", paramLabel = "N", defaultValue = "1", description = "run the app this many times on the placed "
        + "graph; the report gives the median time, every run's time and verifies the last (default: ${DEFAULT-VALUE})")
    int runs;

    /** @return app name for reports */
    abstract String app();

    /** @return true when the app needs edge weights */
    boolean weighted() {
        return false;
    }

    /** @return true when the app starts from a source vertex */
    boolean hasSource() {
        return true;
    }

    /** @return the async worklist {@code --queue auto} picks for this app (FIFO unless overridden) */
    AppSettings.Queue autoQueue() {
        return AppSettings.Queue.FIFO;
    }

    /** Adds app-specific settings; throws ParameterException for bad values. */
    void configure(final AppSettings.Builder settings) {
    }

    /** @return the graph to place for {@code algorithms}: the graph itself, or its reverse for pull algorithms */
    CsrGraph placed(final CsrGraph g, final GraphAlgorithms algorithms) {
        return g;
    }

    /** Runs the app. */
    abstract AppResult run(GraphAlgorithms algorithms, DeviceGraph dg, CsrGraph g, int src, AppSettings settings);

    /** @return the verification of {@code result} (called unless --no-verify) */
    abstract Verification verify(CsrGraph g, int src, AppSettings settings, AppResult result);

    /** @return the TEPS numerator, 0 if the app is not a traversal */
    long edgesTraversed(final CsrGraph g, final AppResult result) {
        return 0;
    }

    /** Adds app-specific report fields. */
    void extras(final RunReport.Builder report, final CsrGraph g, final AppResult result) {
    }

    @Override
    public Integer call() throws IOException {
        final CommandLine cl = spec.commandLine();
        meshOptions.validate(cl);
        if (runs < 1 || runs > 1000) {
            throw new CommandLine.ParameterException(cl, "--runs must be in 1..1000, was " + runs);
        }
        final AppSettings.Builder sb = modeOptions.settings(cl, autoQueue());
        configure(sb);
        final AppSettings settings = sb.build();
        final GraphAlgorithms algorithms;
        try {
            algorithms = Algorithms.forMode(modeOptions.mode);
        } catch (final IllegalArgumentException e) {
            throw new CommandLine.ParameterException(cl, e.getMessage());
        }
        if (algorithms.mode().equals("bsp") && !output.quiet) {
            for (final String async : new String[] {"--queue", "--kernel", "--batch-bytes", "--wait", "--fetch", "--delta"}) {
                if (cl.getParseResult().hasMatchedOption(async)) {
                    cl.getErr().println("overlap " + app() + ": note: " + async + " applies to --mode async; the bsp "
                        + "baseline ignores it");
                    cl.getErr().flush();
                }
            }
        }
        final Progress progress = ConsoleProgress.forConsole(output.quiet);
        final GraphInputOptions.Loaded loaded = input.load(weighted(), progress);
        final CsrGraph g = loaded.graph;
        if (g.vertexCount() == 0) {
            throw new CommandLine.ParameterException(cl, "the graph has no vertices");
        }
        final int src = hasSource() ? chooseSource(g, cl) : 0;
        final int devices = meshOptions.devices;
        final int threads = meshOptions.threads();
        final Partition p = meshOptions.partition == MeshOptions.PartitionKind.hash ? Partition.byHash(g, devices)
            : meshOptions.partition == MeshOptions.PartitionKind.degree ? Partition.byEdgesDegreeOrdered(g, devices)
            : Partition.byEdges(g, devices);
        final CsrGraph toPlace = placed(g, algorithms);
        long perDevice = 0;
        int maxOwned = 0;
        for (int d = 0; d < devices; d++) {
            perDevice = Math.max(perDevice, DeviceGraph.bytesNeeded(toPlace, p, d, weighted()));
            maxOwned = Math.max(maxOwned, p.size(d));
        }
        perDevice += algorithms.stateBytesPerDevice(g.vertexCount(), maxOwned, devices, threads, settings) + SLACK;
        if (perDevice > MAX_DEVICE_BYTES) {
            throw new IllegalStateException("the graph needs " + (perDevice >> 20) + " MiB per device on " + devices
                + " devices, more than a device holds (2 GiB): use more --devices");
        }
        try (Mesh mesh = Mesh.builder().name("overlap-" + app()).devices(devices).threadsPerDevice(threads)
            .memoryPerDevice(perDevice).build()) {
            final long placeStart = System.nanoTime();
            try (DeviceGraph dg = DeviceGraph.place(mesh, toPlace, p, weighted())) {
                final double placeMillis = (System.nanoTime() - placeStart) / 1e6;
                AppResult result = null;
                final double[] times = new double[runs];
                for (int r = 0; r < runs; r++) {
                    result = run(algorithms, dg, g, src, settings);
                    times[r] = result.nanos() / 1e6;
                }
                final double[] sorted = times.clone();
                java.util.Arrays.sort(sorted);
                final double median = sorted[runs / 2];
                final long refStart = System.nanoTime();
                final Verification v = output.noVerify ? Verification.skipped() : verify(g, src, settings, result);
                final double referenceMillis = (System.nanoTime() - refStart) / 1e6;
                final RunReport.Builder rb = RunReport.builder().app(app()).mode(modeOptions.mode)
                    .graph(loaded.name, g.vertexCount(), g.edgeCount())
                    .mesh(devices, threads, meshOptions.partition.name())
                    .times(loaded.millis, placeMillis, median)
                    .edgesTraversed(edgesTraversed(g, result)).counts(result.counts()).verification(v);
                if (hasSource()) {
                    rb.extra("source", src);
                }
                if (!output.noVerify) {
                    rb.extra("referenceMs", Math.round(referenceMillis * 1000) / 1000.0);
                }
                if (runs > 1) {
                    final StringBuilder list = new StringBuilder();
                    for (final double t : times) {
                        list.append(list.length() == 0 ? "" : " ").append(String.format(java.util.Locale.ROOT, "%.1f", t));
                    }
                    rb.extra("runs", runs).extra("runTimesMs", list.toString()).extra("bestMs", sorted[0]);
                }
                extras(rb, g, result);
                final RunReport report = rb.build();
                final PrintWriter out = cl.getOut();
                out.print(output.json ? report.toJson() + System.lineSeparator() : report.toTable());
                out.flush();
                if (!v.passed()) {
                    cl.getErr().println("overlap " + app() + ": verification FAILED: " + v.detail());
                    cl.getErr().flush();
                    return 1;
                }
                return 0;
            }
        }
    }

    private int chooseSource(final CsrGraph g, final CommandLine cl) {
        if (source != null) {
            if (source < 0 || source >= g.vertexCount()) {
                throw new CommandLine.ParameterException(cl, "--source " + source + " is outside 0.."
                    + (g.vertexCount() - 1));
            }
            return source;
        }
        final SplittableRandom rnd = new SplittableRandom(input.seed ^ 0x5DEECE66DL);
        for (int tries = 0; tries < 64; tries++) {
            final int v = rnd.nextInt(g.vertexCount());
            if (g.degree(v) > 0) {
                return v;
            }
        }
        for (int v = 0; v < g.vertexCount(); v++) {
            if (g.degree(v) > 0) {
                return v;
            }
        }
        return 0;
    }

    /** @return edges out of the vertices the result marks reached */
    static long edgesOfReached(final CsrGraph g, final int[] depths) {
        long m = 0;
        for (int v = 0; v < depths.length; v++) {
            if (depths[v] >= 0) {
                m += g.degree(v);
            }
        }
        return m;
    }

    /** @return vertices with a depth */
    static long reached(final int[] depths) {
        long r = 0;
        for (final int d : depths) {
            r += d >= 0 ? 1 : 0;
        }
        return r;
    }
}
