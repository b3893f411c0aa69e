package dev.overlap.graph.report.chart;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Shape;
import java.awt.Stroke;
import java.awt.geom.Ellipse2D;
import java.awt.geom.Path2D;
import java.awt.geom.Rectangle2D;

/**
 * The look shared by every chart: the palette (Tableau 10), one marker shape per series (circle, square, triangle,
 * diamond, in turn, so that series stay apart in grey print), strokes and fonts. The fonts are the logical
 * {@code SansSerif}, which the SVG names {@code sans-serif}. Constants only.
 */
final class Style {
    private static final Color[] PALETTE = {new Color(0x4e79a7), new Color(0xf28e2b), new Color(0xe15759),
        new Color(0x76b7b2), new Color(0x59a14f), new Color(0xedc948), new Color(0xb07aa1), new Color(0xff9da7),
        new Color(0x9c755f), new Color(0x79706e)};
    static final Color GUIDE = new Color(0x7f7f7f);
    static final Color REFERENCE = new Color(0x555555);
    static final Color TEXT = new Color(0x222222);
    static final Color FLAG_TEXT = new Color(0xb23c17);
    static final Color SHADE = new Color(0xfbe9e7);
    static final Color GRID = new Color(0xe5e5e5);
    static final Color FRAME = new Color(0x444444);
    static final Stroke LINE = new BasicStroke(2f, BasicStroke.CAP_ROUND, BasicStroke.JOIN_ROUND);
    /** Guides are dotted, reference lines dashed. */
    static final Stroke DOTTED = new BasicStroke(1.5f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_ROUND, 10f,
        new float[] {3f, 3f}, 0f);
    static final Stroke REFERENCE_LINE = new BasicStroke(1.2f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_ROUND, 10f,
        new float[] {6f, 4f}, 0f);
    static final Font TITLE = new Font(Font.SANS_SERIF, Font.BOLD, 15);
    static final Font LABEL = new Font(Font.SANS_SERIF, Font.PLAIN, 12);
    static final Font SMALL = new Font(Font.SANS_SERIF, Font.PLAIN, 11);

    private Style() {
    }

    /** @return the {@code i}-th palette colour (repeating) */
    static Color color(final int i) {
        return PALETTE[Math.floorMod(i, PALETTE.length)];
    }

    /** @return {@code c} with the given opacity (0..1) */
    static Color faded(final Color c, final double alpha) {
        return new Color(c.getRed(), c.getGreen(), c.getBlue(), (int)Math.round(alpha * 255));
    }

    /** @return the marker of the {@code i}-th series, centred on (0, 0) */
    static Shape shape(final int i) {
        final double r = 4;
        switch (Math.floorMod(i, 4)) {
            case 1:
                return new Rectangle2D.Double(-r, -r, 2 * r, 2 * r);
            case 2: {
                final Path2D.Double t = new Path2D.Double();
                t.moveTo(0, -r - 1);
                t.lineTo(r + 1, r);
                t.lineTo(-r - 1, r);
                t.closePath();
                return t;
            }
            case 3: {
                final Path2D.Double d = new Path2D.Double();
                d.moveTo(0, -r - 1);
                d.lineTo(r + 1, 0);
                d.lineTo(0, r + 1);
                d.lineTo(-r - 1, 0);
                d.closePath();
                return d;
            }
            default:
                return new Ellipse2D.Double(-r, -r, 2 * r, 2 * r);
        }
    }

    /** @return {@code s}, cut to {@code max} characters with an ellipsis */
    static String shorten(final String s, final int max) {
        return s.length() <= max ? s : s.substring(0, max - 1) + "…";
    }
}
