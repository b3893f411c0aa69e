package dev.overlap.graph.report.chart;

import dev.overlap.graph.report.chart.ChartData.Point;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.axis.ValueAxis;
import org.jfree.chart.ui.RectangleEdge;
import org.jfree.svg.SVGHints;

import java.awt.BasicStroke;
import java.awt.Graphics2D;
import java.awt.Paint;
import java.awt.geom.Line2D;
import java.awt.geom.Rectangle2D;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What the renderers add to JFreeChart's drawing: every data point in its own SVG group
 * ({@code <g class="point" data-series="NAME" data-flagged="true|false">}, with the point's tooltip as its
 * {@code <title>}), so that tests and readers can find each series' points and the flagged ones; and error bars cut at
 * the plot's frame (an end that is cut gets no cap). Stateless.
 */
final class Marks {
    /** The {@code class} of a data point's group. */
    static final String POINT = "point";
    private static final BasicStroke ERROR_STROKE = new BasicStroke(1.2f);

    private Marks() {
    }

    /** Opens the group of one data point (JFreeSVG turns the hint into a {@code <g>}; other targets ignore it). */
    static void beginPoint(final Graphics2D g2, final String series, final Point p) {
        final Map<String, String> attributes = new LinkedHashMap<>();
        attributes.put("class", POINT);
        attributes.put("data-series", series);
        attributes.put("data-flagged", Boolean.toString(p.flagged()));
        g2.setRenderingHint(SVGHints.KEY_BEGIN_GROUP, attributes);
        if (p.tooltip() != null) {
            g2.setRenderingHint(SVGHints.KEY_ELEMENT_TITLE, p.tooltip());
        }
    }

    /** Closes the group {@link #beginPoint} opened. */
    static void end(final Graphics2D g2) {
        g2.setRenderingHint(SVGHints.KEY_END_GROUP, "");
    }

    /**
     * Draws the error bar of {@code p} (nothing when it has none) at {@code pos} across the value axis.
     *
     * @param cap      half the width of the caps, in pixels
     */
    static void errorBar(final Graphics2D g2, final double pos, final Point p, final ValueAxis axis,
                         final Rectangle2D area, final RectangleEdge edge, final Paint paint, final double cap) {
        if (!p.hasError()) {
            return;
        }
        final double min = area.getMinY();
        final double max = area.getMaxY();
        final double hiRaw = axis.valueToJava2D(p.high(), area, edge);
        final boolean lowBelowLog = p.low() <= 0 && axis instanceof LogAxis;
        final double loRaw = lowBelowLog ? Double.POSITIVE_INFINITY : axis.valueToJava2D(p.low(), area, edge);
        final double top = clamp(Math.min(hiRaw, loRaw), min, max);
        final double bottom = clamp(Math.max(hiRaw, loRaw), min, max);
        g2.setPaint(paint);
        g2.setStroke(ERROR_STROKE);
        g2.draw(new Line2D.Double(pos, top, pos, bottom));
        if (top == Math.min(hiRaw, loRaw)) {
            g2.draw(new Line2D.Double(pos - cap, top, pos + cap, top));
        }
        if (bottom == Math.max(hiRaw, loRaw)) {
            g2.draw(new Line2D.Double(pos - cap, bottom, pos + cap, bottom));
        }
    }

    private static double clamp(final double v, final double lo, final double hi) {
        return Math.max(lo, Math.min(hi, v));
    }
}
