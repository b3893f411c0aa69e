package dev.overlap.graph.report.chart;

import dev.overlap.graph.report.chart.ChartData.Point;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class AxisLayoutTest {
    @Test
    void niceSteps() {
        assertEquals(0.5, AxisLayout.niceStep(0.37), 1e-12);
        assertEquals(2, AxisLayout.niceStep(1.2), 1e-12);
        assertEquals(1000, AxisLayout.niceStep(999), 1e-9);
        assertEquals(List.of(0.0, 5.0, 10.0, 15.0, 20.0, 25.0), AxisLayout.linearTicks(0, 23));
    }

    @Test
    void fewXValuesAreTheTicks() {
        final AxisLayout x = AxisLayout.x(new TreeSet<>(List.of(4096.0, 65536.0, 1048576.0)), true);
        assertEquals(List.of(4096.0, 65536.0, 1048576.0), x.ticks);
        assertTrue(x.lo < 4096 && x.hi > 1048576);
        final TreeSet<Double> many = new TreeSet<>();
        for (int i = 1; i <= 40; i++) {
            many.add((double)i);
        }
        assertEquals(List.of(0.0, 10.0, 20.0, 30.0, 40.0), AxisLayout.x(many, false).ticks);
    }

    @Test
    void logYTicksAreDecadesAndOneHugeErrorBarDoesNotFlattenTheRest() {
        final AxisLayout y = AxisLayout.y(List.of(Point.of(1, 5), Point.of(2, 5000)), List.of(), true, false);
        assertEquals(List.of(10.0, 100.0, 1000.0), y.ticks);
        final AxisLayout linear = AxisLayout.y(List.of(Point.of(1, 10), Point.of(2, 20).error(1000)), List.of(), false,
            true);
        assertEquals(0, linear.lo);
        assertTrue(linear.hi <= 30, "the error bar widens the range by half the values' span at most: " + linear.hi);
        final AxisLayout ratio = AxisLayout.y(List.of(Point.of(1, 1.2), Point.of(2, 1.5)), List.of(1.0), false, false);
        assertTrue(ratio.lo >= 0.8, "a ratio chart zooms in around its reference line: " + ratio.lo);
    }
}
