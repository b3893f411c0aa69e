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
 * the first; no allocation per edge. The edges go to the heap arrays of a {@link CsrGraph}, or to any other
 * {@link Destination} (a device's memory: {@link dev.overlap.graph.partition.DeviceGraph#load}), with the same passes
 * and checks.
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
        return build(edges, vertexCount, options, symmetricIn, progress, ON_HEAP);
    }

    /**
     * Where a build puts its edges and what it makes of them: {@link EdgeArrays} allocated once the first pass has
     * counted the edges, and the graph made of them once the last step is done.
     *
     * @param <G> the graph built
     */
    public interface Destination<G> {
        /**
         * @param vertices the vertices
         * @param edges    the edges the second pass writes (before duplicates are dropped)
         * @param weighted whether they carry weights
         * @return room for them
         */
        EdgeArrays allocate(int vertices, long edges, boolean weighted);

        /**
         * @param offsets   {@code n + 1} offsets into {@code edges}; {@code offsets[n]} is the edge count, which may be
         *                  below {@code edges.length()} once duplicates were dropped
         * @param edges     what {@link #allocate} returned, written
         * @param symmetric whether every edge has its reverse
         * @return the graph
         */
        G finish(long[] offsets, EdgeArrays edges, boolean symmetric);

        /**
         * Called when the build fails once the first pass is done (in {@link #allocate} or after it), so that the
         * destination frees whatever it allocated.
         */
        default void abandon() {
        }
    }

    /** @return the heap destination of {@link #build(EdgeStream, int, BuildOptions, boolean, Progress)} */
    public static Destination<CsrGraph> onHeap() {
        return ON_HEAP;
    }

    /** The heap: a {@link CsrGraph} that takes the arrays over (trimmed by a copy when {@link #keepsInPlace} says). */
    private static final Destination<CsrGraph> ON_HEAP = new Destination<>() {
        @Override
        public EdgeArrays allocate(final int vertices, final long edges, final boolean weighted) {
            return EdgeArrays.onHeap(vertices, edges, weighted);
        }

        @Override
        public CsrGraph finish(final long[] offsets, final EdgeArrays edges, final boolean symmetric) {
            final EdgeArrays.Heap heap = (EdgeArrays.Heap)edges;
            final int m = (int)offsets[offsets.length - 1];
            if (keepsInPlace(m, heap.targets.length)) {
                return new CsrGraph(offsets, heap.targets, heap.weights, symmetric);
            }
            return new CsrGraph(offsets, Arrays.copyOf(heap.targets, m),
                heap.weights == null ? null : Arrays.copyOf(heap.weights, m), symmetric);
        }
    };

    /**
     * As {@link #build(EdgeStream, int, BuildOptions, boolean, Progress)}, into {@code destination}: its
     * {@link Destination#allocate} gets the counts of the first pass, the second pass and the deduplication write
     * into what it returns, and its {@link Destination#finish} makes the graph.
     *
     * @param destination where the edges go
     * @param <G>         the graph built
     * @return the graph
     */
    public static <G> G build(final EdgeStream edges, final int vertexCount, final BuildOptions options,
        final boolean symmetricIn, final Progress progress, final Destination<G> destination) {
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
            boolean built = false;
            try {
                final EdgeArrays arrays = destination.allocate(n, offsets[n], edges.isWeighted());
                final long[] cursor = Arrays.copyOf(offsets, n);
                edges.forEachBatch(batch -> scatter(batch, sym, dropLoops, offsets, cursor, arrays, task));
                for (int v = 0; v < n; v++) {
                    if (cursor[v] != offsets[v + 1]) {
                        throw new IllegalArgumentException("the second pass over the edges gave vertex " + v + " "
                            + (cursor[v] - offsets[v]) + " edges, the first " + (offsets[v + 1] - offsets[v]));
                    }
                }
                task.stepTo(2L * size);
                if (options.dropDuplicates()) {
                    dedupe(n, offsets, arrays);
                    task.stepTo(3L * size);
                }
                final G g = destination.finish(offsets, arrays, sym || symmetricIn);
                built = true;
                return g;
            } finally {
                if (!built) {
                    destination.abandon();
                }
            }
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
        final long[] cursor, final EdgeArrays arrays, final Progress.Task task) {
        final int size = batch.size();
        for (int i = 0; i < size; i++) {
            final int u = batch.source(i);
            final int v = batch.target(i);
            if (u == v && dropLoops) {
                continue;
            }
            put(u, v, batch.weight(i), offsets, cursor, arrays);
            if (sym && u != v) {
                put(v, u, batch.weight(i), offsets, cursor, arrays);
            }
            if ((i & 0xFFFFF) == 0xFFFFF) {
                task.stepBy(1 << 20);
            }
        }
        task.stepBy(size & 0xFFFFF);
    }

    private static void put(final int u, final int v, final int w, final long[] offsets, final long[] cursor,
        final EdgeArrays arrays) {
        if (u < 0 || u >= cursor.length || cursor[u] >= offsets[u + 1]) {
            throw new IllegalArgumentException("the second pass over the edges gave vertex " + u
                + " more edges than the first");
        }
        if (v < 0 || v >= cursor.length) {
            throw new IllegalArgumentException("the second pass over the edges gave an edge to vertex " + v
                + ", outside the " + cursor.length + " vertices of the first");
        }
        arrays.put(cursor[u]++, v, w);
    }

    /**
     * Sorts every row and removes repeated targets in place, keeping the smallest weight, then closes the gaps: the
     * offsets become those of the rows kept.
     */
    private static void dedupe(final int n, final long[] offsets, final EdgeArrays arrays) {
        final int[] kept = new int[n];
        final ThreadLocal<long[][]> scratch = ThreadLocal.withInitial(() -> new long[1][]);
        IntStream.range(0, n).parallel().forEach(v -> {
            final long from = offsets[v];
            final long to = offsets[v + 1];
            kept[v] = to - from < 2 ? (int)(to - from) : arrays.dedupeRow(from, to, scratch.get());
        });
        long write = 0;
        long read = 0;
        for (int v = 0; v < n; v++) {
            final long nextRead = offsets[v + 1];
            final int k = kept[v];
            if (write != read && k > 0) {
                arrays.move(read, write, k);
            }
            read = nextRead;
            offsets[v] = write;
            write += k;
        }
        offsets[n] = write;
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
