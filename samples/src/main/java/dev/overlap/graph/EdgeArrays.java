package dev.overlap.graph;

/**
 * Where {@link GraphBuilder} writes a CSR's edges: the heap arrays of a {@link CsrGraph} ({@link #onHeap}), or a
 * device's memory ({@link dev.overlap.graph.partition.DeviceGraph#load}), so that a graph is built where it will be
 * read and never exists in two copies. The builder writes every slot once in its second pass ({@link #put}), then,
 * when dropping duplicates, sorts and shortens rows ({@link #dedupeRow}, rows in parallel, each row by one thread)
 * and closes the gaps between them ({@link #move}, one thread).
 *
 * <p>Thread-safety: {@link #put} and {@link #move} are called by one thread; {@link #dedupeRow} by several at once,
 * on disjoint rows. The builder's phases are ordered by the fork-join pool's joins.
 */
public interface EdgeArrays {
    /** @return true when the edges carry weights */
    boolean weighted();

    /** @return the number of slots (the edges of the first pass) */
    long length();

    /**
     * Writes edge slot {@code slot}.
     *
     * @param slot   below {@link #length()} (the builder checks its cursors)
     * @param target the edge's target
     * @param weight its weight (ignored when unweighted)
     */
    void put(long slot, int target, int weight);

    /**
     * Sorts the row in slots {@code [from, to)} by target, then weight, and keeps the first (lightest) copy of each
     * target at the row's start.
     *
     * @param scratch the calling thread's holder of a scratch array of sort keys ({@link Rows#pairs}): element 0 is
     *                replaced by a larger array when the row does not fit
     * @return the slots kept
     */
    int dedupeRow(long from, long to, long[][] scratch);

    /** Moves {@code count} slots from {@code from} down to {@code to} ({@code to <= from}; ranges may overlap). */
    void move(long from, long to, int count);

    /**
     * @param vertices the vertex count of the first pass
     * @param edges    its edges
     * @param weighted whether to hold weights
     * @return heap arrays of {@code edges} slots
     * @throws IllegalArgumentException when there are more edges than one array holds
     */
    static Heap onHeap(final int vertices, final long edges, final boolean weighted) {
        if (edges > CsrGraph.MAX_EDGES) {
            throw new IllegalArgumentException("the graph would have " + edges + " edges; an on-heap CSR holds at most "
                + CsrGraph.MAX_EDGES);
        }
        return new Heap(new int[(int)edges], weighted ? new int[(int)edges] : null);
    }

    /** Heap arrays: the targets and weights a {@link CsrGraph} takes over. */
    final class Heap implements EdgeArrays {
        final int[] targets;
        final int[] weights;

        Heap(final int[] targets, final int[] weights) {
            this.targets = targets;
            this.weights = weights;
        }

        @Override
        public boolean weighted() {
            return weights != null;
        }

        @Override
        public long length() {
            return targets.length;
        }

        @Override
        public void put(final long slot, final int target, final int weight) {
            targets[(int)slot] = target;
            if (weights != null) {
                weights[(int)slot] = weight;
            }
        }

        @Override
        public int dedupeRow(final long fromSlot, final long toSlot, final long[][] scratch) {
            final int from = (int)fromSlot;
            final int to = (int)toSlot;
            if (weights == null) {
                java.util.Arrays.sort(targets, from, to);
                int w = from + 1;
                for (int r = from + 1; r < to; r++) {
                    if (targets[r] != targets[w - 1]) {
                        targets[w++] = targets[r];
                    }
                }
                return w - from;
            }
            final long[] pairs = Rows.pairs(scratch, to - from);
            for (int r = from; r < to; r++) {
                pairs[r - from] = Rows.pair(targets[r], weights[r]);
            }
            final int kept = Rows.sortAndKeepFirst(pairs, to - from);
            for (int r = 0; r < kept; r++) {
                targets[from + r] = Rows.target(pairs[r]);
                weights[from + r] = Rows.weight(pairs[r]);
            }
            return kept;
        }

        @Override
        public void move(final long from, final long to, final int count) {
            System.arraycopy(targets, (int)from, targets, (int)to, count);
            if (weights != null) {
                System.arraycopy(weights, (int)from, weights, (int)to, count);
            }
        }
    }

    /** The (target, weight) sort keys of a weighted row's deduplication, shared by the implementations. */
    final class Rows {
        private Rows() {
        }

        /** @return {@code scratch[0]}, grown to hold {@code count} pairs */
        public static long[] pairs(final long[][] scratch, final int count) {
            if (scratch[0] == null || scratch[0].length < count) {
                scratch[0] = new long[Math.max(64, Integer.highestOneBit(Math.max(1, count - 1)) << 1)];
            }
            return scratch[0];
        }

        /** @return the sort key: target, then weight in signed order (the sign bit flipped orders it as unsigned) */
        public static long pair(final int target, final int weight) {
            return (long)target << 32 | ((weight ^ 0x80000000) & 0xFFFFFFFFL);
        }

        /** @return the key's target */
        public static int target(final long pair) {
            return (int)(pair >>> 32);
        }

        /** @return the key's weight */
        public static int weight(final long pair) {
            return (int)pair ^ 0x80000000;
        }

        /**
         * Sorts the first {@code count} keys and keeps the first key of each target at the front.
         *
         * @return the keys kept
         */
        public static int sortAndKeepFirst(final long[] pairs, final int count) {
            java.util.Arrays.sort(pairs, 0, count);
            int w = 0;
            int last = -1;
            for (int r = 0; r < count; r++) {
                final int t = target(pairs[r]);
                if (w == 0 || t != last) {
                    pairs[w++] = pairs[r];
                    last = t;
                }
            }
            return w;
        }
    }
}
