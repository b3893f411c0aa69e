package dev.overlap.graph.io;

/**
 * DIMACS shortest-path files ({@code .gr}, 9th DIMACS challenge): {@code c} comment lines, one problem line
 * {@code p sp N M} before any arc, then {@code M} arc lines {@code a U V W} with 1-based vertices. Any other line
 * type, a second problem line, an arc before the problem line, or an arc count that differs from {@code M} is an
 * error. The header is everything up to and including the problem line.
 */
final class DimacsParser implements TextParser {
    static final DimacsParser INSTANCE = new DimacsParser();

    private DimacsParser() {
    }

    @Override
    public TextHeader header(final LineScanner s) throws GraphFormatException {
        while (true) {
            s.skipBlanks();
            final int c = s.peek();
            if (c == -1) {
                throw s.error("no problem line 'p sp N M'");
            }
            if (c == '\n' || c == 'c') {
                s.skipLine();
                continue;
            }
            if (c == 'a') {
                throw s.error("arc before the problem line 'p sp N M'");
            }
            if (c != 'p') {
                throw s.error("unknown line type '" + (char)c + "': expected c, p or a");
            }
            final String line = s.restOfLine().trim();
            final String[] f = line.split("\\s+");
            if (f.length != 4 || !f[0].equals("p") || !f[1].equals("sp")) {
                throw new GraphFormatException(s.file(), s.line() - 1, "expected problem line 'p sp N M',"
                    + " found '" + MatrixMarketParser.abbreviate(line) + "'");
            }
            final long n;
            final long m;
            try {
                n = Long.parseLong(f[2]);
                m = Long.parseLong(f[3]);
            } catch (final NumberFormatException e) {
                throw new GraphFormatException(s.file(), s.line() - 1, "problem line '" + line
                    + "': N and M must be integers");
            }
            if (n < 0 || n > Integer.MAX_VALUE - 1 || m < 0 || m > dev.overlap.graph.CsrGraph.MAX_EDGES) {
                throw new GraphFormatException(s.file(), s.line() - 1, "problem line '" + line
                    + "': N or M out of range");
            }
            return new TextHeader((int)n, true, false, false, m);
        }
    }

    @Override
    public void body(final LineScanner s, final TextHeader header, final EdgeBatches out)
        throws GraphFormatException {
        final long n = header.vertices;
        final long m = header.records;
        long read = 0;
        while (true) {
            s.skipBlanks();
            final int c = s.peek();
            if (c == -1) {
                break;
            }
            if (c == '\n' || c == 'c') {
                s.skipLine();
                continue;
            }
            if (c == 'p') {
                throw s.error("second problem line: a file has exactly one 'p sp N M' line");
            }
            if (c == 'a') {
                s.skipTag();
            } else {
                throw s.error("unknown line type '" + (char)c + "': expected c, p or a");
            }
            if (read == m) {
                throw s.error("more arcs than the " + m + " declared on the problem line");
            }
            final long u = s.nextLong("source vertex", 2, 4);
            final long v = s.nextLong("target vertex", 3, 4);
            final long w = s.nextLong("weight", 4, 4);
            if (u < 1 || u > n) {
                throw s.error("source vertex " + u + " is outside 1.." + n);
            }
            if (v < 1 || v > n) {
                throw s.error("target vertex " + v + " is outside 1.." + n);
            }
            if (w < Integer.MIN_VALUE || w > Integer.MAX_VALUE) {
                throw s.error("weight " + w + " does not fit an int");
            }
            s.endRecord(4);
            out.add((int)u - 1, (int)v - 1, (int)w);
            read++;
        }
        if (read != m) {
            throw s.error("file ends after " + read + " arcs but the problem line declares " + m);
        }
    }
}
