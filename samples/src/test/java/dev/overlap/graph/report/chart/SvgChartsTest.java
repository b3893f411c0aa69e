package dev.overlap.graph.report.chart;

import dev.overlap.graph.report.chart.ChartData.Axis;
import dev.overlap.graph.report.chart.ChartData.Panel;
import dev.overlap.graph.report.chart.ChartData.Point;
import dev.overlap.graph.report.chart.ChartData.Series;
import dev.overlap.testing.Xml;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;

import java.awt.GraphicsEnvironment;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Charts of made-up data, read back from the SVG with the JDK's XML parser. */
class SvgChartsTest {
    private static String bytes(final double v) {
        return v >= 1 << 20 ? Math.round(v / (1 << 20)) + " MiB" : Math.round(v / 1024) + " KiB";
    }

    private static ChartData chunkChart() {
        return ChartData.of("T <&> \"q\"", Axis.log("chunkBytes").format(SvgChartsTest::bytes),
            Panel.of(Axis.linear("ms/op"), List.of(
                Series.of("BULK", List.of(Point.of(4096, 10).error(1).tooltip("a <b>"), Point.of(65536, 12).error(0.5),
                    Point.of(1048576, 11))),
                Series.of("POLLING <3 threads>", List.of(Point.of(4096, 20).error(2).flagged(true),
                    Point.of(65536, 18).error(2).flagged(true)))))
                .reference(12, "1× = BULK"))
            .flaggedAs("oversubscribed (> 2 cores)");
    }

    @Test
    void aLineChartIsWellFormedSvgWithOneGroupPerPointOfEachSeries() {
        final String svg = SvgCharts.render(chunkChart());
        final Document d = Xml.parse(svg);
        assertEquals("svg", d.getDocumentElement().getLocalName());
        assertEquals("http://www.w3.org/2000/svg", d.getDocumentElement().getNamespaceURI());
        assertEquals("0 0 820 430", d.getDocumentElement().getAttribute("viewBox"));
        assertEquals(3, Xml.points(d, "BULK").size());
        assertEquals(2, Xml.points(d, "POLLING <3 threads>").size());
        assertEquals(5, Xml.points(d).size(), "nothing but the two series' points");
        final List<String> texts = Xml.texts(d);
        assertTrue(texts.contains("T <&> \"q\""), "the title, escaped and preserved: " + texts);
        assertTrue(texts.containsAll(List.of("BULK", "POLLING <3 threads>", "1× = BULK")), texts.toString());
        assertTrue(texts.containsAll(List.of("4 KiB", "64 KiB", "1 MiB")), "log x ticks at the data: " + texts);
        assertTrue(texts.containsAll(List.of("chunkBytes (log scale)", "ms/op")), texts.toString());
        assertTrue(Xml.elements(d, "title").stream().anyMatch(t -> t.getTextContent().equals("a <b>")),
            "tooltips are titles");
        assertFalse(svg.contains("NaN") || svg.contains("Infinity"), svg);
    }

    @Test
    void flaggedPointsAndOnlyThoseAreHollowWithALegendEntry() {
        final Document d = Xml.parse(SvgCharts.render(chunkChart()));
        for (final Element p : Xml.points(d)) {
            assertEquals(p.getAttribute("data-flagged").equals("true"), Xml.hollow(p), p.getAttribute("data-series"));
        }
        assertEquals(2, Xml.points(d).stream().filter(Xml::hollow).count());
        assertTrue(Xml.texts(d).contains("oversubscribed (> 2 cores)"), "the flagged points' legend entry");

        final Document clean = Xml.parse(SvgCharts.render(ChartData.of("t", Axis.linear("x"),
            Panel.of(Axis.linear("y"), List.of(Series.of("a", List.of(Point.of(1, 1), Point.of(2, 3))))))
            .flaggedAs("oversubscribed (> 2 cores)")));
        assertFalse(Xml.texts(clean).contains("oversubscribed (> 2 cores)"), "no flagged point, no legend entry");
        assertEquals(0, Xml.points(clean).stream().filter(Xml::hollow).count());
    }

    @Test
    void aLogAxisPutsEqualRatiosAtEqualDistances() {
        final List<Point> decades = List.of(Point.of(1, 1), Point.of(2, 10), Point.of(3, 100), Point.of(4, 1000));
        final List<Double> logY = markerYs(ChartData.of("log", Axis.linear("x"),
            Panel.of(Axis.log("ns"), List.of(Series.of("s", decades)))));
        assertEquals(4, logY.size());
        assertEquals(logY.get(0) - logY.get(1), logY.get(1) - logY.get(2), 0.05, logY.toString());
        assertEquals(logY.get(1) - logY.get(2), logY.get(2) - logY.get(3), 0.05, logY.toString());
        final List<Double> linearY = markerYs(ChartData.of("linear", Axis.linear("x"),
            Panel.of(Axis.linear("ns"), List.of(Series.of("s", decades)))));
        assertTrue(linearY.get(2) - linearY.get(3) > 5 * (linearY.get(0) - linearY.get(1)), linearY.toString());
        final List<String> texts = Xml.texts(Xml.parse(SvgCharts.render(ChartData.of("log", Axis.linear("x"),
            Panel.of(Axis.log("ns"), List.of(Series.of("s", decades)))))));
        assertTrue(texts.containsAll(List.of("ns (log scale)", "1", "10", "100", "1000")), texts.toString());
    }

    /** @return the y of each marker's centre: the first point of a circle's path is its rightmost, at the centre y */
    private static List<Double> markerYs(final ChartData chart) {
        final List<Double> ys = new ArrayList<>();
        for (final Element p : Xml.points(Xml.parse(SvgCharts.render(chart)))) {
            final String path = ((Element)p.getElementsByTagNameNS("*", "path").item(0)).getAttribute("d");
            ys.add(Double.parseDouble(path.substring(1).split("[,C]")[1]));
        }
        return ys;
    }

    @Test
    void aBarChartHasOneBarPerPointAndPaleDashedFlaggedBars() {
        final Document d = Xml.parse(SvgCharts.render(ChartData.of("bars", Axis.categories("benchmark",
            List.of("overlapQueue", "jctoolsMpmc & co")), Panel.of(Axis.linear("ops/us"), List.of(
                Series.of("threads=1", List.of(Point.of(0, 5).error(0.2), Point.of(1, 7).error(0.2))),
                Series.of("threads=4", List.of(Point.of(0, 6).error(0.2).flagged(true),
                    Point.of(1, -1).error(0.2).flagged(true))))).reference(0, "0"))
            .flaggedAs("oversubscribed")));
        assertEquals(2, Xml.points(d, "threads=1").size());
        assertEquals(2, Xml.points(d, "threads=4").size());
        for (final Element p : Xml.points(d)) {
            final boolean pale = Xml.styles(p).stream().anyMatch(s -> s.contains("fill-opacity:0.3")
                && s.contains("fill:rgb(242,142,43)"));
            final boolean dashed = Xml.styles(p).stream().anyMatch(s -> s.contains("stroke-dasharray"));
            assertEquals(p.getAttribute("data-flagged").equals("true"), pale && dashed, p.getAttribute("data-series"));
        }
        assertTrue(Xml.texts(d).containsAll(List.of("overlapQueue", "jctoolsMpmc & co", "oversubscribed")),
            Xml.texts(d).toString());
    }

    @Test
    void shadingIsLabelledAndPanelsStackOverOneXAxis() {
        final List<Point> threads = List.of(Point.of(1, 10), Point.of(2, 19), Point.of(4, 22).flagged(true),
            Point.of(8, 20).flagged(true));
        final ChartData stacked = ChartData.stacked("scaling", Axis.linear("devices"), List.of(
            Panel.of(Axis.linear("time (ms)"), List.of(Series.of("median", threads))).reference(15, "sequential"),
            Panel.of(Axis.linear("speedup (×)"), List.of(Series.of("speedup", threads),
                Series.guide("ideal (linear)", List.of(Point.of(1, 1), Point.of(8, 8)))))))
            .flaggedAs("more busy threads than cores").shadeFrom(3, "oversubscribed");
        final String svg = SvgCharts.render(stacked);
        final Document d = Xml.parse(svg);
        assertEquals(String.valueOf(SvgCharts.HEIGHT + 260), d.getDocumentElement().getAttribute("height"));
        assertEquals(4, Xml.points(d, "median").size());
        assertEquals(4, Xml.points(d, "speedup").size());
        assertEquals(0, Xml.points(d, "ideal (linear)").size(), "a guide has no markers");
        assertEquals(4, Xml.points(d).stream().filter(Xml::hollow).count());
        final List<String> texts = Xml.texts(d);
        assertTrue(texts.containsAll(List.of("oversubscribed", "time (ms)", "speedup (×)", "devices", "sequential",
            "ideal (linear)", "more busy threads than cores")), texts.toString());
        assertEquals(1, texts.stream().filter("devices"::equals).count(), "one shared x axis");
        assertEquals(svg, SvgCharts.render(stacked), "the same data draws the same SVG");
        assertTrue(GraphicsEnvironment.isHeadless(), "drawn without a display");
    }

    @Test
    void coordinatesAreRoundedToHundredths() {
        assertEquals("12", SvgCharts.number(12.0001));
        assertEquals("12.35", SvgCharts.number(12.3456));
        assertEquals("-0.5", SvgCharts.number(-0.5));
        assertEquals("NaN", SvgCharts.number(Double.NaN));
        assertEquals("1234567.89", String.format(Locale.ROOT, "%s", SvgCharts.number(1234567.891)));
    }
}
