package dev.overlap.graph.report;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * A small table of text cells rendered as aligned columns for a terminal or as a Markdown table. Columns whose
 * header starts with {@code <} are left-aligned (the {@code <} is dropped), the others right-aligned (numbers).
 *
 * <p>Not thread-safe: build it in one thread, then render.
 */
public final class TextTable {
    private final String[] headers;
    private final boolean[] left;
    private final List<String[]> rows = new ArrayList<>();

    /** @param headers column headers; a leading {@code <} makes the column left-aligned */
    public TextTable(final String... headers) {
        if (headers.length == 0) {
            throw new IllegalArgumentException("a table needs at least one column");
        }
        this.headers = new String[headers.length];
        this.left = new boolean[headers.length];
        for (int c = 0; c < headers.length; c++) {
            final String h = Objects.requireNonNull(headers[c], "header");
            left[c] = h.startsWith("<");
            this.headers[c] = left[c] ? h.substring(1) : h;
        }
    }

    /**
     * Adds a row.
     *
     * @param cells one cell per column ({@code null} shows as {@code -})
     * @return this table
     * @throws IllegalArgumentException when the number of cells differs from the number of columns
     */
    public TextTable row(final Object... cells) {
        if (cells.length != headers.length) {
            throw new IllegalArgumentException("row has " + cells.length + " cells, the table " + headers.length
                + " columns: " + Arrays.toString(cells));
        }
        final String[] r = new String[cells.length];
        for (int c = 0; c < cells.length; c++) {
            r[c] = cells[c] == null ? "-" : String.valueOf(cells[c]);
        }
        rows.add(r);
        return this;
    }

    /** @return rows added so far */
    public int size() {
        return rows.size();
    }

    /** @return aligned columns separated by two spaces, a dashed line under the header, one line per row */
    public String toText() {
        final int[] w = widths();
        final StringBuilder sb = new StringBuilder();
        line(sb, headers, w);
        final String[] dashes = new String[headers.length];
        for (int c = 0; c < headers.length; c++) {
            dashes[c] = "-".repeat(w[c]);
        }
        line(sb, dashes, w);
        for (final String[] r : rows) {
            line(sb, r, w);
        }
        return sb.toString();
    }

    /** @return a GitHub-flavoured Markdown table ({@code |} in cells escaped) */
    public String toMarkdown() {
        final StringBuilder sb = new StringBuilder();
        sb.append('|');
        for (final String h : headers) {
            sb.append(' ').append(escape(h)).append(" |");
        }
        sb.append('\n').append('|');
        for (int c = 0; c < headers.length; c++) {
            sb.append(left[c] ? " --- |" : " ---: |");
        }
        sb.append('\n');
        for (final String[] r : rows) {
            sb.append('|');
            for (final String cell : r) {
                sb.append(' ').append(escape(cell)).append(" |");
            }
            sb.append('\n');
        }
        return sb.toString();
    }

    private static String escape(final String s) {
        return s.replace("|", "\\|");
    }

    private int[] widths() {
        final int[] w = new int[headers.length];
        for (int c = 0; c < headers.length; c++) {
            w[c] = headers[c].length();
        }
        for (final String[] r : rows) {
            for (int c = 0; c < r.length; c++) {
                w[c] = Math.max(w[c], r[c].length());
            }
        }
        return w;
    }

    private void line(final StringBuilder sb, final String[] cells, final int[] w) {
        final StringBuilder l = new StringBuilder();
        for (int c = 0; c < cells.length; c++) {
            if (c > 0) {
                l.append("  ");
            }
            final String pad = " ".repeat(w[c] - cells[c].length());
            l.append(left[c] ? cells[c] + pad : pad + cells[c]);
        }
        int end = l.length();
        while (end > 0 && l.charAt(end - 1) == ' ') {
            end--;
        }
        sb.append(l, 0, end).append(System.lineSeparator());
    }

    /** @return {@code value} with {@code decimals} decimals (Locale.ROOT), or {@code -} for NaN */
    public static String fixed(final double value, final int decimals) {
        return Double.isNaN(value) ? "-" : String.format(Locale.ROOT, "%." + decimals + "f", value);
    }

    /** @return {@code value} with thousands separators (Locale.ROOT) */
    public static String count(final long value) {
        return String.format(Locale.ROOT, "%,d", value);
    }
}
