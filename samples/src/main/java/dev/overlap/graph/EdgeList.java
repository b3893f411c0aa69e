package dev.overlap.graph;

import java.util.Arrays;

/**
 * A growable list of edges {@code (source, target[, weight])} in primitive arrays: what loaders and generators fill
 * before {@link GraphBuilder} turns it into a {@link CsrGraph}. Adding an edge allocates nothing except when the
 * arrays grow (by half their size).
 *
 * <p>Thread-safety: none; one thread fills a list (parallel generators fill one list per chunk, or write into
 * pre-sized lists at disjoint indices with {@link #set}).
 */
public final class EdgeList {
    private int[] sources;
    private int[] targets;
    private int[] weights;
    private int size;
    private int maxVertex = -1;

    /**
     * @param capacity initial capacity in edges
     * @param weighted whether edges carry weights
     */
    public EdgeList(final long capacity, final boolean weighted) {
        final int cap = checkCapacity(Math.max(16, capacity));
        this.sources = new int[cap];
        this.targets = new int[cap];
        this.weights = weighted ? new int[cap] : null;
    }

    private static int checkCapacity(final long capacity) {
        if (capacity > CsrGraph.MAX_EDGES) {
            throw new IllegalArgumentException("too many edges: " + capacity + " (an on-heap edge list holds at most "
                + CsrGraph.MAX_EDGES + ")");
        }
        return (int)capacity;
    }

    /** @return true when edges carry weights */
    public boolean isWeighted() {
        return weights != null;
    }

    /** @return number of edges */
    public int size() {
        return size;
    }

    /** @return the largest vertex id added, or -1 */
    public int maxVertex() {
        return maxVertex;
    }

    /** Adds an unweighted edge (weight 1 if the list is weighted). Ids must be >= 0. */
    public void add(final int source, final int target) {
        add(source, target, 1);
    }

    /** Adds an edge. Ids must be >= 0 (callers validate; the builder re-checks against the vertex count). */
    public void add(final int source, final int target, final int weight) {
        if (size == sources.length) {
            grow();
        }
        sources[size] = source;
        targets[size] = target;
        if (weights != null) {
            weights[size] = weight;
        }
        size++;
        final int m = Math.max(source, target);
        if (m > maxVertex) {
            maxVertex = m;
        }
    }

    /**
     * Sets edge {@code index} of a list pre-sized with {@link #resize} (for parallel generators writing disjoint
     * index ranges; publish to the reading thread with a join).
     */
    public void set(final int index, final int source, final int target, final int weight) {
        sources[index] = source;
        targets[index] = target;
        if (weights != null) {
            weights[index] = weight;
        }
    }

    /** Grows the list to exactly {@code newSize} edges (new edges are {@code 0 -> 0}); see {@link #set}. */
    public void resize(final long newSize) {
        final int n = checkCapacity(newSize);
        if (n > sources.length) {
            sources = Arrays.copyOf(sources, n);
            targets = Arrays.copyOf(targets, n);
            if (weights != null) {
                weights = Arrays.copyOf(weights, n);
            }
        }
        size = n;
    }

    /** Records that vertex ids up to {@code v} exist (after {@link #set}, which does not track them). */
    public void noteVertex(final int v) {
        if (v > maxVertex) {
            maxVertex = v;
        }
    }

    private void grow() {
        final long cap = Math.min(CsrGraph.MAX_EDGES, (long)sources.length + (sources.length >> 1) + 16);
        if (cap <= sources.length) {
            throw new IllegalStateException("edge list is full at " + sources.length + " edges");
        }
        sources = Arrays.copyOf(sources, (int)cap);
        targets = Arrays.copyOf(targets, (int)cap);
        if (weights != null) {
            weights = Arrays.copyOf(weights, (int)cap);
        }
    }

    /** @return source of edge {@code i} */
    public int source(final int i) {
        return sources[i];
    }

    /** @return target of edge {@code i} */
    public int target(final int i) {
        return targets[i];
    }

    /** @return weight of edge {@code i} (1 when unweighted) */
    public int weight(final int i) {
        return weights == null ? 1 : weights[i];
    }
}
