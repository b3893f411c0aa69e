package dev.overlap.bench.graph;

import com.fasterxml.jackson.jr.ob.JSON;
import dev.overlap.graph.report.TextTable;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Renders a comparison: {@code comparison.md} (machine, load, commit, settings, graphs, results, what each
 * implementation is), {@code comparison.csv}, {@code comparison.json}, the table printed at the end, and the status
 * line of each row. The Markdown warns when the load at the start exceeded half the cores. Immutable; thread-safe.
 */
final class ComparisonReport {
    private final Map<String, Object> machine;
    private final String loadAtEnd;
    private final boolean quick;
    private final int devices;
    private final int threads;
    private final int prIterations;
    private final int warmups;
    private final int runs;
    private final String command;
    private final List<ComparisonGraph> graphs;
    private final List<ComparisonRow> rows;
    private final Set<String> notes;
    private final double wallSeconds;

    /**
     * @param machine   the machine at the start ({@code RunInfo.asMap()}: date, cores, cpu, memory, Java, load,
     *                  commit)
     * @param loadAtEnd the load average at the end
     * @param threads   Overlap's threads in total ({@code devices} x workers per device)
     * @param command   the arguments as given, each with a leading space
     */
    ComparisonReport(final Map<String, Object> machine, final String loadAtEnd, final boolean quick, final int devices,
        final int threads, final int prIterations, final int warmups, final int runs, final String command,
        final List<ComparisonGraph> graphs, final List<ComparisonRow> rows, final Set<String> notes,
        final double wallSeconds) {
        this.machine = Collections.unmodifiableMap(new LinkedHashMap<>(machine));
        this.loadAtEnd = loadAtEnd;
        this.quick = quick;
        this.devices = devices;
        this.threads = threads;
        this.prIterations = prIterations;
        this.warmups = warmups;
        this.runs = runs;
        this.command = command;
        this.graphs = List.copyOf(graphs);
        this.rows = List.copyOf(rows);
        this.notes = Collections.unmodifiableSet(new LinkedHashSet<>(notes));
        this.wallSeconds = wallSeconds;
    }

    /** @return the progress line for a measured row */
    static String statusLine(final ComparisonRow row) {
        return String.format(Locale.ROOT, "%s %s %s: median %.2f ms%s, %s", row.graph, row.app, row.impl, row.median(),
            Double.isNaN(row.mteps()) ? "" : String.format(Locale.ROOT, ", %.1f MTEPS", row.mteps()),
            row.verification.passed() ? "verified" : "verification FAILED");
    }

    /** @return the results table (text for the terminal, or Markdown) */
    static TextTable table(final List<ComparisonRow> rows) {
        final TextTable t = new TextTable("<graph", "<app", "<implementation", "threads", "median ms", "min ms",
            "MTEPS", "vs java csr", "<verified");
        for (final ComparisonRow row : rows) {
            t.row(row.graph, row.app, row.impl, row.threads, TextTable.fixed(row.median(), 2),
                TextTable.fixed(row.min(), 2), TextTable.fixed(row.mteps(), 1), TextTable.fixed(row.vsJava(), 2) + "x",
                row.verified());
        }
        return t;
    }

    /** @return the table as the terminal shows it */
    String text() {
        return table(rows).toText();
    }

    /** @return {@code comparison.md} */
    String markdown() {
        final Map<String, Object> m = machine;
        final StringBuilder sb = new StringBuilder();
        sb.append("# Graph apps: Overlap vs plain Java vs JGraphT").append(quick ? " (quick smoke run, not a "
            + "measurement)" : "").append("\n\n");
        sb.append(String.format(Locale.ROOT, "%s, %s cores (%s), %s GiB, Java %s (%s); load average %s at the start, "
            + "%s at the end; commit %s%s.%n%n", m.get("date"), m.get("cores"), m.get("cpu"),
            m.get("memoryBytes") instanceof Number ? String.format(Locale.ROOT, "%.0f",
                ((Number)m.get("memoryBytes")).doubleValue() / (1L << 30)) : "?", m.get("javaVersion"),
            m.get("javaVendor"), m.get("loadAverage"), loadAtEnd, m.getOrDefault("commit", "?"),
            Boolean.TRUE.equals(m.get("dirty")) ? " (with uncommitted changes)" : ""));
        final int perDevice = threads / devices;
        sb.append(String.format(Locale.ROOT, "Every implementation: %d untimed warm-up run%s, then the median of %d "
            + "timed runs (min beside it), algorithm time only (not generation, copying or placement). Overlap runs on "
            + "%d devices x %d worker%s = %d threads; the Java CSR and JGraphT runs use one thread. PageRank: damping "
            + "0.85, exactly %d iterations everywhere. MTEPS: edges out of the reached vertices (each undirected edge "
            + "once per direction) per microsecond. \"vs java csr\": the single-threaded Java CSR median / this median."
            + "%n%n", warmups, warmups == 1 ? "" : "s", runs, devices, perDevice, perDevice == 1 ? "" : "s", threads,
            prIterations));
        final double load = firstNumber(m.get("loadAverage"));
        final int cores = m.get("cores") instanceof Number ? ((Number)m.get("cores")).intValue() : 1;
        if (load > cores / 2.0) {
            sb.append(String.format(Locale.ROOT, "**Warning: the machine was busy (load %.2f on %d cores) when the run "
                + "started: other processes shared the cores, so these figures are unreliable.**%n%n", load, cores));
        }
        final TextTable gt = new TextTable("<graph", "vertices", "directed edges", "source", "generated ms");
        for (final ComparisonGraph g : graphs) {
            gt.row(g.name(), TextTable.count(g.vertices()), TextTable.count(g.edges()), g.source(),
                TextTable.fixed(round(g.generateMillis()), 0));
        }
        sb.append(gt.toMarkdown()).append('\n');
        sb.append(table(rows).toMarkdown()).append('\n');
        sb.append("Implementations:\n\n");
        sb.append("- **overlap bsp**: the bulk-synchronous apps on the mesh (BFS direction-optimizing: it scans far "
            + "fewer edges than it traverses; PageRank pulls over the reverse graph; SSSP Bellman-Ford rounds).\n");
        sb.append("- **overlap async**: the Atos-style apps on the distributed worklist, when its provider is "
            + "registered.\n");
        sb.append("- **java csr**: `SequentialBfs`, `Dijkstra` (indexed binary heap) and `PowerIteration` (push) of "
            + "`dev.overlap.graph.ref`: plain array loops over the CSR, no boxing, no allocation per edge. They are the "
            + "references every other answer is checked against.\n");
        sb.append("- **" + ComparisonRun.JGRAPHT + "**: `BreadthFirstIterator`, `PageRank` on the `AsUnweightedGraph` "
            + "view, `DijkstraShortestPath.getPaths` on an undirected weighted graph of `Integer` vertices with the "
            + "memory-lean `DefaultGraphSpecificsStrategy` (copy not timed). JGraphT's `PageRank` builds its index "
            + "inside the call, so its time includes it.\n\n");
        sb.append("Verification: BFS depths and SSSP distances equal the sequential references exactly (JGraphT: "
            + "reached-set size and depths; Dijkstra distances); PageRank within 1e-9 (L1) of power iteration with the "
            + "same iterations.\n");
        if (!notes.isEmpty()) {
            sb.append('\n');
            for (final String n : notes) {
                sb.append("- note: ").append(n).append('\n');
            }
        }
        sb.append(String.format(Locale.ROOT, "%nWall time %.1f s. Command: `overlap bench-graphs%s`.%n", wallSeconds,
            command));
        return sb.toString();
    }

    /** @return {@code comparison.csv} */
    String csv() {
        final StringBuilder sb = new StringBuilder("graph,app,implementation,threads,warmups,runs,medianMs,minMs,maxMs,"
            + "runTimesMs,mteps,vsJavaCsr,verified,verification\n");
        for (final ComparisonRow row : rows) {
            final StringBuilder times = new StringBuilder();
            for (final double t : row.runMillis()) {
                times.append(times.length() == 0 ? "" : " ").append(num(t));
            }
            sb.append(String.join(",", quote(row.graph), row.app.id(), row.impl, row.threads,
                Integer.toString(warmups), Integer.toString(runs), num(row.median()), num(row.min()), num(row.max()),
                times, Double.isNaN(row.mteps()) ? "" : num(row.mteps()), num(row.vsJava()), row.verified(),
                quote(row.verification.detail()))).append('\n');
        }
        return sb.toString();
    }

    /** @return {@code comparison.json} */
    String json() throws IOException {
        final Map<String, Object> m = new LinkedHashMap<>();
        m.put("command", "bench-graphs");
        m.put("quick", quick);
        m.put("machine", new LinkedHashMap<>(machine));
        m.put("loadAverageAtEnd", loadAtEnd);
        m.put("devices", devices);
        m.put("threadsPerDevice", threads / devices);
        m.put("warmups", warmups);
        m.put("runs", runs);
        m.put("prIterations", prIterations);
        final List<Map<String, Object>> graphList = new ArrayList<>();
        for (final ComparisonGraph g : graphs) {
            final Map<String, Object> gi = new LinkedHashMap<>();
            gi.put("name", g.name());
            gi.put("vertices", g.vertices());
            gi.put("edges", g.edges());
            gi.put("source", g.source());
            gi.put("generateMs", round(g.generateMillis()));
            graphList.add(gi);
        }
        m.put("graphs", graphList);
        final List<Map<String, Object>> list = new ArrayList<>();
        for (final ComparisonRow row : rows) {
            final Map<String, Object> x = new LinkedHashMap<>();
            x.put("graph", row.graph);
            x.put("app", row.app.id());
            x.put("implementation", row.impl);
            x.put("threads", row.threads);
            x.put("medianMs", round(row.median()));
            x.put("minMs", round(row.min()));
            x.put("maxMs", round(row.max()));
            final List<Double> times = new ArrayList<>();
            for (final double t : row.runMillis()) {
                times.add(round(t));
            }
            x.put("runTimesMs", times);
            if (!Double.isNaN(row.mteps())) {
                x.put("edgesTraversed", row.edgesTraversed);
                x.put("mteps", round(row.mteps()));
            }
            x.put("vsJavaCsr", round(row.vsJava()));
            x.put("verified", row.verified());
            x.put("verification", row.verification.detail());
            list.add(x);
        }
        m.put("rows", list);
        m.put("notes", new ArrayList<>(notes));
        m.put("wallSeconds", round(wallSeconds));
        return JSON.std.with(JSON.Feature.PRETTY_PRINT_OUTPUT).asString(m) + "\n";
    }

    /** @return the first number of a load-average string such as {@code "0.52 0.40 0.31"}, NaN if none */
    static double firstNumber(final Object loadAverage) {
        if (loadAverage == null) {
            return Double.NaN;
        }
        try {
            return Double.parseDouble(loadAverage.toString().trim().split("\\s+")[0]);
        } catch (final NumberFormatException e) {
            return Double.NaN;
        }
    }

    private static String quote(final String s) {
        return s.indexOf(',') < 0 && s.indexOf('"') < 0 && s.indexOf('\n') < 0 ? s : '"' + s.replace("\"", "\"\"") + '"';
    }

    static String num(final double v) {
        return Double.isNaN(v) ? "" : String.format(Locale.ROOT, "%.4f", v).replaceAll("0+$", "").replaceAll("\\.$", "");
    }

    static double round(final double x) {
        return Double.isFinite(x) ? Math.round(x * 1000) / 1000.0 : x;
    }
}
