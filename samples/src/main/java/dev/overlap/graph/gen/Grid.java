package dev.overlap.graph.gen;

import dev.overlap.graph.EdgeList;
import dev.overlap.graph.Progress;

import java.util.SplittableRandom;

/**
 * A 2-D grid, the mesh-like (road-network-like) case: {@code width x height} vertices, vertex {@code (x, y)} has
 * id {@code y * width + x}, and each vertex is joined to its right and lower neighbours (4-neighbourhood once
 * symmetrized): low degree, large diameter ({@code width + height - 2}), little parallelism per BFS level.
 * Weights are uniform in {@code 1..maxWeight} (road-like travel costs), drawn in edge order from the seed.
 * Immutable; thread-safe.
 */
public final class Grid implements EdgeGenerator {
    private final int width;
    private final int height;

    /**
     * @param width  columns, >= 1
     * @param height rows, >= 1; {@code width * height} must fit an int
     */
    public Grid(final int width, final int height) {
        if (width < 1 || height < 1 || (long)width * height > Integer.MAX_VALUE - 1) {
            throw new IllegalArgumentException("grid must be at least 1x1 with at most " + (Integer.MAX_VALUE - 1)
                + " vertices, was " + width + "x" + height);
        }
        this.width = width;
        this.height = height;
    }

    @Override
    public int vertexCount() {
        return width * height;
    }

    @Override
    public long edgeCount() {
        return (long)(width - 1) * height + (long)width * (height - 1);
    }

    @Override
    public String toString() {
        return "grid:" + width + "x" + height;
    }

    @Override
    public EdgeList generate(final long seed, final int maxWeight, final Progress progress) {
        final SplittableRandom rnd = new SplittableRandom(seed);
        final EdgeList edges = new EdgeList(edgeCount(), maxWeight > 0);
        try (Progress.Task task = progress.start(toString() + " edges", edgeCount(), "Medges", 1_000_000)) {
            for (int y = 0; y < height; y++) {
                for (int x = 0; x < width; x++) {
                    final int v = y * width + x;
                    if (x + 1 < width) {
                        edges.add(v, v + 1, maxWeight > 0 ? 1 + rnd.nextInt(maxWeight) : 1);
                    }
                    if (y + 1 < height) {
                        edges.add(v, v + width, maxWeight > 0 ? 1 + rnd.nextInt(maxWeight) : 1);
                    }
                }
                task.stepBy(2L * width);
            }
        }
        edges.noteVertex(vertexCount() - 1);
        return edges;
    }
}
