package dev.overlap.bench.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;
import java.util.function.DoubleFunction;

/**
 * A small SVG chart writer: line charts over a numeric x axis (linear or logarithmic) and grouped bar charts over
 * categories, with axes, grid, legend, error bars, an optional reference line and hollow markers (bars: pale,
 * dashed) for flagged points such as oversubscribed thread counts. The output is standalone, well-formed SVG 1.1.
 * Public for the graph comparison's size sweep ({@code dev.overlap.bench.graph}); stateless, thread-safe.
 */
public final class SvgChart {
    static final String[] COLORS = {"#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1",
        "#ff9da7", "#9c755f", "#79706e"};
    static final int WIDTH = 820;
    static final int HEIGHT = 430;
    private static final double LEFT = 78;
    private static final double RIGHT = WIDTH - 250;
    private static final double TOP = 46;
    private static final double BOTTOM = HEIGHT - 62;

    /**
     * One point.
     *
     * @param x the x value (numeric charts) or the category index (bar charts)
     * @param y the value
     * @param err the half-width of the error bar, NaN or 0 for none
     * @param flagged drawn hollow (lines) or pale and dashed (bars)
     * @param tooltip hover text
     */
    public record Point(double x, double y, double err, boolean flagged, String tooltip) {
    }

    /**
     * One series.
     *
     * @param name legend text
     * @param points its points, in x order
     */
    public record Series(String name, List<Point> points) {
    }

    /**
     * What to draw.
     *
     * @param title chart title
     * @param xLabel x axis title
     * @param yLabel y axis title
     * @param categories category names for a bar chart; null for a line chart over numeric x
     * @param logX logarithmic x (line charts)
     * @param logY logarithmic y
     * @param xFormat x tick label format (line charts)
     * @param series the series
     * @param reference y of a dashed reference line, or null
     * @param referenceLabel legend text of the reference line
     * @param flaggedLabel legend text of flagged points, shown when any point is flagged
     * @param shadeFromX x from which the plot background is shaded (e.g. oversubscribed thread counts), or null
     */
    public record Data(String title, String xLabel, String yLabel, List<String> categories, boolean logX, boolean logY,
                DoubleFunction<String> xFormat, List<Series> series, Double reference, String referenceLabel,
                String flaggedLabel, Double shadeFromX) {
    }

    private SvgChart() {
    }

    /** @return the chart as an SVG document */
    public static String render(final Data d) {
        final StringBuilder sb = new StringBuilder(8192);
        sb.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
            .append("<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"").append(WIDTH)
            .append("\" height=\"").append(HEIGHT).append("\" viewBox=\"0 0 ").append(WIDTH).append(' ')
            .append(HEIGHT).append("\" font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\" font-size=\"12\">\n")
            .append("<rect x=\"0\" y=\"0\" width=\"").append(WIDTH).append("\" height=\"").append(HEIGHT)
            .append("\" fill=\"#ffffff\"/>\n");
        text(sb, WIDTH / 2.0, 24, d.title(), "middle", 15, "bold", "#222");

        final boolean bars = d.categories() != null;
        // ---- y range: the values (and the reference), widened by error bars only up to half the values' span
        // (or 2x on a log axis), so one huge error bar cannot flatten every line; longer bars are clipped.
        double vlo = Double.POSITIVE_INFINITY;
        double vhi = Double.NEGATIVE_INFINITY;
        double elo = Double.POSITIVE_INFINITY;
        double ehi = Double.NEGATIVE_INFINITY;
        for (final Series s : d.series()) {
            for (final Point p : s.points()) {
                if (!Double.isFinite(p.y()) || (d.logY() && p.y() <= 0)) {
                    continue;
                }
                final double e = Double.isFinite(p.err()) ? Math.abs(p.err()) : 0;
                vlo = Math.min(vlo, p.y());
                vhi = Math.max(vhi, p.y());
                ehi = Math.max(ehi, p.y() + e);
                elo = Math.min(elo, d.logY() && p.y() - e <= 0 ? p.y() : p.y() - e);
            }
        }
        final boolean nonNegative = !(vlo < 0);
        if (d.reference() != null && (!d.logY() || d.reference() > 0)) {
            vlo = Math.min(vlo, d.reference());
            vhi = Math.max(vhi, d.reference());
        }
        double lo;
        double hi;
        if (vlo > vhi) {
            lo = d.logY() ? 1 : 0;
            hi = d.logY() ? 10 : 1;
        } else if (d.logY()) {
            lo = Math.max(Math.min(elo, vlo), vlo / 2);
            hi = Math.min(Math.max(ehi, vhi), vhi * 2);
        } else {
            final double span = vhi > vlo ? vhi - vlo : Math.max(Math.abs(vhi), 1e-9);
            lo = Math.max(Math.min(elo, vlo), vlo - span / 2);
            hi = Math.min(Math.max(ehi, vhi), vhi + span / 2);
            if (nonNegative && lo < 0) {
                lo = 0;
            }
        }
        final Axis y;
        if (d.logY()) {
            y = Axis.log(lo, hi, BOTTOM, TOP);
        } else {
            if (lo > 0 && (bars || d.reference() == null)) {
                lo = 0;
            }
            y = Axis.linear(lo, hi, BOTTOM, TOP);
        }
        // ---- x mapping
        final Axis x;
        if (bars) {
            x = Axis.categories(d.categories().size(), LEFT, RIGHT);
        } else {
            final TreeSet<Double> xs = new TreeSet<>();
            for (final Series s : d.series()) {
                for (final Point p : s.points()) {
                    if (!d.logX() || p.x() > 0) {
                        xs.add(p.x());
                    }
                }
            }
            if (xs.isEmpty()) {
                xs.add(d.logX() ? 1.0 : 0.0);
            }
            x = d.logX() ? Axis.logX(xs, LEFT, RIGHT) : Axis.linearX(xs, LEFT, RIGHT);
        }

        // ---- plot frame, shading, grid
        if (d.shadeFromX() != null && !bars) {
            final double sx = Math.max(LEFT, Math.min(RIGHT, x.map(d.shadeFromX())));
            sb.append("<rect x=\"").append(f(sx)).append("\" y=\"").append(f(TOP)).append("\" width=\"")
                .append(f(RIGHT - sx)).append("\" height=\"").append(f(BOTTOM - TOP))
                .append("\" fill=\"#fbe9e7\"/>\n");
            text(sb, (sx + RIGHT) / 2, TOP + 14, "oversubscribed", "middle", 11, "normal", "#b23c17");
        }
        for (final double t : y.ticks()) {
            final double py = y.map(t);
            line(sb, LEFT, py, RIGHT, py, "#e5e5e5", 1, null);
            text(sb, LEFT - 6, py + 4, Format.axis(t), "end", 11, "normal", "#444");
        }
        if (bars) {
            for (int i = 0; i < d.categories().size(); i++) {
                final double px = x.map(i);
                line(sb, px, BOTTOM, px, BOTTOM + 4, "#444", 1, null);
                text(sb, px, BOTTOM + 17, shorten(d.categories().get(i), 22), "middle", 11, "normal", "#444");
            }
        } else {
            for (final double t : x.ticks()) {
                final double px = x.map(t);
                line(sb, px, TOP, px, BOTTOM, "#f0f0f0", 1, null);
                line(sb, px, BOTTOM, px, BOTTOM + 4, "#444", 1, null);
                text(sb, px, BOTTOM + 17, d.xFormat() == null ? Format.axis(t) : d.xFormat().apply(t), "middle", 11,
                    "normal", "#444");
            }
        }
        sb.append("<rect x=\"").append(f(LEFT)).append("\" y=\"").append(f(TOP)).append("\" width=\"")
            .append(f(RIGHT - LEFT)).append("\" height=\"").append(f(BOTTOM - TOP))
            .append("\" fill=\"none\" stroke=\"#444\" stroke-width=\"1\"/>\n");
        text(sb, (LEFT + RIGHT) / 2, HEIGHT - 22, d.xLabel() + (d.logX() && !bars ? " (log scale)" : ""), "middle",
            12, "normal", "#222");
        sb.append("<text x=\"18\" y=\"").append(f((TOP + BOTTOM) / 2)).append("\" text-anchor=\"middle\" ")
            .append("font-size=\"12\" fill=\"#222\" transform=\"rotate(-90 18 ").append(f((TOP + BOTTOM) / 2))
            .append(")\">").append(Doc.esc(d.yLabel() + (d.logY() ? " (log scale)" : ""))).append("</text>\n");

        // ---- reference line
        if (d.reference() != null) {
            final double ry = y.map(d.reference());
            line(sb, LEFT, ry, RIGHT, ry, "#555", 1.2, "6,4");
        }

        // ---- data
        boolean anyFlagged = false;
        final int n = d.series().size();
        final double dodge = n > 1 ? Math.min(3, 24.0 / n) : 0;
        for (int si = 0; si < n; si++) {
            final Series s = d.series().get(si);
            final String color = COLORS[si % COLORS.length];
            sb.append("<g class=\"series\" data-name=\"").append(Doc.esc(s.name())).append("\">\n");
            if (bars) {
                final double slot = x.map(1) - x.map(0);
                final double w = slot * 0.8 / Math.max(1, n);
                final double base = d.logY() ? BOTTOM : y.map(Math.max(y.min(), Math.min(y.max(), 0)));
                for (final Point p : s.points()) {
                    if (!Double.isFinite(p.y()) || (d.logY() && p.y() <= 0)) {
                        continue;
                    }
                    anyFlagged |= p.flagged();
                    final double cx = x.map(p.x()) - slot * 0.4 + w * si + w / 2;
                    final double py = y.map(p.y());
                    final double top = Math.min(py, base);
                    sb.append("<rect x=\"").append(f(cx - w / 2 + 1)).append("\" y=\"").append(f(top))
                        .append("\" width=\"").append(f(Math.max(1, w - 2))).append("\" height=\"")
                        .append(f(Math.max(0.5, Math.abs(base - py)))).append("\" fill=\"").append(color)
                        .append('"');
                    if (p.flagged()) {
                        sb.append(" fill-opacity=\"0.3\" stroke=\"").append(color)
                            .append("\" stroke-width=\"1.5\" stroke-dasharray=\"4,2\"");
                    }
                    sb.append("><title>").append(Doc.esc(p.tooltip())).append("</title></rect>\n");
                    errorBar(sb, cx, p, y, color, Math.min(6, w / 3));
                }
            } else {
                final StringBuilder path = new StringBuilder();
                for (final Point p : s.points()) {
                    if (!drawable(p, d)) {
                        continue;
                    }
                    path.append(path.length() == 0 ? "M" : " L").append(f(x.map(p.x()))).append(',')
                        .append(f(y.map(p.y())));
                }
                if (path.length() > 0) {
                    sb.append("<path d=\"").append(path).append("\" fill=\"none\" stroke=\"").append(color)
                        .append("\" stroke-width=\"2\"/>\n");
                }
                for (final Point p : s.points()) {
                    if (!drawable(p, d)) {
                        continue;
                    }
                    anyFlagged |= p.flagged();
                    final double px = x.map(p.x());
                    // error bars of different series at the same x are spread by 3 px so each stays visible
                    errorBar(sb, px + dodge * (si - (n - 1) / 2.0), p, y, color, 4);
                    marker(sb, si, px, y.map(p.y()), color, p.flagged(), p.tooltip());
                }
            }
            sb.append("</g>\n");
        }

        // ---- legend
        double ly = TOP + 6;
        final double lx = RIGHT + 16;
        for (int si = 0; si < n; si++) {
            final String color = COLORS[si % COLORS.length];
            if (bars) {
                sb.append("<rect x=\"").append(f(lx)).append("\" y=\"").append(f(ly - 5)).append("\" width=\"18\" ")
                    .append("height=\"10\" fill=\"").append(color).append("\"/>\n");
            } else {
                line(sb, lx, ly, lx + 18, ly, color, 2, null);
                marker(sb, si, lx + 9, ly, color, false, null);
            }
            text(sb, lx + 24, ly + 4, shorten(d.series().get(si).name(), 34), "start", 11, "normal", "#222");
            ly += 18;
        }
        if (d.reference() != null && d.referenceLabel() != null) {
            line(sb, lx, ly, lx + 18, ly, "#555", 1.2, "6,4");
            text(sb, lx + 24, ly + 4, shorten(d.referenceLabel(), 34), "start", 11, "normal", "#222");
            ly += 18;
        }
        if (anyFlagged && d.flaggedLabel() != null) {
            if (bars) {
                sb.append("<rect x=\"").append(f(lx)).append("\" y=\"").append(f(ly - 5)).append("\" width=\"18\" ")
                    .append("height=\"10\" fill=\"#888\" fill-opacity=\"0.3\" stroke=\"#888\" ")
                    .append("stroke-dasharray=\"4,2\"/>\n");
            } else {
                marker(sb, 0, lx + 9, ly, "#888", true, null);
            }
            text(sb, lx + 24, ly + 4, shorten(d.flaggedLabel(), 34), "start", 11, "normal", "#b23c17");
        }
        sb.append("</svg>\n");
        return sb.toString();
    }

    private static boolean drawable(final Point p, final Data d) {
        return Double.isFinite(p.y()) && (!d.logY() || p.y() > 0) && (!d.logX() || p.x() > 0);
    }

    /** Draws an error bar; an end clipped at the plot's edge gets no cap (the bar goes on beyond the frame). */
    private static void errorBar(final StringBuilder sb, final double px, final Point p, final Axis y,
                                 final String color, final double cap) {
        if (!Double.isFinite(p.err()) || p.err() <= 0) {
            return;
        }
        final double topRaw = y.map(p.y() + p.err());
        final double bottomRaw = p.y() - p.err() > 0 || !y.isLog() ? y.map(p.y() - p.err()) : Double.POSITIVE_INFINITY;
        final double top = y.mapClamped(p.y() + p.err());
        final double bottom = y.mapClamped(p.y() - p.err());
        line(sb, px, top, px, bottom, color, 1.2, null);
        if (Math.abs(top - topRaw) < 0.01) {
            line(sb, px - cap, top, px + cap, top, color, 1.2, null);
        }
        if (Math.abs(bottom - bottomRaw) < 0.01) {
            line(sb, px - cap, bottom, px + cap, bottom, color, 1.2, null);
        }
    }

    private static void marker(final StringBuilder sb, final int series, final double x, final double y,
                               final String color, final boolean hollow, final String tooltip) {
        final String fill = hollow ? "#ffffff" : color;
        final String style = "fill=\"" + fill + "\" stroke=\"" + color + "\" stroke-width=\"" + (hollow ? 2 : 1) + "\"";
        final String end = tooltip == null ? "/>\n" : "><title>" + Doc.esc(tooltip) + "</title></";
        final String r = hollow ? "4.5" : "4";
        switch (series % 4) {
            case 1 -> sb.append("<rect class=\"marker\" x=\"").append(f(x - 4)).append("\" y=\"").append(f(y - 4))
                .append("\" width=\"8\" height=\"8\" ").append(style).append(end)
                .append(tooltip == null ? "" : "rect>\n");
            case 2 -> sb.append("<polygon class=\"marker\" points=\"").append(f(x)).append(',').append(f(y - 5))
                .append(' ').append(f(x - 5)).append(',').append(f(y + 4)).append(' ').append(f(x + 5)).append(',')
                .append(f(y + 4)).append("\" ").append(style).append(end).append(tooltip == null ? "" : "polygon>\n");
            case 3 -> sb.append("<polygon class=\"marker\" points=\"").append(f(x)).append(',').append(f(y - 5))
                .append(' ').append(f(x - 5)).append(',').append(f(y)).append(' ').append(f(x)).append(',')
                .append(f(y + 5)).append(' ').append(f(x + 5)).append(',').append(f(y)).append("\" ").append(style)
                .append(end).append(tooltip == null ? "" : "polygon>\n");
            default -> sb.append("<circle class=\"marker\" cx=\"").append(f(x)).append("\" cy=\"").append(f(y))
                .append("\" r=\"").append(r).append("\" ").append(style).append(end)
                .append(tooltip == null ? "" : "circle>\n");
        }
    }

    private static void line(final StringBuilder sb, final double x1, final double y1, final double x2,
                             final double y2, final String color, final double width, final String dash) {
        sb.append("<line x1=\"").append(f(x1)).append("\" y1=\"").append(f(y1)).append("\" x2=\"").append(f(x2))
            .append("\" y2=\"").append(f(y2)).append("\" stroke=\"").append(color).append("\" stroke-width=\"")
            .append(f(width)).append('"');
        if (dash != null) {
            sb.append(" stroke-dasharray=\"").append(dash).append('"');
        }
        sb.append("/>\n");
    }

    private static void text(final StringBuilder sb, final double x, final double y, final String s,
                             final String anchor, final int size, final String weight, final String color) {
        sb.append("<text x=\"").append(f(x)).append("\" y=\"").append(f(y)).append("\" text-anchor=\"")
            .append(anchor).append("\" font-size=\"").append(size).append('"');
        if (!"normal".equals(weight)) {
            sb.append(" font-weight=\"").append(weight).append('"');
        }
        sb.append(" fill=\"").append(color).append("\">").append(Doc.esc(s)).append("</text>\n");
    }

    static String shorten(final String s, final int max) {
        return s.length() <= max ? s : s.substring(0, max - 1) + "…";
    }

    private static String f(final double v) {
        return String.format(Locale.ROOT, "%.1f", v);
    }

    /** A value-to-pixel mapping with tick positions. */
    static final class Axis {
        private final double min;
        private final double max;
        private final double p0;
        private final double p1;
        private final boolean log;
        private final List<Double> ticks;

        private Axis(final double min, final double max, final double p0, final double p1, final boolean log,
                     final List<Double> ticks) {
            this.min = min;
            this.max = max;
            this.p0 = p0;
            this.p1 = p1;
            this.log = log;
            this.ticks = ticks;
        }

        double min() {
            return min;
        }

        boolean isLog() {
            return log;
        }

        double max() {
            return max;
        }

        List<Double> ticks() {
            return ticks;
        }

        /** A category axis: category {@code i} at the middle of slot {@code i}. */
        static Axis categories(final int n, final double p0, final double p1) {
            return new Axis(-0.5, Math.max(1, n) - 0.5, p0, p1, false, List.of());
        }

        double map(final double v) {
            final double t = log ? (Math.log(v) - Math.log(min)) / (Math.log(max) - Math.log(min))
                : (v - min) / (max - min);
            return p0 + t * (p1 - p0);
        }

        double mapClamped(final double v) {
            if (log && v <= 0) {
                return p0;
            }
            final double lo = Math.min(p0, p1);
            final double hi = Math.max(p0, p1);
            return Math.max(lo, Math.min(hi, map(v)));
        }

        /** A linear axis with "nice" ticks (1, 2, 5 x 10^k) covering [lo, hi]. */
        static Axis linear(final double lo, final double hi, final double p0, final double p1) {
            double a = lo;
            double b = hi;
            if (b - a <= 0) {
                final double pad = a == 0 ? 1 : Math.abs(a) * 0.1;
                a -= pad;
                b += pad;
            }
            final double step = niceStep((b - a) / 5);
            final double start = Math.floor(a / step) * step;
            final double end = Math.ceil(b / step) * step;
            final List<Double> ticks = new ArrayList<>();
            for (double t = start; t <= end + step * 1e-9; t += step) {
                ticks.add(Math.abs(t) < step * 1e-9 ? 0 : t);
            }
            return new Axis(start, end, p0, p1, false, ticks);
        }

        /** A logarithmic axis with decade ticks (and 2, 5 in between when it spans few decades). */
        static Axis log(final double lo, final double hi, final double p0, final double p1) {
            final double a = lo > 0 ? lo : hi / 10;
            final double b = hi > a ? hi : a * 10;
            final double start = Math.pow(10, Math.floor(Math.log10(a)));
            final double end = Math.pow(10, Math.ceil(Math.log10(b)));
            final List<Double> ticks = new ArrayList<>();
            final boolean fine = Math.log10(end / start) <= 3;
            for (double dec = start; dec <= end * 1.0001; dec *= 10) {
                ticks.add(dec);
                if (fine && dec * 2 <= end) {
                    ticks.add(dec * 2);
                }
                if (fine && dec * 5 <= end) {
                    ticks.add(dec * 5);
                }
            }
            return new Axis(start, end, p0, p1, true, ticks);
        }

        /** A logarithmic x axis through the data's x values, padded by half a step each side. */
        static Axis logX(final TreeSet<Double> xs, final double p0, final double p1) {
            final double lo = xs.first();
            final double hi = xs.last();
            final double span = hi / lo;
            final double pad = span > 1 ? Math.pow(span, 0.06) : 2;
            final List<Double> ticks = xs.size() <= 12 ? new ArrayList<>(xs) : thin(xs, 10);
            return new Axis(lo / pad, hi * pad, p0, p1, true, ticks);
        }

        /** A linear x axis through the data's x values, padded by 5% each side. */
        static Axis linearX(final TreeSet<Double> xs, final double p0, final double p1) {
            final double lo = xs.first();
            final double hi = xs.last();
            final double pad = hi > lo ? (hi - lo) * 0.06 : 1;
            final List<Double> ticks;
            if (xs.size() <= 12) {
                ticks = new ArrayList<>(xs);
            } else {
                final Axis nice = linear(lo, hi, p0, p1);
                ticks = nice.ticks().stream().filter(t -> t >= lo - pad && t <= hi + pad).toList();
            }
            return new Axis(lo - pad, hi + pad, p0, p1, false, ticks);
        }

        private static List<Double> thin(final TreeSet<Double> xs, final int max) {
            final List<Double> all = new ArrayList<>(xs);
            final int every = (all.size() + max - 1) / max;
            final List<Double> out = new ArrayList<>();
            for (int i = 0; i < all.size(); i += every) {
                out.add(all.get(i));
            }
            return out;
        }

        static double niceStep(final double raw) {
            if (!(raw > 0) || !Double.isFinite(raw)) {
                return 1;
            }
            final double mag = Math.pow(10, Math.floor(Math.log10(raw)));
            final double r = raw / mag;
            final double nice = r <= 1 ? 1 : r <= 2 ? 2 : r <= 5 ? 5 : 10;
            return nice * mag;
        }
    }
}
