package dev.overlap.graph.cli;

import com.fasterxml.jackson.jr.ob.JSON;
import dev.overlap.graph.app.GraphApp;
import dev.overlap.graph.app.WorkCounts;
import dev.overlap.graph.report.TextTable;
import dev.overlap.graph.report.chart.ChartData;
import dev.overlap.graph.report.chart.ChartData.Axis;
import dev.overlap.graph.report.chart.ChartData.Panel;
import dev.overlap.graph.report.chart.ChartData.Point;
import dev.overlap.graph.report.chart.ChartData.Series;
import dev.overlap.graph.report.chart.SvgCharts;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Renders a {@link ScalingSweep.Result}: the CSV ({@link #CSV_HEADER}, one line per device count), the SVG chart
 * ({@link #chart}, drawn by {@link SvgCharts}), the JSON object of {@code --json} and the text table. Speedup and
 * efficiency are against the one-device point, "vs seq" against the single-threaded Java run. Immutable once built;
 * thread-safe.
 */
final class ScalingReport {
    /** CSV header; one line per device count follows. */
    static final String CSV_HEADER = "app,mode,graph,vertices,edges,devices,threadsPerDevice,threads,oversubscribed,"
        + "medianMs,minMs,maxMs,runTimesMs,mteps,speedup,efficiency,sequentialMs,vsSequential,iterations,visited,ideal,"
        + "normalizedWork,localPushes,remotePushes,remoteAtomics,messages,bytesSent,verified";

    private final GraphApp app;
    private final String mode;
    private final String graph;
    private final long vertices;
    private final long edges;
    private final int threadsPerDevice;
    private final int runs;
    private final int cores;
    private final double seqMillis;
    private final List<ScalingPoint> points;

    /**
     * @param graph the graph's name as the command line gave it
     * @param runs  timed runs per point (for the table's header)
     * @param cores the machine's cores
     */
    ScalingReport(final GraphApp app, final String mode, final String graph, final long vertices, final long edges,
        final int threadsPerDevice, final int runs, final int cores, final ScalingSweep.Result result) {
        if (result.points.isEmpty()) {
            throw new IllegalArgumentException("no device counts");
        }
        this.app = app;
        this.mode = mode;
        this.graph = graph;
        this.vertices = vertices;
        this.edges = edges;
        this.threadsPerDevice = threadsPerDevice;
        this.runs = runs;
        this.cores = cores;
        this.seqMillis = result.sequentialMillis;
        this.points = result.points;
    }

    /** @return what ran where: app, mode, graph, workers per device and cores */
    String title() {
        return app + " " + mode + " on " + graph + ": " + threadsPerDevice + " worker" + (threadsPerDevice == 1 ? ""
            : "s") + " per device, " + cores + " cores";
    }

    /** @return the one-device median every speedup is measured against */
    private double base() {
        return points.get(0).median();
    }

    /** @return the CSV file's text */
    String csv() {
        final StringBuilder sb = new StringBuilder(CSV_HEADER).append('\n');
        final double base = base();
        for (final ScalingPoint p : points) {
            final WorkCounts c = p.counts;
            final StringBuilder times = new StringBuilder();
            for (final double t : p.runMillis()) {
                times.append(times.length() == 0 ? "" : " ").append(num(t));
            }
            final String[] cells = {app.id(), mode, csvQuote(graph), Long.toString(vertices), Long.toString(edges),
                Integer.toString(p.devices), Integer.toString(threadsPerDevice),
                Integer.toString(p.devices * threadsPerDevice), Boolean.toString(p.oversubscribed), num(p.median()),
                num(p.best()), num(p.worst()), times.toString(), Double.isNaN(p.mteps()) ? "" : num(p.mteps()),
                num(base / p.median()), num(base / p.median() / p.devices), num(seqMillis), num(seqMillis / p.median()),
                Long.toString(c.iterations()), Long.toString(c.visited()), Long.toString(c.ideal()),
                num(c.normalizedWork()), Long.toString(c.localPushes()), Long.toString(c.remotePushes()),
                Long.toString(c.remoteAtomics()), Long.toString(c.messages()), Long.toString(c.bytesSent()),
                p.verified()};
            sb.append(String.join(",", cells)).append('\n');
        }
        return sb.toString();
    }

    /**
     * @return the chart: the median time against devices (bars: fastest..slowest run; the single-threaded Java run as
     *     a reference line) over the speedup against the first device count and against the single-threaded run,
     *     with the ideal (linear) speedup; oversubscribed points hollow
     */
    ChartData chart() {
        final boolean withSeq = Double.isFinite(seqMillis) && seqMillis > 0;
        final int first = points.get(0).devices;
        final List<Point> time = new ArrayList<>();
        final List<Point> speedup = new ArrayList<>();
        final List<Point> vsSeq = new ArrayList<>();
        for (final ScalingPoint p : points) {
            final String at = p.devices + " device" + (p.devices == 1 ? "" : "s") + ": ";
            time.add(Point.of(p.devices, p.median()).range(p.best(), p.worst()).flagged(p.oversubscribed)
                .tooltip(at + num(p.median()) + " ms (" + num(p.best()) + ".." + num(p.worst()) + ")"));
            speedup.add(Point.of(p.devices, base() / p.median()).flagged(p.oversubscribed)
                .tooltip(at + num(base() / p.median()) + " x"));
            vsSeq.add(Point.of(p.devices, seqMillis / p.median()).flagged(p.oversubscribed)
                .tooltip(at + num(seqMillis / p.median()) + " x"));
        }
        Panel timePanel = Panel.of(Axis.linear("median time (ms; bars: fastest..slowest run)"),
            List.of(Series.of("median time", time)));
        if (withSeq) {
            timePanel = timePanel.reference(seqMillis, "single-threaded Java CSR: " + TextTable.fixed(seqMillis, 2)
                + " ms");
        }
        final List<Series> speed = new ArrayList<>();
        speed.add(Series.of("speedup over " + first + " device" + (first == 1 ? "" : "s"), speedup));
        if (withSeq) {
            speed.add(Series.of("speedup over single-threaded Java CSR", vsSeq));
        }
        final int last = points.get(points.size() - 1).devices;
        speed.add(Series.guide("ideal (linear)", List.of(Point.of(first, 1), Point.of(last, last / (double)first))));
        return ChartData.stacked(title(), Axis.linear("devices").format(v -> Long.toString(Math.round(v))),
            List.of(timePanel, Panel.of(Axis.linear("speedup (×)"), speed)))
            .flaggedAs("more busy threads than the " + cores + " cores");
    }

    /** @return the SVG of {@link #chart} */
    String svg() {
        return SvgCharts.render(chart());
    }

    /**
     * @param source the source vertex (left out for an app without one)
     * @param csv    where the CSV was written
     * @param svg    where the chart was written
     * @return the JSON object of {@code --json}
     */
    String json(final int source, final Path csv, final Path svg) throws IOException {
        final Map<String, Object> m = new LinkedHashMap<>();
        m.put("command", "scaling");
        m.put("app", app.id());
        m.put("mode", mode);
        m.put("graph", graph);
        m.put("vertices", vertices);
        m.put("edges", edges);
        if (app.hasSource()) {
            m.put("source", source);
        }
        m.put("threadsPerDevice", threadsPerDevice);
        m.put("cores", cores);
        m.put("sequentialMs", Double.parseDouble(num(seqMillis)));
        final double base = base();
        final List<Map<String, Object>> rows = new ArrayList<>();
        for (final ScalingPoint p : points) {
            final Map<String, Object> r = new LinkedHashMap<>();
            r.put("devices", p.devices);
            r.put("threads", p.devices * threadsPerDevice);
            r.put("oversubscribed", p.oversubscribed);
            r.put("medianMs", Double.parseDouble(num(p.median())));
            r.put("minMs", Double.parseDouble(num(p.best())));
            r.put("maxMs", Double.parseDouble(num(p.worst())));
            if (!Double.isNaN(p.mteps())) {
                r.put("mteps", Double.parseDouble(num(p.mteps())));
            }
            r.put("speedup", Double.parseDouble(num(base / p.median())));
            r.put("vsSequential", Double.parseDouble(num(seqMillis / p.median())));
            r.put("normalizedWork", Double.parseDouble(num(p.counts.normalizedWork())));
            r.put("remotePushes", p.counts.remotePushes());
            r.put("messages", p.counts.messages());
            r.put("verified", p.verified());
            r.put("verification", p.verification.detail());
            rows.add(r);
        }
        m.put("rows", rows);
        m.put("csv", csv.toString());
        m.put("svg", svg.toString());
        return JSON.std.asString(m);
    }

    /** Prints the table, the oversubscription note and where the files went. */
    void print(final PrintWriter pw, final Path csv, final Path svg) {
        pw.println("overlap scaling: " + title());
        pw.printf(Locale.ROOT, "single-threaded Java CSR: %.2f ms (median of %d)%n%n", seqMillis, runs);
        final TextTable t = new TextTable("devices", "threads", "median ms", "min ms", "max ms", "MTEPS", "speedup",
            "efficiency", "vs seq", "visited/ideal", "remote pushes", "messages", "<verified");
        final double base = base();
        boolean anyOver = false;
        for (final ScalingPoint p : points) {
            anyOver |= p.oversubscribed;
            final WorkCounts c = p.counts;
            t.row(p.devices, p.devices * threadsPerDevice + (p.oversubscribed ? "*" : ""),
                TextTable.fixed(p.median(), 2), TextTable.fixed(p.best(), 2), TextTable.fixed(p.worst(), 2),
                TextTable.fixed(p.mteps(), 1), TextTable.fixed(base / p.median(), 2) + "x",
                TextTable.fixed(base / p.median() / p.devices * 100, 0) + "%",
                TextTable.fixed(seqMillis / p.median(), 2) + "x", TextTable.fixed(c.normalizedWork(), 2),
                TextTable.count(c.remotePushes()), TextTable.count(c.messages()), p.verified());
        }
        pw.print(t.toText());
        if (anyOver) {
            pw.printf(Locale.ROOT, "* more busy threads than the %d cores: time-sliced, so these rows measure the "
                + "scheduler as much as the code%n", cores);
        }
        pw.println("wrote " + csv + " and " + svg);
    }

    /** @return {@code v} with four decimals at most and no trailing zeros */
    static String num(final double v) {
        return String.format(Locale.ROOT, "%.4f", v).replaceAll("0+$", "").replaceAll("\\.$", "");
    }

    /** @return {@code s} quoted for CSV when it holds a comma, quote or line break */
    static String csvQuote(final String s) {
        if (s.indexOf(',') < 0 && s.indexOf('"') < 0 && s.indexOf('\n') < 0 && s.indexOf('\r') < 0) {
            return s;
        }
        return '"' + s.replace("\"", "\"\"") + '"';
    }
}
