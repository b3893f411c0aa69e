package dev.overlap.graph.report;

import java.util.Locale;

/**
 * A small hand-written SVG of a strong-scaling sweep: on the left the median time against the number of devices
 * (with the min..max range of the runs and the single-threaded Java time as a dashed line), on the right the
 * speedup over one device and over the single-threaded Java run, with the ideal (linear) speedup. Points of
 * oversubscribed runs (more busy threads than cores) are drawn hollow. No dependencies; the output is
 * self-contained SVG 1.1.
 *
 * <p>Stateless; thread-safe.
 */
public final class ScalingChart {
    private static final int PANEL_W = 460;
    private static final int PANEL_H = 300;
    private static final int LEFT = 70;
    private static final int TOP = 60;
    private static final int GAP = 110;
    private static final int BOTTOM = 60;
    private static final String TIME_COLOR = "#1f77b4";
    private static final String SEQ_COLOR = "#d62728";
    private static final String IDEAL_COLOR = "#7f7f7f";

    private ScalingChart() {
    }

    /**
     * @param title            chart title (escaped here)
     * @param devices          device counts, increasing, at least one
     * @param medianMillis     median time per device count
     * @param minMillis        fastest run per device count
     * @param maxMillis        slowest run per device count
     * @param oversubscribed   per device count: more busy threads than cores
     * @param sequentialMillis time of the single-threaded Java run, or NaN to leave it out
     * @return the SVG document
     * @throws IllegalArgumentException when the arrays differ in length, are empty, or devices do not increase
     */
    public static String svg(final String title, final int[] devices, final double[] medianMillis,
        final double[] minMillis, final double[] maxMillis, final boolean[] oversubscribed,
        final double sequentialMillis) {
        final int n = devices.length;
        if (n == 0 || medianMillis.length != n || minMillis.length != n || maxMillis.length != n
            || oversubscribed.length != n) {
            throw new IllegalArgumentException("need one median, min, max and oversubscription flag per device count ("
                + n + " device counts)");
        }
        for (int i = 1; i < n; i++) {
            if (devices[i] <= devices[i - 1]) {
                throw new IllegalArgumentException("device counts must increase: " + devices[i - 1] + " then "
                    + devices[i]);
            }
        }
        final boolean withSeq = Double.isFinite(sequentialMillis) && sequentialMillis > 0;
        final double[] speedup = new double[n];
        final double[] vsSeq = new double[n];
        double maxTime = withSeq ? sequentialMillis : 0;
        double maxSpeed = devices[n - 1];
        for (int i = 0; i < n; i++) {
            maxTime = Math.max(maxTime, maxMillis[i]);
            speedup[i] = medianMillis[0] / medianMillis[i];
            vsSeq[i] = withSeq ? sequentialMillis / medianMillis[i] : Double.NaN;
            maxSpeed = Math.max(maxSpeed, Math.max(speedup[i], withSeq ? vsSeq[i] : 0));
        }
        final int width = LEFT + PANEL_W + GAP + PANEL_W + 30;
        final int height = TOP + PANEL_H + BOTTOM;
        final StringBuilder sb = new StringBuilder();
        sb.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        sb.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
            + "viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"12\">%n", width, height, width, height));
        sb.append("<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n");
        sb.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"24\" font-size=\"15\" font-weight=\"bold\">%s</text>%n",
            LEFT, escape(title)));
        final Axis x = new Axis(devices[0], devices[n - 1], true);
        // Left panel: time.
        final Axis yt = new Axis(0, maxTime, false);
        final int x0 = LEFT;
        frame(sb, x0, x, yt, "devices", "time (ms)", "median time (bars: min..max of the runs)");
        final StringBuilder line = new StringBuilder();
        for (int i = 0; i < n; i++) {
            final double px = x0 + x.pos(devices[i], PANEL_W);
            final double py = TOP + PANEL_H - yt.pos(medianMillis[i], PANEL_H);
            line.append(i == 0 ? "" : " ").append(fmt(px)).append(',').append(fmt(py));
            sb.append(String.format(Locale.ROOT, "<line x1=\"%s\" y1=\"%s\" x2=\"%s\" y2=\"%s\" stroke=\"%s\"/>%n",
                fmt(px), fmt(TOP + PANEL_H - yt.pos(minMillis[i], PANEL_H)), fmt(px),
                fmt(TOP + PANEL_H - yt.pos(maxMillis[i], PANEL_H)), TIME_COLOR));
        }
        sb.append(String.format(Locale.ROOT, "<polyline points=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\"/>%n",
            line, TIME_COLOR));
        points(sb, x0, x, yt, devices, medianMillis, oversubscribed, TIME_COLOR, "ms");
        if (withSeq) {
            final double py = TOP + PANEL_H - yt.pos(sequentialMillis, PANEL_H);
            sb.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%s\" x2=\"%d\" y2=\"%s\" stroke=\"%s\" "
                + "stroke-dasharray=\"6,4\"/>%n", x0, fmt(py), x0 + PANEL_W, fmt(py), SEQ_COLOR));
            sb.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%s\" fill=\"%s\" text-anchor=\"end\">"
                + "single-threaded Java CSR: %s ms</text>%n", x0 + PANEL_W - 4, fmt(py - 5), SEQ_COLOR,
                fmt(sequentialMillis)));
        }
        // Right panel: speedup.
        final Axis ys = new Axis(0, maxSpeed, false);
        final int x1 = LEFT + PANEL_W + GAP;
        frame(sb, x1, x, ys, "devices", "speedup", "speedup (hollow: more busy threads than cores)");
        sb.append(String.format(Locale.ROOT, "<line x1=\"%s\" y1=\"%s\" x2=\"%s\" y2=\"%s\" stroke=\"%s\" "
            + "stroke-dasharray=\"3,3\"/>%n", fmt(x1 + x.pos(devices[0], PANEL_W)),
            fmt(TOP + PANEL_H - ys.pos(devices[0] / (double)devices[0], PANEL_H)), fmt(x1 + x.pos(devices[n - 1], PANEL_W)),
            fmt(TOP + PANEL_H - ys.pos(devices[n - 1] / (double)devices[0], PANEL_H)), IDEAL_COLOR));
        series(sb, x1, x, ys, devices, speedup, oversubscribed, TIME_COLOR, null);
        if (withSeq) {
            series(sb, x1, x, ys, devices, vsSeq, oversubscribed, SEQ_COLOR, "6,4");
        }
        legend(sb, x1 + 10, TOP + 14, TIME_COLOR, null, "over " + devices[0] + " device" + (devices[0] == 1 ? "" : "s"));
        if (withSeq) {
            legend(sb, x1 + 10, TOP + 32, SEQ_COLOR, "6,4", "over single-threaded Java CSR");
        }
        legend(sb, x1 + 10, TOP + (withSeq ? 50 : 32), IDEAL_COLOR, "3,3", "ideal (linear)");
        sb.append("</svg>\n");
        return sb.toString();
    }

    private static void series(final StringBuilder sb, final int x0, final Axis x, final Axis y, final int[] devices,
        final double[] values, final boolean[] hollow, final String color, final String dash) {
        final StringBuilder line = new StringBuilder();
        for (int i = 0; i < devices.length; i++) {
            line.append(i == 0 ? "" : " ").append(fmt(x0 + x.pos(devices[i], PANEL_W))).append(',')
                .append(fmt(TOP + PANEL_H - y.pos(values[i], PANEL_H)));
        }
        sb.append(String.format(Locale.ROOT, "<polyline points=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\"%s/>%n",
            line, color, dash == null ? "" : " stroke-dasharray=\"" + dash + "\""));
        points(sb, x0, x, y, devices, values, hollow, color, "x");
    }

    private static void points(final StringBuilder sb, final int x0, final Axis x, final Axis y, final int[] devices,
        final double[] values, final boolean[] hollow, final String color, final String unit) {
        for (int i = 0; i < devices.length; i++) {
            sb.append(String.format(Locale.ROOT, "<circle cx=\"%s\" cy=\"%s\" r=\"4\" fill=\"%s\" stroke=\"%s\" "
                + "stroke-width=\"2\"><title>%d device%s: %s %s</title></circle>%n", fmt(x0 + x.pos(devices[i], PANEL_W)),
                fmt(TOP + PANEL_H - y.pos(values[i], PANEL_H)), hollow[i] ? "white" : color, color, devices[i],
                devices[i] == 1 ? "" : "s", fmt(values[i]), unit));
        }
    }

    private static void legend(final StringBuilder sb, final int x, final int y, final String color, final String dash,
        final String text) {
        sb.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" "
            + "stroke-width=\"2\"%s/>%n", x, y - 4, x + 24, y - 4, color, dash == null ? ""
            : " stroke-dasharray=\"" + dash + "\""));
        sb.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\">%s</text>%n", x + 30, y, escape(text)));
    }

    private static void frame(final StringBuilder sb, final int x0, final Axis x, final Axis y, final String xLabel,
        final String yLabel, final String caption) {
        sb.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" font-weight=\"bold\">%s</text>%n", x0, TOP - 12,
            escape(caption)));
        sb.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" "
            + "stroke=\"black\"/>%n", x0, TOP, PANEL_W, PANEL_H));
        for (double v = x.lo; v <= x.hi + 1e-9; v += x.step) {
            final double px = x0 + x.pos(v, PANEL_W);
            sb.append(String.format(Locale.ROOT, "<line x1=\"%s\" y1=\"%d\" x2=\"%s\" y2=\"%d\" stroke=\"black\"/>%n",
                fmt(px), TOP + PANEL_H, fmt(px), TOP + PANEL_H + 5));
            sb.append(String.format(Locale.ROOT, "<text x=\"%s\" y=\"%d\" text-anchor=\"middle\">%s</text>%n", fmt(px),
                TOP + PANEL_H + 19, fmt(v)));
        }
        for (double v = y.lo; v <= y.hi + y.step * 1e-9; v += y.step) {
            final double py = TOP + PANEL_H - y.pos(v, PANEL_H);
            sb.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%s\" x2=\"%d\" y2=\"%s\" stroke=\"#dddddd\"/>%n",
                x0, fmt(py), x0 + PANEL_W, fmt(py)));
            sb.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%s\" text-anchor=\"end\">%s</text>%n", x0 - 6,
                fmt(py + 4), fmt(v)));
        }
        sb.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%s</text>%n",
            x0 + PANEL_W / 2, TOP + PANEL_H + 40, escape(xLabel)));
        sb.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" transform=\"rotate(-90 %d "
            + "%d)\">%s</text>%n", x0 - 50, TOP + PANEL_H / 2, x0 - 50, TOP + PANEL_H / 2, escape(yLabel)));
    }

    /** @return a number without trailing zeros: integers plain, others with up to 2 significant decimals */
    static String fmt(final double v) {
        if (Math.abs(v - Math.rint(v)) < 1e-9 && Math.abs(v) < 1e15) {
            return Long.toString(Math.round(v));
        }
        final String s = String.format(Locale.ROOT, Math.abs(v) >= 10 ? "%.1f" : "%.2f", v);
        return s.contains(".") ? s.replaceAll("0+$", "").replaceAll("\\.$", "") : s;
    }

    /** @return {@code text} with the XML special characters escaped */
    static String escape(final String text) {
        final StringBuilder sb = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            final char c = text.charAt(i);
            switch (c) {
                case '&':
                    sb.append("&amp;");
                    break;
                case '<':
                    sb.append("&lt;");
                    break;
                case '>':
                    sb.append("&gt;");
                    break;
                case '"':
                    sb.append("&quot;");
                    break;
                default:
                    sb.append(c);
            }
        }
        return sb.toString();
    }

    /** A linear axis with a "nice" tick step (1, 2 or 5 times a power of ten; whole numbers when integral). */
    private static final class Axis {
        final double lo;
        final double hi;
        final double step;
        /** Room left and right of the data (integral axes) so points and bars clear the frame. */
        final double pad;

        Axis(final double min, final double max, final boolean integral) {
            if (integral) {
                final double span = Math.max(1, max - min);
                final double s = Math.max(1, nice(span / 8));
                this.step = Math.ceil(s);
                this.lo = min;
                this.hi = Math.max(min + step, min + Math.ceil((max - min) / step) * step);
                this.pad = (hi - lo) * 0.04;
            } else {
                final double top = max > 0 ? max * 1.08 : 1;
                this.step = nice(top / 5);
                this.lo = 0;
                this.hi = Math.ceil(top / step) * step;
                this.pad = 0;
            }
        }

        private static double nice(final double raw) {
            final double p = Math.pow(10, Math.floor(Math.log10(raw)));
            final double f = raw / p;
            return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * p;
        }

        double pos(final double v, final int size) {
            return (v - lo + pad) / (hi - lo + 2 * pad) * size;
        }
    }
}
