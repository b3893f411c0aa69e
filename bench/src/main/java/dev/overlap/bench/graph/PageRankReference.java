package dev.overlap.bench.graph;

import dev.overlap.graph.Csr;
import dev.overlap.graph.ref.PowerIteration;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The converged PageRank of a graph, what the comparison measures every implementation's accuracy against: power
 * iteration ({@link PowerIteration}: dangling rank spread evenly, ranks sum to 1) run until its L1 error bound is
 * below {@value #TOLERANCE}, far below any accuracy a run is asked for. An answer's error is its L1 distance to these
 * ranks; an answer of another model that leaves dangling rank out (GAP's: isolated vertices keep
 * {@code (1 - d) / n} and pass nothing on) is the same vector scaled by {@link #unnormalizedSum}, so its error is
 * measured after dividing by that sum (see {@link GapPageRankModel}).
 *
 * <p>A forked measurement holds the reference {@link #read}: the ranks stay in their file until the runs are over
 * and the first {@link #ranks()} reads them, so the child's peak resident memory is its runs' alone.
 *
 * <p>Not thread-safe: a comparison's rows use their reference one after another, on one thread. The ranks array is
 * never modified once it exists.
 */
final class PageRankReference {
    /** L1 bound of the reference's own distance to the exact PageRank. */
    static final double TOLERANCE = 1e-11;
    private static final int MAX_ITERATIONS = 100_000;

    /** The ranks; null until read from {@link #file}. */
    private double[] ranks;
    private final Path file;
    private final int vertices;
    private final double danglingRank;
    private final int iterations;

    private PageRankReference(final double[] ranks, final double danglingRank, final int iterations) {
        this.ranks = ranks;
        this.file = null;
        this.vertices = ranks.length;
        this.danglingRank = danglingRank;
        this.iterations = iterations;
    }

    private PageRankReference(final Path file, final int vertices, final double danglingRank) {
        this.file = file;
        this.vertices = vertices;
        this.danglingRank = danglingRank;
        this.iterations = 0;
    }

    /** @return the converged ranks of {@code g} with damping {@code damping} */
    static PageRankReference compute(final Csr g, final double damping) {
        final PowerIteration.Result r = PowerIteration.ranks(g, damping, TOLERANCE, MAX_ITERATIONS);
        return of(g, r.ranks(), r.iterations());
    }

    private static PageRankReference of(final Csr g, final double[] ranks, final int iterations) {
        double dangling = 0;
        for (int v = 0; v < ranks.length; v++) {
            dangling += g.degree(v) == 0 ? ranks[v] : 0;
        }
        return new PageRankReference(ranks, dangling, iterations);
    }

    /**
     * @return the ranks (read from the file on the first call, for a reference {@link #read}); do not modify
     * @throws java.io.UncheckedIOException when that file can no longer be read
     */
    double[] ranks() {
        if (ranks == null) {
            try (InputStream raw = Files.newInputStream(file);
                DataInputStream in = new DataInputStream(new java.io.BufferedInputStream(raw, 1 << 16))) {
                in.readInt();
                final double[] r = new double[vertices];
                for (int v = 0; v < vertices; v++) {
                    r[v] = in.readDouble();
                }
                ranks = r;
            } catch (final IOException e) {
                throw new java.io.UncheckedIOException(file + ": the PageRank reference could not be read again", e);
            }
        }
        return ranks;
    }

    /** @return power-iteration steps it took (0 when read from a file) */
    int iterations() {
        return iterations;
    }

    /** @return L1 distance of {@code answer} (ranks summing to 1) to the reference */
    double error(final double[] answer) {
        final double[] r = ranks();
        double s = 0;
        for (int v = 0; v < r.length; v++) {
            s += Math.abs(answer[v] - r[v]);
        }
        return s;
    }

    /**
     * The sum of the ranks of the model without dangling redistribution ({@code x = (1-d)/n + d P x}, dangling rank
     * lost): that model's solution is the reference times {@code (1-d) / ((1-d) + d D)}, where {@code D} is the
     * reference's total rank on vertices without out-edges (both solve {@code (I - dP) x = c 1} for a constant
     * {@code c}; the reference's {@code c} is {@code ((1-d) + d D) / n}).
     */
    double unnormalizedSum(final double damping) {
        return (1 - damping) / ((1 - damping) + damping * danglingRank);
    }

    /**
     * The fewest power-iteration steps (from {@code 1/n}, the model of the reference) whose answer is within
     * {@code target} of the reference: what a fixed-iteration run must do to be as accurate as {@code target}.
     *
     * @return that many steps, at least 1 (at most 100,000)
     */
    int powerIterationsFor(final Csr g, final double damping, final double target) {
        final int n = g.vertexCount();
        final double[] ref = ranks();
        double[] x = new double[n];
        double[] next = new double[n];
        java.util.Arrays.fill(x, 1.0 / n);
        for (int it = 1; it <= MAX_ITERATIONS; it++) {
            double dangling = 0;
            java.util.Arrays.fill(next, 0);
            for (int u = 0; u < n; u++) {
                final int deg = g.degree(u);
                if (deg == 0) {
                    dangling += x[u];
                    continue;
                }
                final double share = x[u] / deg;
                for (long e = g.edgeStart(u), end = g.edgeEnd(u); e < end; e++) {
                    next[g.target(e)] += share;
                }
            }
            final double base = (1 - damping) / n + damping * dangling / n;
            double err = 0;
            for (int v = 0; v < n; v++) {
                next[v] = base + damping * next[v];
                err += Math.abs(next[v] - ref[v]);
            }
            if (err <= target) {
                return it;
            }
            final double[] t = x;
            x = next;
            next = t;
        }
        return MAX_ITERATIONS;
    }

    /** Writes the ranks for a forked measurement ({@link #read}): the count, then the doubles, big-endian. */
    void write(final Path file) throws IOException {
        try (OutputStream raw = Files.newOutputStream(file);
            DataOutputStream out = new DataOutputStream(new java.io.BufferedOutputStream(raw, 1 << 16))) {
            out.writeInt(vertices);
            for (final double r : ranks()) {
                out.writeDouble(r);
            }
        }
    }

    /**
     * The reference {@link #write} wrote, the ranks kept in the file until {@link #ranks()} is first called: one pass
     * over the file now, for the dangling rank, and one then (the file must stay until that call).
     *
     * @param g the graph the ranks are of (for the dangling rank; not needed afterwards)
     * @return the reference, on disk
     * @throws IOException when the file is unreadable or holds ranks for another vertex count
     */
    static PageRankReference read(final Path file, final Csr g) throws IOException {
        try (InputStream raw = Files.newInputStream(file);
            DataInputStream in = new DataInputStream(new java.io.BufferedInputStream(raw, 1 << 16))) {
            final int n = in.readInt();
            if (n != g.vertexCount()) {
                throw new IOException(file + ": ranks of " + n + " vertices for a graph of " + g.vertexCount());
            }
            double dangling = 0;
            for (int v = 0; v < n; v++) {
                final double r = in.readDouble();
                dangling += g.degree(v) == 0 ? r : 0;
            }
            return new PageRankReference(file, n, dangling);
        }
    }
}
