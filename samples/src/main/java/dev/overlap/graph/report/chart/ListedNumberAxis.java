package dev.overlap.graph.report.chart;

import org.jfree.chart.axis.AxisState;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.axis.NumberTick;
import org.jfree.chart.axis.ValueAxis;
import org.jfree.chart.ui.RectangleEdge;
import org.jfree.chart.ui.TextAnchor;
import org.jfree.data.Range;

import java.awt.Graphics2D;
import java.awt.geom.Rectangle2D;
import java.util.ArrayList;
import java.util.List;
import java.util.function.DoubleFunction;

/**
 * A linear axis over a fixed range with ticks at listed values ({@link AxisLayout}), labelled by a formatting
 * function, instead of JFreeChart's automatic tick units. Confined to the thread drawing the chart.
 */
final class ListedNumberAxis extends NumberAxis {
    private static final long serialVersionUID = 1L;

    private final List<Double> values;
    private final transient DoubleFunction<String> format;

    ListedNumberAxis(final String label, final AxisLayout layout, final DoubleFunction<String> format) {
        super(label);
        this.values = layout.ticks;
        this.format = format;
        setAutoRangeIncludesZero(false);
        setRange(layout.lo, layout.hi);
    }

    @Override
    @SuppressWarnings("rawtypes")
    public List refreshTicks(final Graphics2D g2, final AxisState state, final Rectangle2D dataArea,
                             final RectangleEdge edge) {
        return ticks(this, values, format, edge);
    }

    /** @return a tick for each of {@code values} inside the axis's range, its label placed for {@code edge} */
    static List<NumberTick> ticks(final ValueAxis axis, final List<Double> values,
                                  final DoubleFunction<String> format, final RectangleEdge edge) {
        final Range range = axis.getRange();
        final TextAnchor anchor = RectangleEdge.isTopOrBottom(edge)
            ? (edge == RectangleEdge.TOP ? TextAnchor.BOTTOM_CENTER : TextAnchor.TOP_CENTER)
            : (edge == RectangleEdge.LEFT ? TextAnchor.CENTER_RIGHT : TextAnchor.CENTER_LEFT);
        final List<NumberTick> ticks = new ArrayList<>();
        for (final double v : values) {
            if (range.contains(v)) {
                ticks.add(new NumberTick(v, format.apply(v), anchor, anchor, 0.0));
            }
        }
        return ticks;
    }
}
