package dev.overlap.bench.graph;

import com.fasterxml.jackson.jr.ob.JSON;
import dev.overlap.graph.report.TextTable;
import dev.overlap.graph.report.chart.ChartData;
import dev.overlap.graph.report.chart.SvgCharts;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The size sweep of {@code bench-graphs --sweep}: the time per edge of every implementation against the size of the
 * graph, per graph family (kron, grid, road, ...) and app, to show where Overlap's fixed costs (launches, barriers,
 * termination checks) stop mattering next to GAP's. Time per edge is the median run over the graph's directed edges,
 * in nanoseconds, whatever the app does with them (PageRank sweeps them once per iteration). Writes
 * {@code sweep.csv}, {@code sweep.json}, one SVG chart per family and app ({@code sweep-FAMILY-APP.svg}, both axes
 * logarithmic) and a Markdown section for {@code comparison.md}. Immutable; thread-safe.
 */
final class SweepReport {
    /** The full sweep: kron scale 14 to 22, grids 100 to 2000 on a side, road graphs of 10 thousand to 4 million. */
    static final String FULL = "kron:14,kron:16,kron:18,kron:20,kron:22,grid:100x100,grid:200x200,grid:500x500,"
        + "grid:1000x1000,grid:2000x2000,road:10000,road:100000,road:1000000,road:4000000";
    /** The quick sweep (a smoke run of the machinery, seconds). */
    static final String QUICK = "kron:10,kron:12,kron:14,grid:50x50,grid:100x100,grid:200x200,road:2500,road:10000,"
        + "road:40000";

    private final List<ComparisonGraph> graphs;
    private final List<ComparisonRow> rows;

    SweepReport(final List<ComparisonGraph> graphs, final List<ComparisonRow> rows) {
        this.graphs = List.copyOf(graphs);
        this.rows = List.copyOf(rows);
    }

    /** One point: a row on its graph. */
    private record Point(ComparisonGraph graph, ComparisonRow row) {
        double nsPerEdge() {
            return graph.edges() > 0 ? row.median() * 1e6 / graph.edges() : Double.NaN;
        }
    }

    private List<Point> points() {
        final Map<String, ComparisonGraph> byName = new LinkedHashMap<>();
        for (final ComparisonGraph g : graphs) {
            byName.put(g.name(), g);
        }
        final List<Point> p = new ArrayList<>();
        for (final ComparisonRow r : rows) {
            final ComparisonGraph g = byName.get(r.graph);
            if (g != null && !Double.isNaN(r.median())) {
                p.add(new Point(g, r));
            }
        }
        p.sort((a, b) -> Long.compare(a.graph().edges(), b.graph().edges()));
        return p;
    }

    /** @return {@code sweep.csv}: one line per graph, app and implementation */
    String csv() {
        final StringBuilder sb = new StringBuilder("family,graph,vertices,edges,app,implementation,medianMs,nsPerEdge,"
            + "verified\n");
        for (final Point p : points()) {
            sb.append(String.join(",", p.graph().family(), ComparisonReport.quote(p.graph().name()),
                Long.toString(p.graph().vertices()), Long.toString(p.graph().edges()), p.row().app.id(), p.row().impl,
                ComparisonReport.num(p.row().median()), ComparisonReport.num(p.nsPerEdge()), p.row().verified()))
                .append('\n');
        }
        return sb.toString();
    }

    /** @return {@code sweep.json}: the same as the CSV, as a list of objects */
    String json() throws IOException {
        final List<Map<String, Object>> list = new ArrayList<>();
        for (final Point p : points()) {
            final Map<String, Object> x = new LinkedHashMap<>();
            x.put("family", p.graph().family());
            x.put("graph", p.graph().name());
            x.put("vertices", p.graph().vertices());
            x.put("edges", p.graph().edges());
            x.put("app", p.row().app.id());
            x.put("implementation", p.row().impl);
            x.put("medianMs", ComparisonReport.round(p.row().median()));
            x.put("nsPerEdge", ComparisonReport.round(p.nsPerEdge()));
            x.put("verified", p.row().verified());
            list.add(x);
        }
        final Map<String, Object> m = new LinkedHashMap<>();
        m.put("points", list);
        return JSON.std.with(JSON.Feature.PRETTY_PRINT_OUTPUT).asString(m) + "\n";
    }

    /**
     * @return the charts by file name ({@code sweep-FAMILY-APP.svg}), one per family and app with points; a point
     *     whose verification failed is hollow; a time of 0 (below the clock's resolution) cannot sit on the log axis
     *     and is left out of the chart (the table keeps it)
     */
    Map<String, String> charts() {
        final List<Point> all = points();
        final Set<String> keys = new LinkedHashSet<>();
        for (final Point p : all) {
            keys.add(p.graph().family() + "\u0000" + p.row().app.id());
        }
        final Map<String, String> charts = new LinkedHashMap<>();
        for (final String key : keys) {
            final String family = key.substring(0, key.indexOf('\u0000'));
            final String app = key.substring(key.indexOf('\u0000') + 1);
            final Map<String, List<ChartData.Point>> byImpl = new LinkedHashMap<>();
            for (final Point p : all) {
                if (p.graph().family().equals(family) && p.row().app.id().equals(app) && p.nsPerEdge() > 0) {
                    byImpl.computeIfAbsent(p.row().impl, k -> new ArrayList<>()).add(ChartData.Point.of(
                        p.graph().edges(), p.nsPerEdge()).flagged(!p.row().verification.passed()).tooltip(
                        String.format(Locale.ROOT, "%s %s: %.2f ms, %.2f ns per edge", p.graph().name(), p.row().impl,
                            p.row().median(), p.nsPerEdge())));
                }
            }
            final List<ChartData.Series> series = new ArrayList<>();
            byImpl.forEach((impl, points) -> series.add(ChartData.Series.of(impl, points)));
            if (!series.isEmpty()) {
                charts.put("sweep-" + family + "-" + app + ".svg", SvgCharts.render(ChartData.of(app + " on "
                    + family + " graphs: time per edge against size", ChartData.Axis.log("directed edges"),
                    ChartData.Panel.of(ChartData.Axis.log("ns per edge (median run)"), series))
                    .flaggedAs("verification failed")));
            }
        }
        return charts;
    }

    /** @return the section of {@code comparison.md}: the charts, then ns per edge by graph and implementation */
    String markdown() {
        final StringBuilder sb = new StringBuilder("\n## Size sweep: time per edge against size\n\n");
        sb.append("Median run / directed edges, in nanoseconds (lower is better; the charts have both axes "
            + "logarithmic). Where a curve flattens, fixed costs per run and per level stop mattering.\n\n");
        for (final String file : charts().keySet()) {
            sb.append("![").append(file).append("](").append(file).append(")\n");
        }
        final List<Point> all = points();
        final List<String> impls = new ArrayList<>();
        for (final Point p : all) {
            if (!impls.contains(p.row().impl)) {
                impls.add(p.row().impl);
            }
        }
        final List<String> header = new ArrayList<>(List.of("<family", "<app", "<graph", "edges"));
        impls.forEach(header::add);
        final TextTable t = new TextTable(header.toArray(new String[0]));
        final Map<String, Map<String, Double>> cells = new LinkedHashMap<>();
        final Map<String, Point> first = new LinkedHashMap<>();
        for (final Point p : all) {
            final String key = p.graph().family() + "\u0000" + p.row().app.id() + "\u0000" + p.graph().name();
            cells.computeIfAbsent(key, k -> new LinkedHashMap<>()).put(p.row().impl, p.nsPerEdge());
            first.putIfAbsent(key, p);
        }
        final List<String> keys = new ArrayList<>(cells.keySet());
        keys.sort((a, b) -> {
            final Point pa = first.get(a);
            final Point pb = first.get(b);
            final int c = (pa.graph().family() + pa.row().app.id()).compareTo(pb.graph().family() + pb.row().app.id());
            return c != 0 ? c : Long.compare(pa.graph().edges(), pb.graph().edges());
        });
        for (final String key : keys) {
            final Point p = first.get(key);
            final List<Object> row = new ArrayList<>(List.of(p.graph().family(), p.row().app.id(), p.graph().name(),
                TextTable.count(p.graph().edges())));
            for (final String impl : impls) {
                final Double v = cells.get(key).get(impl);
                row.add(v == null ? "-" : TextTable.fixed(v, 2));
            }
            t.row(row.toArray());
        }
        sb.append('\n').append(t.toMarkdown());
        return sb.toString();
    }
}
