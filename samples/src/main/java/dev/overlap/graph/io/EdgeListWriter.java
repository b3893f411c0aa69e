package dev.overlap.graph.io;

import dev.overlap.graph.CsrGraph;
import dev.overlap.graph.Progress;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Locale;

/**
 * Writes a {@link CsrGraph} as a text edge list, {@code .el} ({@code u v} per line) or {@code .wel}
 * ({@code u v w}), 0-based, the formats {@link GraphReader} and other graph tools (the GAP benchmark suite's
 * {@code -f}) read. No comment lines: some readers stop at the first line that is not an edge.
 *
 * <p>What the file holds, so that a reader gets the same graph back:
 * <ul>
 * <li>A symmetric graph is written with each undirected edge once, {@code u <= v} (the weight of {@code u -> v}):
 *     read it back symmetrized (Overlap: {@code --symmetrize}; GAP: {@code -s}). An asymmetric graph is written
 *     edge by edge and is read back as it is.</li>
 * <li>The vertex count of an edge list is its largest id plus one, so when the last vertex has no edge in the file
 *     a self-loop on it ends the file ({@code n-1 n-1}, weight 1): a reader that drops self-loops (GAP always;
 *     Overlap with {@code --drop-self-loops}) gets exactly {@code n} vertices and no extra edge. A graph without
 *     edges still has that line.</li>
 * </ul>
 * With both cleaning steps on, reading the file back gives the same CSR (targets sorted per vertex, as a
 * duplicate-dropping build leaves them). The file is written through a temporary file in the same directory and
 * renamed into place, so a failure never leaves a partial file under the name. No allocation per edge.
 *
 * <p>Thread-safety: stateless; concurrent writes of different files are independent.
 */
public final class EdgeListWriter {
    private static final int BUFFER = 1 << 20;
    /** Longest line: three numbers of at most 11 characters, two spaces, a newline. */
    private static final int MAX_LINE = 3 * 11 + 3;

    private EdgeListWriter() {
    }

    /**
     * @param g        the graph
     * @param file     a {@code .el} or {@code .wel} file (the name gives the format; {@code .wel} needs a weighted
     *                 graph)
     * @param progress progress reporting (edges written)
     * @return lines written
     * @throws IllegalArgumentException for another extension, or {@code .wel} for an unweighted graph
     * @throws IOException              when the file cannot be written (the message names it)
     */
    public static long write(final CsrGraph g, final Path file, final Progress progress) throws IOException {
        final String name = file.getFileName().toString().toLowerCase(Locale.ROOT);
        final boolean weighted;
        if (name.endsWith(".wel")) {
            if (!g.isWeighted()) {
                throw new IllegalArgumentException(file + ": a .wel file needs a weighted graph");
            }
            weighted = true;
        } else if (name.endsWith(".el")) {
            weighted = false;
        } else {
            throw new IllegalArgumentException(file + ": expected a .el or .wel file name");
        }
        if (Files.isDirectory(file)) {
            throw new FileSystemException(file.toString(), null, "is a directory");
        }
        final Path dir = file.toAbsolutePath().getParent();
        if (dir == null || !Files.isDirectory(dir)) {
            throw new NoSuchFileException(file.toString(), null, "no such directory " + dir);
        }
        final Path tmp;
        try {
            tmp = Files.createTempFile(dir, file.getFileName().toString(), ".tmp");
        } catch (final AccessDeniedException e) {
            throw (FileSystemException)new FileSystemException(file.toString(), null, "permission denied").initCause(e);
        }
        boolean done = false;
        try {
            final long lines;
            try (OutputStream out = Files.newOutputStream(tmp)) {
                lines = writeLines(g, weighted, out, progress);
            }
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            done = true;
            return lines;
        } finally {
            if (!done) {
                Files.deleteIfExists(tmp);
            }
        }
    }

    private static long writeLines(final CsrGraph g, final boolean weighted, final OutputStream out,
        final Progress progress) throws IOException {
        final int n = g.vertexCount();
        final boolean once = g.isSymmetric();
        final byte[] buf = new byte[BUFFER];
        int at = 0;
        long lines = 0;
        int largest = -1;
        try (Progress.Task task = progress.start("writing edge list", g.edgeCount(), "Medges", 1_000_000)) {
            for (int u = 0; u < n; u++) {
                for (long e = g.edgeStart(u), end = g.edgeEnd(u); e < end; e++) {
                    final int v = g.target(e);
                    if (once && v < u) {
                        continue;
                    }
                    if (at > buf.length - MAX_LINE) {
                        out.write(buf, 0, at);
                        at = 0;
                    }
                    at = line(buf, at, u, v, weighted, g.weight(e));
                    largest = Math.max(largest, Math.max(u, v));
                    lines++;
                }
                if ((u & 0xFFFF) == 0xFFFF) {
                    task.stepTo(g.edgeEnd(u));
                }
            }
            if (largest < n - 1) {
                if (at > buf.length - MAX_LINE) {
                    out.write(buf, 0, at);
                    at = 0;
                }
                at = line(buf, at, n - 1, n - 1, weighted, 1);
                lines++;
            }
            out.write(buf, 0, at);
            task.stepTo(g.edgeCount());
        }
        return lines;
    }

    private static int line(final byte[] buf, final int at, final int u, final int v, final boolean weighted,
        final int w) {
        int p = number(buf, at, u);
        buf[p++] = ' ';
        p = number(buf, p, v);
        if (weighted) {
            buf[p++] = ' ';
            p = number(buf, p, w);
        }
        buf[p++] = '\n';
        return p;
    }

    /** Writes {@code x} in decimal at {@code at}; returns the position after it. */
    static int number(final byte[] buf, final int at, final int x) {
        int p = at;
        long v = x;
        if (v < 0) {
            buf[p++] = '-';
            v = -v;
        }
        int digits = 1;
        for (long t = v; t >= 10; t /= 10) {
            digits++;
        }
        for (int i = p + digits - 1; i >= p; i--) {
            buf[i] = (byte)('0' + v % 10);
            v /= 10;
        }
        return p + digits;
    }
}
