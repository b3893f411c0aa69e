package dev.overlap.bench.report;

import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.runner.BenchmarkListEntry;
import org.openjdk.jmh.runner.options.CommandLineOptionException;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.TimeValue;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

/**
 * Which JMH runs a report run makes: one JMH invocation per benchmark class (so a class's {@link Quick} param
 * overrides cannot leak into another class with a param of the same name), with its settings and a time estimate.
 *
 * <p>Precedence of settings: the user's extra JMH arguments, then (in {@code --quick}) the class's {@link Quick},
 * then the suite's quick settings; in {@code --full} the class's own annotations or JMH's defaults.
 */
final class RunPlan {
    /** Suite-wide quick settings: honest (warmed up, 3 measured iterations, error bars) but short. */
    static final int QUICK_FORKS = 1;
    static final int QUICK_WARMUP_ITERATIONS = 1;
    static final String QUICK_WARMUP_TIME = "1s";
    static final int QUICK_ITERATIONS = 3;
    static final String QUICK_TIME = "1s";
    static final String QUICK_SETTINGS = "-f " + QUICK_FORKS + " -wi " + QUICK_WARMUP_ITERATIONS + " -w "
        + QUICK_WARMUP_TIME + " -i " + QUICK_ITERATIONS + " -r " + QUICK_TIME;
    /** Cost of one fork besides its iterations: JVM start, JMH set-up, trial set-up and tear-down (measured: ~1 s). */
    static final double FORK_OVERHEAD_SECONDS = 1.0;
    /** The limit for --quick on 2 cores. */
    static final double QUICK_LIMIT_SECONDS = 600;
    /** What the quick estimate must stay under, leaving 10% for estimate error. */
    static final double QUICK_BUDGET_SECONDS = 540;
    /** Flag Agrona needs in every fork; repeated when the user passes -jvmArgsAppend (which replaces @Fork's). */
    static final String ADD_EXPORTS = "--add-exports java.base/jdk.internal.misc=ALL-UNNAMED";

    /**
     * One JMH invocation.
     *
     * @param className the benchmark class
     * @param benchmarks its selected benchmarks (full names)
     * @param args JMH arguments, without the result-file options
     * @param combos benchmark x mode x param combinations (each is at least one fork)
     * @param estimateSeconds estimated wall time
     * @param settings a short description of the settings
     */
    record ClassRun(String className, List<String> benchmarks, List<String> args, int combos, double estimateSeconds,
                    String settings) {
        String simpleName() {
            return className.substring(className.lastIndexOf('.') + 1);
        }
    }

    final boolean quick;
    final List<ClassRun> runs;
    final List<String> userArgs;
    final List<String> notes;

    private RunPlan(final boolean quick, final List<ClassRun> runs, final List<String> userArgs,
                    final List<String> notes) {
        this.quick = quick;
        this.runs = runs;
        this.userArgs = userArgs;
        this.notes = notes;
    }

    double estimateSeconds() {
        return runs.stream().mapToDouble(ClassRun::estimateSeconds).sum();
    }

    /**
     * @param entries the benchmarks in the jar ({@code META-INF/BenchmarkList})
     * @param includes regexes; a benchmark is selected when one of them is found in its full name (all when empty)
     * @param quick quick or full settings
     * @param extraArgs extra JMH arguments from the user, applied last
     * @param loader where the benchmark classes are (for {@link Quick})
     * @return the plan
     * @throws ReportException if the extra arguments or a {@link Quick} declaration are invalid
     */
    static RunPlan plan(final Collection<BenchmarkListEntry> entries, final List<String> includes,
                        final boolean quick, final List<String> extraArgs, final ClassLoader loader)
        throws ReportException {
        final List<String> notes = new ArrayList<>();
        final List<String> user = normalizeUserArgs(extraArgs, notes);
        final CommandLineOptions userOpts = parse(user, "extra JMH arguments");
        final List<Pattern> patterns = new ArrayList<>();
        for (final String inc : includes) {
            try {
                patterns.add(Pattern.compile(inc));
            } catch (final java.util.regex.PatternSyntaxException e) {
                throw new ReportException("--include " + inc + ": not a valid regular expression: "
                    + e.getDescription());
            }
        }
        final Map<String, List<BenchmarkListEntry>> byClass = new LinkedHashMap<>();
        entries.stream().sorted().filter(e -> patterns.isEmpty()
                || patterns.stream().anyMatch(p -> p.matcher(e.getUsername()).find()))
            .forEach(e -> byClass.computeIfAbsent(e.getUserClassQName(), k -> new ArrayList<>()).add(e));
        final List<ClassRun> runs = new ArrayList<>();
        for (final Map.Entry<String, List<BenchmarkListEntry>> c : byClass.entrySet()) {
            runs.add(classRun(c.getKey(), c.getValue(), quick, user, userOpts, loader));
        }
        return new RunPlan(quick, runs, user, notes);
    }

    private static ClassRun classRun(final String className, final List<BenchmarkListEntry> entries,
                                     final boolean quick, final List<String> user, final CommandLineOptions userOpts,
                                     final ClassLoader loader) throws ReportException {
        final Quick q = quick ? BenchmarkMeta.of(className, loader).quick : null;
        final String where = "@Quick on " + className;
        final Map<String, List<String>> overrides = new LinkedHashMap<>();
        if (q != null) {
            for (final String p : q.params()) {
                final int eq = p.indexOf('=');
                if (eq <= 0 || eq == p.length() - 1) {
                    throw new ReportException(where + ": params entry \"" + p + "\" is not name=v1,v2");
                }
                overrides.put(p.substring(0, eq).trim(), List.of(p.substring(eq + 1).split(",")));
            }
        }
        final List<String> args = new ArrayList<>();
        final LinkedHashSet<String> names = new LinkedHashSet<>();
        entries.forEach(e -> names.add(e.getUsername()));
        for (final String n : names) {
            args.add("^" + Pattern.quote(n) + "$");
        }
        final int forks;
        final int wi;
        final String w;
        final int i;
        final String r;
        if (quick) {
            forks = q != null && q.forks() >= 0 ? q.forks() : QUICK_FORKS;
            wi = q != null && q.warmupIterations() >= 0 ? q.warmupIterations() : QUICK_WARMUP_ITERATIONS;
            w = q != null && !q.warmupTime().isEmpty() ? q.warmupTime() : QUICK_WARMUP_TIME;
            i = q != null && q.iterations() >= 0 ? q.iterations() : QUICK_ITERATIONS;
            r = q != null && !q.time().isEmpty() ? q.time() : QUICK_TIME;
            time(w, where + " warmupTime");
            time(r, where + " time");
            args.addAll(List.of("-f", String.valueOf(forks), "-wi", String.valueOf(wi), "-w", w, "-i",
                String.valueOf(i), "-r", r));
            for (final Map.Entry<String, List<String>> o : overrides.entrySet()) {
                if (userOpts.getParameter(o.getKey()).hasValue()) {
                    continue;
                }
                args.add("-p");
                args.add(o.getKey() + "=" + String.join(",", o.getValue()));
            }
        } else {
            forks = -1;
            wi = -1;
            w = null;
            i = -1;
            r = null;
        }
        args.addAll(user);
        parse(args, "JMH arguments for " + className);

        double seconds = 0;
        int combos = 0;
        final double setup = q != null ? q.setupSeconds() : 0;
        for (final BenchmarkListEntry e : entries) {
            int n = 1;
            final Map<String, String[]> params = e.getParams().orElse(Map.of());
            for (final Map.Entry<String, String[]> p : params.entrySet()) {
                final org.openjdk.jmh.util.Optional<Collection<String>> u = userOpts.getParameter(p.getKey());
                if (u.hasValue()) {
                    n *= u.get().size();
                } else if (overrides.containsKey(p.getKey())) {
                    n *= overrides.get(p.getKey()).size();
                } else {
                    n *= Math.max(1, p.getValue().length);
                }
            }
            final int f = userOpts.getForkCount().orElse(quick ? forks : e.getForks().orElse(5));
            final int wf = userOpts.getWarmupForkCount().orElse(quick ? 0 : e.getWarmupForks().orElse(0));
            final int wiE = userOpts.getWarmupIterations().orElse(quick ? wi : e.getWarmupIterations().orElse(5));
            final int iE = userOpts.getMeasurementIterations().orElse(quick ? i
                : e.getMeasurementIterations().orElse(5));
            final double wS = seconds(userOpts.getWarmupTime().orElse(quick ? time(w, "")
                : e.getWarmupTime().orElse(TimeValue.seconds(10))));
            final double rS = seconds(userOpts.getMeasurementTime().orElse(quick ? time(r, "")
                : e.getMeasurementTime().orElse(TimeValue.seconds(10))));
            final boolean single = e.getMode() == Mode.SingleShotTime;
            final double perFork = FORK_OVERHEAD_SECONDS + setup + (single ? 0.1 * (wiE + iE) : wiE * wS + iE * rS);
            seconds += n * (Math.max(1, f) + wf) * perFork;
            combos += n;
        }
        final String settings = quick
            ? String.format(Locale.ROOT, "-f %d -wi %d -w %s -i %d -r %s%s", forks, wi, w, i, r,
                overrides.isEmpty() ? "" : " " + overridesText(overrides, userOpts))
            : "annotations / JMH defaults";
        return new ClassRun(className, List.copyOf(names), List.copyOf(args), combos, seconds,
            settings + (user.isEmpty() ? "" : " + " + String.join(" ", user)));
    }

    private static String overridesText(final Map<String, List<String>> overrides, final CommandLineOptions user) {
        final List<String> parts = new ArrayList<>();
        overrides.forEach((k, v) -> {
            if (!user.getParameter(k).hasValue()) {
                parts.add("-p " + k + "=" + String.join(",", v));
            }
        });
        return String.join(" ", parts);
    }

    /** Repeats the add-exports flag in a user's -jvmArgsAppend, which replaces the one in every @Fork. */
    private static List<String> normalizeUserArgs(final List<String> extra, final List<String> notes) {
        final List<String> out = new ArrayList<>(extra);
        for (int k = 0; k < out.size() - 1; k++) {
            if (out.get(k).equals("-jvmArgsAppend") && !out.get(k + 1).contains("jdk.internal.misc")) {
                out.set(k + 1, out.get(k + 1) + " " + ADD_EXPORTS);
                notes.add("-jvmArgsAppend replaces the benchmarks' @Fork(jvmArgsAppend): added " + ADD_EXPORTS
                    + " (other @Fork flags such as -Xmx are not repeated)");
            }
        }
        return out;
    }

    private static CommandLineOptions parse(final List<String> args, final String what) throws ReportException {
        try {
            return new CommandLineOptions(args.toArray(new String[0]));
        } catch (final CommandLineOptionException e) {
            throw new ReportException(what + " are not valid JMH options: " + e.getMessage());
        }
    }

    private static TimeValue time(final String s, final String where) throws ReportException {
        try {
            return TimeValue.fromString(s);
        } catch (final RuntimeException e) {
            throw new ReportException(where + ": \"" + s + "\" is not a JMH time (e.g. 500ms, 1s)");
        }
    }

    private static double seconds(final TimeValue t) {
        return t.convertTo(TimeUnit.MICROSECONDS) / 1e6;
    }

    /** @return the selected benchmark names of all runs */
    Set<String> benchmarks() {
        final Set<String> s = new LinkedHashSet<>();
        runs.forEach(r -> s.addAll(r.benchmarks()));
        return s;
    }
}
