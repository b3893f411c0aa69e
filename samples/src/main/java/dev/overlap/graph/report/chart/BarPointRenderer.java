package dev.overlap.graph.report.chart;

import dev.overlap.graph.report.chart.ChartData.Point;
import dev.overlap.graph.report.chart.ChartData.Series;
import org.jfree.chart.axis.CategoryAxis;
import org.jfree.chart.axis.ValueAxis;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.renderer.category.BarRenderer;
import org.jfree.chart.renderer.category.CategoryItemRendererState;
import org.jfree.chart.renderer.category.StandardBarPainter;
import org.jfree.data.category.CategoryDataset;
import org.jfree.data.category.DefaultCategoryDataset;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.Paint;
import java.awt.Stroke;
import java.awt.geom.Rectangle2D;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Draws a grouped bar chart over categories: one bar per point, one colour per series, error bars, and flagged points
 * as pale bars with a dashed outline. Each bar goes into its own SVG group ({@link Marks}). The dataset comes from
 * {@link #dataset}: rows are the series, columns the categories. Confined to the thread drawing the chart.
 */
final class BarPointRenderer extends BarRenderer {
    private static final long serialVersionUID = 1L;
    private static final Stroke OUTLINE = new BasicStroke(1f);
    private static final Stroke FLAGGED_OUTLINE = new BasicStroke(1.5f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER,
        10f, new float[] {4f, 2f}, 0f);

    private final List<Series> series;
    /** Per series: category index to its point. */
    private final List<Map<Integer, Point>> byCategory = new ArrayList<>();

    BarPointRenderer(final List<Series> series) {
        this.series = List.copyOf(series);
        for (int i = 0; i < series.size(); i++) {
            final Map<Integer, Point> m = new HashMap<>();
            for (final Point p : series.get(i).points()) {
                m.put((int)p.x(), p);
            }
            byCategory.add(m);
            setSeriesPaint(i, Style.color(i));
        }
        setBarPainter(new StandardBarPainter());
        setShadowVisible(false);
        setDrawBarOutline(true);
        setItemMargin(0.05);
        setMaximumBarWidth(0.12);
    }

    /** @return the dataset: the value of every point of every series at its category; columns in category order */
    static CategoryDataset dataset(final List<Series> series, final List<String> categories) {
        final DefaultCategoryDataset d = new DefaultCategoryDataset();
        for (final String c : categories) {
            d.addValue(null, series.get(0).name(), c);
        }
        for (final Series s : series) {
            for (final Point p : s.points()) {
                d.addValue(p.y(), s.name(), categories.get((int)p.x()));
            }
        }
        return d;
    }

    private Point point(final int row, final int column) {
        return byCategory.get(row).get(column);
    }

    @Override
    public Paint getItemPaint(final int row, final int column) {
        final Point p = point(row, column);
        final Color c = Style.color(row);
        return p != null && p.flagged() ? Style.faded(c, 0.3) : c;
    }

    @Override
    public Paint getItemOutlinePaint(final int row, final int column) {
        return Style.color(row);
    }

    @Override
    public Stroke getItemOutlineStroke(final int row, final int column) {
        final Point p = point(row, column);
        return p != null && p.flagged() ? FLAGGED_OUTLINE : OUTLINE;
    }

    @Override
    public void drawItem(final Graphics2D g2, final CategoryItemRendererState state, final Rectangle2D dataArea,
                         final CategoryPlot plot, final CategoryAxis domainAxis, final ValueAxis rangeAxis,
                         final CategoryDataset dataset, final int row, final int column, final int pass) {
        final int visibleRow = state.getVisibleSeriesIndex(row);
        final Point p = point(row, column);
        if (p == null || visibleRow < 0 || dataset.getValue(row, column) == null) {
            return;
        }
        Marks.beginPoint(g2, series.get(row).name(), p);
        super.drawItem(g2, state, dataArea, plot, domainAxis, rangeAxis, dataset, row, column, pass);
        final double w0 = calculateBarW0(plot, plot.getOrientation(), dataArea, domainAxis, state, visibleRow, column);
        Marks.errorBar(g2, w0 + state.getBarWidth() / 2, p, rangeAxis, dataArea, plot.getRangeAxisEdge(),
            Style.color(row).darker(), Math.min(6, state.getBarWidth() / 3));
        Marks.end(g2);
    }
}
