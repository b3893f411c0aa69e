package dev.overlap.graph.report.chart;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.function.DoubleFunction;

/**
 * What a chart shows, independent of how it is drawn: a title, one x axis shared by one or more stacked panels, each
 * panel with its own y axis, series and horizontal reference lines, and two optional marks of points that are not
 * like the others: flagged points (drawn hollow, with {@link #flaggedLabel} as their legend entry) and a shaded x range
 * ({@link #shadeFromX} onwards, labelled {@link #shadeLabel}). The report tools use them for oversubscribed runs (more
 * busy threads than cores). {@link SvgCharts#render} draws it.
 *
 * <p>Everything is checked when the chart is built, so that a bad chart fails with a message naming the chart, the
 * series and the point instead of drawing nonsense: every series has points; every value is finite; values on a
 * logarithmic axis are positive; x values on a category axis are category indexes; series names are unique.
 * Error bars and ranges (a point's low and high) may reach below zero on a logarithmic axis: they are cut at the
 * axis. Immutable (the lists are copied); thread-safe.
 *
 * @param title        the chart's title
 * @param x            the x axis, shared by every panel
 * @param panels       the panels, top to bottom, at least one (one only with a category x axis)
 * @param flaggedLabel the legend entry of flagged points, shown when some point is flagged; null for none
 * @param shadeFromX   the x from which the plot is shaded, or null for no shading (numeric x axes only)
 * @param shadeLabel   the text in the shaded range (may be null)
 */
public record ChartData(String title, Axis x, List<Panel> panels, String flaggedLabel, Double shadeFromX,
                        String shadeLabel) {

    /** How an axis maps values. */
    public enum Scale {
        /** Linear numbers. */
        LINEAR,
        /** Logarithmic: positive numbers only. */
        LOG,
        /** Named categories; x values are their indexes (x axis only). */
        CATEGORY
    }

    /**
     * An axis.
     *
     * @param label      the axis title, with its unit
     * @param scale      how values map to positions
     * @param format     tick label text of a value (numeric axes)
     * @param categories the category names (category axes), empty otherwise
     */
    public record Axis(String label, Scale scale, DoubleFunction<String> format, List<String> categories) {
        /** Checks and copies. */
        public Axis {
            Objects.requireNonNull(label, "label");
            Objects.requireNonNull(scale, "scale");
            Objects.requireNonNull(format, "format");
            categories = List.copyOf(categories);
            if (scale == Scale.CATEGORY && categories.isEmpty()) {
                throw new IllegalArgumentException("axis '" + label + "': a category axis needs categories");
            }
            if (new HashSet<>(categories).size() != categories.size()) {
                throw new IllegalArgumentException("axis '" + label + "': a category is named twice in " + categories);
            }
            if (scale != Scale.CATEGORY && !categories.isEmpty()) {
                throw new IllegalArgumentException("axis '" + label + "': categories on a " + scale + " axis");
            }
        }

        /** @return a linear axis with compact tick labels ({@link #compact}) */
        public static Axis linear(final String label) {
            return new Axis(label, Scale.LINEAR, Axis::compact, List.of());
        }

        /** @return a logarithmic axis with compact tick labels ({@link #compact}) */
        public static Axis log(final String label) {
            return new Axis(label, Scale.LOG, Axis::compact, List.of());
        }

        /** @return a linear or logarithmic axis */
        public static Axis of(final String label, final boolean log) {
            return log ? log(label) : linear(label);
        }

        /** @return a category axis: x value {@code i} is {@code names.get(i)} */
        public static Axis categories(final String label, final List<String> names) {
            return new Axis(label, Scale.CATEGORY, Axis::compact, names);
        }

        /** @return this axis with other tick labels */
        public Axis format(final DoubleFunction<String> tickLabel) {
            return new Axis(label, scale, tickLabel, categories);
        }

        /** @return true on a logarithmic axis */
        public boolean isLog() {
            return scale == Scale.LOG;
        }

        /**
         * @return {@code v} with 3 significant digits and a k/M/G suffix from ten thousand on: {@code 950},
         *     {@code 12.5k}, {@code 2.5M}, {@code 0.00123}
         */
        public static String compact(final double v) {
            final double a = Math.abs(v);
            if (a >= 1e9) {
                return digits(v / 1e9) + "G";
            }
            if (a >= 1e6) {
                return digits(v / 1e6) + "M";
            }
            if (a >= 1e4) {
                return digits(v / 1e3) + "k";
            }
            return digits(v);
        }

        private static String digits(final double v) {
            if (v == 0 || !Double.isFinite(v)) {
                return v == 0 ? "0" : Double.toString(v);
            }
            final String s = new BigDecimal(v).round(new MathContext(3)).stripTrailingZeros().toPlainString();
            return s.equals("-0") ? "0" : s;
        }
    }

    /**
     * One point. {@code low} and {@code high} are the ends of its error bar (or min..max range); both equal to
     * {@code y} for none.
     *
     * @param x       the x value (the category index on a category axis)
     * @param y       the value
     * @param low     the error bar's lower end
     * @param high    the error bar's upper end
     * @param flagged drawn hollow (a pale dashed bar in a bar chart)
     * @param tooltip the hover text in the SVG, or null
     */
    public record Point(double x, double y, double low, double high, boolean flagged, String tooltip) {
        /** @return a point without error bar, not flagged, without tooltip */
        public static Point of(final double x, final double y) {
            return new Point(x, y, y, y, false, null);
        }

        /** @return this point with an error bar of {@code y ± err} (none when {@code err} is NaN or 0) */
        public Point error(final double err) {
            return Double.isFinite(err) && err != 0 ? range(y - Math.abs(err), y + Math.abs(err)) : range(y, y);
        }

        /** @return this point with an error bar from {@code lo} to {@code hi} */
        public Point range(final double lo, final double hi) {
            return new Point(x, y, lo, hi, flagged, tooltip);
        }

        /** @return this point, flagged or not */
        public Point flagged(final boolean f) {
            return new Point(x, y, low, high, f, tooltip);
        }

        /** @return this point with a hover text */
        public Point tooltip(final String text) {
            return new Point(x, y, low, high, flagged, text);
        }

        /** @return true when it has an error bar */
        public boolean hasError() {
            return high > low;
        }
    }

    /**
     * A series: one legend entry, one colour, one line through its points in x order.
     *
     * @param name    its legend text
     * @param points  its points, sorted by x here
     * @param guide   a guide (an ideal or model curve): dotted grey line without markers (so no hollow marks)
     */
    public record Series(String name, List<Point> points, boolean guide) {
        /** Checks the name, copies and sorts the points by x. */
        public Series {
            Objects.requireNonNull(name, "series name");
            final List<Point> sorted = new ArrayList<>(points);
            sorted.sort(Comparator.comparingDouble(Point::x));
            points = List.copyOf(sorted);
        }

        /** @return a data series */
        public static Series of(final String name, final List<Point> points) {
            return new Series(name, points, false);
        }

        /** @return a guide: dotted, grey, no markers */
        public static Series guide(final String name, final List<Point> points) {
            return new Series(name, points, true);
        }
    }

    /**
     * A horizontal dashed line across a panel, with a legend entry.
     *
     * @param y     where
     * @param label its legend text
     */
    public record Reference(double y, String label) {
        /** Checks the label. */
        public Reference {
            Objects.requireNonNull(label, "reference label");
        }
    }

    /**
     * One plot area: a y axis, its series and reference lines.
     *
     * @param y          the y axis
     * @param series     the series, in legend order
     * @param references the reference lines
     */
    public record Panel(Axis y, List<Series> series, List<Reference> references) {
        /** Copies. */
        public Panel {
            Objects.requireNonNull(y, "y axis");
            if (y.scale() == Scale.CATEGORY) {
                throw new IllegalArgumentException("axis '" + y.label() + "': a y axis cannot have categories");
            }
            series = List.copyOf(series);
            references = List.copyOf(references);
        }

        /** @return a panel without reference lines */
        public static Panel of(final Axis y, final List<Series> series) {
            return new Panel(y, series, List.of());
        }

        /** @return this panel with one more reference line */
        public Panel reference(final double at, final String label) {
            final List<Reference> r = new ArrayList<>(references);
            r.add(new Reference(at, label));
            return new Panel(y, series, r);
        }
    }

    /** Checks everything (see the class comment) and copies the panels. */
    public ChartData {
        Objects.requireNonNull(title, "title");
        Objects.requireNonNull(x, "x axis");
        panels = List.copyOf(panels);
        final String chart = "chart '" + title + "'";
        if (panels.isEmpty()) {
            throw new IllegalArgumentException(chart + ": no panel");
        }
        if (x.scale() == Scale.CATEGORY && panels.size() > 1) {
            throw new IllegalArgumentException(chart + ": a category x axis takes one panel, not " + panels.size());
        }
        if (shadeFromX != null && (x.scale() == Scale.CATEGORY || !Double.isFinite(shadeFromX))) {
            throw new IllegalArgumentException(chart + ": shading from x = " + shadeFromX + " on a " + x.scale()
                + " x axis");
        }
        final Set<String> names = new HashSet<>();
        for (final Panel p : panels) {
            if (p.series().isEmpty()) {
                throw new IllegalArgumentException(chart + ": a panel (y axis '" + p.y().label() + "') has no series");
            }
            for (final Series s : p.series()) {
                final String where = chart + ", series '" + s.name() + "'";
                if (!names.add(s.name())) {
                    throw new IllegalArgumentException(where + ": the name is used twice");
                }
                if (s.points().isEmpty()) {
                    throw new IllegalArgumentException(where + ": no points");
                }
                for (final Point pt : s.points()) {
                    check(where, pt, x, p.y());
                }
            }
            for (final Reference r : p.references()) {
                if (!Double.isFinite(r.y()) || (p.y().isLog() && r.y() <= 0)) {
                    throw new IllegalArgumentException(chart + ", reference line '" + r.label() + "': y = "
                        + num(r.y()) + " cannot be drawn on the " + p.y().scale().name().toLowerCase(Locale.ROOT)
                        + " y axis '" + p.y().label() + "'");
                }
            }
        }
    }

    private static void check(final String where, final Point p, final Axis x, final Axis y) {
        final String at = where + ", point (" + num(p.x()) + ", " + num(p.y()) + ")";
        if (!Double.isFinite(p.x()) || !Double.isFinite(p.y())) {
            throw new IllegalArgumentException(at + ": not a finite number");
        }
        if (!(p.low() <= p.y() && p.y() <= p.high()) || !Double.isFinite(p.low()) || !Double.isFinite(p.high())) {
            throw new IllegalArgumentException(at + ": its error bar " + num(p.low()) + ".." + num(p.high())
                + " does not contain it");
        }
        if (x.isLog() && p.x() <= 0) {
            throw new IllegalArgumentException(at + ": x must be positive on the logarithmic x axis '" + x.label()
                + "'");
        }
        if (y.isLog() && p.y() <= 0) {
            throw new IllegalArgumentException(at + ": y must be positive on the logarithmic y axis '" + y.label()
                + "'");
        }
        if (x.scale() == Scale.CATEGORY && (p.x() != Math.rint(p.x()) || p.x() < 0
            || p.x() >= x.categories().size())) {
            throw new IllegalArgumentException(at + ": x must be a category index 0.." + (x.categories().size() - 1)
                + " on the category axis '" + x.label() + "'");
        }
    }

    private static String num(final double v) {
        return v == Math.rint(v) && Math.abs(v) < 1e15 ? Long.toString((long)v) : Double.toString(v);
    }

    /** @return a one-panel chart without flags or shading */
    public static ChartData of(final String title, final Axis x, final Panel panel) {
        return new ChartData(title, x, List.of(panel), null, null, null);
    }

    /** @return a chart of panels stacked over one x axis, without flags or shading */
    public static ChartData stacked(final String title, final Axis x, final List<Panel> panels) {
        return new ChartData(title, x, panels, null, null, null);
    }

    /** @return this chart with a legend entry for flagged points */
    public ChartData flaggedAs(final String label) {
        return new ChartData(title, x, panels, label, shadeFromX, shadeLabel);
    }

    /** @return this chart with the plot shaded from {@code from} on, labelled {@code label} */
    public ChartData shadeFrom(final double from, final String label) {
        return new ChartData(title, x, panels, flaggedLabel, from, label);
    }

    /** @return true when some point of some series is flagged */
    public boolean anyFlagged() {
        return panels.stream().flatMap(p -> p.series().stream()).flatMap(s -> s.points().stream())
            .anyMatch(Point::flagged);
    }
}
