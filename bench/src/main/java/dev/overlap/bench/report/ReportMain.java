package dev.overlap.bench.report;

import dev.overlap.graph.cli.UsageErrors;
import org.openjdk.jmh.runner.BenchmarkList;
import org.openjdk.jmh.runner.BenchmarkListEntry;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.format.OutputFormatFactory;
import org.openjdk.jmh.runner.options.CommandLineOptionException;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.VerboseMode;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * The report command, run from {@code bench/target/benchmarks.jar} (normally through {@code ./overlap bench}):
 * <ul>
 *   <li>{@code run [--quick|--full] [--include REGEX]... [--out DIR] [--baseline OLD.json] [-- JMH args]}: runs the
 *       JMH suite (one JMH invocation per class, JSON results), then writes the report;</li>
 *   <li>{@code report [--out DIR] [--baseline OLD.json] RESULT.json...}: writes the report from existing results.</li>
 * </ul>
 * Exit codes: 0 done; 1 a benchmark failed (JMH {@code -foe true}); 2 bad input or usage (nothing written);
 * 3 regressions against the baseline with {@code --fail-on-regression}.
 */
@Command(name = "overlap bench", mixinStandardHelpOptions = true, version = "overlap bench report 0.1.0",
    description = "Runs the JMH suite and turns its JSON into a Markdown/HTML report with SVG charts.",
    subcommands = {ReportMain.Run.class, ReportMain.Report.class, CommandLine.HelpCommand.class})
public final class ReportMain implements Runnable {
    static final int OK = 0;
    static final int BENCHMARK_FAILED = 1;
    static final int BAD_INPUT = 2;
    static final int REGRESSED = 3;
    static final String DEFAULT_TITLE = "Overlap performance report (JMH)";

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "missing subcommand: run or report");
    }

    /** @param args command-line arguments */
    public static void main(final String[] args) {
        System.exit(commandLine().execute(args));
    }

    /**
     * @return the configured command line: wrong arguments as one line on standard error and exit 2, as the
     *         {@code overlap} command reports them ({@link UsageErrors})
     */
    public static CommandLine commandLine() {
        final CommandLine cl = new CommandLine(new ReportMain());
        cl.setParameterExceptionHandler(new UsageErrors());
        cl.setExecutionExceptionHandler((e, cmd, parsed) -> {
            if (e instanceof ReportException) {
                cmd.getErr().println("overlap bench: " + e.getMessage());
                return BAD_INPUT;
            }
            throw e;
        });
        return cl;
    }

    /** Options shared by both subcommands. */
    static class ReportOptions {
        @Option(names = "--out", paramLabel = "DIR", description = "Report folder (replaced atomically; default: "
            + "${DEFAULT-VALUE}).", defaultValue = "${env:OVERLAP_ROOT:-.}/bench/target/bench-report")
        Path out;

        @Option(names = "--baseline", paramLabel = "OLD.json", description = "An earlier run's JMH JSON (e.g. a "
            + "report's results.json): adds a change column and marks regressions beyond the error bars.")
        Path baseline;

        @Option(names = "--fail-on-regression", description = "Exit with 3 when a row regressed against the "
            + "baseline.")
        boolean failOnRegression;

        @Option(names = "--title", description = "Report title (default: ${DEFAULT-VALUE}).",
            defaultValue = DEFAULT_TITLE)
        String title;
    }

    /** {@code report}: a report from existing JMH JSON. */
    @Command(name = "report", mixinStandardHelpOptions = true,
        description = "Writes the report folder (report.md, report.html, charts/*.svg, results.json) from JMH JSON "
            + "result files.")
    static final class Report implements Callable<Integer> {
        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @CommandLine.Mixin
        ReportOptions options = new ReportOptions();

        @Option(names = "--run-info", paramLabel = "run.json", description = "Machine and run information captured "
            + "at run start (default: run.json beside the first result file, else this machine now).")
        Path runInfo;

        @Parameters(arity = "1..*", paramLabel = "RESULT.json", description = "JMH JSON result files (-rf json), "
            + "merged in order.")
        List<Path> inputs;

        @Override
        public Integer call() throws ReportException, IOException {
            final ReportGenerator.Summary s = ReportGenerator.generate(new ReportGenerator.Options(inputs, options.out,
                options.baseline, runInfo, options.title, ReportMain.class.getClassLoader()));
            return done(spec.commandLine().getOut(), s, options);
        }
    }

    static int done(final PrintWriter out, final ReportGenerator.Summary s, final ReportOptions options) {
        out.printf(Locale.ROOT, "report: %s (%d results from %d classes, %d charts%s%s)%n",
            s.out().resolve("report.md"), s.results(), s.classes(), s.charts(),
            s.oversubscribed() > 0 ? ", " + s.oversubscribed() + " oversubscribed rows" : "",
            options.baseline != null ? ", " + s.regressions() + " regressions and " + s.improvements()
                + " improvements vs " + options.baseline : "");
        out.flush();
        return options.failOnRegression && s.regressions() > 0 ? REGRESSED : OK;
    }

    /** {@code run}: runs JMH, then writes the report. */
    @Command(name = "run", mixinStandardHelpOptions = true,
        description = "Runs the JMH suite of bench (JSON results, -foe true, one JMH invocation per benchmark class), "
            + "then writes the report folder: report.md, report.html, charts/*.svg, results.json, run.json.",
        footer = {"", "Regenerate a report from existing JMH JSON: overlap bench report --help",
            "Exit codes: 0 done, 1 a benchmark failed, 2 bad input or usage, 3 regression (--fail-on-regression)."})
    static final class Run implements Callable<Integer> {
        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @CommandLine.Mixin
        ReportOptions options = new ReportOptions();

        @CommandLine.ArgGroup
        Suite suite;

        static final class Suite {
            @Option(names = "--quick", description = "Short, honest settings (" + RunPlan.QUICK_SETTINGS
                + ", plus each class's @Quick overrides): the whole suite in under 10 minutes on 2 cores. Default.")
            boolean quick;

            @Option(names = "--full", description = "Publication settings: each benchmark's own @Fork/@Warmup/"
                + "@Measurement, else JMH defaults.")
            boolean full;
        }

        @Option(names = "--include", paramLabel = "REGEX", description = "Only benchmarks whose full name "
            + "(package.Class.method) contains a match; repeatable.")
        List<String> includes = new ArrayList<>();

        @Option(names = "--work", paramLabel = "DIR", description = "Where raw JMH results of runs go, one "
            + "timestamped folder per run (default: ${DEFAULT-VALUE}).",
            defaultValue = "${env:OVERLAP_ROOT:-.}/bench/target/bench-runs")
        Path work;

        @Option(names = "--repo", paramLabel = "DIR", description = "Repository for the git commit in the report "
            + "header (default: ${DEFAULT-VALUE}).", defaultValue = "${env:OVERLAP_ROOT:-.}")
        Path repo;

        @Option(names = "--dry-run", description = "Print the plan and its time estimate; run nothing.")
        boolean dryRun;

        @Parameters(paramLabel = "JMH_ARG", description = "Extra JMH options after --, applied last to every "
            + "class (e.g. -- -p mode=BULK -prof gc).")
        List<String> jmhArgs = new ArrayList<>();

        @Override
        public Integer call() throws ReportException, IOException {
            final PrintWriter out = spec.commandLine().getOut();
            final boolean quick = suite == null || !suite.full;
            final Collection<BenchmarkListEntry> entries = BenchmarkList.defaultList()
                .getAll(OutputFormatFactory.createFormatInstance(System.out, VerboseMode.SILENT), List.of());
            final RunPlan plan = RunPlan.plan(entries, includes, quick, jmhArgs, ReportMain.class.getClassLoader());
            if (plan.runs.isEmpty()) {
                throw new ReportException("no benchmark matches " + (includes.isEmpty() ? "(the jar has none)"
                    : "--include " + String.join(" ", includes)));
            }
            printPlan(out, plan);
            if (dryRun) {
                return OK;
            }
            final Path dir = work.resolve(LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")));
            Files.createDirectories(dir);
            useRunTmpdir(dir, out);
            final RunInfo info = RunInfo.capture(repo, "at run start");
            info.values.put("suite", quick ? "quick" : "full");
            info.values.put("settings", quick ? "`" + RunPlan.QUICK_SETTINGS + "` plus each class's `@Quick`"
                : "each benchmark's annotations, else JMH defaults");
            if (!plan.userArgs.isEmpty()) {
                info.values.put("settings", info.string("settings") + ", extra `" + String.join(" ", plan.userArgs)
                    + "`");
            }
            info.values.put("estimatedSeconds", Math.round(plan.estimateSeconds()));
            info.write(dir.resolve(RunInfo.FILE));

            final long start = System.nanoTime();
            final List<Object> merged = new ArrayList<>();
            final Map<String, Object> perClass = new LinkedHashMap<>();
            for (final RunPlan.ClassRun r : plan.runs) {
                final Path json = dir.resolve(r.simpleName() + ".json");
                final List<String> args = new ArrayList<>(r.args());
                args.addAll(List.of("-foe", "true", "-rf", "json", "-rff", json.toString()));
                out.printf(Locale.ROOT, "%n== %s: %d combinations, estimated %s%n", r.className(), r.combos(),
                    Format.duration(r.estimateSeconds()));
                out.flush();
                final long t0 = System.nanoTime();
                try {
                    new Runner(new CommandLineOptions(args.toArray(new String[0]))).run();
                } catch (final RunnerException | CommandLineOptionException e) {
                    spec.commandLine().getErr().println("overlap bench: benchmark " + r.className() + " failed: "
                        + e.getMessage() + "\n  (raw results so far: " + dir + "; no report written)");
                    return BENCHMARK_FAILED;
                }
                final double secs = (System.nanoTime() - t0) / 1e9;
                perClass.put(r.simpleName(), Map.of("seconds", Math.round(secs), "estimatedSeconds",
                    Math.round(r.estimateSeconds())));
                out.printf(Locale.ROOT, "== %s: %s (estimated %s)%n", r.simpleName(), Format.duration(secs),
                    Format.duration(r.estimateSeconds()));
                merged.addAll(JmhJson.readRaw(json));
            }
            final double elapsed = (System.nanoTime() - start) / 1e9;
            info.values.put("elapsedSeconds", Math.round(elapsed));
            info.values.put("classes", perClass);
            info.write(dir.resolve(RunInfo.FILE));
            final Path results = dir.resolve("results.json");
            JmhJson.writeRaw(merged, results);
            out.printf(Locale.ROOT, "%nJMH done in %s (estimated %s); results: %s%n", Format.duration(elapsed),
                Format.duration(plan.estimateSeconds()), results);
            final ReportGenerator.Summary s = ReportGenerator.generate(new ReportGenerator.Options(List.of(results),
                options.out, options.baseline, dir.resolve(RunInfo.FILE), options.title,
                ReportMain.class.getClassLoader()));
            return done(out, s, options);
        }

        private static void useRunTmpdir(final Path dir, final PrintWriter out) throws IOException {
            final String current = System.getProperty("java.io.tmpdir", "");
            final String system = System.getProperty("os.name", "").startsWith("Windows") ? "" : "/tmp";
            if (current.isEmpty() || current.replaceAll("/+$", "").equals(system)) {
                // JMH takes a machine-wide lock at $java.io.tmpdir/jmh.lock (read when its Runner class loads, which
                // has not happened yet): keep it private to this run so other engineers' runs do not collide.
                final Path tmp = Files.createDirectories(dir.resolve("tmp"));
                System.setProperty("java.io.tmpdir", tmp.toAbsolutePath().toString());
                out.println("JMH lock directory: " + tmp);
            }
        }

        static void printPlan(final PrintWriter out, final RunPlan plan) {
            out.printf(Locale.ROOT, "Plan (%s): %d classes%n", plan.quick ? "--quick" : "--full", plan.runs.size());
            for (final RunPlan.ClassRun r : plan.runs) {
                out.printf(Locale.ROOT, "  %-40s %4d combinations  ~%-12s %s%n", r.simpleName(), r.combos(),
                    Format.duration(r.estimateSeconds()), r.settings());
            }
            out.printf(Locale.ROOT, "Estimated JMH time: %s%s%n", Format.duration(plan.estimateSeconds()),
                plan.quick && plan.estimateSeconds() > RunPlan.QUICK_BUDGET_SECONDS
                    ? "  WARNING: over the quick budget of " + Format.duration(RunPlan.QUICK_BUDGET_SECONDS)
                    + ": add or tighten @Quick on the largest classes" : "");
            for (final String n : plan.notes) {
                out.println("Note: " + n);
            }
            out.flush();
        }
    }

    /** For tests: runs the command line with captured output. */
    static int execute(final PrintStream out, final PrintStream err, final String... args) {
        final CommandLine cl = commandLine();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        return cl.execute(args);
    }
}
