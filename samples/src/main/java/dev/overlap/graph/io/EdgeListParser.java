package dev.overlap.graph.io;

/**
 * Edge lists with 0-based vertex ids: {@code u v} per line ({@code .el}, SNAP {@code .txt}) or {@code u v w}
 * ({@code .wel}). Blank lines and lines starting with {@code #} or {@code %} are comments. No header: the vertex
 * count is the largest id plus one.
 */
final class EdgeListParser implements TextParser {
    /** Largest vertex id: the count {@code id + 1} must fit an int. */
    static final long MAX_ID = Integer.MAX_VALUE - 1L;
    static final EdgeListParser UNWEIGHTED = new EdgeListParser(false);
    static final EdgeListParser WEIGHTED = new EdgeListParser(true);

    private final boolean weighted;

    private EdgeListParser(final boolean weighted) {
        this.weighted = weighted;
    }

    @Override
    public TextHeader header(final LineScanner s) {
        return new TextHeader(TextHeader.FROM_IDS, weighted, false, false, TextHeader.UNDECLARED);
    }

    @Override
    public void body(final LineScanner s, final TextHeader header, final EdgeBatches out)
        throws GraphFormatException {
        final int fields = weighted ? 3 : 2;
        while (true) {
            s.skipBlanks();
            final int c = s.peek();
            if (c == -1) {
                return;
            }
            if (c == '#' || c == '%' || c == '\n') {
                s.skipLine();
                continue;
            }
            final long u = s.nextLong("source vertex", 1, fields);
            final long v = s.nextLong("target vertex", 2, fields);
            if (u < 0 || u > MAX_ID) {
                throw s.error("source vertex " + u + " is outside 0.." + MAX_ID);
            }
            if (v < 0 || v > MAX_ID) {
                throw s.error("target vertex " + v + " is outside 0.." + MAX_ID);
            }
            int w = 1;
            if (weighted) {
                final long x = s.nextLong("weight", 3, 3);
                if (x < Integer.MIN_VALUE || x > Integer.MAX_VALUE) {
                    throw s.error("weight " + x + " does not fit an int");
                }
                w = (int)x;
            }
            s.endRecord(fields);
            out.add((int)u, (int)v, w);
        }
    }
}
