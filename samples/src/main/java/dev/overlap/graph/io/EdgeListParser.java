package dev.overlap.graph.io;

import dev.overlap.graph.EdgeList;

/**
 * Edge lists with 0-based vertex ids: {@code u v} per line ({@code .el}, SNAP {@code .txt}) or {@code u v w}
 * ({@code .wel}). Blank lines and lines starting with {@code #} or {@code %} are comments. The vertex count is the
 * largest id plus one.
 */
final class EdgeListParser {
    /** Largest vertex id: the count {@code id + 1} must fit an int. */
    static final long MAX_ID = Integer.MAX_VALUE - 1L;

    private EdgeListParser() {
    }

    static ParsedEdges parse(final LineScanner s, final boolean weighted) throws GraphFormatException {
        final int fields = weighted ? 3 : 2;
        final EdgeList edges = new EdgeList(1 << 16, weighted);
        while (true) {
            s.skipBlanks();
            final int c = s.peek();
            if (c == -1) {
                break;
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
            edges.add((int)u, (int)v, w);
        }
        return new ParsedEdges(edges, edges.maxVertex() + 1, false);
    }
}
