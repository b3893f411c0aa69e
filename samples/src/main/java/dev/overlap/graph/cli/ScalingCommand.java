package dev.overlap.graph.cli;

import dev.overlap.graph.ConsoleProgress;
import dev.overlap.graph.CsrGraph;
import dev.overlap.graph.Progress;
import dev.overlap.graph.app.AppRunner;
import dev.overlap.graph.app.AppSettings;
import dev.overlap.graph.app.Algorithms;
import dev.overlap.graph.app.GraphAlgorithms;
import dev.overlap.graph.app.GraphApp;
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
import java.util.Locale;
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
 * <p>The command parses and checks its options, chooses the source and the output directory, and hands the running
 * to {@link ScalingSweep} and the CSV, chart, JSON and table to {@link ScalingReport}.
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

    /** The modes a sweep over device counts compares (solo and auto do not use the devices). */
    private static final java.util.List<String> MODES = java.util.List.of("async", "bsp");

    /** Finds the provider of a mode; tests replace it. */
    java.util.function.Function<String, GraphAlgorithms> lookup = Algorithms::forMode;

    @Override
    public Integer call() throws IOException {
        final CommandLine cl = spec.commandLine();
        validate(cl);
        final AppSettings settings = settings(cl);
        final GraphAlgorithms algorithms;
        try {
            algorithms = lookup.apply(modeOptions.mode(cl, "bsp", MODES));
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
        final ScalingSweep.Result result = new ScalingSweep(app, algorithms, settings, maxDevices, threadsPerDevice,
            partitionOf(), warmups, runs, !output.noVerify).run(g, src, cores, progress);
        final ScalingReport report = new ScalingReport(app, algorithms.mode(), loaded.name, g.vertexCount(),
            g.edgeCount(), threadsPerDevice, runs, cores, result);
        final Path csv = out.resolve("scaling.csv");
        final Path svg = out.resolve("scaling.svg");
        write(csv, report.csv());
        write(svg, report.svg());
        final PrintWriter pw = cl.getOut();
        if (output.json) {
            pw.println(report.json(src, csv, svg));
        } else {
            report.print(pw, csv, svg);
        }
        pw.flush();
        int failed = 0;
        for (final ScalingPoint p : result.points) {
            if (!p.verification.passed()) {
                cl.getErr().println("overlap scaling: verification FAILED on " + p.devices + " device"
                    + (p.devices == 1 ? "" : "s") + ": " + p.verification.detail());
                failed++;
            }
        }
        cl.getErr().flush();
        return failed == 0 ? 0 : 1;
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
        modeOptions.mode(cl, "bsp", MODES);
        final AppSettings.Builder b = modeOptions.settings(cl, app.autoQueue());
        b.direction(BfsCommand.direction(cl, direction));
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
}
