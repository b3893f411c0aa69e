package dev.overlap.graph.report.chart;

import dev.overlap.graph.report.chart.ChartData.Point;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * The range and tick values of one numeric axis, chosen from the data so that charts of the same data come out the
 * same: an x axis spans its values with a little room each side and has its ticks at the data's own x values when
 * there are few of them (thread counts, chunk sizes); a y axis spans its values and reference lines, widened by the
 * error bars only up to half the values' span (2x on a logarithmic axis), so that one huge error bar cannot flatten
 * every line (longer bars are cut at the frame). Linear axes get "nice" ticks (1, 2 or 5 times a power of ten) and a
 * non-negative linear y axis starts at 0; logarithmic axes get decade ticks, with 2 and 5 (or every digit) between
 * when they span few decades. Immutable.
 */
final class AxisLayout {
    /** At most this many distinct x values get a tick each. */
    private static final int DATA_TICKS = 12;

    final double lo;
    final double hi;
    final List<Double> ticks;

    private AxisLayout(final double lo, final double hi, final List<Double> ticks) {
        this.lo = lo;
        this.hi = hi;
        this.ticks = List.copyOf(ticks);
    }

    /** @return the layout of a numeric x axis through {@code xs} (not empty; positive when {@code log}) */
    static AxisLayout x(final TreeSet<Double> xs, final boolean log) {
        final double a = xs.first();
        final double b = xs.last();
        if (log) {
            final double pad = b > a ? Math.pow(b / a, 0.06) : 2;
            final double lo = a / pad;
            final double hi = b * pad;
            return new AxisLayout(lo, hi, xs.size() <= DATA_TICKS ? new ArrayList<>(xs) : thin(logTicks(lo, hi)));
        }
        final double pad = b > a ? (b - a) * 0.06 : 1;
        final double lo = a - pad;
        final double hi = b + pad;
        return new AxisLayout(lo, hi, xs.size() <= DATA_TICKS ? new ArrayList<>(xs)
            : linearTicks(lo, hi).stream().filter(t -> t >= lo && t <= hi).toList());
    }

    /**
     * @param points     the points drawn against this axis
     * @param references the y values of reference lines
     * @param log        logarithmic (every value positive)
     * @param fromZero   a linear axis over positive values starts at 0 (bars; charts without a reference line)
     * @return the layout of a y axis
     */
    static AxisLayout y(final List<Point> points, final List<Double> references, final boolean log,
                        final boolean fromZero) {
        double vlo = Double.POSITIVE_INFINITY;
        double vhi = Double.NEGATIVE_INFINITY;
        double elo = Double.POSITIVE_INFINITY;
        double ehi = Double.NEGATIVE_INFINITY;
        for (final Point p : points) {
            vlo = Math.min(vlo, p.y());
            vhi = Math.max(vhi, p.y());
            ehi = Math.max(ehi, p.high());
            elo = Math.min(elo, log && p.low() <= 0 ? p.y() : p.low());
        }
        final boolean nonNegative = !(vlo < 0);
        for (final double r : references) {
            vlo = Math.min(vlo, r);
            vhi = Math.max(vhi, r);
        }
        if (vlo > vhi) {
            return log ? new AxisLayout(1, 10, logTicks(1, 10)) : new AxisLayout(0, 1, linearTicks(0, 1));
        }
        if (log) {
            final double lo = Math.max(Math.min(elo, vlo), vlo / 2);
            final double hi = Math.min(Math.max(ehi, vhi), vhi * 2);
            final double pad = hi > lo ? Math.pow(hi / lo, 0.04) : 2;
            return new AxisLayout(lo / pad, hi * pad, logTicks(lo / pad, hi * pad));
        }
        final double span = vhi > vlo ? vhi - vlo : Math.max(Math.abs(vhi), 1e-9);
        double lo = Math.max(Math.min(elo, vlo), vlo - span / 2);
        final double hi = Math.min(Math.max(ehi, vhi), vhi + span / 2);
        if (nonNegative && lo < 0 || fromZero && lo > 0) {
            lo = 0;
        }
        final List<Double> ticks = linearTicks(lo, hi);
        return new AxisLayout(ticks.get(0), ticks.get(ticks.size() - 1), ticks);
    }

    /** @return ticks 1, 2 or 5 times a power of ten apart, from at or below {@code lo} to at or above {@code hi} */
    static List<Double> linearTicks(final double lo, final double hi) {
        double a = lo;
        double b = hi;
        if (b - a <= 0) {
            final double pad = a == 0 ? 1 : Math.abs(a) * 0.1;
            a -= pad;
            b += pad;
        }
        final double step = niceStep((b - a) / 5);
        final long first = (long)Math.floor(a / step + 1e-9);
        final long last = (long)Math.ceil(b / step - 1e-9);
        final List<Double> ticks = new ArrayList<>();
        for (long i = first; i <= last; i++) {
            final double t = i * step;
            ticks.add(i == 0 ? 0.0 : t);
        }
        return ticks;
    }

    /**
     * @return decade ticks in [lo, hi], with 2 and 5 between over up to 3 decades and every digit within one; linear
     *     ticks where that gives fewer than three
     */
    static List<Double> logTicks(final double lo, final double hi) {
        final double decades = Math.log10(hi / lo);
        final int[] digits = decades <= 1 ? new int[] {1, 2, 3, 4, 5, 6, 7, 8, 9}
            : decades <= 3 ? new int[] {1, 2, 5} : new int[] {1};
        final List<Double> ticks = new ArrayList<>();
        for (int e = (int)Math.floor(Math.log10(lo)); e <= (int)Math.ceil(Math.log10(hi)); e++) {
            final double dec = Math.pow(10, e);
            for (final int d : digits) {
                final double t = d * dec;
                if (t >= lo * (1 - 1e-9) && t <= hi * (1 + 1e-9)) {
                    ticks.add(t);
                }
            }
        }
        if (ticks.size() < 3) {
            // less than a decade: evenly spaced values read better than one or two digits
            return linearTicks(lo, hi).stream().filter(t -> t >= lo && t <= hi && t > 0).toList();
        }
        return ticks;
    }

    /** @return 1, 2, 5 or 10 times a power of ten, at least {@code raw} (1 for nonsense) */
    static double niceStep(final double raw) {
        if (!(raw > 0) || !Double.isFinite(raw)) {
            return 1;
        }
        final double mag = Math.pow(10, Math.floor(Math.log10(raw)));
        final double r = raw / mag;
        final double nice = r <= 1 ? 1 : r <= 2 ? 2 : r <= 5 ? 5 : 10;
        return nice * mag;
    }

    /** @return at most about ten of {@code all}, evenly spaced */
    private static List<Double> thin(final List<Double> all) {
        final int every = (all.size() + 9) / 10;
        final List<Double> out = new ArrayList<>();
        for (int i = 0; i < all.size(); i += Math.max(1, every)) {
            out.add(all.get(i));
        }
        return out;
    }
}
