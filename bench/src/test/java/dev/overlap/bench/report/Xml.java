package dev.overlap.bench.report;

import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;
import org.xml.sax.SAXException;

import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** Parses generated SVG and HTML as XML: fails the test on anything not well-formed. */
final class Xml {
    private Xml() {
    }

    static Document parse(final String xml) {
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
    static List<Element> elements(final Document d, final String localName) {
        final NodeList nl = d.getElementsByTagNameNS("*", localName);
        final List<Element> out = new ArrayList<>();
        for (int i = 0; i < nl.getLength(); i++) {
            out.add((Element)nl.item(i));
        }
        return out;
    }

    /** @return the elements with class="marker" inside series groups (the data points of a line chart) */
    static List<Element> dataMarkers(final Document d) {
        final List<Element> out = new ArrayList<>();
        for (final Element g : elements(d, "g")) {
            if (!"series".equals(g.getAttribute("class"))) {
                continue;
            }
            final NodeList children = g.getChildNodes();
            for (int i = 0; i < children.getLength(); i++) {
                if (children.item(i) instanceof Element e && "marker".equals(e.getAttribute("class"))) {
                    out.add(e);
                }
            }
        }
        return out;
    }

    static List<String> texts(final Document d) {
        return elements(d, "text").stream().map(Element::getTextContent).toList();
    }
}
