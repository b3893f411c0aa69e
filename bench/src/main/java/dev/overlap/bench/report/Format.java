package dev.overlap.bench.report;

import dev.overlap.graph.report.chart.ChartData;

import java.util.Locale;

/** Number formatting shared by tables and charts. */
final class Format {
    private Format() {
    }

    /** @return decimals that give a value about 4 significant digits (0 for 1000 and above) */
    static int decimalsFor(final double v) {
        final double a = Math.abs(v);
        if (!Double.isFinite(a) || a >= 1000) {
            return 0;
        }
        if (a == 0) {
            return 3;
        }
        return Math.max(0, Math.min(9, 3 - (int)Math.floor(Math.log10(a))));
    }

    /** @return {@code v} with {@code decimals} decimals, thousands grouped */
    static String fixed(final double v, final int decimals) {
        if (Double.isNaN(v)) {
            return "NaN";
        }
        if (Double.isInfinite(v)) {
            return v > 0 ? "∞" : "-∞";
        }
        return String.format(Locale.ROOT, "%,." + decimals + "f", v);
    }

    /** @return {@code v} with about 4 significant digits */
    static String num(final double v) {
        return fixed(v, decimalsFor(v));
    }

    /** @return the ratio as {@code 1.52×} */
    static String ratio(final double r) {
        return Double.isFinite(r) ? String.format(Locale.ROOT, "%.2f×", r) : "n/a";
    }

    /** @return a signed percentage, {@code +3.1%} */
    static String percent(final double p) {
        if (!Double.isFinite(p)) {
            return "n/a";
        }
        final double a = Math.abs(p);
        return String.format(Locale.ROOT, a >= 100 ? "%+.0f%%" : "%+.1f%%", p);
    }

    /** @return {@code 65536} as {@code 64 KiB}; anything not a whole count of bytes is returned unchanged */
    static String bytes(final String value) {
        final long n;
        try {
            n = Long.parseLong(value.trim());
        } catch (final NumberFormatException e) {
            return value;
        }
        return bytes(n);
    }

    /** @return {@code n} bytes as {@code 64 KiB}, {@code 1.5 MiB}, {@code 100 B} */
    static String bytes(final double n) {
        final String[] units = {"B", "KiB", "MiB", "GiB", "TiB"};
        double v = n;
        int u = 0;
        while (Math.abs(v) >= 1024 && u < units.length - 1) {
            v /= 1024;
            u++;
        }
        return ChartData.Axis.compact(v) + " " + units[u];
    }

    /** @return seconds as {@code 1 min 23 s} or {@code 12 s} */
    static String duration(final double seconds) {
        final long s = Math.round(seconds);
        if (s < 60) {
            return s + " s";
        }
        return (s / 60) + " min " + (s % 60) + " s";
    }

    /** @return whether the string is a finite number */
    static boolean isNumber(final String s) {
        try {
            return Double.isFinite(Double.parseDouble(s.trim()));
        } catch (final NumberFormatException e) {
            return false;
        }
    }
}
