package dev.overlap.bench.report;

import dev.overlap.bench.report.Analysis.ClassTable;
import dev.overlap.bench.report.Analysis.Ratio;
import dev.overlap.bench.report.Analysis.Row;
import dev.overlap.bench.report.Analysis.Verdict;
import dev.overlap.bench.report.BenchmarkMeta.ChartSpec;
import dev.overlap.bench.report.BenchmarkMeta.Comparison;
import dev.overlap.graph.report.chart.ChartData;
import dev.overlap.graph.report.chart.SvgCharts;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.DoubleFunction;
import java.util.function.ToDoubleFunction;

/** Lays out the analysed results as a document (header, at-a-glance ratios, one section per family) and charts. */
final class ReportBuilder {
    private static final String WARN = "⚠";
    private static final int MAX_FACETS = 6;

    /**
     * What was built.
     *
     * @param doc the document
     * @param charts SVG charts by path relative to the report folder
     * @param results result rows
     * @param classes benchmark classes
     * @param regressions rows marked as regressions against the baseline
     * @param improvements rows marked as improvements against the baseline
     * @param oversubscribed oversubscribed rows
     */
    record Output(Doc doc, Map<String, String> charts, int results, int classes, int regressions, int improvements,
                  int oversubscribed) {
    }

    /**
     * Inputs besides the tables.
     *
     * @param title report title
     * @param sources the result files, as shown
     * @param baseline the baseline file as shown, or null
     * @param info the run information
     * @param results all results (for JVM facts)
     */
    record Context(String title, List<String> sources, String baseline, RunInfo info, List<JmhResult> results) {
    }

    private final Context ctx;
    private final List<ClassTable> tables;
    private final int cores;
    private final Doc doc = new Doc();
    private final Map<String, String> charts = new LinkedHashMap<>();

    private ReportBuilder(final Context ctx, final List<ClassTable> tables) {
        this.ctx = ctx;
        this.tables = tables;
        this.cores = ctx.info().cores();
    }

    static Output build(final Context ctx, final List<ClassTable> tables) {
        return new ReportBuilder(ctx, tables).build();
    }

    private Output build() {
        int rows = 0;
        int oversubscribed = 0;
        int regressions = 0;
        int improvements = 0;
        for (final ClassTable t : tables) {
            for (final Row r : t.rows) {
                rows++;
                oversubscribed += r.oversubscribed ? 1 : 0;
                if (r.change != null) {
                    regressions += r.change.verdict() == Verdict.REGRESSION ? 1 : 0;
                    improvements += r.change.verdict() == Verdict.IMPROVEMENT ? 1 : 0;
                }
            }
        }
        header(rows, oversubscribed);
        glance();
        if (ctx.baseline() != null) {
            regressionsSection(regressions, improvements);
        }
        String family = null;
        for (final ClassTable t : tables) {
            if (!t.meta.family.equals(family)) {
                family = t.meta.family;
                doc.heading(2, BenchmarkMeta.familyTitle(family));
            }
            classSection(t);
        }
        doc.heading(2, "How this report was made");
        doc.bullets(List.of(
            "Produced by `./overlap bench` (see the README, \"Performance (JMH)\"): JMH with `-rf json`, then "
                + "`dev.overlap.bench.report.ReportMain report` on the JSON. The raw results are in `results.json` "
                + "beside this file; pass it as `--baseline` to compare a later run with this one.",
            "Ratios and peers are declared beside the benchmarks (`@ComparedTo`, `@ParamBaseline` in "
                + "`dev.overlap.bench.report`); error of a ratio: first-order propagation of both scores' "
                + "99.9% half-widths.",
            "Oversubscription: busy threads per row from `@BusyThreads` (default: the `threads` param, else JMH "
                + "threads), compared with the " + cores + " cores of the measuring machine.",
            "Differences under ~1.3× between separate runs on a 2-core machine are noise: compare against peers "
                + "in the same run."));
        return new Output(doc, charts, rows, tables.size(), regressions, improvements, oversubscribed);
    }

    // ------------------------------------------------------------------------------------------------ header

    private void header(final int rows, final int oversubscribed) {
        final RunInfo info = ctx.info();
        doc.heading(1, ctx.title());
        final String suite = info.string("suite");
        final StringBuilder intro = new StringBuilder();
        if (suite != null) {
            intro.append("Suite **").append(suite).append("**");
            if (info.string("settings") != null) {
                intro.append(" (").append(info.string("settings")).append(')');
            }
            intro.append(" · ");
        }
        intro.append(rows).append(" results from ").append(tables.size()).append(" benchmark classes · source ")
            .append(String.join(", ", ctx.sources().stream().map(s -> "`" + s + "`").toList())).append('.');
        doc.para(intro.toString());
        doc.para("**Reading it:** a ratio column is how many times better a row is than the named peer or baseline "
            + "measured in the same run: above 1× the row wins, whatever the unit (ops per time: higher is better; "
            + "time per op: lower is better). An overhead column is the extra time per operation (+ is costlier). "
            + WARN + " marks oversubscribed rows (busy threads > " + cores + " cores): they measure the OS scheduler "
            + "as much as the code; charts draw them hollow (bars pale) on a shaded background.");

        doc.heading(2, "Machine and run");
        final List<List<String>> t = new ArrayList<>();
        final StringBuilder machine = new StringBuilder().append(cores).append(" cores");
        if (info.string("cpu") != null) {
            machine.append(" (").append(info.string("cpu")).append(')');
        }
        final double mem = info.number("memoryBytes");
        if (mem > 0) {
            machine.append(", ").append(Format.bytes(mem)).append(" memory");
        }
        if (info.string("os") != null) {
            machine.append(", ").append(info.string("os")).append(' ').append(info.string("arch"));
        }
        t.add(List.of("Machine", machine.toString()));
        final LinkedHashSet<String> jvms = new LinkedHashSet<>();
        final LinkedHashSet<String> jmh = new LinkedHashSet<>();
        final Map<String, List<String>> flags = new LinkedHashMap<>();
        for (final JmhResult r : ctx.results()) {
            String vendor = "";
            if (info.string("javaVersion") != null && info.string("javaVersion").equals(r.vmVersion())
                && info.string("javaVendor") != null) {
                vendor = ", vendor " + info.string("javaVendor");
            }
            jvms.add(r.vmName() + " " + r.vmVersion() + " (JDK " + r.jdkVersion() + vendor + "), `" + r.jvm() + "`");
            jmh.add(r.jmhVersion());
            final List<String> classes = flags.computeIfAbsent(String.join(" ", r.jvmArgs()), k -> new ArrayList<>());
            final String simple = r.className().substring(r.className().lastIndexOf('.') + 1);
            if (!classes.contains(simple)) {
                classes.add(simple);
            }
        }
        t.add(List.of("JVM", String.join("; ", jvms)));
        t.add(List.of("JMH", String.join(", ", jmh)));
        final List<String> flagLines = new ArrayList<>();
        for (final Map.Entry<String, List<String>> f : flags.entrySet()) {
            flagLines.add((f.getKey().isEmpty() ? "(none)" : "`" + f.getKey() + "`")
                + (flags.size() > 1 ? " — " + String.join(", ", f.getValue()) : ""));
        }
        t.add(List.of("Fork JVM flags", String.join("; ", flagLines)));
        if (info.string("commit") != null) {
            t.add(List.of("Commit", "`" + info.string("commit") + "`"
                + (info.string("branch") != null ? " on " + info.string("branch") : "")
                + (info.flag("dirty") ? " " + WARN + " with uncommitted changes" : "")));
        }
        final String when = info.string("captured") == null ? "" : " (" + info.string("captured") + ")";
        if (info.string("date") != null) {
            t.add(List.of("Date", info.string("date") + when));
        }
        final String load = info.string("loadAverage");
        if (load != null) {
            String cell = load + " (1, 5, 15 min)" + when;
            try {
                final double l1 = Double.parseDouble(load.split("\\s+")[0]);
                if (l1 > Math.max(0.5, cores * 0.25)) {
                    cell += " " + WARN + " the machine was not idle: scores may be off by more than their error bars";
                }
            } catch (final NumberFormatException e) {
                // shown as is
            }
            t.add(List.of("Load average", cell));
        }
        final double elapsed = info.number("elapsedSeconds");
        if (Double.isFinite(elapsed)) {
            final double est = info.number("estimatedSeconds");
            t.add(List.of("Run time", Format.duration(elapsed)
                + (Double.isFinite(est) ? " (estimated " + Format.duration(est) + ")" : "")));
        }
        t.add(List.of("Oversubscribed rows", oversubscribed == 0 ? "none"
            : WARN + " " + oversubscribed + " of " + rows + " (busy threads > " + cores + " cores)"));
        if (ctx.baseline() != null) {
            t.add(List.of("Baseline", "`" + ctx.baseline() + "`: see [Changes against the baseline]("
                + "#changes-against-the-baseline)"));
        }
        doc.table(List.of("Item", "Value"), List.of(Doc.Align.LEFT, Doc.Align.LEFT), t);
        final List<String> contents = new ArrayList<>();
        contents.add("[At a glance](#at-a-glance-ratios-to-peers-and-baselines)");
        if (ctx.baseline() != null) {
            contents.add("[Changes against the baseline](#changes-against-the-baseline)");
        }
        final Set<String> families = new LinkedHashSet<>();
        tables.forEach(c -> families.add(c.meta.family));
        for (final String f : families) {
            final String title = BenchmarkMeta.familyTitle(f);
            contents.add("[" + title.replaceAll(":.*", "") + "](#" + Doc.anchor(title) + ")");
        }
        doc.para("Sections: " + String.join(" · ", contents));
    }

    // ------------------------------------------------------------------------------------------------ glance

    private void glance() {
        doc.heading(2, "At a glance: ratios to peers and baselines");
        final List<List<String>> rows = new ArrayList<>();
        for (final ClassTable t : tables) {
            for (final Comparison c : t.comparisons) {
                final Map<String, List<Row>> groups = new LinkedHashMap<>();
                for (final Row r : t.rows) {
                    if (r.ratios.containsKey(c)) {
                        groups.computeIfAbsent(subject(t, c, r), k -> new ArrayList<>()).add(r);
                    }
                }
                for (final Map.Entry<String, List<Row>> g : groups.entrySet()) {
                    rows.add(glanceRow(t, c, g.getKey(), g.getValue()));
                }
            }
        }
        if (rows.isEmpty()) {
            doc.para("No comparisons: no benchmark in this run declares `@ComparedTo` or `@ParamBaseline`, or their "
                + "peers were not run.");
            return;
        }
        doc.para("Geometric mean over the rows of each comparison, with the worst and best row. Oversubscribed rows "
            + "(" + WARN + ") are left out of these figures when there are others.");
        doc.table(List.of("Family", "Benchmark", "Comparison", "Subject", "Geomean", "Worst", "Best", "Rows"),
            List.of(Doc.Align.LEFT, Doc.Align.LEFT, Doc.Align.LEFT, Doc.Align.LEFT, Doc.Align.RIGHT, Doc.Align.RIGHT,
                Doc.Align.RIGHT, Doc.Align.RIGHT), rows);
    }

    private static String subject(final ClassTable t, final Comparison c, final Row r) {
        if (c.kind == Comparison.Kind.PEER) {
            return "`" + c.subject + "`";
        }
        final String p = c.param + "=" + r.result.params().get(c.param);
        return t.values.get(BenchmarkMeta.BENCHMARK).size() > 1 ? "`" + r.result.method() + "` " + p : p;
    }

    private List<String> glanceRow(final ClassTable t, final Comparison c, final String subject,
                                   final List<Row> group) {
        final List<Row> counted = group.stream().anyMatch(r -> !r.oversubscribed)
            ? group.stream().filter(r -> !r.oversubscribed).toList() : group;
        double logSum = 0;
        Row worst = null;
        Row best = null;
        for (final Row r : counted) {
            final double v = r.ratios.get(c).times();
            logSum += Math.log(v);
            if (worst == null || v < worst.ratios.get(c).times()) {
                worst = r;
            }
            if (best == null || v > best.ratios.get(c).times()) {
                best = r;
            }
        }
        final double geo = Math.exp(logSum / counted.size());
        final String geoText = c.style == RatioStyle.SPEEDUP ? Format.ratio(geo) : Format.percent((1 / geo - 1) * 100);
        final boolean allOver = counted == group && group.get(0).oversubscribed;
        final int left = group.size() - counted.size();
        final String count = counted.size() + (left > 0 ? " (+" + left + " " + WARN + " not counted)" : "")
            + (allOver ? " " + WARN + " all oversubscribed" : "");
        final Set<String> exclude = new LinkedHashSet<>();
        if (c.kind == Comparison.Kind.PARAM) {
            exclude.add(c.param);
            if (t.values.get(BenchmarkMeta.BENCHMARK).size() > 1) {
                exclude.add(BenchmarkMeta.BENCHMARK);
            }
        } else {
            exclude.add(BenchmarkMeta.BENCHMARK);
        }
        return List.of(t.meta.family, "[" + t.meta.simpleName + "](#" + Doc.anchor(t.meta.simpleName) + ")",
            c.name, subject, (allOver ? WARN + " " : "") + geoText, extreme(t, c, worst, exclude, counted.size()),
            extreme(t, c, best, exclude, counted.size()), count);
    }

    private String extreme(final ClassTable t, final Comparison c, final Row r, final Set<String> exclude,
                           final int n) {
        final double v = r.ratios.get(c).times();
        final String value = c.style == RatioStyle.SPEEDUP ? Format.ratio(v) : Format.percent((1 / v - 1) * 100);
        if (n == 1) {
            return value;
        }
        final List<String> at = new ArrayList<>();
        for (final String d : t.varying()) {
            if (!exclude.contains(d)) {
                at.add(d + "=" + value(t, d, r.dim(d)));
            }
        }
        return at.isEmpty() ? value : value + " @ " + String.join(", ", at);
    }

    // ------------------------------------------------------------------------------------------------ baseline

    private void regressionsSection(final int regressions, final int improvements) {
        doc.heading(2, "Changes against the baseline");
        int within = 0;
        int unknown = 0;
        int added = 0;
        final List<List<String>> rows = new ArrayList<>();
        for (final ClassTable t : tables) {
            for (final Row r : t.rows) {
                switch (r.change.verdict()) {
                    case WITHIN_ERROR -> within++;
                    case NO_ERROR -> unknown++;
                    case NEW -> added++;
                    default -> rows.add(List.of(
                        "[" + t.meta.simpleName + "](#" + Doc.anchor(t.meta.simpleName) + ")",
                        "`" + r.result.method() + "`", paramsText(t, r),
                        Format.num(r.result.primary().score()) + " ± " + error(r.result.primary()),
                        Format.num(r.change.old().primary().score()) + " ± " + error(r.change.old().primary()),
                        r.result.primary().unit(), changeCell(r.change)));
                }
            }
        }
        doc.para("Baseline `" + ctx.baseline() + "`: **" + regressions + " regression" + (regressions == 1 ? "" : "s")
            + "**, " + improvements + " improvement" + (improvements == 1 ? "" : "s") + ", " + within
            + " within error, " + unknown + " without error bars (too few iterations to judge), " + added
            + " not in the baseline. A change counts only when the intervals score ± error of the two runs do not "
            + "overlap.");
        if (!rows.isEmpty()) {
            rows.sort(Comparator.comparing((List<String> l) -> !l.get(6).contains("regression")));
            doc.table(List.of("Class", "Benchmark", "Params", "Now", "Baseline", "Unit", "Change"),
                List.of(Doc.Align.LEFT, Doc.Align.LEFT, Doc.Align.LEFT, Doc.Align.RIGHT, Doc.Align.RIGHT,
                    Doc.Align.LEFT, Doc.Align.RIGHT), rows);
        }
    }

    private static String changeCell(final Analysis.Change c) {
        return switch (c.verdict()) {
            case NEW -> "new";
            case REGRESSION -> "!!" + Format.percent(c.percent()) + " ✗ regression!!";
            case IMPROVEMENT -> Format.percent(c.percent()) + " ✓ improved";
            case WITHIN_ERROR -> Format.percent(c.percent()) + " (within error)";
            case NO_ERROR -> Format.percent(c.percent()) + " (no error bars)";
        };
    }

    // ------------------------------------------------------------------------------------------------ classes

    private void classSection(final ClassTable t) {
        doc.heading(3, t.meta.simpleName);
        final JmhResult first = t.rows.get(0).result;
        final List<String> caption = new ArrayList<>();
        caption.add("`" + t.meta.className + "`");
        final Set<String> modes = new LinkedHashSet<>();
        t.rows.forEach(r -> modes.add(r.result.mode() + " in " + r.result.primary().unit() + ", "
            + (r.result.higherIsBetter() ? "higher" : "lower") + " is better"));
        caption.add(String.join("; ", modes));
        caption.add(first.forks() + " fork" + (first.forks() == 1 ? "" : "s") + " × " + first.measurementIterations()
            + " × " + first.measurementTime() + " (warmup " + first.warmupIterations() + " × " + first.warmupTime()
            + ")" + (first.threads() > 1 ? ", " + first.threads() + " JMH threads" : ""));
        final List<String> fixed = new ArrayList<>();
        for (final String d : t.dims) {
            if (!d.equals(BenchmarkMeta.BENCHMARK) && !d.equals("mode") && t.values.get(d).size() == 1) {
                fixed.add(d + "=" + value(t, d, t.values.get(d).get(0)));
            }
        }
        if (!fixed.isEmpty()) {
            caption.add("fixed params: " + String.join(", ", fixed));
        }
        doc.para(String.join(" · ", caption));
        table(t);
        secondaryTable(t);
        final List<ChartSpec> specs = new ArrayList<>(t.meta.charts);
        if (specs.isEmpty()) {
            final ChartSpec dflt = defaultChart(t);
            if (dflt != null) {
                specs.add(dflt);
            }
        }
        int n = 0;
        for (final ChartSpec spec : specs) {
            n = charts(t, spec, n);
        }
        if (!t.notes.isEmpty()) {
            doc.bullets(t.notes.stream().map(s -> "Note: " + s).toList());
        }
    }

    private void table(final ClassTable t) {
        final List<String> params = t.varying().stream()
            .filter(d -> !d.equals(BenchmarkMeta.BENCHMARK)).toList();
        final boolean busyColumn = !t.meta.busyRules.isEmpty() || t.anyOversubscribed()
            || t.rows.stream().mapToInt(r -> r.busyThreads).distinct().count() > 1;
        final List<String> header = new ArrayList<>();
        final List<Doc.Align> align = new ArrayList<>();
        header.add("Benchmark");
        align.add(Doc.Align.LEFT);
        for (final String p : params) {
            header.add(p);
            align.add(allNumeric(t, p) ? Doc.Align.RIGHT : Doc.Align.LEFT);
        }
        if (busyColumn) {
            header.add("Busy threads");
            align.add(Doc.Align.RIGHT);
        }
        header.addAll(List.of("Score", "Error (±)", "Unit"));
        align.addAll(List.of(Doc.Align.RIGHT, Doc.Align.RIGHT, Doc.Align.LEFT));
        for (final Comparison c : t.comparisons) {
            header.add(c.name);
            align.add(Doc.Align.RIGHT);
        }
        final boolean baseline = t.rows.stream().anyMatch(r -> r.change != null);
        if (baseline) {
            header.add("vs baseline");
            align.add(Doc.Align.RIGHT);
        }
        final List<List<String>> rows = new ArrayList<>();
        for (final Row r : t.rows) {
            final List<String> cells = new ArrayList<>();
            cells.add("`" + r.result.method() + "`");
            for (final String p : params) {
                final String v = r.dim(p);
                cells.add(v == null ? "" : value(t, p, v));
            }
            if (busyColumn) {
                cells.add(r.busyThreads + (r.oversubscribed ? " " + WARN : ""));
            }
            final JmhResult.Metric m = r.result.primary();
            final int dec = Format.decimalsFor(m.score());
            cells.add(Format.fixed(m.score(), dec));
            cells.add(Double.isFinite(m.error()) ? Format.fixed(m.error(), dec) : "n/a");
            cells.add(m.unit());
            for (final Comparison c : t.comparisons) {
                final Ratio ratio = r.ratios.get(c);
                if (ratio != null) {
                    cells.add(ratio.format(c.style) + (r.oversubscribed ? " " + WARN : ""));
                } else if (r.baselineOf.contains(c)) {
                    cells.add("(reference)");
                } else if (c.kind == Comparison.Kind.PEER && r.result.method().equals(c.peer)) {
                    cells.add("(peer)");
                } else {
                    cells.add("");
                }
            }
            if (baseline) {
                cells.add(r.change == null ? "" : changeCell(r.change));
            }
            rows.add(cells);
        }
        doc.table(header, align, rows);
    }

    private void secondaryTable(final ClassTable t) {
        if (t.rows.stream().allMatch(r -> r.result.secondary().isEmpty())) {
            return;
        }
        final List<String> params = t.varying().stream().filter(d -> !d.equals(BenchmarkMeta.BENCHMARK)).toList();
        final List<String> header = new ArrayList<>(List.of("Benchmark"));
        final List<Doc.Align> align = new ArrayList<>(List.of(Doc.Align.LEFT));
        for (final String p : params) {
            header.add(p);
            align.add(Doc.Align.RIGHT);
        }
        header.addAll(List.of("Secondary metric", "Score", "Error (±)", "Unit"));
        align.addAll(List.of(Doc.Align.LEFT, Doc.Align.RIGHT, Doc.Align.RIGHT, Doc.Align.LEFT));
        final List<List<String>> rows = new ArrayList<>();
        for (final Row r : t.rows) {
            for (final Map.Entry<String, JmhResult.Metric> e : r.result.secondary().entrySet()) {
                final List<String> cells = new ArrayList<>();
                cells.add("`" + r.result.method() + "`");
                for (final String p : params) {
                    final String v = r.dim(p);
                    cells.add(v == null ? "" : value(t, p, v));
                }
                final JmhResult.Metric m = e.getValue();
                final int dec = Format.decimalsFor(m.score());
                cells.add(e.getKey());
                cells.add(Format.fixed(m.score(), dec));
                cells.add(Double.isFinite(m.error()) ? Format.fixed(m.error(), dec) : "n/a");
                cells.add(m.unit() + (m.unit().contains("bytes/s") || e.getKey().contains("bytes")
                    ? " (" + Format.bytes(m.score()) + "/s)" : ""));
                rows.add(cells);
            }
        }
        doc.para("Secondary metrics:");
        doc.table(header, align, rows);
    }

    // ------------------------------------------------------------------------------------------------ charts

    private static ChartSpec defaultChart(final ClassTable t) {
        if (t.rows.size() < 2) {
            return null;
        }
        final List<String> varying = t.varying();
        String x = null;
        if (varying.contains("threads") && allNumeric(t, "threads")) {
            x = "threads";
        } else {
            int most = 1;
            for (final String d : varying) {
                if (!d.equals(BenchmarkMeta.BENCHMARK) && allNumeric(t, d) && t.values.get(d).size() > most) {
                    most = t.values.get(d).size();
                    x = d;
                }
            }
        }
        if (x == null) {
            x = varying.contains(BenchmarkMeta.BENCHMARK) ? BenchmarkMeta.BENCHMARK
                : varying.isEmpty() ? BenchmarkMeta.BENCHMARK : varying.get(0);
        }
        return new ChartSpec("", x, "score", List.of(), Chart.Scale.AUTO, Chart.Scale.AUTO);
    }

    private static boolean allNumeric(final ClassTable t, final String dim) {
        return t.values.containsKey(dim) && t.values.get(dim).stream().allMatch(Format::isNumber);
    }

    /** A value source for a chart: score, secondary metric or ratio. */
    private record YSource(String label, ToDoubleFunction<Row> value, ToDoubleFunction<Row> error, String unit,
                           Comparison comparison) {
    }

    private int charts(final ClassTable t, final ChartSpec spec, final int startIndex) {
        int n = startIndex;
        if (!t.dims.contains(spec.x())) {
            t.notes.add("@Chart x = \"" + spec.x() + "\" is not a param of this run (dimensions: " + t.dims + ")");
            return n;
        }
        final YSource y = ySource(t, spec.y());
        if (y == null) {
            t.notes.add("@Chart y = \"" + spec.y() + "\" is neither \"score\", a secondary metric nor a comparison "
                + "of this run");
            return n;
        }
        final List<Row> rows = t.rows.stream().filter(r -> Double.isFinite(y.value().applyAsDouble(r))
            && r.dim(spec.x()) != null).toList();
        if (rows.size() < 2) {
            return n;
        }
        final List<String> varying = new ArrayList<>();
        for (final String d : t.dims) {
            if (!d.equals(spec.x()) && rows.stream().map(r -> String.valueOf(r.dim(d))).distinct().count() > 1) {
                varying.add(d);
            }
        }
        final List<String> series = spec.series().isEmpty() ? varying
            : spec.series().stream().filter(t.dims::contains).toList();
        final List<String> facets = varying.stream().filter(d -> !series.contains(d)).toList();
        final Map<String, List<Row>> byFacet = new LinkedHashMap<>();
        for (final Row r : rows) {
            byFacet.computeIfAbsent(label(t, facets, r, false), k -> new ArrayList<>()).add(r);
        }
        int shown = 0;
        for (final Map.Entry<String, List<Row>> f : byFacet.entrySet()) {
            if (shown++ == MAX_FACETS) {
                t.notes.add("chart \"" + title(t, spec, y, "") + "\": " + (byFacet.size() - MAX_FACETS)
                    + " more facets (" + String.join(", ", facets) + ") not drawn");
                break;
            }
            final String file = "charts/" + t.meta.simpleName + "-" + (++n) + ".svg";
            final String title = title(t, spec, y, f.getKey());
            charts.put(file, SvgCharts.render(chartData(t, spec, y, series, f.getValue(), title)));
            doc.image(file, title);
        }
        return n;
    }

    private static String title(final ClassTable t, final ChartSpec spec, final YSource y, final String facet) {
        final String base = spec.title().isEmpty() ? y.label() + " vs " + spec.x() : spec.title();
        return t.meta.simpleName + ": " + base + (facet.isEmpty() ? "" : " (" + facet + ")");
    }

    private static YSource ySource(final ClassTable t, final String y) {
        if (y.equals("score")) {
            final String unit = t.rows.get(0).result.primary().unit();
            return new YSource("score", r -> r.result.primary().score(), r -> r.result.primary().error(), unit,
                null);
        }
        for (final Comparison c : t.comparisons) {
            if (c.name.equals(y)) {
                return new YSource(c.name, r -> r.ratios.containsKey(c) ? r.ratios.get(c).display(c.style) : Double.NaN,
                    r -> r.ratios.containsKey(c) ? r.ratios.get(c).displayError(c.style) : Double.NaN,
                    c.style == RatioStyle.SPEEDUP ? "×" : "%", c);
            }
        }
        for (final Row row : t.rows) {
            final JmhResult.Metric m = row.result.secondary().get(y);
            if (m != null) {
                return new YSource(y, r -> r.result.secondary().containsKey(y)
                    ? r.result.secondary().get(y).score() : Double.NaN,
                    r -> r.result.secondary().containsKey(y) ? r.result.secondary().get(y).error() : Double.NaN,
                    m.unit(), null);
            }
        }
        return null;
    }

    private ChartData chartData(final ClassTable t, final ChartSpec spec, final YSource y,
                                final List<String> seriesDims, final List<Row> rows, final String title) {
        final String xDim = spec.x();
        final boolean numeric = rows.stream().allMatch(r -> Format.isNumber(r.dim(xDim)));
        final List<String> categories = numeric ? null : orderedValues(t, xDim, rows);
        boolean logX = false;
        if (numeric) {
            final double lo = rows.stream().mapToDouble(r -> Double.parseDouble(r.dim(xDim))).min().orElse(0);
            final double hi = rows.stream().mapToDouble(r -> Double.parseDouble(r.dim(xDim))).max().orElse(0);
            logX = spec.xScale() == Chart.Scale.LOG ? lo > 0
                : spec.xScale() == Chart.Scale.AUTO && lo > 0 && hi / lo >= 16;
        }
        final double ylo = rows.stream().mapToDouble(y.value()).min().orElse(0);
        final double yhi = rows.stream().mapToDouble(y.value()).max().orElse(0);
        final boolean logY = y.comparison() == null
            ? (spec.yScale() == Chart.Scale.LOG ? ylo > 0 : spec.yScale() == Chart.Scale.AUTO && ylo > 0
                && yhi / ylo >= 30)
            : spec.yScale() == Chart.Scale.LOG && ylo > 0;

        final Map<String, List<ChartData.Point>> series = new LinkedHashMap<>();
        final List<Row> sorted = new ArrayList<>(rows);
        final List<String> order = seriesOrder(t, seriesDims, rows);
        sorted.sort(Comparator.comparingInt((Row r) -> order.indexOf(label(t, seriesDims, r, true)))
            .thenComparingDouble(r -> numeric ? Double.parseDouble(r.dim(xDim)) : categories.indexOf(r.dim(xDim))));
        for (final Row r : sorted) {
            final double x = numeric ? Double.parseDouble(r.dim(xDim)) : categories.indexOf(r.dim(xDim));
            final double v = y.value().applyAsDouble(r);
            final double e = y.error().applyAsDouble(r);
            final String name = label(t, seriesDims, r, true);
            final String tip = (name.isEmpty() ? "" : name + ", ") + xDim + "=" + value(t, xDim, r.dim(xDim)) + ": "
                + Format.num(v) + (Double.isFinite(e) ? " ± " + Format.num(e) : "") + " " + y.unit()
                + (r.oversubscribed ? " (oversubscribed: " + r.busyThreads + " busy threads)" : "");
            series.computeIfAbsent(name.isEmpty() ? y.label() : name, k -> new ArrayList<>())
                .add(ChartData.Point.of(x, v).error(e).flagged(r.oversubscribed).tooltip(tip));
        }
        final List<ChartData.Series> list = new ArrayList<>();
        series.forEach((k, v) -> list.add(ChartData.Series.of(k, v)));

        final String yLabel;
        Double reference = null;
        String referenceLabel = null;
        if (y.comparison() != null) {
            final Comparison c = y.comparison();
            if (c.style == RatioStyle.SPEEDUP) {
                yLabel = c.name + " (×, above 1 = better)";
                reference = 1.0;
                referenceLabel = "1× = " + c.baselineLabel();
            } else {
                yLabel = c.name + " (%, above 0 = costlier)";
                reference = 0.0;
                referenceLabel = "0% = " + c.baselineLabel();
            }
        } else {
            final boolean higher = rows.get(0).result.higherIsBetter();
            yLabel = y.label().equals("score") ? y.unit() + (higher ? " (higher is better)" : " (lower is better)")
                : y.label() + " (" + y.unit() + ")";
        }
        final String xLabel = xDim.equals(BenchmarkMeta.BENCHMARK) ? "benchmark" : xDim;
        final ChartData.Axis xAxis = categories == null
            ? ChartData.Axis.of(xLabel, logX).format(t.meta.isBytes(xDim) ? Format::bytes : ChartData.Axis::compact)
            : ChartData.Axis.categories(xLabel, categories.stream().map(c -> value(t, xDim, c)).toList());
        ChartData.Panel panel = ChartData.Panel.of(ChartData.Axis.of(yLabel, logY), list);
        if (reference != null && (!logY || reference > 0)) {
            panel = panel.reference(reference, referenceLabel);
        }
        final ChartData chart = ChartData.of(title, xAxis, panel).flaggedAs("oversubscribed (> " + cores + " cores)");
        final Double shade = numeric ? shadeFrom(rows, xDim, logX) : null;
        return shade == null ? chart : chart.shadeFrom(shade, "oversubscribed");
    }

    /** @return the x from which every point is oversubscribed and below which none is, or null */
    private static Double shadeFrom(final List<Row> rows, final String xDim, final boolean logX) {
        final TreeSet<Double> flagged = new TreeSet<>();
        final TreeSet<Double> clear = new TreeSet<>();
        for (final Row r : rows) {
            (r.oversubscribed ? flagged : clear).add(Double.parseDouble(r.dim(xDim)));
        }
        if (flagged.isEmpty() || (!clear.isEmpty() && clear.last() >= flagged.first())) {
            return null;
        }
        if (clear.isEmpty()) {
            return flagged.first() / (logX ? 2 : 1) - (logX ? 0 : 0.5);
        }
        final double a = clear.last();
        final double b = flagged.first();
        return logX ? Math.sqrt(a * b) : (a + b) / 2;
    }

    private static List<String> orderedValues(final ClassTable t, final String dim, final List<Row> rows) {
        final Set<String> present = new LinkedHashSet<>();
        rows.forEach(r -> present.add(r.dim(dim)));
        final List<String> ordered = new ArrayList<>(t.values.getOrDefault(dim, List.of()));
        ordered.retainAll(present);
        present.stream().filter(v -> !ordered.contains(v)).forEach(ordered::add);
        return ordered;
    }

    private static List<String> seriesOrder(final ClassTable t, final List<String> dims, final List<Row> rows) {
        final List<Row> sorted = new ArrayList<>(rows);
        Comparator<Row> cmp = (a, b) -> 0;
        for (final String d : dims) {
            final List<String> vals = t.values.getOrDefault(d, List.of());
            cmp = cmp.thenComparingInt(r -> vals.indexOf(r.dim(d)));
        }
        sorted.sort(cmp);
        final List<String> out = new ArrayList<>();
        for (final Row r : sorted) {
            final String l = label(t, dims, r, true);
            if (!out.contains(l)) {
                out.add(l);
            }
        }
        return out;
    }

    private static String label(final ClassTable t, final List<String> dims, final Row r, final boolean terse) {
        final List<String> parts = new ArrayList<>();
        for (final String d : dims) {
            final String v = r.dim(d);
            if (v == null) {
                continue;
            }
            final boolean bare = terse && (dims.size() == 1 && (d.equals(BenchmarkMeta.BENCHMARK) || d.equals("mode")
                || !Format.isNumber(v)) || d.equals(BenchmarkMeta.BENCHMARK));
            parts.add(bare ? value(t, d, v) : d + "=" + value(t, d, v));
        }
        return String.join(", ", parts);
    }

    // ------------------------------------------------------------------------------------------------ helpers

    private static String value(final ClassTable t, final String dim, final String v) {
        return v != null && t.meta.isBytes(dim) && Format.isNumber(v) ? Format.bytes(v) : String.valueOf(v);
    }

    private static String paramsText(final ClassTable t, final Row r) {
        final List<String> parts = new ArrayList<>();
        for (final String d : t.varying()) {
            if (!d.equals(BenchmarkMeta.BENCHMARK)) {
                parts.add(d + "=" + value(t, d, r.dim(d)));
            }
        }
        return String.join(", ", parts);
    }

    private static String error(final JmhResult.Metric m) {
        return Double.isFinite(m.error()) ? Format.num(m.error()) : "n/a";
    }
}
