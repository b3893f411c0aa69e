package dev.overlap.graph.gen;

import dev.overlap.graph.EdgeList;
import dev.overlap.graph.Progress;

import java.util.SplittableRandom;
import java.util.stream.IntStream;

/**
 * Uniform random (Erdos-Renyi style) edges: {@code 2^scale} vertices, {@code edgeFactor * 2^scale} edges whose
 * endpoints are independent and uniform (GAP's {@code urand}). Parallel and deterministic by seed like
 * {@link Kronecker}, and like it draws optional weights from a generator of their own, so the edges do not depend on
 * whether weights are drawn. Immutable; thread-safe.
 */
public final class UniformRandom implements EdgeGenerator {
    private final int scale;
    private final int edgeFactor;

    /**
     * @param scale      log2 of the vertex count, 1..30
     * @param edgeFactor edges per vertex, 1..1024
     */
    public UniformRandom(final int scale, final int edgeFactor) {
        if (scale < 1 || scale > 30) {
            throw new IllegalArgumentException("urand scale must be in 1..30, was " + scale);
        }
        if (edgeFactor < 1 || edgeFactor > 1024) {
            throw new IllegalArgumentException("edge factor must be in 1..1024, was " + edgeFactor);
        }
        this.scale = scale;
        this.edgeFactor = edgeFactor;
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
        return "urand:" + scale + (edgeFactor != 16 ? ":" + edgeFactor : "");
    }

    @Override
    public EdgeList generate(final long seed, final int maxWeight, final Progress progress) {
        final long m = edgeCount();
        final int n = vertexCount();
        final SplittableRandom root = new SplittableRandom(seed);
        final int chunks = (int)((m + Kronecker.CHUNK - 1) / Kronecker.CHUNK);
        final SplittableRandom[] streams = new SplittableRandom[chunks];
        final SplittableRandom[] weightStreams = maxWeight > 0 ? new SplittableRandom[chunks] : null;
        final SplittableRandom weightRoot = Kronecker.weightRoot(seed);
        for (int i = 0; i < chunks; i++) {
            streams[i] = root.split();
            if (weightStreams != null) {
                weightStreams[i] = weightRoot.split();
            }
        }
        final EdgeList edges = new EdgeList(m, maxWeight > 0);
        edges.resize(m);
        try (Progress.Task task = progress.start(toString() + " edges", m, "Medges", 1_000_000)) {
            IntStream.range(0, chunks).parallel().forEach(c -> {
                final SplittableRandom rnd = streams[c];
                final SplittableRandom weights = weightStreams != null ? weightStreams[c] : null;
                final long from = (long)c * Kronecker.CHUNK;
                final long to = Math.min(m, from + Kronecker.CHUNK);
                for (long i = from; i < to; i++) {
                    final int u = rnd.nextInt(n);
                    final int v = rnd.nextInt(n);
                    final int w = weights != null ? 1 + weights.nextInt(maxWeight) : 1;
                    edges.set((int)i, u, v, w);
                }
                task.stepBy(to - from);
            });
        }
        edges.noteVertex(n - 1);
        return edges;
    }
}
