package dev.overlap.bench.report;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * What the report knows about one benchmark class, read reflectively from its annotations ({@link Family},
 * {@link ComparedTo}, {@link ParamBaseline}, {@link Chart}, {@link BusyThreads}, {@link ByteSize}, {@link Quick}).
 * The class is loaded without being initialised. A class that is not on the class path (e.g. a result file from an
 * older version) still gets a section: family from its package, no comparisons, a default chart.
 */
final class BenchmarkMeta {
    /** Families in report order, with their section titles. */
    static final Map<String, String> FAMILIES = orderedFamilies();

    private static Map<String, String> orderedFamilies() {
        final Map<String, String> m = new LinkedHashMap<>();
        m.put("core", "Core: kernel launches, device memory, readiness tracking");
        m.put("queues", "Queues: counter-based queues vs JCTools, Agrona and the JDK");
        m.put("transport", "Transport: aggregators, inboxes, remote operations");
        m.put("proact", "PROACT: per-chunk transfers overlapping computation");
        m.put("worklist", "Worklist: distributed and priority worklists");
        m.put("graphs", "Graphs: BFS, PageRank, SSSP");
        return Collections.unmodifiableMap(m);
    }

    /** The pseudo-dimension naming the benchmark method or group. */
    static final String BENCHMARK = "benchmark";

    /** A declared comparison. */
    static final class Comparison {
        enum Kind { PEER, PARAM }

        final Kind kind;
        final String name;
        final RatioStyle style;
        /** PEER: the subject benchmark; PARAM: unused. */
        final String subject;
        /** PEER: the peer benchmark; PARAM: unused. */
        final String peer;
        /** PARAM: the param, its baseline value, the compared values (empty: all others), benchmarks (empty: all). */
        final String param;
        final String baseValue;
        final Set<String> compare;
        final Set<String> benchmarks;
        /** The metric compared: empty for the primary score, else a secondary metric's name. */
        final String metric;

        private Comparison(final Kind kind, final String name, final RatioStyle style, final String subject,
                           final String peer, final String param, final String baseValue, final Set<String> compare,
                           final Set<String> benchmarks, final String metric) {
            this.kind = kind;
            this.name = name;
            this.style = style;
            this.subject = subject;
            this.peer = peer;
            this.param = param;
            this.baseValue = baseValue;
            this.compare = compare;
            this.benchmarks = benchmarks;
            this.metric = metric;
        }

        static Comparison peer(final String subject, final ComparedTo c) {
            final String name = c.name().isEmpty() ? "vs " + c.value() : c.name();
            return new Comparison(Kind.PEER, name, c.style(), subject, c.value(), null, null, Set.of(), Set.of(), "");
        }

        static Comparison param(final ParamBaseline p) {
            final String name = p.name().isEmpty() ? "vs " + p.param() + "=" + p.value() : p.name();
            return new Comparison(Kind.PARAM, name, p.style(), null, null, p.param(), p.value(),
                new LinkedHashSet<>(Arrays.asList(p.compare())), new LinkedHashSet<>(Arrays.asList(p.benchmarks())),
                p.metric());
        }

        /** @return what the ratio is taken against, for the legend of a chart */
        String baselineLabel() {
            return kind == Kind.PEER ? peer : param + "=" + baseValue;
        }

        @Override
        public String toString() {
            return name;
        }
    }

    /**
     * A declared chart.
     *
     * @param title title, may be empty
     * @param x x dimension
     * @param y "score", a secondary metric or a comparison name
     * @param series series dimensions, empty: all other varying ones
     * @param xScale x scale
     * @param yScale y scale
     */
    record ChartSpec(String title, String x, String y, List<String> series, Chart.Scale xScale, Chart.Scale yScale) {
    }

    /** A busy-thread rule: a sum of terms, under conditions. */
    record BusyRule(List<String> terms, Map<String, Set<String>> when, String source) {
        boolean applies(final Map<String, String> params) {
            for (final Map.Entry<String, Set<String>> c : when.entrySet()) {
                if (!c.getValue().contains(params.get(c.getKey()))) {
                    return false;
                }
            }
            return true;
        }

        /** @return the busy threads, or -1 when a term names a param the row lacks */
        int eval(final Map<String, String> params, final int jmhThreads) {
            int sum = 0;
            for (final String t : terms) {
                if (t.equals("jmh")) {
                    sum += jmhThreads;
                } else if (t.chars().allMatch(Character::isDigit)) {
                    sum += Integer.parseInt(t);
                } else {
                    final String v = params.get(t);
                    if (v == null || !v.trim().chars().allMatch(Character::isDigit) || v.isBlank()) {
                        return -1;
                    }
                    sum += Integer.parseInt(v.trim());
                }
            }
            return sum;
        }

        static BusyRule parse(final BusyThreads b) {
            final List<String> terms = new ArrayList<>();
            for (final String t : b.value().split("\\+")) {
                if (!t.isBlank()) {
                    terms.add(t.trim());
                }
            }
            final Map<String, Set<String>> when = new LinkedHashMap<>();
            for (final String cond : b.when().split(";")) {
                if (cond.isBlank()) {
                    continue;
                }
                final int eq = cond.indexOf('=');
                if (eq <= 0) {
                    throw new IllegalArgumentException("@BusyThreads when=\"" + b.when()
                        + "\": expected param=value|value");
                }
                when.put(cond.substring(0, eq).trim(),
                    new LinkedHashSet<>(Arrays.stream(cond.substring(eq + 1).split("\\|")).map(String::trim).toList()));
            }
            return new BusyRule(terms, when, "@BusyThreads(\"" + b.value() + "\""
                + (b.when().isEmpty() ? "" : ", when = \"" + b.when() + "\"") + ")");
        }
    }

    final String className;
    final String simpleName;
    final String family;
    final boolean loaded;
    final List<Comparison> comparisons = new ArrayList<>();
    final List<ChartSpec> charts = new ArrayList<>();
    final List<BusyRule> busyRules = new ArrayList<>();
    final Set<String> byteParams = new HashSet<>();
    /** Benchmark names (methods or groups) that have {@code @Benchmark} methods, when the class is loaded. */
    final Set<String> benchmarkNames = new LinkedHashSet<>();
    final Quick quick;
    final List<String> problems = new ArrayList<>();

    private BenchmarkMeta(final String className, final Class<?> type, final ClassLoader loader) {
        this.className = className;
        this.simpleName = className.substring(className.lastIndexOf('.') + 1);
        this.loaded = type != null;
        String fam = null;
        Quick q = null;
        if (type != null) {
            try {
                final Family f = type.getAnnotation(Family.class);
                fam = f == null ? null : f.value().trim().toLowerCase(Locale.ROOT);
                q = type.getAnnotation(Quick.class);
                readMethods(type, loader);
                for (final ParamBaseline p : type.getAnnotationsByType(ParamBaseline.class)) {
                    comparisons.add(Comparison.param(p));
                }
                for (final Chart c : type.getAnnotationsByType(Chart.class)) {
                    charts.add(new ChartSpec(c.title(), c.x(), c.y(), List.of(c.series()), c.xScale(), c.yScale()));
                }
                for (final BusyThreads b : type.getAnnotationsByType(BusyThreads.class)) {
                    try {
                        busyRules.add(BusyRule.parse(b));
                    } catch (final IllegalArgumentException e) {
                        problems.add(e.getMessage());
                    }
                }
                collectByteParams(type, new HashSet<>());
            } catch (final LinkageError e) {
                problems.add("annotations of " + className + " could not be read: " + e);
            }
        } else {
            problems.add("class `" + className + "` is not on the report's class path: its annotations (family, "
                + "comparisons, charts) are unavailable; family taken from the package");
        }
        this.family = canonicalFamily(fam != null && !fam.isEmpty() ? fam : familyFromPackage(className));
        this.quick = q;
    }

    /**
     * @param className a benchmark class name
     * @param loader the loader to find it in
     * @return its metadata (never null; unloadable classes get defaults and a problem note)
     */
    static BenchmarkMeta of(final String className, final ClassLoader loader) {
        Class<?> type = null;
        try {
            type = Class.forName(className, false, loader);
        } catch (final ClassNotFoundException | LinkageError e) {
            // reported through problems
        }
        return new BenchmarkMeta(className, type, loader);
    }

    private void readMethods(final Class<?> type, final ClassLoader loader) {
        final Class<? extends java.lang.annotation.Annotation> benchmarkAnn = jmhAnnotation("Benchmark", loader);
        final Class<? extends java.lang.annotation.Annotation> groupAnn = jmhAnnotation("Group", loader);
        final Set<String> seen = new HashSet<>();
        for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
            for (final Method m : c.getDeclaredMethods()) {
                if (!seen.add(m.getName() + Arrays.toString(m.getParameterTypes()))) {
                    continue;
                }
                String name = m.getName();
                if (groupAnn != null && m.getAnnotation(groupAnn) != null) {
                    name = groupValue(m.getAnnotation(groupAnn));
                }
                if (benchmarkAnn != null && m.getAnnotation(benchmarkAnn) != null) {
                    benchmarkNames.add(name);
                }
                for (final ComparedTo ct : m.getAnnotationsByType(ComparedTo.class)) {
                    comparisons.add(Comparison.peer(name, ct));
                }
            }
        }
    }

    @SuppressWarnings("unchecked")
    private static Class<? extends java.lang.annotation.Annotation> jmhAnnotation(final String simple,
                                                                                  final ClassLoader loader) {
        try {
            return (Class<? extends java.lang.annotation.Annotation>)Class.forName(
                "org.openjdk.jmh.annotations." + simple, false, loader);
        } catch (final ClassNotFoundException | LinkageError e) {
            return null;
        }
    }

    private static String groupValue(final java.lang.annotation.Annotation group) {
        try {
            return (String)group.annotationType().getMethod("value").invoke(group);
        } catch (final ReflectiveOperationException e) {
            return "";
        }
    }

    private void collectByteParams(final Class<?> type, final Set<Class<?>> visited) {
        for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
            if (!visited.add(c)) {
                return;
            }
            for (final Field f : c.getDeclaredFields()) {
                if (f.getAnnotation(ByteSize.class) != null) {
                    byteParams.add(f.getName());
                }
            }
            for (final Class<?> nested : c.getDeclaredClasses()) {
                collectByteParams(nested, visited);
            }
        }
    }

    /** @return whether a param's values are byte counts */
    boolean isBytes(final String param) {
        return byteParams.contains(param) || param.toLowerCase(Locale.ROOT).contains("bytes");
    }

    static String familyFromPackage(final String className) {
        final String prefix = "dev.overlap.bench.";
        if (className.startsWith(prefix)) {
            final String rest = className.substring(prefix.length());
            final int dot = rest.indexOf('.');
            if (dot > 0) {
                return rest.substring(0, dot);
            }
        }
        return "other";
    }

    static String canonicalFamily(final String family) {
        return switch (family) {
            case "graph" -> "graphs";
            case "queue" -> "queues";
            default -> family;
        };
    }

    /** @return the section title of a family */
    static String familyTitle(final String family) {
        final String t = FAMILIES.get(family);
        return t != null ? t : Character.toUpperCase(family.charAt(0)) + family.substring(1);
    }

    /** @return the report order of a family: known ones first, in their order, then others */
    static int familyOrder(final String family) {
        int i = 0;
        for (final String f : FAMILIES.keySet()) {
            if (f.equals(family)) {
                return i;
            }
            i++;
        }
        return i;
    }
}
