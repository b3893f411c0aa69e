package dev.overlap.bench.graph;

import com.fasterxml.jackson.jr.ob.JSON;
import dev.overlap.graph.app.Warmup;
import dev.overlap.graph.report.TextTable;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Renders a comparison: {@code comparison.md} (machine, load, commit, settings, graphs, results, what each
 * implementation is), {@code comparison.csv}, {@code comparison.json}, the table printed at the end, and the status
 * line of each row. The Markdown warns when the load at the start exceeded half the cores. Columns that only some runs
 * have appear only when a row has them: the PageRank L1 error, the peak RSS, and the ratios to GAP of the same graph
 * and app ({@code time / gap}: this median over GAP's; {@code rss-idle / gap}: this peak RSS less an idle JVM's over
 * GAP's peak RSS; below 1 is better than GAP). Immutable; thread-safe.
 */
final class ComparisonReport {
    /**
     * What the run was asked to do.
     *
     * @param quick        a smoke run
     * @param devices      Overlap's devices
     * @param threads      Overlap's threads in total ({@code devices} x workers per device; also GAP's)
     * @param warmup       the warm-up: untimed runs and their time floor (GAP's warm-up trials are its runs)
     * @param runs         timed runs
     * @param prIterations fixed PageRank iterations, or 0 when chosen per graph for {@code prError}
     * @param prError      the L1 error every PageRank answer aims for
     * @param command      the arguments as given, each with a leading space
     * @param idleJvmKib   the peak RSS of an idle JVM with the forked measurements' flags, or -1
     * @param gapDir       the GAP build, or null when GAP was not a peer
     */
    record Settings(boolean quick, int devices, int threads, Warmup warmup, int runs, int prIterations, double prError,
                    String command, long idleJvmKib, String gapDir) {
    }

    private final Map<String, Object> machine;
    private final String loadAtEnd;
    private final Settings settings;
    private final List<ComparisonGraph> graphs;
    private final List<ComparisonRow> rows;
    private final Set<String> notes;
    private final double wallSeconds;

    /**
     * @param machine   the machine at the start ({@code RunInfo.asMap()}: date, cores, cpu, memory, Java, load,
     *                  commit)
     * @param loadAtEnd the load average at the end
     */
    ComparisonReport(final Map<String, Object> machine, final String loadAtEnd, final Settings settings,
        final List<ComparisonGraph> graphs, final List<ComparisonRow> rows, final Set<String> notes,
        final double wallSeconds) {
        this.machine = Collections.unmodifiableMap(new LinkedHashMap<>(machine));
        this.loadAtEnd = loadAtEnd;
        this.settings = settings;
        this.graphs = List.copyOf(graphs);
        this.rows = List.copyOf(rows);
        this.notes = Collections.unmodifiableSet(new LinkedHashSet<>(notes));
        this.wallSeconds = wallSeconds;
    }

    /** @return the progress line for a measured row */
    static String statusLine(final ComparisonRow row) {
        return String.format(Locale.ROOT, "%s %s %s: median %.2f ms%s%s%s, %s", row.graph, row.app, row.impl,
            row.median(), Double.isNaN(row.mteps()) ? "" : String.format(Locale.ROOT, ", %.1f MTEPS", row.mteps()),
            Double.isNaN(row.prError) ? "" : String.format(Locale.ROOT, ", L1 error %.2e", row.prError),
            row.peakRssKib < 0 ? "" : String.format(Locale.ROOT, ", peak RSS %.0f MiB", row.peakRssKib / 1024.0),
            row.verification.passed() ? "verified" : "verification FAILED");
    }

    /** The GAP row of each graph and app, to compare the others with. */
    private static Map<String, ComparisonRow> gapRows(final List<ComparisonRow> rows) {
        final Map<String, ComparisonRow> m = new HashMap<>();
        for (final ComparisonRow r : rows) {
            if (GapMeasurement.GAP.equals(r.impl)) {
                m.put(r.graph + "\u0000" + r.app, r);
            }
        }
        return m;
    }

    private static ComparisonRow gapOf(final Map<String, ComparisonRow> gap, final ComparisonRow r) {
        return GapMeasurement.GAP.equals(r.impl) ? null : gap.get(r.graph + "\u0000" + r.app);
    }

    /** @return this row's median over GAP's for the same graph and app, NaN without one */
    static double timeVsGap(final ComparisonRow r, final ComparisonRow gap) {
        return gap == null ? Double.NaN : r.median() / gap.median();
    }

    /** @return this row's peak RSS less the idle JVM's over GAP's peak RSS, NaN when a figure is missing */
    static double rssVsGap(final ComparisonRow r, final ComparisonRow gap, final long idleJvmKib) {
        return gap == null || r.peakRssKib < 0 || gap.peakRssKib <= 0 || idleJvmKib < 0 ? Double.NaN
            : (double)(r.peakRssKib - idleJvmKib) / gap.peakRssKib;
    }

    /**
     * @param idleJvmKib the idle JVM's peak RSS, or -1
     * @param markdown   whether the settings column is included (the terminal table leaves it out)
     * @return the results table
     */
    static TextTable table(final List<ComparisonRow> rows, final long idleJvmKib, final boolean markdown) {
        final boolean pr = rows.stream().anyMatch(r -> !Double.isNaN(r.prError));
        final boolean rss = rows.stream().anyMatch(r -> r.peakRssKib >= 0);
        final Map<String, ComparisonRow> gap = gapRows(rows);
        final List<String> h = new ArrayList<>(List.of("<graph", "<app", "<implementation", "threads", "median ms",
            "min ms", "MTEPS", "vs java csr"));
        if (pr) {
            h.add("L1 error");
        }
        if (rss) {
            h.add("peak RSS MiB");
        }
        if (!gap.isEmpty()) {
            h.add("time / gap");
            h.add("rss-idle / gap");
        }
        h.add("<verified");
        if (markdown) {
            h.add("<settings");
        }
        final TextTable t = new TextTable(h.toArray(new String[0]));
        for (final ComparisonRow row : rows) {
            final List<Object> c = new ArrayList<>(List.of(row.graph, row.app, row.impl, row.threads,
                TextTable.fixed(row.median(), 2), TextTable.fixed(row.min(), 2), TextTable.fixed(row.mteps(), 1),
                ratio(row.vsJava())));
            if (pr) {
                c.add(Double.isNaN(row.prError) ? "-" : String.format(Locale.ROOT, "%.2e", row.prError));
            }
            if (rss) {
                c.add(row.peakRssKib < 0 ? "-" : TextTable.fixed(row.peakRssKib / 1024.0, 0));
            }
            if (!gap.isEmpty()) {
                final ComparisonRow g = gapOf(gap, row);
                c.add(ratio(timeVsGap(row, g)));
                c.add(ratio(rssVsGap(row, g, idleJvmKib)));
            }
            c.add(row.verified());
            if (markdown) {
                c.add(row.settings.isEmpty() ? "-" : row.settings);
            }
            t.row(c.toArray());
        }
        return t;
    }

    private static String ratio(final double x) {
        return Double.isNaN(x) ? "-" : TextTable.fixed(x, 2) + "x";
    }

    /** @return the table as the terminal shows it */
    String text() {
        return table(rows, settings.idleJvmKib(), false).toText();
    }

    private boolean hasGap() {
        return rows.stream().anyMatch(r -> GapMeasurement.GAP.equals(r.impl));
    }

    /** @return {@code comparison.md} */
    String markdown() {
        final Map<String, Object> m = machine;
        final Settings s = settings;
        final StringBuilder sb = new StringBuilder();
        sb.append("# Graph apps: Overlap vs plain Java vs JGraphT").append(hasGap() ? " vs GAP" : "")
            .append(s.quick() ? " (quick smoke run, not a measurement)" : "").append("\n\n");
        sb.append(String.format(Locale.ROOT, "%s, %s cores (%s), %s GiB, Java %s (%s); load average %s at the start, "
            + "%s at the end; commit %s%s.%n%n", m.get("date"), m.get("cores"), m.get("cpu"),
            m.get("memoryBytes") instanceof Number ? String.format(Locale.ROOT, "%.0f",
                ((Number)m.get("memoryBytes")).doubleValue() / (1L << 30)) : "?", m.get("javaVersion"),
            m.get("javaVendor"), m.get("loadAverage"), loadAtEnd, m.getOrDefault("commit", "?"),
            Boolean.TRUE.equals(m.get("dirty")) ? " (with uncommitted changes)" : ""));
        final int perDevice = s.threads() / s.devices();
        sb.append(String.format(Locale.ROOT, "Every implementation: %s, then the median of %d "
            + "timed runs (min beside it), algorithm time only (not generation, loading, copying or placement). "
            + "Overlap runs on %d devices x %d worker%s = %d threads%s (overlap solo on the calling thread, overlap coop on one device with all of them); the "
            + "Java CSR and JGraphT runs use one thread. "
            + "MTEPS: edges out of the reached vertices (each undirected edge once per direction) per microsecond. "
            + "\"vs java csr\": the single-threaded Java CSR median / this median.%n%n", s.warmup().describe(),
            s.runs(), s.devices(), perDevice, perDevice == 1 ? "" : "s", s.threads(),
            hasGap() ? ", GAP on OMP_NUM_THREADS=" + s.threads() : ""));
        if (s.prIterations() > 0) {
            sb.append(String.format(Locale.ROOT, "PageRank: damping 0.85; java csr, overlap bsp, solo and coop and JGraphT run exactly "
                + "%d iterations (--pr-iterations); async PageRank and GAP aim at an L1 error of %.3g. \"L1 error\": "
                + "each answer's distance to the converged PageRank (power iteration to an error bound of %.0e).%n%n",
                s.prIterations(), s.prError(), PageRankReference.TOLERANCE));
        } else {
            sb.append(String.format(Locale.ROOT, "PageRank at equal accuracy: damping 0.85, every answer aims at an L1 "
                + "error of %.3g against the converged PageRank (power iteration to an error bound of %.0e): java csr, "
                + "overlap bsp, solo and coop and JGraphT run the fewest iterations that get there (per graph: the settings "
                + "column), "
                + "async PageRank runs to a tolerance calibrated by untimed runs, GAP to a tolerance chosen by "
                + "replaying its algorithm. \"L1 error\": each answer's distance to the converged PageRank.%n%n",
                s.prError(), PageRankReference.TOLERANCE));
        }
        if (rows.stream().anyMatch(r -> r.peakRssKib >= 0)) {
            sb.append(String.format(Locale.ROOT, "Peak RSS: the high-water mark of the process that measured the row "
                + "(each forked Overlap measurement runs in a JVM of its own as `overlap bfs|pr|sssp` does: the "
                + "one-device modes (solo, coop, and their Gauss-Seidel PageRank) load the graph straight into the "
                + "device's memory, compute the reference answer from it and calibrate a to-tolerance PageRank on it, "
                + "the others load a host graph, compute the reference answer (and calibrate async PageRank), place it "
                + "and drop the host copy before the runs; weights for SSSP only; GAP's "
                + "process loads, builds, runs and verifies), from /proc (VmHWM) or GNU time. An idle JVM started with "
                + "the same flags: %s. \"rss-idle / gap\": (peak RSS - idle JVM) / GAP's peak "
                + "RSS.%n%n", s.idleJvmKib() < 0 ? "not measured" : String.format(Locale.ROOT, "%.0f MiB",
                s.idleJvmKib() / 1024.0)));
        }
        final double load = firstNumber(m.get("loadAverage"));
        final int cores = m.get("cores") instanceof Number ? ((Number)m.get("cores")).intValue() : 1;
        if (load > cores / 2.0) {
            sb.append(String.format(Locale.ROOT, "**Warning: the machine was busy (load %.2f on %d cores) when the run "
                + "started: other processes shared the cores, so these figures are unreliable.**%n%n", load, cores));
        }
        final boolean files = graphs.stream().anyMatch(g -> g.file() != null);
        final TextTable gt = files
            ? new TextTable("<graph", "vertices", "directed edges", "source", "generated/loaded ms", "<file")
            : new TextTable("<graph", "vertices", "directed edges", "source", "generated ms");
        for (final ComparisonGraph g : graphs) {
            if (files) {
                gt.row(g.name(), TextTable.count(g.vertices()), TextTable.count(g.edges()), g.source(),
                    TextTable.fixed(round(g.generateMillis()), 0), g.file() == null ? "-" : "`" + g.file() + "`");
            } else {
                gt.row(g.name(), TextTable.count(g.vertices()), TextTable.count(g.edges()), g.source(),
                    TextTable.fixed(round(g.generateMillis()), 0));
            }
        }
        sb.append(gt.toMarkdown()).append('\n');
        if (s.gapDir() != null && files) {
            sb.append("A generated graph is written to the file both systems load (each undirected edge once; both "
                + "symmetrize it), read back by Overlap and checked to be the generated graph; the file is deleted "
                + "after its graph unless --keep-graph-files.\n\n");
        }
        sb.append(table(rows, s.idleJvmKib(), true).toMarkdown()).append('\n');
        sb.append("Implementations:\n\n");
        sb.append("- **overlap bsp**: the bulk-synchronous apps on the mesh (BFS direction-optimizing: it scans far "
            + "fewer edges than it traverses; PageRank pulls over the reverse graph; SSSP delta-stepping rounds, one bucket each).\n");
        sb.append("- **overlap async**: the Atos-style apps on the distributed worklist, when its provider is "
            + "registered.\n");
        sb.append("- **overlap solo**: the one-thread path: the graph on one device's memory, the calling thread, "
            + "no launch, transport, worklist or barriers (BFS a queue over the CSR, PageRank a pull over the reverse "
            + "graph, SSSP delta-stepping buckets); the path `--mode auto` takes below its thresholds (`AutoMode`).\n");
        sb.append("- **overlap coop**: the whole graph on one device with every worker in one persistent launch, "
            + "levels, iterations or buckets separated by the launch's barrier (`syncWorkers`): BFS level-synchronous "
            + "and direction-optimizing, PageRank the pull of solo with rows claimed in chunks, SSSP delta-stepping "
            + "with per-worker bins.\n");
        sb.append("- **java csr**: `SequentialBfs`, `Dijkstra` (indexed binary heap) and `PowerIteration` (push) of "
            + "`dev.overlap.graph.ref`: plain array loops over the CSR, no boxing, no allocation per edge. They are the "
            + "references every other answer is checked against.\n");
        sb.append("- **" + ComparisonRun.JGRAPHT + "**: `BreadthFirstIterator`, `PageRank` on the `AsUnweightedGraph` "
            + "view, `DijkstraShortestPath.getPaths` on an undirected weighted graph of `Integer` vertices with the "
            + "memory-lean `DefaultGraphSpecificsStrategy` (copy not timed). JGraphT's `PageRank` builds its index "
            + "inside the call, so its time includes it.\n");
        if (s.gapDir() != null) {
            sb.append(String.format(Locale.ROOT, "- **gap**: the GAP benchmark suite (`sbeamer/gapbs`, built outside "
                + "this repository with its default `make`: g++ -O3 -fopenmp) in `%s`, on the same file Overlap "
                + "loaded (the file column), symmetrized as Overlap reads it: `OMP_NUM_THREADS=%d bfs -f FILE -s -r "
                + "SOURCE -n %d -v -a`, `sssp ... -d DELTA` (the settings column; 2 on graphs of mean degree 8 or "
                + "more, 256 on sparser ones, unless --gap-delta), `pr -f FILE -s -n %d -t TOL -i 1000 -v -a -l`; the "
                + "first %d trial%s dropped as warm-up%s. GAP's PageRank is float Gauss-Seidel; its scores are never "
                + "printed in full, so its L1 error is that of a one-thread replay of its documented algorithm "
                + "(`GapPageRankModel`) after the iterations its log shows (an estimate: two threads see slightly "
                + "different neighbour values), and its printed top scores are checked against the reference.%n",
                s.gapDir(), s.threads(), s.warmup().runs() + s.runs(), s.warmup().runs() + s.runs(), s.warmup().runs(),
                s.warmup().runs() == 1 ? " is" : "s are", s.warmup().runs() == 1 ? "" : "s"));
        }
        sb.append('\n');
        sb.append("Verification: BFS depths and SSSP distances equal the sequential references exactly (JGraphT: "
            + "reached-set size and depths; Dijkstra distances); fixed-iteration PageRank within 1e-9 (L1) of power "
            + "iteration with the same iterations, async PageRank within its tolerance of the converged PageRank.");
        if (hasGap()) {
            sb.append(" GAP: its own `-v` on every trial (BFS parent tree depths against a serial BFS, SSSP distances "
                + "against a serial Dijkstra, PageRank's residual below its tolerance), plus: the graph it built has "
                + "Overlap's vertex and undirected edge counts and (when GAP's converter is built) is Overlap's edge "
                + "for edge and weight for weight as the converter writes it back, its BFS tree has the reference's vertices and edges, "
                + "its SSSP reaches the reference's vertices, its top PageRank scores match the reference.");
        }
        sb.append('\n');
        if (!notes.isEmpty()) {
            sb.append('\n');
            for (final String n : notes) {
                sb.append("- note: ").append(n).append('\n');
            }
        }
        sb.append(String.format(Locale.ROOT, "%nWall time %.1f s. Command: `overlap bench-graphs%s`.%n", wallSeconds,
            s.command()));
        return sb.toString();
    }

    /** @return {@code comparison.csv} */
    String csv() {
        final Map<String, ComparisonRow> gap = gapRows(rows);
        final StringBuilder sb = new StringBuilder("graph,app,implementation,threads,warmups,runs,medianMs,minMs,maxMs,"
            + "runTimesMs,mteps,vsJavaCsr,prError,peakRssKiB,timeVsGap,rssLessIdleVsGap,settings,verified,"
            + "verification\n");
        for (final ComparisonRow row : rows) {
            final StringBuilder times = new StringBuilder();
            for (final double t : row.runMillis()) {
                times.append(times.length() == 0 ? "" : " ").append(num(t));
            }
            final ComparisonRow g = gapOf(gap, row);
            sb.append(String.join(",", quote(row.graph), row.app.id(), row.impl, row.threads,
                Integer.toString(settings.warmup().runs()), Integer.toString(settings.runs()), num(row.median()),
                num(row.min()), num(row.max()), times, Double.isNaN(row.mteps()) ? "" : num(row.mteps()),
                num(row.vsJava()), Double.isNaN(row.prError) ? "" : String.format(Locale.ROOT, "%.4g", row.prError),
                row.peakRssKib < 0 ? "" : Long.toString(row.peakRssKib), num(timeVsGap(row, g)),
                num(rssVsGap(row, g, settings.idleJvmKib())), quote(row.settings), row.verified(),
                quote(row.verification.detail()))).append('\n');
        }
        return sb.toString();
    }

    /** @return {@code comparison.json} */
    String json() throws IOException {
        final Settings s = settings;
        final Map<String, Object> m = new LinkedHashMap<>();
        m.put("command", "bench-graphs");
        m.put("quick", s.quick());
        m.put("machine", new LinkedHashMap<>(machine));
        m.put("loadAverageAtEnd", loadAtEnd);
        m.put("devices", s.devices());
        m.put("threadsPerDevice", s.threads() / s.devices());
        m.put("warmups", s.warmup().runs());
        m.put("warmupMillis", s.warmup().minMillis());
        m.put("runs", s.runs());
        m.put("prIterations", s.prIterations() > 0 ? s.prIterations() : "per graph, for prError");
        m.put("prError", s.prError());
        m.put("idleJvmRssKiB", s.idleJvmKib());
        if (s.gapDir() != null) {
            m.put("gap", s.gapDir());
        }
        final List<Map<String, Object>> graphList = new ArrayList<>();
        for (final ComparisonGraph g : graphs) {
            final Map<String, Object> gi = new LinkedHashMap<>();
            gi.put("name", g.name());
            gi.put("family", g.family());
            gi.put("vertices", g.vertices());
            gi.put("edges", g.edges());
            gi.put("source", g.source());
            gi.put("generateMs", round(g.generateMillis()));
            if (g.file() != null) {
                gi.put("file", g.file());
            }
            graphList.add(gi);
        }
        m.put("graphs", graphList);
        final Map<String, ComparisonRow> gap = gapRows(rows);
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
            if (!Double.isNaN(row.prError)) {
                x.put("prError", row.prError);
            }
            if (row.peakRssKib >= 0) {
                x.put("peakRssKiB", row.peakRssKib);
            }
            final ComparisonRow g = gapOf(gap, row);
            if (!Double.isNaN(timeVsGap(row, g))) {
                x.put("timeVsGap", round(timeVsGap(row, g)));
            }
            if (!Double.isNaN(rssVsGap(row, g, s.idleJvmKib()))) {
                x.put("rssLessIdleVsGap", round(rssVsGap(row, g, s.idleJvmKib())));
            }
            if (!row.settings.isEmpty()) {
                x.put("settings", row.settings);
            }
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

    static String quote(final String s) {
        return s.indexOf(',') < 0 && s.indexOf('"') < 0 && s.indexOf('\n') < 0 ? s : '"' + s.replace("\"", "\"\"") + '"';
    }

    static String num(final double v) {
        return Double.isNaN(v) ? "" : String.format(Locale.ROOT, "%.4f", v).replaceAll("0+$", "").replaceAll("\\.$", "");
    }

    static double round(final double x) {
        return Double.isFinite(x) ? Math.round(x * 1000) / 1000.0 : x;
    }
}
