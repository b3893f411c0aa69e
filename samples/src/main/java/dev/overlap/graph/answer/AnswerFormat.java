package dev.overlap.graph.answer;

import java.nio.charset.StandardCharsets;

/**
 * The two forms of an answer file. {@link AnswerReader} tells them apart by their first bytes. Stateless constants;
 * thread-safe.
 *
 * <h2>Text</h2>
 * ASCII, one line per vertex in vertex order, {@code vertex value} separated by one space, each line ended by
 * {@code \n}; before them one header line that starts with {@code #} (so the comment conventions of awk scripts,
 * gnuplot, numpy's {@code loadtxt}, pandas' {@code read_csv(comment='#', sep=' ')} and R's {@code read.table} skip
 * it):
 * <pre>
 * # overlap answer 1: app=bfs value=depth vertices=1024 source=17 unreached=-1
 * 0 3
 * 1 -1
 * </pre>
 * Integer values (depth, distance) are decimal; {@code -1} is an unreached vertex. Floating-point values (rank,
 * Jacobi {@code x}) are Java's {@link Double#toString(double)}, as {@code 0.0012} or {@code 1.5E-7}: the shortest
 * decimal that reads back as the same double, in a form C's {@code strtod} and every tool above parse. The reader
 * accepts the lines in any order (each vertex exactly once), blank lines and further {@code #} lines.
 *
 * <h2>Binary</h2>
 * Little-endian, a 32-byte header, {@code vertices} values, then a 4-byte trailer:
 * <pre>
 * offset size
 *      0    8  magic "OVLPANS\0"
 *      8    4  version, 1
 *     12    4  kind: 1 depth (int32), 2 distance (int64), 3 rank (float64), 4 Jacobi x (float64)
 *     16    8  vertices, n
 *     24    8  source vertex, or -1 (PageRank, Jacobi)
 *     32  n*w  the values, w = 4 or 8 bytes; -1 is an unreached vertex
 * 32+n*w    4  CRC-32C of the values
 * </pre>
 * numpy reads it as {@code np.fromfile(f, dtype='<i4', count=n, offset=32)} ({@code <i8}, {@code <f8} for the
 * other kinds).
 */
public enum AnswerFormat {
    /** {@code vertex value} lines under a {@code #} header. */
    TEXT,
    /** Header, little-endian values, CRC-32C trailer. */
    BINARY;

    /** The binary form's first 8 bytes. */
    static final byte[] MAGIC = "OVLPANS\0".getBytes(StandardCharsets.US_ASCII);

    /** The text form's first bytes. */
    static final String TEXT_HEADER = "# overlap answer ";

    /** The version both forms write and the reader accepts. */
    static final int VERSION = 1;

    /** Bytes of the binary header. */
    static final int HEADER_BYTES = 32;
}
