package dev.overlap.graph.answer;

/**
 * What an answer file holds: which app wrote it, the name of its value and how a value is stored. Stateless
 * constants; thread-safe.
 */
public enum AnswerKind {
    /** BFS depth per vertex, {@code -1} when the source does not reach it; stored as a 32-bit int. */
    DEPTH("bfs", "depth", 1, 4),
    /** SSSP distance per vertex, {@code -1} in files when unreached; stored as a 64-bit int. */
    DISTANCE("sssp", "distance", 2, 8),
    /** PageRank rank per vertex (the ranks sum to 1); stored as a 64-bit IEEE 754 double. */
    RANK("pr", "rank", 3, 8),
    /** Jacobi solution per unknown (the "vertex" is the row index); stored as a 64-bit IEEE 754 double. */
    SOLUTION("jacobi", "x", 4, 8);

    private final String app;
    private final String value;
    private final int code;
    private final int bytes;

    AnswerKind(final String app, final String value, final int code, final int bytes) {
        this.app = app;
        this.value = value;
        this.code = code;
        this.bytes = bytes;
    }

    /** @return the command that writes it: {@code bfs}, {@code sssp}, {@code pr} or {@code jacobi} */
    public String app() {
        return app;
    }

    /** @return the name of the value in the text header: {@code depth}, {@code distance}, {@code rank}, {@code x} */
    public String value() {
        return value;
    }

    /** @return the kind's number in the binary header */
    int code() {
        return code;
    }

    /** @return bytes per value in the binary form */
    int bytes() {
        return bytes;
    }

    /** @return true for the integer kinds, whose unreached vertices are written as {@code -1} */
    public boolean traversal() {
        return this == DEPTH || this == DISTANCE;
    }

    /**
     * @param app the app named in a text header
     * @return its kind, or null when no kind has that app
     */
    static AnswerKind ofApp(final String app) {
        for (final AnswerKind k : values()) {
            if (k.app.equals(app)) {
                return k;
            }
        }
        return null;
    }

    /**
     * @param code a binary header's kind number
     * @return its kind, or null when no kind has that number
     */
    static AnswerKind ofCode(final int code) {
        for (final AnswerKind k : values()) {
            if (k.code == code) {
                return k;
            }
        }
        return null;
    }
}
