package dev.overlap.graph;

import java.util.Objects;

/**
 * What the graph apps' runs need from a host graph once it sits in device memory: its counts, whether it is
 * symmetric or weighted, every vertex's out-degree and two facts about them (the vertices with edges and the largest
 * degree, which PageRank's choices read), and three facts about its weights (their sum, the largest, and
 * the first negative one). It is a few small arrays next to the {@link CsrGraph} it summarises (the out-degrees:
 * {@code n} ints, where the CSR holds {@code n + 1} longs and {@code m} ints of targets, and as many weights), so a
 * run can hold it and let the CSR go: {@link dev.overlap.graph.partition.DeviceGraph} keeps a summary of the graph it
 * placed, not the graph.
 *
 * <p>Thread-safety: immutable (the degree array is never exposed); safe to share once published (all fields are
 * final).
 */
public final class GraphSummary {
    private final int vertices;
    private final long edges;
    private final boolean symmetric;
    private final boolean weighted;
    private final int[] degrees;
    private final int verticesWithEdges;
    private final int maxDegree;
    private final long weightSum;
    private final int maxWeight;
    private final long negativeEdge;
    private final int negativeWeight;

    private GraphSummary(final Csr g) {
        this.vertices = g.vertexCount();
        this.edges = g.edgeCount();
        this.symmetric = g.isSymmetric();
        this.weighted = g.isWeighted();
        this.degrees = new int[vertices];
        int withEdges = 0;
        int largest = 0;
        for (int v = 0; v < vertices; v++) {
            final int k = g.degree(v);
            degrees[v] = k;
            withEdges += k > 0 ? 1 : 0;
            largest = Math.max(largest, k);
        }
        this.verticesWithEdges = withEdges;
        this.maxDegree = largest;
        long sum = 0;
        int max = 0;
        long negative = -1;
        int negativeW = 0;
        for (long e = 0; e < edges; e++) {
            final int w = g.weight(e);
            sum += w;
            max = Math.max(max, w);
            if (w < 0 && negative < 0) {
                negative = e;
                negativeW = w;
            }
        }
        this.weightSum = sum;
        this.maxWeight = max;
        this.negativeEdge = negative;
        this.negativeWeight = negativeW;
    }

    /**
     * @param g a host graph (read once, in {@code O(n + m)}; no reference to it is kept)
     * @return its summary
     */
    public static GraphSummary of(final Csr g) {
        return new GraphSummary(Objects.requireNonNull(g, "g"));
    }

    /** @return vertices {@code n} */
    public int vertexCount() {
        return vertices;
    }

    /** @return directed edges (as {@link CsrGraph#edgeCount()} counts them) */
    public long edgeCount() {
        return edges;
    }

    /** @return true when every edge is stored in both directions */
    public boolean isSymmetric() {
        return symmetric;
    }

    /** @return true when the graph carries weights */
    public boolean isWeighted() {
        return weighted;
    }

    /** @return the out-degree of {@code v} */
    public int degree(final int v) {
        return degrees[v];
    }

    /** @return every vertex's out-degree (a fresh copy the caller may keep or modify) */
    public int[] outDegrees() {
        return degrees.clone();
    }

    /** @return vertices with at least one out-edge */
    public int verticesWithEdges() {
        return verticesWithEdges;
    }

    /** @return the largest out-degree (0 without edges) */
    public int maxDegree() {
        return maxDegree;
    }

    /**
     * @return the mean out-degree of the vertices with at least one out-edge ({@link #edgeCount()} over
     *         {@link #verticesWithEdges()}); 0 when there are none
     */
    public double meanDegreeWithEdges() {
        return verticesWithEdges == 0 ? 0 : (double)edges / verticesWithEdges;
    }

    /** @return the sum of every edge's weight ({@link #edgeCount()} for an unweighted graph: its weights are 1) */
    public long weightSum() {
        return weightSum;
    }

    /** @return the largest edge weight (1 for an unweighted graph with edges; 0 without edges or positive weights) */
    public int maxWeight() {
        return maxWeight;
    }

    /** @return the index of the first edge with a negative weight, or -1 when there is none */
    public long negativeWeightEdge() {
        return negativeEdge;
    }

    /** @return the weight of {@link #negativeWeightEdge()} (0 when there is none) */
    public int negativeWeight() {
        return negativeWeight;
    }

    @Override
    public String toString() {
        return "GraphSummary{" + vertices + " vertices, " + edges + " edges" + (weighted ? ", weighted" : "")
            + (symmetric ? ", symmetric" : "") + "}";
    }
}
