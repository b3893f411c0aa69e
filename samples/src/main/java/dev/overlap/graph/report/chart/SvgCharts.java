package dev.overlap.graph.report.chart;

import dev.overlap.graph.report.chart.ChartData.Axis;
import dev.overlap.graph.report.chart.ChartData.Panel;
import dev.overlap.graph.report.chart.ChartData.Point;
import dev.overlap.graph.report.chart.ChartData.Reference;
import dev.overlap.graph.report.chart.ChartData.Scale;
import dev.overlap.graph.report.chart.ChartData.Series;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.LegendItem;
import org.jfree.chart.LegendItemCollection;
import org.jfree.chart.axis.CategoryAxis;
import org.jfree.chart.axis.CategoryLabelPositions;
import org.jfree.chart.axis.ValueAxis;
import org.jfree.chart.block.BlockBorder;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.plot.CombinedDomainXYPlot;
import org.jfree.chart.plot.IntervalMarker;
import org.jfree.chart.plot.Plot;
import org.jfree.chart.plot.ValueMarker;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.text.TextUtils;
import org.jfree.chart.title.LegendTitle;
import org.jfree.chart.ui.Layer;
import org.jfree.chart.ui.RectangleAnchor;
import org.jfree.chart.ui.RectangleEdge;
import org.jfree.chart.ui.RectangleInsets;
import org.jfree.chart.ui.TextAnchor;
import org.jfree.svg.SVGGraphics2D;
import org.jfree.svg.ViewBox;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Shape;
import java.awt.Stroke;
import java.awt.geom.Line2D;
import java.awt.geom.Rectangle2D;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.TreeSet;

/**
 * Draws a {@link ChartData} as a standalone SVG document with JFreeChart, through JFreeSVG: the one place where the
 * lab's charts are drawn (the JMH report, the graph comparison's size sweep, {@code overlap scaling}). Numeric x axes
 * give line charts (one panel, or panels stacked over a shared x axis), a category x axis gives a grouped bar chart.
 * The legend sits on the right and ends with the reference lines and, when some point is flagged, the flagged
 * points' entry. Text stays text ({@code <text>}), every data point is a group {@code <g class="point"
 * data-series="NAME" data-flagged="true|false">} with its tooltip as {@code <title>}, and the output depends only on
 * the data and the fonts (fixed ids, coordinates rounded to 0.01), so it can be tested and compared.
 *
 * <p>Runs headless: the first use sets {@code java.awt.headless=true} unless the property was set (nothing here needs
 * a display), and switches JFreeChart's rotated-text workaround off (see the static initialiser). Stateless;
 * thread-safe (each call builds its own chart).
 */
public final class SvgCharts {
    /** Default width, in pixels. */
    public static final int WIDTH = 820;
    /** Default height of a one-panel chart, in pixels. */
    public static final int HEIGHT = 430;
    /** Height added by each panel after the first, in pixels. */
    private static final int PANEL_HEIGHT = 260;
    private static final Stroke GRID = new BasicStroke(1f);
    private static final int LEGEND_CHARS = 40;

    static {
        if (System.getProperty("java.awt.headless") == null) {
            System.setProperty("java.awt.headless", "true");
        }
        // JFreeChart draws rotated text (the y axis titles) as glyph outlines by default, a workaround for old JDK
        // screen rendering; JFreeSVG writes rotated text as <text> with a transform. A JVM-wide JFreeChart setting:
        // this class is the lab's only JFreeChart user.
        TextUtils.setUseDrawRotatedStringWorkaround(false);
    }

    private SvgCharts() {
    }

    /** @return the chart as an SVG document, {@link #WIDTH} wide, {@link #HEIGHT} high plus room per extra panel */
    public static String render(final ChartData d) {
        return render(d, WIDTH, HEIGHT + PANEL_HEIGHT * (d.panels().size() - 1));
    }

    /**
     * @param d      what to draw
     * @param width  width in pixels, at least 300
     * @param height height in pixels, at least 200
     * @return the chart as an SVG document
     * @throws IllegalArgumentException when the size is too small to draw a chart in
     */
    public static String render(final ChartData d, final int width, final int height) {
        if (width < 300 || height < 200) {
            throw new IllegalArgumentException("chart '" + d.title() + "': " + width + "x" + height
                + " pixels is too small (at least 300x200)");
        }
        final JFreeChart chart = chart(d);
        final SVGGraphics2D g = new SVGGraphics2D(width, height);
        g.setDefsKeyPrefix("chart-");
        g.setGeomDoubleConverter(SvgCharts::number);
        g.setTransformDoubleConverter(SvgCharts::number);
        chart.draw(g, new Rectangle2D.Double(0, 0, width, height));
        g.dispose();
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            + g.getSVGElement(null, true, new ViewBox(0, 0, width, height), null, null) + "\n";
    }

    /** @return the JFreeChart of {@code d} (package-private for tests) */
    static JFreeChart chart(final ChartData d) {
        final Plot plot = d.x().scale() == Scale.CATEGORY ? barPlot(d) : linePlot(d);
        final JFreeChart chart = new JFreeChart(d.title(), Style.TITLE, plot, true);
        chart.setBackgroundPaint(Color.WHITE);
        chart.getTitle().setPaint(Style.TEXT);
        chart.setPadding(new RectangleInsets(6, 6, 6, 10));
        final LegendTitle legend = chart.getLegend();
        legend.setPosition(RectangleEdge.RIGHT);
        legend.setItemFont(Style.SMALL);
        legend.setItemPaint(Style.TEXT);
        legend.setFrame(BlockBorder.NONE);
        legend.setBackgroundPaint(Color.WHITE);
        legend.setItemLabelPadding(new RectangleInsets(2, 4, 2, 2));
        return chart;
    }

    private static Plot linePlot(final ChartData d) {
        final TreeSet<Double> xs = new TreeSet<>();
        for (final Panel p : d.panels()) {
            for (final Series s : p.series()) {
                s.points().forEach(pt -> xs.add(pt.x()));
            }
        }
        final ValueAxis xAxis = axis(d.x(), AxisLayout.x(xs, d.x().isLog()));
        final LegendItemCollection legend = new LegendItemCollection();
        final List<XYPlot> panels = new ArrayList<>();
        int color = 0;
        for (final Panel p : d.panels()) {
            final PointRenderer r = new PointRenderer(p.series(), color);
            color += (int)p.series().stream().filter(s -> !s.guide()).count();
            r.setLegendItemLabelGenerator((dataset, i) -> Style.shorten(p.series().get(i).name(), LEGEND_CHARS));
            final XYPlot plot = new XYPlot(PointRenderer.dataset(p.series()), d.panels().size() == 1 ? xAxis : null,
                yAxis(p, false), r);
            style(plot);
            for (final Reference ref : p.references()) {
                plot.addRangeMarker(reference(ref), Layer.FOREGROUND);
            }
            if (d.shadeFromX() != null && d.shadeFromX() < xAxis.getUpperBound()) {
                plot.addDomainMarker(shade(d, xAxis, panels.isEmpty()), Layer.BACKGROUND);
            }
            add(legend, plot.getLegendItems());
            panels.add(plot);
        }
        final XYPlot plot;
        if (panels.size() == 1) {
            plot = panels.get(0);
        } else {
            final CombinedDomainXYPlot combined = new CombinedDomainXYPlot(xAxis);
            combined.setGap(16);
            panels.forEach(p -> combined.add(p, 1));
            plot = combined;
        }
        extras(d, legend, false);
        plot.setFixedLegendItems(legend);
        return plot;
    }

    private static Plot barPlot(final ChartData d) {
        final Panel p = d.panels().get(0);
        final CategoryAxis xAxis = new CategoryAxis(d.x().label());
        xAxis.setLabelFont(Style.LABEL);
        xAxis.setLabelPaint(Style.TEXT);
        xAxis.setTickLabelFont(Style.SMALL);
        xAxis.setTickLabelPaint(Style.FRAME);
        xAxis.setMaximumCategoryLabelLines(2);
        xAxis.setCategoryMargin(0.2);
        if (d.x().categories().size() > 6) {
            xAxis.setCategoryLabelPositions(CategoryLabelPositions.UP_45);
        }
        final BarPointRenderer r = new BarPointRenderer(p.series());
        r.setLegendItemLabelGenerator((dataset, i) -> Style.shorten(p.series().get(i).name(), LEGEND_CHARS));
        final CategoryPlot plot = new CategoryPlot(BarPointRenderer.dataset(p.series(), d.x().categories()), xAxis,
            yAxis(p, true), r);
        plot.setBackgroundPaint(Color.WHITE);
        plot.setOutlineVisible(true);
        plot.setOutlinePaint(Style.FRAME);
        plot.setOutlineStroke(GRID);
        plot.setRangeGridlinePaint(Style.GRID);
        plot.setRangeGridlineStroke(GRID);
        plot.setAxisOffset(RectangleInsets.ZERO_INSETS);
        for (final Reference ref : p.references()) {
            plot.addRangeMarker(reference(ref), Layer.FOREGROUND);
        }
        final LegendItemCollection legend = new LegendItemCollection();
        add(legend, plot.getLegendItems());
        extras(d, legend, true);
        plot.setFixedLegendItems(legend);
        return plot;
    }

    /**
     * @return the y axis of a panel; a linear one over positive values starts at 0 for bars and for charts without
     *     a reference line (a ratio around its reference line of 1 reads better zoomed in)
     */
    private static ValueAxis yAxis(final Panel p, final boolean bars) {
        final List<Point> points = new ArrayList<>();
        p.series().forEach(s -> points.addAll(s.points()));
        final List<Double> refs = p.references().stream().map(Reference::y).toList();
        return axis(p.y(), AxisLayout.y(points, refs, p.y().isLog(), bars || refs.isEmpty()));
    }

    private static ValueAxis axis(final Axis a, final AxisLayout layout) {
        final String label = a.label() + (a.isLog() ? " (log scale)" : "");
        final ValueAxis v = ListedTickAxes.create(label, layout, a.format(), a.isLog());
        v.setLabelFont(Style.LABEL);
        v.setLabelPaint(Style.TEXT);
        v.setTickLabelFont(Style.SMALL);
        v.setTickLabelPaint(Style.FRAME);
        v.setAxisLinePaint(Style.FRAME);
        v.setTickMarkPaint(Style.FRAME);
        v.setMinorTickMarksVisible(false);
        return v;
    }

    private static void style(final XYPlot plot) {
        plot.setBackgroundPaint(Color.WHITE);
        plot.setOutlineVisible(true);
        plot.setOutlinePaint(Style.FRAME);
        plot.setOutlineStroke(GRID);
        plot.setDomainGridlinePaint(Style.GRID);
        plot.setRangeGridlinePaint(Style.GRID);
        plot.setDomainGridlineStroke(GRID);
        plot.setRangeGridlineStroke(GRID);
        plot.setAxisOffset(RectangleInsets.ZERO_INSETS);
    }

    private static ValueMarker reference(final Reference ref) {
        return new ValueMarker(ref.y(), Style.REFERENCE, Style.REFERENCE_LINE);
    }

    private static IntervalMarker shade(final ChartData d, final ValueAxis xAxis, final boolean labelled) {
        final IntervalMarker m = new IntervalMarker(Math.max(d.shadeFromX(), xAxis.getLowerBound()),
            xAxis.getUpperBound(), Style.SHADE);
        if (labelled && d.shadeLabel() != null) {
            m.setLabel(d.shadeLabel());
            m.setLabelFont(Style.SMALL);
            m.setLabelPaint(Style.FLAG_TEXT);
            m.setLabelAnchor(RectangleAnchor.TOP);
            m.setLabelTextAnchor(TextAnchor.TOP_CENTER);
            m.setLabelOffset(new RectangleInsets(4, 0, 0, 0));
            m.setLabelBackgroundColor(new Color(0, 0, 0, 0));
        }
        return m;
    }

    /** Appends the legend entries of the reference lines and, when some point is flagged, of flagged points. */
    private static void extras(final ChartData d, final LegendItemCollection legend, final boolean bars) {
        final Shape line = new Line2D.Double(-9, 0, 9, 0);
        for (final Panel p : d.panels()) {
            for (final Reference ref : p.references()) {
                legend.add(new LegendItem(Style.shorten(ref.label(), LEGEND_CHARS), null, null, null, line,
                    Style.REFERENCE_LINE, Style.REFERENCE));
            }
        }
        if (d.flaggedLabel() != null && d.anyFlagged()) {
            final LegendItem flagged = bars
                ? new LegendItem(Style.shorten(d.flaggedLabel(), LEGEND_CHARS), null, null, null, true,
                    new Rectangle2D.Double(-6, -4, 12, 8), true, Style.faded(Style.GUIDE, 0.3), true, Style.GUIDE,
                    new BasicStroke(1.5f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {4f, 2f}, 0f),
                    false, line, Style.LINE, Style.GUIDE)
                : new LegendItem(Style.shorten(d.flaggedLabel(), LEGEND_CHARS), null, null, null, true,
                    Style.shape(0), true, Color.WHITE, true, Style.GUIDE, new BasicStroke(2f), false, line,
                    Style.LINE, Style.GUIDE);
            flagged.setLabelPaint(Style.FLAG_TEXT);
            legend.add(flagged);
        }
    }

    private static void add(final LegendItemCollection to, final LegendItemCollection items) {
        for (final Iterator<?> it = items.iterator(); it.hasNext();) {
            to.add((LegendItem)it.next());
        }
    }

    /** @return {@code v} rounded to 0.01, without trailing zeros: SVG coordinates */
    static String number(final double v) {
        if (!Double.isFinite(v)) {
            return Double.toString(v);
        }
        final long r = Math.round(v * 100);
        return r % 100 == 0 ? Long.toString(r / 100) : BigDecimal.valueOf(r, 2).stripTrailingZeros().toPlainString();
    }
}
