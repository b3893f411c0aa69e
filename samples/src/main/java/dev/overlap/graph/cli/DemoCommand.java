package dev.overlap.graph.cli;

import dev.overlap.graph.ConsoleProgress;
import dev.overlap.graph.Progress;
import dev.overlap.graph.app.AppRunner;
import dev.overlap.graph.app.Algorithms;
import dev.overlap.graph.app.GraphAlgorithms;
import dev.overlap.graph.app.GraphApp;
import dev.overlap.graph.app.Warmup;
import dev.overlap.graph.gen.GraphSpec;
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
 * ({@code bsp}, {@code async}, and the one-thread path {@code solo}; each named explicitly, never chosen by
 * {@code auto}, so the table compares the modes) and Jacobi in the PROACT transfer modes, including
 * the profiler's choice — on graphs generated in memory, each answer verified against the single-threaded Java
 * reference, and one comparison table (or one JSON object with {@code --json}) with the time of the plain
 * single-threaded Java CSR run beside every mesh run.
 *
 * <p>Each measured row is {@code --warmups} untimed runs (default 10), continued until they have lasted
 * {@code --warmup-ms} (default 500), and the median of {@code --runs} timed runs (default 7) on the placed graph; the
 * sequential reference is measured the same way. The warm-ups are many because every mode shares one JVM: with one, a
 * row's runs overlapped its own C2 compilations, which take a core of two from a two-worker run, and the rows' "vs seq"
 * changed from run to run of the same code; and they last a time as well as a count because ten runs of a few
 * milliseconds could end before the optimising compiler had compiled the run's loops ({@link Warmup}). A mode without
 * a provider is skipped with a one-line note, and so is an app a provider does not support. Exit codes: 0 every answer
 * verified, 1 a verification failed (each failure in one line on standard error) or a runtime problem, 2 wrong
 * arguments.
 *
 * <p>The command parses and checks its options and finds the modes' providers; {@link DemoRun} runs, times and
 * verifies every row, and {@link DemoReport} prints the table or the JSON.
 *
 * <p>Not thread-safe: picocli fills and runs one instance per invocation, in one thread.
 */
@Command(name = "demo", mixinStandardHelpOptions = true, sortOptions = false,
    description = "The main job: BFS, PageRank and SSSP (bsp, async, solo and coop modes) and Jacobi (PROACT transfer modes, incl. "
        + "the profiler's choice) on generated graphs; every answer verified; one comparison table with the "
        + "single-threaded Java CSR time.")
public final class DemoCommand implements Callable<Integer> {
    private static final List<String> KNOWN_MODES = List.of("bsp", "async", "solo", "coop");
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

    @Option(names = "--modes", paramLabel = "MODE", split = ",", splitSynopsisLabel = ",", defaultValue = "bsp,async,solo,coop",
        description = "execution modes of bfs/pr/sssp, each row run in the mode named (never auto: the demo compares "
            + "them, and marks the one auto picks); solo is the one-thread path on one device, coop every worker of "
            + "one device; an app a mode does not have, or a mode without a provider, is skipped with a note "
            + "(default: ${DEFAULT-VALUE})")
    List<String> modes;

    @Mixin
    MeshOptions meshOptions;

    @Option(names = "--warmups", paramLabel = "N", defaultValue = "10", description = "untimed runs before the timed "
        + "ones, per row (default: ${DEFAULT-VALUE})")
    int warmups;

    @Option(names = "--warmup-ms", paramLabel = "MS", defaultValue = "500", description = "keep warming up past "
        + "--warmups until the untimed runs have lasted this long, per row (default: ${DEFAULT-VALUE})")
    long warmupMillis;

    @Option(names = "--runs", paramLabel = "N", defaultValue = "7", description = "timed runs per row; the table shows "
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
            .partitioning(meshOptions.partitioning()).warmups(warmups).warmupMillis(warmupMillis).runs(runs).build();
        final DemoRun run = new DemoRun(graphs, graphApps, providers, runner, appSet.contains("jacobi"), jacobiSize,
            seed);
        final DemoRun.Result result;
        try (Progress.Task task = ConsoleProgress.forConsole(quiet).start("overlap demo", run.steps(), "steps", 1)) {
            result = run.run(task, notes);
        }
        final double wallSeconds = (System.nanoTime() - wallStart) / 1e9;
        final DemoReport report = new DemoReport(devices, threads, meshOptions.partition.name(), runner.warmup(), runs,
            Runtime.getRuntime().availableProcessors());
        final PrintWriter out = cl.getOut();
        if (json) {
            out.println(report.json(result, wallSeconds));
        } else {
            report.print(out, result, wallSeconds);
        }
        out.flush();
        final List<DemoRow> failed = result.failed();
        for (final DemoRow r : failed) {
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
                throw new CommandLine.ParameterException(cl, "--modes: unknown mode '" + m + "': expected bsp, async, solo or coop");
            }
        }
        if (warmups < 0 || warmups > 100) {
            throw new CommandLine.ParameterException(cl, "--warmups must be in 0..100, was " + warmups);
        }
        if (warmupMillis < 0 || warmupMillis > 60_000) {
            throw new CommandLine.ParameterException(cl, "--warmup-ms must be in 0..60000, was " + warmupMillis);
        }
        if (runs < 1 || runs > 100) {
            throw new CommandLine.ParameterException(cl, "--runs must be in 1..100, was " + runs);
        }
        if (jacobiSize < meshOptions.devices || jacobiSize > Integer.MAX_VALUE / 16) {
            throw new CommandLine.ParameterException(cl, "--jacobi-size must be in " + meshOptions.devices + ".."
                + Integer.MAX_VALUE / 16 + " (at least one row per device), was " + jacobiSize);
        }
    }
}
