package dev.overlap.graph.report.chart;

import org.jfree.chart.axis.AxisState;
import org.jfree.chart.axis.LogAxis;
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
 * Linear and logarithmic axes over a fixed range with their ticks at the values {@link AxisLayout} chose, labelled as
 * plain text by a formatting function, instead of JFreeChart's automatic tick units (whose log ticks are superscripted
 * powers, drawn as glyph outlines in SVG). Each axis is confined to the thread drawing its chart.
 */
final class ListedTickAxes {
    private ListedTickAxes() {
    }

    /** @return an axis titled {@code label} over {@code layout}'s range, ticks at its values */
    @SuppressWarnings({"rawtypes", "serial"})
    static ValueAxis create(final String label, final AxisLayout layout, final DoubleFunction<String> format,
                            final boolean log) {
        final ValueAxis axis;
        if (log) {
            axis = new LogAxis(label) {
                @Override
                public List refreshTicks(final Graphics2D g2, final AxisState state, final Rectangle2D dataArea,
                                         final RectangleEdge edge) {
                    return ticks(this, layout.ticks, format, edge);
                }
            };
        } else {
            final NumberAxis linear = new NumberAxis(label) {
                @Override
                public List refreshTicks(final Graphics2D g2, final AxisState state, final Rectangle2D dataArea,
                                         final RectangleEdge edge) {
                    return ticks(this, layout.ticks, format, edge);
                }
            };
            linear.setAutoRangeIncludesZero(false);
            axis = linear;
        }
        axis.setRange(layout.lo, layout.hi);
        return axis;
    }

    /** @return a tick for each of {@code values} inside the axis's range, its label placed for {@code edge} */
    private static List<NumberTick> ticks(final ValueAxis axis, final List<Double> values,
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
