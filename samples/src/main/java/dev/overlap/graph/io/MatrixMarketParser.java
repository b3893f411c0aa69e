package dev.overlap.graph.io;

import java.util.Locale;

/**
 * Matrix Market coordinate files as graphs: entry {@code (i, j)} is the edge {@code i-1 -> j-1}. Fields
 * {@code pattern} (unweighted), {@code integer} and {@code real} (weights; reals are rounded to the nearest int);
 * symmetries {@code general} and {@code symmetric} (one triangle stored; the builder adds the reverse edges).
 * Rejected with a reason: {@code array} format, {@code complex}, {@code skew-symmetric}, {@code hermitian},
 * non-square matrices, out-of-range indices, and an entry count that differs from the size line.
 */
final class MatrixMarketParser implements TextParser {
    static final MatrixMarketParser INSTANCE = new MatrixMarketParser();

    private MatrixMarketParser() {
    }

    @Override
    public TextHeader header(final LineScanner s) throws GraphFormatException {
        if (s.atEof()) {
            throw s.error("empty file: expected a '%%MatrixMarket matrix coordinate ...' header");
        }
        final String header = s.restOfLine().trim();
        final String[] h = header.toLowerCase(Locale.ROOT).split("\\s+");
        final long headerLine = 1;
        if (h.length != 5 || !h[0].equals("%%matrixmarket") || !h[1].equals("matrix")) {
            throw new GraphFormatException(s.file(), headerLine, "expected header '%%MatrixMarket matrix coordinate"
                + " <pattern|integer|real> <general|symmetric>', found '" + abbreviate(header) + "'");
        }
        if (!h[2].equals("coordinate")) {
            throw new GraphFormatException(s.file(), headerLine, "format '" + h[2]
                + "' is not supported: only 'coordinate' matrices describe graphs");
        }
        final boolean weighted;
        final boolean real;
        switch (h[3]) {
            case "pattern":
                weighted = false;
                real = false;
                break;
            case "integer":
                weighted = true;
                real = false;
                break;
            case "real":
                weighted = true;
                real = true;
                break;
            default:
                throw new GraphFormatException(s.file(), headerLine, "field '" + h[3]
                    + "' is not supported: expected pattern, integer or real");
        }
        final boolean symmetric;
        switch (h[4]) {
            case "general":
                symmetric = false;
                break;
            case "symmetric":
                symmetric = true;
                break;
            default:
                throw new GraphFormatException(s.file(), headerLine, "symmetry '" + h[4]
                    + "' is not supported: expected general or symmetric");
        }
        skipComments(s);
        if (s.atEof()) {
            throw s.error("missing size line 'rows columns entries'");
        }
        final long rows = s.nextLong("row count", 1, 3);
        final long cols = s.nextLong("column count", 2, 3);
        final long entries = s.nextLong("entry count", 3, 3);
        if (rows != cols) {
            throw s.error("matrix is " + rows + " x " + cols + ": a graph needs a square matrix");
        }
        if (rows < 0 || rows > Integer.MAX_VALUE - 1) {
            throw s.error("row count " + rows + " is outside 0.." + (Integer.MAX_VALUE - 1));
        }
        if (entries < 0 || entries > dev.overlap.graph.CsrGraph.MAX_EDGES) {
            throw s.error("entry count " + entries + " is outside 0.." + dev.overlap.graph.CsrGraph.MAX_EDGES);
        }
        s.endRecord(3);
        return new TextHeader((int)rows, weighted, real, symmetric, entries);
    }

    @Override
    public void body(final LineScanner s, final TextHeader header, final EdgeBatches out)
        throws GraphFormatException {
        final int n = header.vertices;
        final long entries = header.records;
        final boolean weighted = header.weighted;
        final boolean real = header.realWeights;
        final int fields = weighted ? 3 : 2;
        long read = 0;
        while (true) {
            skipComments(s);
            if (s.atEof()) {
                break;
            }
            if (read == entries) {
                throw s.error("more entries than the " + entries + " declared on the size line");
            }
            final long i = s.nextLong("row index", 1, fields);
            final long j = s.nextLong("column index", 2, fields);
            if (i < 1 || i > n) {
                throw s.error("row index " + i + " is outside 1.." + n);
            }
            if (j < 1 || j > n) {
                throw s.error("column index " + j + " is outside 1.." + n);
            }
            int w = 1;
            if (weighted) {
                if (real) {
                    final double d = Math.rint(s.nextDouble("value", 3, 3));
                    if (d < Integer.MIN_VALUE || d > Integer.MAX_VALUE) {
                        throw s.error("value " + d + " does not fit an int weight");
                    }
                    w = (int)d;
                } else {
                    final long v = s.nextLong("value", 3, 3);
                    if (v < Integer.MIN_VALUE || v > Integer.MAX_VALUE) {
                        throw s.error("value " + v + " does not fit an int weight");
                    }
                    w = (int)v;
                }
            }
            s.endRecord(fields);
            out.add((int)i - 1, (int)j - 1, w);
            read++;
        }
        if (read != entries) {
            throw s.error("file ends after " + read + " entries but the size line declares " + entries);
        }
    }

    private static void skipComments(final LineScanner s) throws GraphFormatException {
        while (true) {
            s.skipBlanks();
            final int c = s.peek();
            if (c == '%' || c == '\n') {
                s.skipLine();
            } else {
                return;
            }
        }
    }

    static String abbreviate(final String s) {
        return s.length() > 60 ? s.substring(0, 57) + "..." : s;
    }
}
