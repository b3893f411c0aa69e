package dev.overlap.graph;

import java.util.Arrays;

/**
 * A growable list of edges {@code (source, target[, weight])} in primitive arrays: what loaders and generators fill
 * before {@link GraphBuilder} turns it into a {@link CsrGraph}. The arrays are blocks of {@code 2^20} edges (a list
 * that fits one block has one block of its own size, which grows by half until it is a full block), so growing
 * adds a block instead of copying every edge, and the unused capacity is less than one block: a list of
 * {@code m} edges holds about {@code 8m} bytes ({@code 12m} weighted) at its peak, not the {@code 20m} of a copy
 * growing by half beside its old array. Adding an edge allocates nothing except when a block is added.
 *
 * <p>Thread-safety: none; one thread fills a list (parallel generators fill one list per chunk, or write into
 * pre-sized lists at disjoint indices with {@link #set}).
 */
public final class EdgeList {
    static final int BLOCK_SHIFT = 20;
    static final int BLOCK = 1 << BLOCK_SHIFT;
    private static final int MASK = BLOCK - 1;

    private int[][] sources;
    private int[][] targets;
    private int[][] weights;
    private long capacity;
    private int size;
    private int maxVertex = -1;

    /**
     * @param capacity initial capacity in edges
     * @param weighted whether edges carry weights
     */
    public EdgeList(final long capacity, final boolean weighted) {
        final int cap = checkCapacity(Math.max(16, capacity));
        this.sources = new int[0][];
        this.targets = new int[0][];
        this.weights = weighted ? new int[0][] : null;
        if (cap <= BLOCK) {
            setBlocks(1, cap);
        } else {
            setBlocks((int)(((long)cap + MASK) >>> BLOCK_SHIFT), BLOCK);
        }
    }

    private static int checkCapacity(final long capacity) {
        if (capacity > CsrGraph.MAX_EDGES) {
            throw new IllegalArgumentException("too many edges: " + capacity + " (an on-heap edge list holds at most "
                + CsrGraph.MAX_EDGES + ")");
        }
        return (int)capacity;
    }

    /**
     * Makes the list {@code blocks} blocks long: a lone block is reallocated at {@code lastLength} edges (its
     * contents kept), the blocks beyond the existing ones are new full blocks.
     */
    private void setBlocks(final int blocks, final int lastLength) {
        final int had = sources.length;
        if (had == 1 && sources[0].length < BLOCK) {
            final int len = blocks == 1 ? lastLength : BLOCK;
            sources[0] = Arrays.copyOf(sources[0], len);
            targets[0] = Arrays.copyOf(targets[0], len);
            if (weights != null) {
                weights[0] = Arrays.copyOf(weights[0], len);
            }
        }
        if (blocks > had) {
            sources = Arrays.copyOf(sources, blocks);
            targets = Arrays.copyOf(targets, blocks);
            if (weights != null) {
                weights = Arrays.copyOf(weights, blocks);
            }
            for (int b = had; b < blocks; b++) {
                final int len = blocks == 1 ? lastLength : BLOCK;
                sources[b] = new int[len];
                targets[b] = new int[len];
                if (weights != null) {
                    weights[b] = new int[len];
                }
            }
        }
        capacity = blocks == 1 ? sources[0].length : (long)blocks << BLOCK_SHIFT;
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
        if (size == capacity || size == CsrGraph.MAX_EDGES) {
            grow();
        }
        set(size, source, target, weight);
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
        final int b = index >>> BLOCK_SHIFT;
        final int i = index & MASK;
        sources[b][i] = source;
        targets[b][i] = target;
        if (weights != null) {
            weights[b][i] = weight;
        }
    }

    /** Grows the list to exactly {@code newSize} edges (new edges are {@code 0 -> 0}); see {@link #set}. */
    public void resize(final long newSize) {
        final int n = checkCapacity(newSize);
        if (n > capacity) {
            if (n <= BLOCK) {
                setBlocks(1, n);
            } else {
                setBlocks((int)(((long)n + MASK) >>> BLOCK_SHIFT), BLOCK);
            }
        }
        size = n;
    }

    /** Empties the list, keeping its blocks for reuse (a batch refilled pass after pass); the largest id starts over. */
    public void clear() {
        size = 0;
        maxVertex = -1;
    }

    /** Records that vertex ids up to {@code v} exist (after {@link #set}, which does not track them). */
    public void noteVertex(final int v) {
        if (v > maxVertex) {
            maxVertex = v;
        }
    }

    private void grow() {
        if (size >= CsrGraph.MAX_EDGES) {
            throw new IllegalStateException("edge list is full at " + size + " edges");
        }
        if (capacity < BLOCK) {
            setBlocks(1, (int)Math.min(BLOCK, capacity + (capacity >> 1) + 16));
        } else {
            setBlocks(sources.length + 1, BLOCK);
        }
    }

    /** @return source of edge {@code i} */
    public int source(final int i) {
        return sources[i >>> BLOCK_SHIFT][i & MASK];
    }

    /** @return target of edge {@code i} */
    public int target(final int i) {
        return targets[i >>> BLOCK_SHIFT][i & MASK];
    }

    /** @return weight of edge {@code i} (1 when unweighted) */
    public int weight(final int i) {
        return weights == null ? 1 : weights[i >>> BLOCK_SHIFT][i & MASK];
    }
}
