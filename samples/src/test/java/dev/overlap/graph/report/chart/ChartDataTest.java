package dev.overlap.graph.report.chart;

import dev.overlap.graph.report.chart.ChartData.Axis;
import dev.overlap.graph.report.chart.ChartData.Panel;
import dev.overlap.graph.report.chart.ChartData.Point;
import dev.overlap.graph.report.chart.ChartData.Series;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Bad chart input fails when the chart is built, with a message naming the chart, the series and the point. */
class ChartDataTest {
    private static final List<Point> GOOD = List.of(Point.of(1, 10), Point.of(2, 20));

    private static String error(final Runnable build) {
        return assertThrows(IllegalArgumentException.class, build::run).getMessage();
    }

    private static ChartData chart(final Axis x, final Axis y, final Series... series) {
        return ChartData.of("Throughput vs threads", x, Panel.of(y, List.of(series)));
    }

    @Test
    void anEmptySeriesIsNamed() {
        assertEquals("chart 'Throughput vs threads', series 'jctools': no points", error(() -> chart(
            Axis.linear("threads"), Axis.linear("ops/us"), Series.of("ours", GOOD), Series.of("jctools", List.of()))));
        assertEquals("chart 'T': a panel (y axis 'ops/us') has no series", error(() -> ChartData.of("T",
            Axis.linear("x"), Panel.of(Axis.linear("ops/us"), List.of()))));
        assertEquals("chart 'T': no panel", error(() -> ChartData.stacked("T", Axis.linear("x"), List.of())));
    }

    @Test
    void nonPositiveValuesOnALogAxisAreNamedWithTheAxis() {
        assertEquals("chart 'Throughput vs threads', series 'ours', point (4, 0): y must be positive on the "
            + "logarithmic y axis 'ops/us'", error(() -> chart(Axis.linear("threads"), Axis.log("ops/us"),
                Series.of("ours", List.of(Point.of(1, 3), Point.of(4, 0))))));
        assertEquals("chart 'Throughput vs threads', series 'ours', point (-2, 3): x must be positive on the "
            + "logarithmic x axis 'chunkBytes'", error(() -> chart(Axis.log("chunkBytes"), Axis.linear("ms"),
                Series.of("ours", List.of(Point.of(-2, 3))))));
        assertEquals("chart 'T', reference line '0% = BULK': y = 0 cannot be drawn on the log y axis 'ratio'",
            error(() -> ChartData.of("T", Axis.linear("x"), Panel.of(Axis.log("ratio"),
                List.of(Series.of("a", GOOD))).reference(0, "0% = BULK"))));
        // an error bar reaching below zero is not an error: it is cut at the axis
        chart(Axis.linear("threads"), Axis.log("ops/us"), Series.of("ours", List.of(Point.of(1, 3).error(5))));
    }

    @Test
    void otherNonsenseIsNamedToo() {
        assertEquals("chart 'Throughput vs threads', series 'ours', point (1, NaN): not a finite number",
            error(() -> chart(Axis.linear("threads"), Axis.linear("ops/us"),
                Series.of("ours", List.of(Point.of(1, Double.NaN))))));
        assertEquals("chart 'Throughput vs threads', series 'ours', point (1, 5): its error bar 6..7 does not "
            + "contain it", error(() -> chart(Axis.linear("threads"), Axis.linear("ops/us"),
                Series.of("ours", List.of(Point.of(1, 5).range(6, 7))))));
        assertEquals("chart 'Throughput vs threads', series 'ours': the name is used twice", error(() -> chart(
            Axis.linear("threads"), Axis.linear("ops/us"), Series.of("ours", GOOD), Series.of("ours", GOOD))));
        assertEquals("chart 'Throughput vs threads', series 'ours', point (2, 20): x must be a category index 0..1 "
            + "on the category axis 'benchmark'", error(() -> chart(Axis.categories("benchmark", List.of("a", "b")),
                Axis.linear("ops/us"), Series.of("ours", GOOD))));
        assertEquals("axis 'benchmark': a category is named twice in [a, a]",
            error(() -> Axis.categories("benchmark", List.of("a", "a"))));
        assertEquals("chart 'T': a category x axis takes one panel, not 2", error(() -> ChartData.stacked("T",
            Axis.categories("b", List.of("a", "b")), List.of(Panel.of(Axis.linear("y"), List.of(Series.of("s", GOOD))),
                Panel.of(Axis.linear("z"), List.of(Series.of("t", GOOD)))))));
        assertEquals("chart 'T': 100x100 pixels is too small (at least 300x200)", error(() -> SvgCharts.render(
            ChartData.of("T", Axis.linear("x"), Panel.of(Axis.linear("y"), List.of(Series.of("s", GOOD)))), 100, 100)));
    }

    @Test
    void seriesAreSortedByXAndPointsCarryTheirErrorBars() {
        final Series s = Series.of("s", List.of(Point.of(4, 1), Point.of(1, 2), Point.of(2, 3)));
        assertEquals(List.of(1.0, 2.0, 4.0), s.points().stream().map(Point::x).toList());
        final Point p = Point.of(1, 10).error(-2);
        assertEquals(8, p.low());
        assertEquals(12, p.high());
        assertTrue(p.hasError());
        assertFalse(Point.of(1, 10).error(Double.NaN).hasError());
        assertFalse(chart(Axis.linear("x"), Axis.linear("y"), s).anyFlagged());
        assertTrue(chart(Axis.linear("x"), Axis.linear("y"), Series.of("f", List.of(Point.of(1, 1).flagged(true))))
            .anyFlagged());
    }

    @Test
    void compactNumbers() {
        assertEquals("950", Axis.compact(950));
        assertEquals("12.5k", Axis.compact(12_500));
        assertEquals("2.5M", Axis.compact(2.5e6));
        assertEquals("1.1G", Axis.compact(1.1e9));
        assertEquals("0.00123", Axis.compact(0.0012345));
        assertEquals("0", Axis.compact(-0.0));
    }
}
