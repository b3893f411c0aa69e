package dev.overlap.graph.io;

import java.util.Locale;

/** The graph file formats {@link GraphReader} reads, chosen by file name (a {@code .gz} suffix is looked through). */
public enum GraphFormat {
    /** Matrix Market coordinate format: pattern, integer or real; general or symmetric; 1-based. */
    MTX("mtx"),
    /** Edge list: {@code u v} per line, 0-based; {@code #} or {@code %} lines are comments. */
    EL("el"),
    /** Weighted edge list: {@code u v w} per line, 0-based. */
    WEL("wel"),
    /** SNAP edge list: {@code u v} per line, 0-based, {@code #} comment lines. */
    SNAP("txt"),
    /** DIMACS shortest-path format: {@code p sp n m}, then {@code a u v w} arcs, 1-based; {@code c} comments. */
    DIMACS("gr"),
    /** Overlap's binary CSR, read by memory-mapping ({@link BinaryCsr}). */
    BCSR("bcsr");

    private final String extension;

    GraphFormat(final String extension) {
        this.extension = extension;
    }

    /** @return the file extension without the dot */
    public String extension() {
        return extension;
    }

    /**
     * @param fileName a file name such as {@code roads.gr.gz}
     * @return its format
     * @throws IllegalArgumentException naming the known extensions
     */
    public static GraphFormat fromFileName(final String fileName) {
        String name = fileName.toLowerCase(Locale.ROOT);
        if (name.endsWith(".gz")) {
            name = name.substring(0, name.length() - 3);
        }
        for (final GraphFormat f : values()) {
            if (name.endsWith("." + f.extension)) {
                return f;
            }
        }
        throw new IllegalArgumentException("cannot tell the format of '" + fileName + "' from its name: expected "
            + ".mtx, .el, .wel, .txt (SNAP), .gr (DIMACS) or .bcsr, optionally followed by .gz");
    }
}
