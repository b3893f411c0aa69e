package dev.overlap.graph;

import java.util.Arrays;
import java.util.Objects;

/**
 * A directed graph in compressed sparse row form: {@code int} vertex ids {@code 0..n-1}, {@code long} edge offsets,
 * optional {@code int} edge weights. The out-edges of {@code v} are the edge indices
 * {@code [edgeStart(v), edgeEnd(v))}; edge {@code e} goes to {@link #target(long)} with {@link #weight(long)}.
 * An undirected graph is stored with both directions of every edge and {@link #isSymmetric()} true.
 *
 * <p>The arrays live on the Java heap (one array each, so at most {@code 2^31 - 9} edges); placement into device
 * memory is {@link dev.overlap.graph.partition.DeviceGraph}'s job, which can also build a graph there directly
 * ({@link dev.overlap.graph.partition.DeviceGraph#load}) so that no heap copy exists. Instances come from
 * {@link GraphBuilder}, the loaders, the generators, or {@link #wrap} (validated). The edge arrays may be longer than
 * the edge count {@code offsets[n]} (the builder drops duplicates in place and keeps a small unused tail rather than
 * copying the arrays to trim it); nothing reads past {@code offsets[n]}.
 *
 * <p>Thread-safety: immutable after construction (the arrays are never exposed or modified), so an instance may
 * be shared freely between threads once safely published (all fields are final).
 */
public final class CsrGraph implements Csr {
    /** Largest number of edges an on-heap CSR holds (the JVM's array size limit). */
    public static final long MAX_EDGES = Integer.MAX_VALUE - 8;

    private final int vertices;
    private final long[] offsets;
    private final int[] targets;
    private final int[] weights;
    private final int edges;
    private final boolean symmetric;

    /**
     * @param offsets   {@code n+1} edge offsets; {@code offsets[n]} is the edge count
     * @param targets   edge targets, at least {@code offsets[n]} of them (a longer array's tail is ignored)
     * @param weights   edge weights (as long as targets), or null
     * @param symmetric whether every edge has its reverse
     */
    CsrGraph(final long[] offsets, final int[] targets, final int[] weights, final boolean symmetric) {
        this.vertices = offsets.length - 1;
        this.edges = (int)offsets[vertices];
        this.offsets = offsets;
        this.targets = targets;
        this.weights = weights;
        this.symmetric = symmetric;
    }

    /**
     * Takes ownership of CSR arrays after validating them: offsets start at 0, never decrease and end at the
     * number of targets; every target is a vertex; weights, when present, match the targets in length.
     * The caller must not modify the arrays afterwards.
     *
     * @param offsets   {@code n+1} edge offsets
     * @param targets   edge targets ({@code offsets[n]} of them)
     * @param weights   edge weights, or null
     * @param symmetric true if the caller guarantees every edge {@code u->v} has its reverse {@code v->u}
     * @return the graph
     * @throws IllegalArgumentException naming the first inconsistency
     */
    public static CsrGraph wrap(final long[] offsets, final int[] targets, final int[] weights,
        final boolean symmetric) {
        Objects.requireNonNull(offsets, "offsets");
        Objects.requireNonNull(targets, "targets");
        if (offsets.length < 1) {
            throw new IllegalArgumentException("offsets must hold n+1 >= 1 entries");
        }
        final int n = offsets.length - 1;
        if (offsets[0] != 0) {
            throw new IllegalArgumentException("offsets[0] must be 0, was " + offsets[0]);
        }
        for (int v = 0; v < n; v++) {
            if (offsets[v + 1] < offsets[v]) {
                throw new IllegalArgumentException("offsets decrease at vertex " + v + ": " + offsets[v] + " > "
                    + offsets[v + 1]);
            }
        }
        if (offsets[n] != targets.length) {
            throw new IllegalArgumentException("offsets[n] = " + offsets[n] + " but there are " + targets.length
                + " targets");
        }
        for (int e = 0; e < targets.length; e++) {
            if (targets[e] < 0 || targets[e] >= n) {
                throw new IllegalArgumentException("edge " + e + " targets vertex " + targets[e] + ", outside 0.."
                    + (n - 1));
            }
        }
        if (weights != null && weights.length != targets.length) {
            throw new IllegalArgumentException(weights.length + " weights for " + targets.length + " edges");
        }
        return new CsrGraph(offsets, targets, weights, symmetric);
    }

    /** @return number of vertices {@code n} */
    @Override
    public int vertexCount() {
        return vertices;
    }

    /** @return number of directed edges (an undirected edge counts twice, a self-loop once) */
    @Override
    public long edgeCount() {
        return edges;
    }

    /** @return true when every edge is stored in both directions */
    @Override
    public boolean isSymmetric() {
        return symmetric;
    }

    /** @return true when edges carry weights */
    @Override
    public boolean isWeighted() {
        return weights != null;
    }

    /** @return index of the first out-edge of {@code v} */
    @Override
    public long edgeStart(final int v) {
        return offsets[v];
    }

    /** @return one past the last out-edge of {@code v} */
    @Override
    public long edgeEnd(final int v) {
        return offsets[v + 1];
    }

    /** @return out-degree of {@code v} */
    @Override
    public int degree(final int v) {
        return (int)(offsets[v + 1] - offsets[v]);
    }

    /** @return target vertex of edge {@code e} */
    @Override
    public int target(final long e) {
        return targets[(int)e];
    }

    /** @return weight of edge {@code e}; 1 when the graph is unweighted */
    @Override
    public int weight(final long e) {
        return weights == null ? 1 : weights[(int)e];
    }

    /** @return the largest out-degree */
    public int maxDegree() {
        long max = 0;
        for (int v = 0; v < vertices; v++) {
            max = Math.max(max, offsets[v + 1] - offsets[v]);
        }
        return (int)max;
    }

    /** Copies {@code count} offsets from index {@code from} into {@code dst[dstIndex..]} (for writers). */
    public void copyOffsets(final int from, final long[] dst, final int dstIndex, final int count) {
        System.arraycopy(offsets, from, dst, dstIndex, count);
    }

    /** Copies {@code count} targets from edge {@code from} into {@code dst[dstIndex..]}. */
    public void copyTargets(final long from, final int[] dst, final int dstIndex, final int count) {
        System.arraycopy(targets, (int)from, dst, dstIndex, count);
    }

    /** Copies {@code count} weights from edge {@code from} into {@code dst[dstIndex..]}. */
    public void copyWeights(final long from, final int[] dst, final int dstIndex, final int count) {
        if (weights == null) {
            throw new IllegalStateException("graph is unweighted");
        }
        System.arraycopy(weights, (int)from, dst, dstIndex, count);
    }

    /** @return a graph with every edge reversed (weights follow their edges); this graph if it is symmetric */
    public CsrGraph transpose() {
        if (symmetric) {
            return this;
        }
        final long[] to = new long[vertices + 1];
        for (int e = 0; e < edges; e++) {
            to[targets[e] + 1]++;
        }
        for (int v = 0; v < vertices; v++) {
            to[v + 1] += to[v];
        }
        final long[] cursor = Arrays.copyOf(to, vertices);
        final int[] tt = new int[edges];
        final int[] tw = weights == null ? null : new int[edges];
        for (int u = 0; u < vertices; u++) {
            for (int e = (int)offsets[u], end = (int)offsets[u + 1]; e < end; e++) {
                final int slot = (int)cursor[targets[e]]++;
                tt[slot] = u;
                if (tw != null) {
                    tw[slot] = weights[e];
                }
            }
        }
        return new CsrGraph(to, tt, tw, false);
    }

    /** @return this graph with weights dropped (shares the structure arrays) */
    public CsrGraph withoutWeights() {
        return weights == null ? this : new CsrGraph(offsets, targets, null, symmetric);
    }

    /** @return true when both graphs have the same vertices, edges (in the same order), weights and symmetry */
    public boolean sameAs(final CsrGraph o) {
        return vertices == o.vertices && symmetric == o.symmetric && Arrays.equals(offsets, o.offsets)
            && Arrays.equals(targets, 0, edges, o.targets, 0, o.edges)
            && (weights == null ? o.weights == null
                : o.weights != null && Arrays.equals(weights, 0, edges, o.weights, 0, o.edges));
    }

    /**
     * @return a 64-bit checksum of the vertices, edges (in order), weights and symmetry: equal graphs have equal
     *         fingerprints, so processes that each loaded or generated "the same" graph can check that they did
     */
    public long fingerprint() {
        long h = 0x9E3779B97F4A7C15L * (vertices + 1L) ^ (symmetric ? 1 : 2);
        for (final long o : offsets) {
            h = mix(h, o);
        }
        for (int e = 0; e < edges; e++) {
            h = mix(h, targets[e]);
        }
        if (weights != null) {
            for (int e = 0; e < edges; e++) {
                h = mix(h, weights[e] ^ 0x5bd1e995L);
            }
        }
        return h;
    }

    private static long mix(final long h, final long v) {
        long x = (h ^ v) * 0xBF58476D1CE4E5B9L;
        x ^= x >>> 31;
        return x * 0x94D049BB133111EBL + 1;
    }

    @Override
    public String toString() {
        return "CsrGraph{" + vertices + " vertices, " + edges + " edges" + (weights != null ? ", weighted" : "")
            + (symmetric ? ", symmetric" : "") + "}";
    }
}
