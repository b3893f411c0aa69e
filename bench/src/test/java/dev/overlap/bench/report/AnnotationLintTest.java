package dev.overlap.bench.report;

import org.junit.jupiter.api.Test;
import org.openjdk.jmh.runner.BenchmarkListEntry;

import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Checks the report annotations of every benchmark in the jar against the benchmarks themselves (a typo in a peer
 * name or a param value would otherwise only show as a missing column in the next report), and keeps the whole
 * suite's {@code --quick} estimate under its budget.
 */
class AnnotationLintTest {
    private static final ClassLoader LOADER = AnnotationLintTest.class.getClassLoader();

    @Test
    void everyReportAnnotationNamesSomethingThatExists() throws Exception {
        final Map<String, List<BenchmarkListEntry>> byClass = new LinkedHashMap<>();
        for (final BenchmarkListEntry e : RunPlanTest.suite()) {
            byClass.computeIfAbsent(e.getUserClassQName(), k -> new ArrayList<>()).add(e);
        }
        assertFalse(byClass.isEmpty(), "no benchmarks found: is META-INF/BenchmarkList on the test class path?");
        final List<String> problems = new ArrayList<>();
        for (final Map.Entry<String, List<BenchmarkListEntry>> c : byClass.entrySet()) {
            problems.addAll(lint(c.getKey(), c.getValue()));
        }
        assertTrue(problems.isEmpty(), String.join("\n", problems));
    }

    private static List<String> lint(final String className, final List<BenchmarkListEntry> entries)
        throws ClassNotFoundException {
        final List<String> p = new ArrayList<>();
        final BenchmarkMeta meta = BenchmarkMeta.of(className, LOADER);
        final String at = className + ": ";
        meta.problems.forEach(s -> p.add(at + s));
        if (!meta.loaded) {
            return p;
        }
        if (!BenchmarkMeta.FAMILIES.containsKey(meta.family)) {
            p.add(at + "family '" + meta.family + "' is not one of " + BenchmarkMeta.FAMILIES.keySet()
                + " (set @Family)");
        }
        final Set<String> names = new LinkedHashSet<>();
        final Map<String, Set<String>> params = new LinkedHashMap<>();
        for (final BenchmarkListEntry e : entries) {
            names.add(e.getUsername().substring(e.getUsername().lastIndexOf('.') + 1));
            e.getParams().orElse(Map.of()).forEach((k, v) -> params.computeIfAbsent(k, x -> new LinkedHashSet<>())
                .addAll(Arrays.asList(v)));
        }
        final Set<String> comparisonNames = new LinkedHashSet<>();
        for (final BenchmarkMeta.Comparison c : meta.comparisons) {
            if (!comparisonNames.add(c.name)) {
                p.add(at + "two comparisons are named '" + c.name + "'");
            }
            if (c.kind == BenchmarkMeta.Comparison.Kind.PEER) {
                if (!names.contains(c.subject)) {
                    p.add(at + "@ComparedTo on '" + c.subject + "', which is not a benchmark of the class " + names);
                }
                if (!names.contains(c.peer)) {
                    p.add(at + "@ComparedTo(\"" + c.peer + "\") names no benchmark of the class " + names);
                }
            } else {
                final Set<String> values = params.get(c.param);
                if (values == null) {
                    p.add(at + "@ParamBaseline(param = \"" + c.param + "\"): no such @Param " + params.keySet());
                    continue;
                }
                if (!values.contains(c.baseValue)) {
                    p.add(at + "@ParamBaseline value \"" + c.baseValue + "\" is not a value of " + c.param + " "
                        + values);
                }
                for (final String v : c.compare) {
                    if (!values.contains(v)) {
                        p.add(at + "@ParamBaseline compare \"" + v + "\" is not a value of " + c.param + " " + values);
                    }
                }
                for (final String b : c.benchmarks) {
                    if (!names.contains(b)) {
                        p.add(at + "@ParamBaseline benchmarks \"" + b + "\" is not a benchmark of the class");
                    }
                }
            }
        }
        final Set<String> auxCounters = auxCounterFields(Class.forName(className, false, LOADER));
        for (final BenchmarkMeta.ChartSpec chart : meta.charts) {
            if (!chart.x().equals(BenchmarkMeta.BENCHMARK) && !params.containsKey(chart.x())) {
                p.add(at + "@Chart x = \"" + chart.x() + "\" is neither \"benchmark\" nor a @Param " + params.keySet());
            }
            if (!chart.y().equals("score") && !comparisonNames.contains(chart.y())
                && !auxCounters.contains(chart.y())) {
                p.add(at + "@Chart y = \"" + chart.y() + "\" is neither \"score\", a comparison " + comparisonNames
                    + " nor an @AuxCounters field " + auxCounters);
            }
            for (final String s : chart.series()) {
                if (!s.equals(BenchmarkMeta.BENCHMARK) && !params.containsKey(s)) {
                    p.add(at + "@Chart series \"" + s + "\" is not a @Param");
                }
            }
        }
        for (final BenchmarkMeta.BusyRule rule : meta.busyRules) {
            for (final String term : rule.terms()) {
                if (!term.equals("jmh") && !term.chars().allMatch(Character::isDigit) && !params.containsKey(term)) {
                    p.add(at + rule.source() + ": term '" + term + "' is not an integer, jmh or a @Param");
                }
            }
            for (final String cond : rule.when().keySet()) {
                if (!params.containsKey(cond)) {
                    p.add(at + rule.source() + ": when names no @Param '" + cond + "'");
                } else {
                    for (final String v : rule.when().get(cond)) {
                        if (!params.get(cond).contains(v)) {
                            p.add(at + rule.source() + ": '" + v + "' is not a value of " + cond);
                        }
                    }
                }
            }
        }
        if (meta.quick != null) {
            for (final String q : meta.quick.params()) {
                final String name = q.contains("=") ? q.substring(0, q.indexOf('=')) : q;
                if (!params.containsKey(name)) {
                    p.add(at + "@Quick params \"" + q + "\": no such @Param " + params.keySet());
                }
            }
        }
        return p;
    }

    private static Set<String> auxCounterFields(final Class<?> type) {
        final Set<String> out = new LinkedHashSet<>();
        for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
            for (final Class<?> nested : c.getDeclaredClasses()) {
                if (nested.isAnnotationPresent(org.openjdk.jmh.annotations.AuxCounters.class)) {
                    for (final Field f : nested.getFields()) {
                        out.add(f.getName());
                    }
                }
            }
        }
        return out;
    }

    @Test
    void quickSuiteFitsItsBudget() throws ReportException {
        final RunPlan plan = RunPlan.plan(RunPlanTest.suite(), List.of(), true, List.of(), LOADER);
        final StringBuilder sb = new StringBuilder();
        plan.runs.forEach(r -> sb.append(String.format("%n  %-40s %4d combinations ~%s", r.simpleName(), r.combos(),
            Format.duration(r.estimateSeconds()))));
        assertTrue(plan.estimateSeconds() <= RunPlan.QUICK_BUDGET_SECONDS, "the --quick suite is estimated at "
            + Format.duration(plan.estimateSeconds()) + ", over its budget of "
            + Format.duration(RunPlan.QUICK_BUDGET_SECONDS) + " (10 min on 2 cores, less 10%): add or tighten "
            + "@Quick on the largest classes:" + sb);
    }
}
