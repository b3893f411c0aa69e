package dev.overlap.bench.report;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

/**
 * Turns JMH results into per-class tables: busy threads and oversubscription per row, declared comparisons (ratios
 * with propagated error) and the change against a baseline run.
 */
final class Analysis {
    /** Change of a row against the baseline run. */
    enum Verdict {
        /** Intervals (score ± error) do not overlap and the change is in the bad direction. */
        REGRESSION,
        /** Intervals do not overlap and the change is in the good direction. */
        IMPROVEMENT,
        /** Intervals overlap: no significant change. */
        WITHIN_ERROR,
        /** One of the runs has no error estimate (too few iterations): significance unknown. */
        NO_ERROR,
        /** No such row in the baseline. */
        NEW
    }

    /**
     * The change against the baseline.
     *
     * @param percent {@code (score - old) / old * 100}
     * @param verdict what it means
     * @param old the baseline row, null when NEW
     */
    record Change(double percent, Verdict verdict, JmhResult old) {
    }

    /**
     * A ratio of a row to its peer or baseline row, as "times better" ({@link RatioStyle}).
     *
     * @param times the ratio, above 1 when the row is better
     * @param relError relative error of {@code times} (first-order propagation of both errors), NaN when unknown
     * @param against the peer or baseline row
     */
    record Ratio(double times, double relError, Row against) {
        /** @return the value shown for the style: the ratio, or the overhead in percent */
        double display(final RatioStyle style) {
            return style == RatioStyle.SPEEDUP ? times : (1 / times - 1) * 100;
        }

        /** @return the error of {@link #display}, NaN when unknown */
        double displayError(final RatioStyle style) {
            return style == RatioStyle.SPEEDUP ? times * relError : relError / times * 100;
        }

        String format(final RatioStyle style) {
            final String v = style == RatioStyle.SPEEDUP ? Format.ratio(times) : Format.percent(display(style));
            if (!Double.isFinite(relError)) {
                return v;
            }
            final double e = displayError(style);
            final String digits = e >= 10 ? "%.0f" : style == RatioStyle.SPEEDUP && e < 1 ? "%.2f" : "%.1f";
            return v + " ±" + String.format(java.util.Locale.ROOT, digits, e) + (style == RatioStyle.OVERHEAD ? "%" : "");
        }
    }

    /** One result row. */
    static final class Row {
        final JmhResult result;
        final int busyThreads;
        final boolean oversubscribed;
        final Map<BenchmarkMeta.Comparison, Ratio> ratios = new LinkedHashMap<>();
        /** Comparisons for which this row is the baseline value (PARAM kind). */
        final Set<BenchmarkMeta.Comparison> baselineOf = new LinkedHashSet<>();
        Change change;

        Row(final JmhResult result, final int busyThreads, final int cores) {
            this.result = result;
            this.busyThreads = busyThreads;
            this.oversubscribed = busyThreads > cores;
        }

        /** @return the row's value of a dimension: a param, {@code benchmark} or {@code mode}; null if absent */
        String dim(final String dim) {
            if (BenchmarkMeta.BENCHMARK.equals(dim)) {
                return result.method();
            }
            if ("mode".equals(dim) && !result.params().containsKey("mode")) {
                return result.mode();
            }
            return result.params().get(dim);
        }
    }

    /** One benchmark class: its rows and what was found out about them. */
    static final class ClassTable {
        final BenchmarkMeta meta;
        final List<Row> rows = new ArrayList<>();
        /** Dimensions in order: benchmark, then params in first-seen order. */
        final List<String> dims = new ArrayList<>();
        final Map<String, List<String>> values = new LinkedHashMap<>();
        /** Comparisons that produced at least one ratio. */
        final List<BenchmarkMeta.Comparison> comparisons = new ArrayList<>();
        final List<String> notes = new ArrayList<>();

        ClassTable(final BenchmarkMeta meta) {
            this.meta = meta;
        }

        /** @return the dimensions with more than one value */
        List<String> varying() {
            return dims.stream().filter(d -> values.get(d).size() > 1).toList();
        }

        boolean anyOversubscribed() {
            return rows.stream().anyMatch(r -> r.oversubscribed);
        }
    }

    private Analysis() {
    }

    /**
     * @param results the run's results
     * @param baseline the baseline run's results, or null
     * @param cores the cores of the machine the run was measured on
     * @param loader where the benchmark classes (and their annotations) are
     * @return one table per class, ordered by family and then class name
     */
    static List<ClassTable> analyze(final List<JmhResult> results, final List<JmhResult> baseline, final int cores,
                                    final ClassLoader loader) {
        final Map<String, ClassTable> byClass = new LinkedHashMap<>();
        final Map<String, Integer> seen = new HashMap<>();
        for (final JmhResult r : results) {
            final ClassTable t = byClass.computeIfAbsent(r.className(),
                c -> new ClassTable(BenchmarkMeta.of(c, loader)));
            final Integer previous = seen.put(r.key(), t.rows.size());
            final Row row = new Row(r, busyThreads(t, r), cores);
            if (previous != null) {
                t.rows.set(previous, row);
                seen.put(r.key(), previous);
                t.notes.add("duplicate result for `" + r.method() + "` " + r.params() + ": the later one is shown");
            } else {
                t.rows.add(row);
            }
        }
        final Map<String, JmhResult> old = new HashMap<>();
        if (baseline != null) {
            for (final JmhResult b : baseline) {
                old.put(b.key(), b);
            }
        }
        final List<ClassTable> tables = new ArrayList<>(byClass.values());
        for (final ClassTable t : tables) {
            t.notes.addAll(0, t.meta.problems);
            collectDims(t);
            for (final BenchmarkMeta.Comparison c : t.meta.comparisons) {
                if (c.kind == BenchmarkMeta.Comparison.Kind.PEER) {
                    comparePeer(t, c);
                } else {
                    compareParam(t, c);
                }
            }
            if (baseline != null) {
                for (final Row r : t.rows) {
                    r.change = change(r.result, old.get(r.result.key()));
                }
            }
        }
        tables.sort(Comparator.comparingInt((ClassTable t) -> BenchmarkMeta.familyOrder(t.meta.family))
            .thenComparing(t -> t.meta.family).thenComparing(t -> t.meta.simpleName));
        return tables;
    }

    private static int busyThreads(final ClassTable t, final JmhResult r) {
        for (final BenchmarkMeta.BusyRule rule : t.meta.busyRules) {
            if (rule.applies(r.params())) {
                final int n = rule.eval(r.params(), r.threads());
                if (n >= 0) {
                    return n;
                }
            }
        }
        final String threads = r.params().get("threads");
        if (threads != null) {
            try {
                return Integer.parseInt(threads.trim());
            } catch (final NumberFormatException e) {
                // fall through
            }
        }
        return r.threads();
    }

    private static void collectDims(final ClassTable t) {
        final Map<String, LinkedHashSet<String>> vals = new LinkedHashMap<>();
        vals.put(BenchmarkMeta.BENCHMARK, new LinkedHashSet<>());
        for (final Row r : t.rows) {
            vals.get(BenchmarkMeta.BENCHMARK).add(r.result.method());
            for (final Map.Entry<String, String> p : r.result.params().entrySet()) {
                vals.computeIfAbsent(p.getKey(), k -> new LinkedHashSet<>()).add(p.getValue());
            }
        }
        if (!vals.containsKey("mode")) {
            final LinkedHashSet<String> modes = new LinkedHashSet<>();
            t.rows.forEach(r -> modes.add(r.result.mode()));
            if (modes.size() > 1) {
                vals.put("mode", modes);
            }
        }
        for (final Map.Entry<String, LinkedHashSet<String>> e : vals.entrySet()) {
            t.dims.add(e.getKey());
            final List<String> sorted = new ArrayList<>(e.getValue());
            if (sorted.stream().allMatch(Format::isNumber)) {
                sorted.sort(Comparator.comparingDouble(Double::parseDouble));
            }
            t.values.put(e.getKey(), sorted);
        }
    }

    private static void comparePeer(final ClassTable t, final BenchmarkMeta.Comparison c) {
        int made = 0;
        int subjects = 0;
        final Set<String> problems = new LinkedHashSet<>();
        for (final Row r : t.rows) {
            if (!r.result.method().equals(c.subject)) {
                continue;
            }
            subjects++;
            final List<Row> matches = new ArrayList<>();
            for (final Row p : t.rows) {
                if (p.result.method().equals(c.peer) && p.result.mode().equals(r.result.mode())
                    && sharedParamsAgree(r.result.params(), p.result.params())) {
                    matches.add(p);
                }
            }
            if (matches.size() == 1) {
                r.ratios.put(c, ratio(r, matches.get(0)));
                made++;
            } else if (matches.size() > 1) {
                problems.add("`" + c.subject + "` " + c.name + ": " + matches.size() + " rows of `" + c.peer
                    + "` match " + r.result.params() + " (the peer has params the subject lacks): no ratio");
            }
        }
        if (subjects > 0 && made == 0 && problems.isEmpty()) {
            problems.add("`" + c.subject + "` " + c.name + ": no row of `" + c.peer + "` in this run to compare with");
        }
        t.notes.addAll(problems);
        if (made > 0) {
            t.comparisons.add(c);
        }
    }

    private static boolean sharedParamsAgree(final Map<String, String> a, final Map<String, String> b) {
        for (final Map.Entry<String, String> e : a.entrySet()) {
            final String v = b.get(e.getKey());
            if (v != null && !v.equals(e.getValue())) {
                return false;
            }
        }
        return true;
    }

    private static void compareParam(final ClassTable t, final BenchmarkMeta.Comparison c) {
        final Map<String, Row> baseRows = new HashMap<>();
        for (final Row r : t.rows) {
            if (c.baseValue.equals(r.result.params().get(c.param)) && applies(c, r)) {
                baseRows.put(keyWithout(r.result, c.param), r);
            }
        }
        int made = 0;
        for (final Row r : t.rows) {
            final String v = r.result.params().get(c.param);
            if (v == null || v.equals(c.baseValue) || !applies(c, r) || (!c.compare.isEmpty()
                && !c.compare.contains(v))) {
                continue;
            }
            final Row base = baseRows.get(keyWithout(r.result, c.param));
            final Ratio ratio = base == null ? null : ratio(r, base, c.metric);
            if (ratio != null) {
                r.ratios.put(c, ratio);
                base.baselineOf.add(c);
                made++;
            }
        }
        if (made > 0) {
            t.comparisons.add(c);
        } else if (t.values.containsKey(c.param)) {
            t.notes.add(c.name + ": no row with " + c.param + "=" + c.baseValue + " and matching params in this run");
        }
    }

    private static boolean applies(final BenchmarkMeta.Comparison c, final Row r) {
        return c.benchmarks.isEmpty() || c.benchmarks.contains(r.result.method());
    }

    private static String keyWithout(final JmhResult r, final String param) {
        final TreeMap<String, String> p = new TreeMap<>(r.params());
        p.remove(param);
        return r.method() + " " + r.mode() + " " + p;
    }

    static Ratio ratio(final Row row, final Row against) {
        return ratio(row, against, "");
    }

    /**
     * @param metric empty for the primary score, else a secondary metric's name
     * @return the ratio, or null when a row lacks the secondary metric
     */
    static Ratio ratio(final Row row, final Row against, final String metric) {
        final JmhResult.Metric a = metric.isEmpty() ? row.result.primary() : row.result.secondary().get(metric);
        final JmhResult.Metric b = metric.isEmpty() ? against.result.primary() : against.result.secondary().get(metric);
        if (a == null || b == null) {
            return null;
        }
        final double times = row.result.higherIsBetter() ? a.score() / b.score() : b.score() / a.score();
        final double rel = Double.isFinite(a.error()) && Double.isFinite(b.error()) && a.score() != 0
            && b.score() != 0 ? Math.hypot(a.error() / a.score(), b.error() / b.score()) : Double.NaN;
        return new Ratio(times, rel, against);
    }

    /**
     * @param now the row in this run
     * @param old the same row in the baseline run, or null
     * @return the change; a regression needs non-overlapping intervals (score ± error) and the bad direction
     */
    static Change change(final JmhResult now, final JmhResult old) {
        if (old == null) {
            return new Change(Double.NaN, Verdict.NEW, null);
        }
        final double s = now.primary().score();
        final double o = old.primary().score();
        final double pct = (s - o) / o * 100;
        final double e = now.primary().error();
        final double eo = old.primary().error();
        if (!Double.isFinite(e) || !Double.isFinite(eo)) {
            return new Change(pct, Verdict.NO_ERROR, old);
        }
        if (!Objects.equals(now.primary().unit(), old.primary().unit())) {
            return new Change(Double.NaN, Verdict.NO_ERROR, old);
        }
        final boolean overlap = s - e <= o + eo && o - eo <= s + e;
        if (overlap) {
            return new Change(pct, Verdict.WITHIN_ERROR, old);
        }
        final boolean better = now.higherIsBetter() ? s > o : s < o;
        return new Change(pct, better ? Verdict.IMPROVEMENT : Verdict.REGRESSION, old);
    }
}
