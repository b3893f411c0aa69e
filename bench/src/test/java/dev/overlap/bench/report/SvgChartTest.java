package dev.overlap.bench.report;

import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SvgChartTest {
    private static SvgChart.Data line(final List<SvgChart.Series> series, final boolean logX, final boolean logY,
                                      final Double reference, final Double shade) {
        return new SvgChart.Data("T <&> \"q\"", "chunkBytes", "ms/op", null, logX, logY, Format::bytes, series,
            reference, "1× = BULK", "oversubscribed (> 2 cores)", shade);
    }

    @Test
    void lineChartIsWellFormedWithOneMarkerPerPointAndALegend() {
        final List<SvgChart.Series> s = List.of(
            new SvgChart.Series("BULK", List.of(new SvgChart.Point(4096, 10, 1, false, "a"),
                new SvgChart.Point(65536, 12, 0.5, false, "b"), new SvgChart.Point(1048576, 11, Double.NaN, false,
                    "c"))),
            new SvgChart.Series("POLLING <3 threads>", List.of(new SvgChart.Point(4096, 20, 2, true, "d"),
                new SvgChart.Point(65536, 18, 2, true, "e"))));
        final Document d = Xml.parse(SvgChart.render(line(s, true, false, 1.0, null)));
        assertEquals("svg", d.getDocumentElement().getLocalName());
        assertEquals("http://www.w3.org/2000/svg", d.getDocumentElement().getNamespaceURI());
        final List<Element> markers = Xml.dataMarkers(d);
        assertEquals(5, markers.size());
        assertEquals(2, markers.stream().filter(m -> m.getAttribute("fill").equals("#ffffff")).count(),
            "oversubscribed points are hollow");
        final List<String> texts = Xml.texts(d);
        assertTrue(texts.contains("T <&> \"q\""), "title escaped and preserved");
        assertTrue(texts.contains("POLLING <3 threads>"));
        assertTrue(texts.contains("oversubscribed (> 2 cores)"), "flagged points get a legend entry");
        assertTrue(texts.contains("1× = BULK"), "reference line legend");
        assertTrue(texts.containsAll(List.of("4 KiB", "64 KiB", "1 MiB")), "log x ticks at the data's sizes");
        assertTrue(texts.contains("chunkBytes (log scale)"));
        assertEquals(2, Xml.elements(d, "path").size(), "one line per series");
    }

    @Test
    void noFlaggedPointsNoFlaggedLegendAndShadingWhenAsked() {
        final List<SvgChart.Series> s = List.of(new SvgChart.Series("ours", List.of(
            new SvgChart.Point(1, 10, 1, false, "a"), new SvgChart.Point(2, 19, 1, false, "b"),
            new SvgChart.Point(4, 22, 1, true, "c"), new SvgChart.Point(8, 20, 1, true, "d"))));
        final String svg = SvgChart.render(new SvgChart.Data("threads", "threads", "ops/us", null, false, false,
            Format::axis, s, null, null, "oversubscribed (> 2 cores)", 3.0));
        final List<String> texts = Xml.texts(Xml.parse(svg));
        assertTrue(texts.contains("oversubscribed"), "shaded region label");
        assertTrue(texts.containsAll(List.of("1", "2", "4", "8")));
        final String clean = SvgChart.render(new SvgChart.Data("t", "x", "y", null, false, false, Format::axis,
            List.of(new SvgChart.Series("a", List.of(new SvgChart.Point(1, 1, 0, false, "")))), null, null,
            "oversubscribed (> 2 cores)", null));
        assertFalse(Xml.texts(Xml.parse(clean)).contains("oversubscribed (> 2 cores)"));
    }

    @Test
    void logYTicksAreDecadesAndNonPositiveValuesAreSkipped() {
        final List<SvgChart.Series> s = List.of(new SvgChart.Series("a", List.of(
            new SvgChart.Point(1, 5, 0, false, ""), new SvgChart.Point(2, 5000, 0, false, ""),
            new SvgChart.Point(3, 0, 0, false, ""), new SvgChart.Point(4, Double.NaN, 0, false, ""))));
        final Document d = Xml.parse(SvgChart.render(new SvgChart.Data("t", "x", "y", null, false, true,
            Format::axis, s, null, null, null, null)));
        assertEquals(2, Xml.dataMarkers(d).size());
        assertTrue(Xml.texts(d).containsAll(List.of("1", "10", "100", "1000", "10k")), Xml.texts(d).toString());
        assertTrue(Xml.texts(d).contains("y (log scale)"));
    }

    @Test
    void barChartHasOneBarPerPointAndPaleFlaggedBars() {
        final List<SvgChart.Series> s = List.of(
            new SvgChart.Series("threads=1", List.of(new SvgChart.Point(0, 5, 0.2, false, "a"),
                new SvgChart.Point(1, 7, 0.2, false, "b"))),
            new SvgChart.Series("threads=4", List.of(new SvgChart.Point(0, 6, 0.2, true, "c"),
                new SvgChart.Point(1, -1, 0.2, true, "d"))));
        final Document d = Xml.parse(SvgChart.render(new SvgChart.Data("bars", "benchmark", "ops/us",
            List.of("overlapQueue", "jctoolsMpmc & co"), false, false, null, s, 0.0, "0", "oversubscribed", null)));
        final List<Element> bars = Xml.elements(d, "rect").stream()
            .filter(r -> ((Element)r.getParentNode()).getAttribute("class").equals("series")).toList();
        assertEquals(4, bars.size());
        assertEquals(2, bars.stream().filter(b -> b.getAttribute("fill-opacity").equals("0.3")).count());
        assertTrue(Xml.texts(d).contains("jctoolsMpmc &amp; co".replace("&amp;", "&")));
    }

    @Test
    void emptyChartStillRenders() {
        Xml.parse(SvgChart.render(new SvgChart.Data("empty", "x", "y", null, true, true, Format::axis, List.of(),
            null, null, null, null)));
        Xml.parse(SvgChart.render(new SvgChart.Data("empty", "x", "y", List.of(), false, false, null, List.of(),
            null, null, null, null)));
    }

    @Test
    void niceTicks() {
        assertEquals(0.5, SvgChart.Axis.niceStep(0.37), 1e-12);
        assertEquals(2, SvgChart.Axis.niceStep(1.2), 1e-12);
        assertEquals(1000, SvgChart.Axis.niceStep(999), 1e-9);
        final SvgChart.Axis a = SvgChart.Axis.linear(0, 23, 0, 100);
        assertEquals(List.of(0.0, 5.0, 10.0, 15.0, 20.0, 25.0), a.ticks());
        assertEquals(0, a.map(0), 1e-9);
        assertEquals(100, a.map(25), 1e-9);
    }

    @Test
    void formats() {
        assertEquals("64 KiB", Format.bytes("65536"));
        assertEquals("256 MiB", Format.bytes("268435456"));
        assertEquals("100 B", Format.bytes("100"));
        assertEquals("auto", Format.bytes("auto"));
        assertEquals("1.52×", Format.ratio(1.5234));
        assertEquals("+3.1%", Format.percent(3.14));
        assertEquals("-112%", Format.percent(-112.4));
        assertEquals("12.35", Format.num(12.346));
        assertEquals("1,234,568", Format.num(1234567.8));
        assertEquals("0.001235", Format.num(0.0012346));
        assertEquals("10k", Format.axis(10000));
        assertEquals("2.5M", Format.axis(2.5e6));
        assertEquals("1 min 5 s", Format.duration(65));
    }
}
