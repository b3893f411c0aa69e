package dev.overlap.testing;

import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;
import org.xml.sax.SAXException;

import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads generated SVG and HTML as XML with the JDK's parser, failing the test on anything not well-formed, and finds
 * the data points of the lab's charts: each is a group {@code <g class="point" data-series="NAME"
 * data-flagged="true|false">} (see {@code dev.overlap.graph.report.chart.SvgCharts}). Stateless.
 */
public final class Xml {
    private static final String WHITE_FILL = "fill:rgb(255,255,255)";

    private Xml() {
    }

    /** @return the document; an {@link AssertionError} naming the problem when it is not well-formed */
    public static Document parse(final String xml) {
        try {
            final DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
            f.setNamespaceAware(true);
            f.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false);
            return f.newDocumentBuilder().parse(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)));
        } catch (final SAXException | IOException | ParserConfigurationException e) {
            throw new AssertionError("not well-formed XML: " + e.getMessage() + "\n" + xml, e);
        }
    }

    /** @return all elements with the local name, in document order */
    public static List<Element> elements(final Document d, final String localName) {
        final NodeList nl = d.getElementsByTagNameNS("*", localName);
        final List<Element> out = new ArrayList<>();
        for (int i = 0; i < nl.getLength(); i++) {
            out.add((Element)nl.item(i));
        }
        return out;
    }

    /** @return the text of every {@code <text>} element, in document order */
    public static List<String> texts(final Document d) {
        return elements(d, "text").stream().map(Element::getTextContent).toList();
    }

    /** @return the data points of a chart (groups with {@code class="point"}), in document order */
    public static List<Element> points(final Document d) {
        return elements(d, "g").stream().filter(g -> "point".equals(g.getAttribute("class"))).toList();
    }

    /** @return the data points of one series */
    public static List<Element> points(final Document d, final String series) {
        return points(d).stream().filter(g -> series.equals(g.getAttribute("data-series"))).toList();
    }

    /** @return true when the point's marker is drawn hollow: some shape inside is filled white */
    public static boolean hollow(final Element point) {
        return styles(point).stream().anyMatch(s -> s.replace(" ", "").contains(WHITE_FILL));
    }

    /** @return the {@code style} attributes of {@code e} and every element inside it */
    public static List<String> styles(final Element e) {
        final List<String> out = new ArrayList<>();
        collect(e, out);
        return out;
    }

    private static void collect(final Node n, final List<String> out) {
        if (n instanceof Element e && e.hasAttribute("style")) {
            out.add(e.getAttribute("style"));
        }
        final NodeList children = n.getChildNodes();
        for (int i = 0; i < children.getLength(); i++) {
            collect(children.item(i), out);
        }
    }
}
