package dev.overlap.graph;

import java.util.Arrays;
import java.util.stream.IntStream;

/**
 * Turns an {@link EdgeList} or an {@link EdgeStream} into a {@link CsrGraph}: counts degrees (one pass over the
 * edges), prefix-sums the offsets, scatters the edges (a second pass, adding reverse edges when symmetrizing,
 * skipping self-loops when asked), then, when dropping duplicates, sorts each adjacency list (in parallel, by
 * target then weight) and compacts it keeping the first, lightest, copy. Memory at the peak: the edge list (from a
 * regenerating stream, one batch) plus the CSR arrays plus {@code 8n} bytes of cursors; duplicates are dropped
 * in place (the arrays keep an unused tail, see {@link #keepsInPlace}), so no second CSR-sized array exists beside
 * the first; no allocation per edge.
 *
 * <p>Thread-safety: stateless; {@link #build} may run concurrently on different lists. It uses the common
 * fork-join pool for the per-row sort.
 */
public final class GraphBuilder {
    private GraphBuilder() {
    }

    /**
     * @param edges       the edges (not modified)
     * @param vertexCount number of vertices, or -1 for {@code maxVertex + 1}
     * @param options     cleaning steps
     * @param symmetricIn true when the list already holds both directions of every edge (the result is then
     *                    symmetric even without symmetrizing, unless self-loops or duplicates break nothing)
     * @param progress    progress reporting
     * @return the graph
     * @throws IllegalArgumentException if an edge names a vertex outside {@code 0..vertexCount-1} or the result has
     *                                  too many edges for one array
     */
    public static CsrGraph build(final EdgeList edges, final int vertexCount, final BuildOptions options,
        final boolean symmetricIn, final Progress progress) {
        final int n = vertexCount < 0 ? edges.maxVertex() + 1 : vertexCount;
        if (edges.maxVertex() >= n) {
            throw new IllegalArgumentException("an edge names vertex " + edges.maxVertex() + " but the graph has " + n
                + " vertices");
        }
        return build(EdgeStream.of(edges), n, options, symmetricIn, progress);
    }

    /**
     * Builds from edges read in two passes (count the degrees, then scatter), so a stream that regenerates or
     * re-reads its edges never holds them all beside the CSR: the peak is the CSR plus one batch. The result is the
     * same graph, array for array, as building from a list holding the same edges in the same order.
     *
     * @param edges       the edges; read twice, in the same order each time
     * @param vertexCount number of vertices, or -1 for the largest id in the edges plus one (then every batch's
     *                    {@link EdgeList#maxVertex()} must cover its ids, as {@link EdgeList#add} keeps it)
     * @param options     cleaning steps
     * @param symmetricIn true when the edges already hold both directions of every edge
     * @param progress    progress reporting (in edges, when the stream knows its size before the first pass)
     * @return the graph
     * @throws IllegalArgumentException if an edge names a vertex outside {@code 0..vertexCount-1}, a pass delivers
     *                                  other edges than the first, or the result has too many edges for one array
     */
    public static CsrGraph build(final EdgeStream edges, final int vertexCount, final BuildOptions options,
        final boolean symmetricIn, final Progress progress) {
        if (vertexCount < -1) {
            throw new IllegalArgumentException("vertexCount must be >= 0, or -1 for the largest id plus one, was "
                + vertexCount);
        }
        final boolean sym = options.symmetrize();
        final boolean dropLoops = options.dropSelfLoops();
        final long known = edges.size();
        try (Progress.Task task = progress.start("building CSR", known < 0 ? 0 : 3L * known, "Medges", 1_000_000)) {
            final Degrees degrees = new Degrees(vertexCount);
            edges.forEachBatch(batch -> degrees.count(batch, sym, dropLoops, task));
            final long size = edges.size();
            task.stepTo(size);
            final long[] offsets = degrees.offsets();
            final int n = offsets.length - 1;
            for (int v = 0; v < n; v++) {
                offsets[v + 1] += offsets[v];
            }
            final long m = offsets[n];
            if (m > CsrGraph.MAX_EDGES) {
                throw new IllegalArgumentException("the graph would have " + m + " edges; an on-heap CSR holds at most "
                    + CsrGraph.MAX_EDGES);
            }
            final int[] targets = new int[(int)m];
            final int[] weights = edges.isWeighted() ? new int[(int)m] : null;
            final long[] cursor = Arrays.copyOf(offsets, n);
            edges.forEachBatch(batch -> scatter(batch, sym, dropLoops, offsets, cursor, targets, weights, task));
            for (int v = 0; v < n; v++) {
                if (cursor[v] != offsets[v + 1]) {
                    throw new IllegalArgumentException("the second pass over the edges gave vertex " + v + " "
                        + (cursor[v] - offsets[v]) + " edges, the first " + (offsets[v + 1] - offsets[v]));
                }
            }
            task.stepTo(2L * size);
            final boolean symmetric = sym || symmetricIn;
            if (!options.dropDuplicates()) {
                return new CsrGraph(offsets, targets, weights, symmetric);
            }
            final CsrGraph g = dedupe(n, offsets, targets, weights, symmetric);
            task.stepTo(3L * size);
            return g;
        }
    }

    /**
     * The first pass's degree counts, in {@code counts[source + 1]}: for a fixed vertex count, or for one that grows
     * to the largest id seen (by doubling, checked once per batch, not per edge).
     */
    private static final class Degrees {
        private final boolean fixed;
        private long[] counts;
        private int vertices;

        Degrees(final int vertexCount) {
            this.fixed = vertexCount >= 0;
            this.vertices = Math.max(0, vertexCount);
            this.counts = new long[(fixed ? vertexCount : 1024) + 1];
        }

        /** Counts each kept edge of a batch (and its reverse when symmetrizing) into {@code counts[source + 1]}. */
        void count(final EdgeList batch, final boolean sym, final boolean dropLoops, final Progress.Task task) {
            if (!fixed) {
                final int max = batch.maxVertex();
                if (max + 2L > Integer.MAX_VALUE - 8L) {
                    throw new IllegalArgumentException("an edge names vertex " + max + ": an on-heap CSR holds at most "
                        + (Integer.MAX_VALUE - 9L) + " vertices");
                }
                if (max >= counts.length - 1) {
                    counts = Arrays.copyOf(counts, (int)Math.min(Integer.MAX_VALUE - 8L,
                        Math.max(2L * counts.length, max + 2L)));
                }
                vertices = Math.max(vertices, max + 1);
            }
            final int limit = fixed ? vertices : counts.length - 1;
            final long[] offsets = counts;
            final int size = batch.size();
            for (int i = 0; i < size; i++) {
                final int u = batch.source(i);
                final int v = batch.target(i);
                if (u < 0 || v < 0 || u >= limit || v >= limit) {
                    throw new IllegalArgumentException("an edge names vertex " + (u < 0 || u >= limit ? u : v)
                        + " but the graph has " + vertices + " vertices");
                }
                if (u == v && dropLoops) {
                    continue;
                }
                offsets[u + 1]++;
                if (sym && u != v) {
                    offsets[v + 1]++;
                }
                if ((i & 0xFFFFF) == 0xFFFFF) {
                    task.stepBy(1 << 20);
                }
            }
            task.stepBy(size & 0xFFFFF);
        }

        /** @return the counts, exactly {@code vertices + 1} long */
        long[] offsets() {
            return counts.length == vertices + 1 ? counts : Arrays.copyOf(counts, vertices + 1);
        }
    }

    /** Second pass: writes each kept edge (and its reverse) at its source's cursor, failing past the row's end. */
    private static void scatter(final EdgeList batch, final boolean sym, final boolean dropLoops, final long[] offsets,
        final long[] cursor, final int[] targets, final int[] weights, final Progress.Task task) {
        final int size = batch.size();
        for (int i = 0; i < size; i++) {
            final int u = batch.source(i);
            final int v = batch.target(i);
            if (u == v && dropLoops) {
                continue;
            }
            put(u, v, batch.weight(i), offsets, cursor, targets, weights);
            if (sym && u != v) {
                put(v, u, batch.weight(i), offsets, cursor, targets, weights);
            }
            if ((i & 0xFFFFF) == 0xFFFFF) {
                task.stepBy(1 << 20);
            }
        }
        task.stepBy(size & 0xFFFFF);
    }

    private static void put(final int u, final int v, final int w, final long[] offsets, final long[] cursor,
        final int[] targets, final int[] weights) {
        if (u < 0 || u >= cursor.length || cursor[u] >= offsets[u + 1]) {
            throw new IllegalArgumentException("the second pass over the edges gave vertex " + u
                + " more edges than the first");
        }
        if (v < 0 || v >= cursor.length) {
            throw new IllegalArgumentException("the second pass over the edges gave an edge to vertex " + v
                + ", outside the " + cursor.length + " vertices of the first");
        }
        final int slot = (int)cursor[u]++;
        targets[slot] = v;
        if (weights != null) {
            weights[slot] = w;
        }
    }

    /** Sorts every row and removes repeated targets in place, keeping the smallest weight. */
    private static CsrGraph dedupe(final int n, final long[] offsets, final int[] targets, final int[] weights,
        final boolean symmetric) {
        final int[] kept = new int[n];
        final ThreadLocal<long[]> scratch = ThreadLocal.withInitial(() -> new long[64]);
        IntStream.range(0, n).parallel().forEach(v -> {
            final int from = (int)offsets[v];
            final int to = (int)offsets[v + 1];
            if (to - from < 2) {
                kept[v] = to - from;
                return;
            }
            if (weights == null) {
                Arrays.sort(targets, from, to);
                int w = from + 1;
                for (int r = from + 1; r < to; r++) {
                    if (targets[r] != targets[w - 1]) {
                        targets[w++] = targets[r];
                    }
                }
                kept[v] = w - from;
            } else {
                long[] pairs = scratch.get();
                if (pairs.length < to - from) {
                    pairs = new long[Integer.highestOneBit(to - from) << 1];
                    scratch.set(pairs);
                }
                for (int r = from; r < to; r++) {
                    // Sort key: target, then weight in signed order (flipping the sign bit orders it as unsigned).
                    pairs[r - from] = (long)targets[r] << 32 | ((weights[r] ^ 0x80000000) & 0xFFFFFFFFL);
                }
                Arrays.sort(pairs, 0, to - from);
                int w = from;
                int last = -1;
                for (int r = 0; r < to - from; r++) {
                    final int t = (int)(pairs[r] >>> 32);
                    if (t != last) {
                        targets[w] = t;
                        weights[w] = (int)pairs[r] ^ 0x80000000;
                        w++;
                        last = t;
                    }
                }
                kept[v] = w - from;
            }
        });
        long write = 0;
        long read = 0;
        for (int v = 0; v < n; v++) {
            final long nextRead = offsets[v + 1];
            final int k = kept[v];
            if (write != read) {
                System.arraycopy(targets, (int)read, targets, (int)write, k);
                if (weights != null) {
                    System.arraycopy(weights, (int)read, weights, (int)write, k);
                }
            }
            read = nextRead;
            offsets[v] = write;
            write += k;
        }
        offsets[n] = write;
        final int m = (int)write;
        if (keepsInPlace(m, targets.length)) {
            return new CsrGraph(offsets, targets, weights, symmetric);
        }
        return new CsrGraph(offsets, Arrays.copyOf(targets, m), weights == null ? null : Arrays.copyOf(weights, m),
            symmetric);
    }

    /**
     * Whether the deduplicated rows stay in the scattered arrays, their unused tail included, rather than in a
     * trimmed copy: a copy is a second CSR-sized array beside the first at the build's memory peak, so the tail is
     * kept unless it exceeds a quarter of the array (a list made mostly of repeats, where the copy is small and the
     * tail would waste more than the copy costs).
     *
     * @param kept   edges left after dropping duplicates
     * @param length length of the scattered arrays
     * @return true to keep the arrays, false to trim them by a copy
     */
    static boolean keepsInPlace(final int kept, final int length) {
        return length - kept <= length >> 2;
    }
}
