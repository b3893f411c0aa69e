package dev.overlap.graph.report;

import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

import javax.xml.parsers.DocumentBuilderFactory;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ScalingChartTest {
    private static Document parse(final String svg) throws Exception {
        return DocumentBuilderFactory.newInstance().newDocumentBuilder()
            .parse(new ByteArrayInputStream(svg.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void drawsTimeAndSpeedupWithHollowOversubscribedPoints() throws Exception {
        final String svg = ScalingChart.svg("bfs <bsp> & co", new int[] {1, 2, 4}, new double[] {100, 50, 40},
            new double[] {90, 45, 35}, new double[] {110, 55, 60}, new boolean[] {false, false, true}, 80);
        final Document d = parse(svg);
        assertTrue(d.getDocumentElement().getTextContent().contains("bfs <bsp> & co"), "the title is escaped, not lost");
        final NodeList circles = d.getElementsByTagName("circle");
        assertEquals(9, circles.getLength());
        int hollow = 0;
        for (int i = 0; i < circles.getLength(); i++) {
            hollow += ((Element)circles.item(i)).getAttribute("fill").equals("white") ? 1 : 0;
        }
        assertEquals(3, hollow, "the 4-device point of each series");
        // Speedup over one device: 100/40 = 2.5 at 4 devices; over the sequential run: 80/40 = 2.
        assertTrue(svg.contains("<title>4 devices: 2.5 x</title>"), svg);
        assertTrue(svg.contains("<title>4 devices: 2 x</title>"), svg);
        assertTrue(svg.contains("<title>2 devices: 50 ms</title>"), svg);
        assertTrue(svg.contains("single-threaded Java CSR: 80 ms"), svg);
    }

    @Test
    void withoutASequentialTimeTheReferenceSeriesIsLeftOut() throws Exception {
        final String svg = ScalingChart.svg("pr", new int[] {1}, new double[] {3}, new double[] {3}, new double[] {3},
            new boolean[] {false}, Double.NaN);
        assertEquals(2, parse(svg).getElementsByTagName("circle").getLength());
        assertFalse(svg.contains("single-threaded"), svg);
    }

    @Test
    void rejectsMismatchedOrUnorderedInput() {
        final IllegalArgumentException lengths = assertThrows(IllegalArgumentException.class, () -> ScalingChart.svg("x",
            new int[] {1, 2}, new double[] {1}, new double[] {1}, new double[] {1}, new boolean[] {false}, 1));
        assertTrue(lengths.getMessage().contains("one median, min, max and oversubscription flag per device count"));
        final IllegalArgumentException order = assertThrows(IllegalArgumentException.class, () -> ScalingChart.svg("x",
            new int[] {2, 1}, new double[] {1, 1}, new double[] {1, 1}, new double[] {1, 1}, new boolean[2], 1));
        assertEquals("device counts must increase: 2 then 1", order.getMessage());
    }
}
