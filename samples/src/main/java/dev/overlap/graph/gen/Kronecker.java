package dev.overlap.graph.gen;

import dev.overlap.graph.EdgeList;
import dev.overlap.graph.EdgeStream;
import dev.overlap.graph.Progress;

import java.util.SplittableRandom;
import java.util.function.Consumer;
import java.util.stream.IntStream;

/**
 * Kronecker (R-MAT) edges with the Graph500 parameters: {@code 2^scale} vertices, {@code edgeFactor * 2^scale}
 * edges, initiator probabilities {@code A = 0.57, B = 0.19, C = 0.19} (D = 0.05), then a random permutation of the
 * vertex ids (as the Graph500 reference generator does, so degree does not follow the id).
 *
 * <p>Each edge picks its quadrant bit by bit: the row bit is 1 with probability {@code C + D}, the column bit with
 * {@code B / (A + B)} or {@code D / (C + D)} given the row bit. Each decision compares 16 random bits with a 16-bit
 * fixed-point threshold (probabilities within {@code 2^-16} of the exact ones), so one 64-bit draw decides two
 * levels. Edges are generated in parallel in chunks; chunk {@code i} uses the {@code i}-th
 * {@link SplittableRandom#split()} of the seed's generator, taken in order up front, so the output depends only on
 * the seed, never on the thread count or scheduling. Optional weights are uniform in {@code 1..maxWeight}, chunk
 * {@code i}'s from the {@code i}-th split of a weight generator of their own ({@link #weightRoot}), so the edges do
 * not depend on whether weights are drawn: {@code kron:S} with weights (SSSP) is the graph BFS and PageRank run on.
 *
 * <p>Thread-safety: instances are immutable; {@link #generate} may run concurrently.
 */
public final class Kronecker implements EdgeGenerator {
    /** Graph500 initiator probability A. */
    public static final double A = 0.57;
    /** Graph500 initiator probability B. */
    public static final double B = 0.19;
    /** Graph500 initiator probability C. */
    public static final double C = 0.19;
    static final int CHUNK = 1 << 16;
    /** Chunks a stream pass generates (in parallel) before handing them to the builder: 1 Mi edges. */
    static final int BATCH = 16;

    /** Mixed into the seed for the weights' generator, so it is not the edges' ({@link #weightRoot}). */
    static final long WEIGHT_SALT = 0x5eed_0f_3e16_4a75L;

    private static final int ROW_ONE = threshold(A + B);
    private static final int COL_ONE_GIVEN_ROW0 = threshold(A / (A + B));
    private static final int COL_ONE_GIVEN_ROW1 = threshold(C / (1 - (A + B)));

    private final int scale;
    private final int edgeFactor;

    /**
     * @param scale      log2 of the vertex count, 1..30
     * @param edgeFactor edges per vertex, 1..1024 (Graph500: 16)
     */
    public Kronecker(final int scale, final int edgeFactor) {
        if (scale < 1 || scale > 30) {
            throw new IllegalArgumentException("kron scale must be in 1..30, was " + scale);
        }
        if (edgeFactor < 1 || edgeFactor > 1024) {
            throw new IllegalArgumentException("edge factor must be in 1..1024, was " + edgeFactor);
        }
        this.scale = scale;
        this.edgeFactor = edgeFactor;
    }

    /** A 16-bit draw below this threshold means "bit is 0": probability {@code p0} rounded to {@code 2^-16}. */
    private static int threshold(final double p0) {
        return (int)Math.round(p0 * (1 << 16));
    }

    @Override
    public int vertexCount() {
        return 1 << scale;
    }

    @Override
    public long edgeCount() {
        return (long)edgeFactor << scale;
    }

    @Override
    public String toString() {
        return "kron:" + scale + (edgeFactor != 16 ? ":" + edgeFactor : "");
    }

    @Override
    public EdgeList generate(final long seed, final int maxWeight, final Progress progress) {
        final long m = edgeCount();
        final int n = vertexCount();
        final SplittableRandom root = new SplittableRandom(seed);
        final int[] perm = Permutations.random(n, root.split());
        final SplittableRandom[] streams = chunkStreams(root);
        final SplittableRandom[] weightStreams = maxWeight > 0 ? chunkStreams(weightRoot(seed)) : null;
        final EdgeList edges = new EdgeList(m, maxWeight > 0);
        edges.resize(m);
        try (Progress.Task task = progress.start(toString() + " edges", m, "Medges", 1_000_000)) {
            IntStream.range(0, streams.length).parallel().forEach(c -> {
                final long from = (long)c * CHUNK;
                final long to = Math.min(m, from + CHUNK);
                fill(streams[c], weightStreams != null ? weightStreams[c] : null, perm, maxWeight, from, to, edges,
                    (int)from);
                task.stepBy(to - from);
            });
        }
        edges.noteVertex(n - 1);
        return edges;
    }

    /**
     * Regenerates the edges on every pass, {@link #BATCH} chunks at a time (each chunk from its own stream, re-split
     * from the seed per pass, in parallel): the same edges in the same order as {@link #generate}, holding one batch
     * and the vertex permutation instead of the whole list. Progress is the builder's, not reported here.
     */
    @Override
    public EdgeStream stream(final long seed, final int maxWeight, final Progress progress) {
        final long m = edgeCount();
        final int[] perm = Permutations.random(vertexCount(), new SplittableRandom(seed).split());
        return new EdgeStream() {
            @Override
            public boolean isWeighted() {
                return maxWeight > 0;
            }

            @Override
            public long size() {
                return m;
            }

            @Override
            public void forEachBatch(final Consumer<EdgeList> batch) {
                final SplittableRandom root = new SplittableRandom(seed);
                root.split(); // the permutation's stream, as in generate
                final SplittableRandom[] streams = chunkStreams(root);
                final SplittableRandom[] weightStreams = maxWeight > 0 ? chunkStreams(weightRoot(seed)) : null;
                // The batch's lists are allocated here, on the calling thread, and only filled by the workers: a
                // heap too small for the build then fails here or in the builder, with the caller's one error, and
                // never in a pool worker (where an OutOfMemoryError can escape the stream to the worker's handler).
                final EdgeList[] lists = new EdgeList[Math.min(BATCH, streams.length)];
                for (int j = 0; j < lists.length; j++) {
                    lists[j] = new EdgeList(CHUNK, maxWeight > 0);
                }
                for (int first = 0; first < streams.length; first += BATCH) {
                    final int base = first;
                    final int count = Math.min(BATCH, streams.length - first);
                    IntStream.range(0, count).parallel().forEach(j -> {
                        final long from = (long)(base + j) * CHUNK;
                        final long to = Math.min(m, from + CHUNK);
                        lists[j].resize(to - from);
                        fill(streams[base + j], weightStreams != null ? weightStreams[base + j] : null, perm,
                            maxWeight, from, to, lists[j], 0);
                    });
                    for (int j = 0; j < count; j++) {
                        batch.accept(lists[j]);
                    }
                }
            }
        };
    }

    /**
     * @return the generator the weights' chunk streams are split from: its own, seeded from {@code seed} and
     *         {@link #WEIGHT_SALT}, so drawing weights takes nothing from the edges' streams
     */
    static SplittableRandom weightRoot(final long seed) {
        return new SplittableRandom(seed ^ WEIGHT_SALT);
    }

    /** @return one stream per chunk, split from {@code root} in chunk order */
    private SplittableRandom[] chunkStreams(final SplittableRandom root) {
        final int chunks = (int)((edgeCount() + CHUNK - 1) / CHUNK);
        final SplittableRandom[] streams = new SplittableRandom[chunks];
        for (int i = 0; i < chunks; i++) {
            streams[i] = root.split();
        }
        return streams;
    }

    /**
     * Draws edges {@code from..to-1} of one chunk from its stream into {@code out[at..]}, their weights from the
     * chunk's weight stream ({@code null} without weights).
     */
    private void fill(final SplittableRandom rnd, final SplittableRandom weights, final int[] perm,
        final int maxWeight, final long from, final long to, final EdgeList out, final int at) {
        for (long i = from; i < to; i++) {
            int u = 0;
            int v = 0;
            long r = 0;
            for (int bit = 0; bit < scale; bit++) {
                if ((bit & 1) == 0) {
                    r = rnd.nextLong();
                }
                final int rowBit = (int)(r & 0xFFFF) >= ROW_ONE ? 1 : 0;
                final int colThreshold = rowBit == 0 ? COL_ONE_GIVEN_ROW0 : COL_ONE_GIVEN_ROW1;
                final int colBit = (int)((r >>> 16) & 0xFFFF) >= colThreshold ? 1 : 0;
                r >>>= 32;
                u |= rowBit << bit;
                v |= colBit << bit;
            }
            final int w = weights != null ? 1 + weights.nextInt(maxWeight) : 1;
            out.set(at + (int)(i - from), perm[u], perm[v], w);
        }
    }
}
