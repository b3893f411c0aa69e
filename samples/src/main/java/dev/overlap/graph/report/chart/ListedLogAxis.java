package dev.overlap.graph.report.chart;

import org.jfree.chart.axis.AxisState;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.ui.RectangleEdge;

import java.awt.Graphics2D;
import java.awt.geom.Rectangle2D;
import java.util.List;
import java.util.function.DoubleFunction;

/**
 * A logarithmic axis over a fixed range with ticks at listed values ({@link AxisLayout}), labelled by a formatting
 * function as plain text (JFreeChart's own log ticks are superscripted powers, which SVG gets as glyph outlines).
 * Confined to the thread drawing the chart.
 */
final class ListedLogAxis extends LogAxis {
    private static final long serialVersionUID = 1L;

    private final List<Double> values;
    private final transient DoubleFunction<String> format;

    ListedLogAxis(final String label, final AxisLayout layout, final DoubleFunction<String> format) {
        super(label);
        this.values = layout.ticks;
        this.format = format;
        setRange(layout.lo, layout.hi);
    }

    @Override
    @SuppressWarnings("rawtypes")
    public List refreshTicks(final Graphics2D g2, final AxisState state, final Rectangle2D dataArea,
                             final RectangleEdge edge) {
        return ListedNumberAxis.ticks(this, values, format, edge);
    }
}
