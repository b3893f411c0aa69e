package dev.overlap.graph.gen;

import dev.overlap.graph.EdgeList;
import dev.overlap.graph.Progress;

import java.util.SplittableRandom;

/**
 * A road-like graph: sparse, planar, connected, with a long diameter and a mean degree of about 2.3 (road networks
 * such as the DIMACS USA graphs have 2.4). The {@code n} vertices sit on a lattice {@code W = ceil(sqrt(n))} wide,
 * row-major ({@code (x, y)} has id {@code y * W + x}; the last row may be partial), and only lattice neighbours can
 * be joined, so the graph is planar and no path is shorter than the Manhattan distance: the diameter is at least
 * {@code W + H - 2}. Which neighbours are joined is random (seeded):
 *
 * <ol>
 * <li>the candidate edges (right and lower neighbour of every vertex) are shuffled, and a Kruskal pass over that
 *     order keeps each edge that joins two components: a random spanning tree, so every vertex is reachable and the
 *     tree's paths wind (a random tree on a lattice is much longer across than the lattice);</li>
 * <li>the first {@code round(0.15 n)} of the remaining candidates in the same order are kept too: the cycles of a
 *     street network, which shorten some of the winding paths; the graph then has {@code n - 1 + round(0.15 n)}
 *     edges, a mean degree of {@code 2.3} (fewer when the lattice has too few candidates left, as on tiny inputs).</li>
 * </ol>
 *
 * <p>Edges are listed in lattice order (by lower endpoint, right before down), each once; weights, when asked for,
 * are uniform in {@code 1..maxWeight} and drawn in that order from a stream of their own, so the edge set does not
 * depend on whether weights are drawn. Memory: about {@code 14 n} bytes while generating, besides the edge list.
 *
 * <p>Thread-safety: instances are immutable; {@link #generate} may run concurrently.
 */
public final class Road implements EdgeGenerator {
    /** Largest vertex count: the candidate list holds {@code 2n} ints. */
    public static final int MAX_VERTICES = 1 << 28;
    /** Extra edges beyond the spanning tree, per vertex: mean degree {@code 2 * (1 + EXTRA)}. */
    static final double EXTRA = 0.15;

    private final int n;
    private final int width;

    /** @param vertices vertex count, 2..{@value #MAX_VERTICES} */
    public Road(final int vertices) {
        if (vertices < 2 || vertices > MAX_VERTICES) {
            throw new IllegalArgumentException("road vertex count must be in 2.." + MAX_VERTICES + ", was " + vertices);
        }
        this.n = vertices;
        this.width = (int)Math.ceil(Math.sqrt(vertices));
    }

    @Override
    public int vertexCount() {
        return n;
    }

    /** @return the lattice width {@code W} (vertices per row) */
    public int width() {
        return width;
    }

    /** @return the lattice height: rows, the last one possibly partial */
    public int height() {
        return (n + width - 1) / width;
    }

    @Override
    public long edgeCount() {
        return (n - 1) + Math.min(extraEdges(), candidates() - (n - 1L));
    }

    @Override
    public String toString() {
        return "road:" + n;
    }

    private long extraEdges() {
        return Math.round(EXTRA * n);
    }

    /** @return lattice neighbour pairs: right neighbours plus lower neighbours */
    private long candidates() {
        final long h = height();
        final long lastRow = n - (h - 1) * width;
        final long right = (h - 1) * (width - 1L) + (lastRow - 1);
        final long down = n - width;
        return right + down;
    }

    @Override
    public EdgeList generate(final long seed, final int maxWeight, final Progress progress) {
        final SplittableRandom root = new SplittableRandom(seed);
        final SplittableRandom order = root.split();
        final SplittableRandom weights = root.split();
        // Candidate c < n is the edge v=c -> v+1, c >= n the edge v=c-n -> v+W.
        final int[] cand = new int[(int)candidates()];
        int k = 0;
        for (int v = 0; v < n; v++) {
            if ((v + 1) % width != 0 && v + 1 < n) {
                cand[k++] = v;
            }
            if (v + width < n) {
                cand[k++] = n + v;
            }
        }
        for (int i = k - 1; i > 0; i--) {
            final int j = order.nextInt(i + 1);
            final int t = cand[i];
            cand[i] = cand[j];
            cand[j] = t;
        }
        final boolean[] kept = new boolean[2 * n];
        final int[] parent = new int[n];
        for (int v = 0; v < n; v++) {
            parent[v] = v;
        }
        final long total = edgeCount();
        try (Progress.Task task = progress.start(toString() + " edges", total, "Medges", 1_000_000)) {
            int treeEdges = 0;
            for (int i = 0; i < k && treeEdges < n - 1; i++) {
                final int c = cand[i];
                final int a = find(parent, c < n ? c : c - n);
                final int b = find(parent, c < n ? c + 1 : c - n + width);
                if (a != b) {
                    parent[Math.max(a, b)] = Math.min(a, b);
                    kept[c] = true;
                    treeEdges++;
                }
            }
            long extra = total - treeEdges;
            for (int i = 0; i < k && extra > 0; i++) {
                if (!kept[cand[i]]) {
                    kept[cand[i]] = true;
                    extra--;
                }
            }
            final EdgeList edges = new EdgeList(total, maxWeight > 0);
            for (int v = 0; v < n; v++) {
                if (kept[v]) {
                    edges.add(v, v + 1, maxWeight > 0 ? 1 + weights.nextInt(maxWeight) : 1);
                }
                if (kept[n + v]) {
                    edges.add(v, v + width, maxWeight > 0 ? 1 + weights.nextInt(maxWeight) : 1);
                }
            }
            task.stepTo(total);
            edges.noteVertex(n - 1);
            return edges;
        }
    }

    /** Union-find root with path halving. */
    private static int find(final int[] parent, final int v) {
        int x = v;
        while (parent[x] != x) {
            parent[x] = parent[parent[x]];
            x = parent[x];
        }
        return x;
    }
}
