package dev.overlap.graph.report.chart;

import dev.overlap.graph.report.chart.ChartData.Point;
import dev.overlap.graph.report.chart.ChartData.Series;
import org.jfree.chart.axis.ValueAxis;
import org.jfree.chart.plot.CrosshairState;
import org.jfree.chart.plot.PlotRenderingInfo;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYItemRendererState;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.data.xy.XYDataset;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.Paint;
import java.awt.Stroke;
import java.awt.geom.Rectangle2D;
import java.util.List;

/**
 * Draws the series of one XY panel: a line through each series' points, a marker per point (filled; white inside
 * with a thicker outline when the point is flagged), error bars, and guides as grey dotted lines without markers.
 * Each point goes into its own SVG group ({@link Marks}). The dataset comes from {@link #dataset}, built from the same
 * series, so that JFreeChart's series and item indexes are the model's. Confined to the thread drawing the chart.
 */
final class PointRenderer extends XYLineAndShapeRenderer {
    private static final long serialVersionUID = 1L;
    private static final Stroke HOLLOW_OUTLINE = new BasicStroke(2f);
    private static final Stroke OUTLINE = new BasicStroke(1f);

    private final List<Series> series;

    /**
     * @param series     the panel's series
     * @param firstColor the palette index of its first data series (colours run on across panels)
     */
    PointRenderer(final List<Series> series, final int firstColor) {
        super(true, true);
        this.series = List.copyOf(series);
        setUseFillPaint(true);
        setDrawOutlines(true);
        setDrawSeriesLineAsPath(true);
        int color = firstColor;
        for (int i = 0; i < series.size(); i++) {
            final Series s = series.get(i);
            final Paint paint = s.guide() ? Style.GUIDE : Style.color(color++);
            setSeriesPaint(i, paint);
            setSeriesFillPaint(i, paint);
            setSeriesShape(i, Style.shape(i));
            setSeriesShapesVisible(i, !s.guide());
            setSeriesStroke(i, s.guide() ? Style.DOTTED : Style.LINE);
        }
    }

    /** @return the dataset this renderer draws: one JFreeChart series per model series, points in model order */
    static XYDataset dataset(final List<Series> series) {
        final XYSeriesCollection c = new XYSeriesCollection();
        for (final Series s : series) {
            final XYSeries xy = new XYSeries(s.name(), false, true);
            for (final Point p : s.points()) {
                xy.add(p.x(), p.y());
            }
            c.addSeries(xy);
        }
        return c;
    }

    @Override
    public Paint getItemFillPaint(final int row, final int column) {
        return point(row, column).flagged() ? Color.WHITE : super.getItemFillPaint(row, column);
    }

    @Override
    public Stroke getItemOutlineStroke(final int row, final int column) {
        return point(row, column).flagged() ? HOLLOW_OUTLINE : OUTLINE;
    }

    private Point point(final int row, final int column) {
        return series.get(row).points().get(column);
    }

    @Override
    public void drawItem(final Graphics2D g2, final XYItemRendererState state, final Rectangle2D dataArea,
                         final PlotRenderingInfo info, final XYPlot plot, final ValueAxis domainAxis,
                         final ValueAxis rangeAxis, final XYDataset dataset, final int row, final int column,
                         final CrosshairState crosshairState, final int pass) {
        final Series s = series.get(row);
        if (s.guide()) {
            super.drawItem(g2, state, dataArea, info, plot, domainAxis, rangeAxis, dataset, row, column,
                crosshairState, pass);
            return;
        }
        final Point p = point(row, column);
        if (isLinePass(pass)) {
            // error bars of series at the same x are spread a little so that each stays visible
            final double dodge = series.size() > 1 ? Math.min(3, 24.0 / series.size()) * (row - (series.size() - 1)
                / 2.0) : 0;
            Marks.errorBar(g2, domainAxis.valueToJava2D(p.x(), dataArea, plot.getDomainAxisEdge()) + dodge, p,
                rangeAxis, dataArea, plot.getRangeAxisEdge(), lookupSeriesPaint(row), 4);
            super.drawItem(g2, state, dataArea, info, plot, domainAxis, rangeAxis, dataset, row, column,
                crosshairState, pass);
            return;
        }
        Marks.beginPoint(g2, s.name(), p);
        super.drawItem(g2, state, dataArea, info, plot, domainAxis, rangeAxis, dataset, row, column, crosshairState,
            pass);
        Marks.end(g2);
    }
}
