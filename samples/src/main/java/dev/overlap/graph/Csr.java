package dev.overlap.graph;

/**
 * A directed graph in compressed sparse row form, read-only: {@code int} vertex ids {@code 0..n-1}; the out-edges of
 * {@code v} are the edge indices {@code [edgeStart(v), edgeEnd(v))}, edge {@code e} goes to {@link #target(long)}
 * with {@link #weight(long)}. What the sequential references ({@link dev.overlap.graph.ref}), the graph's
 * {@link GraphSummary} and the choice of a default source read, whether the arrays are on the heap
 * ({@link CsrGraph}) or in a device's memory ({@link dev.overlap.graph.partition.DeviceGraph#csr()}).
 *
 * <p>Thread-safety: implementations are immutable once published and may be read from any thread; a view of device
 * memory is readable while the memory is (it throws once the graph is closed).
 */
public interface Csr {
    /** @return number of vertices {@code n} */
    int vertexCount();

    /** @return number of directed edges (an undirected edge counts twice, a self-loop once) */
    long edgeCount();

    /** @return true when every edge is stored in both directions */
    boolean isSymmetric();

    /** @return true when edges carry weights */
    boolean isWeighted();

    /** @return index of the first out-edge of {@code v} */
    long edgeStart(int v);

    /** @return one past the last out-edge of {@code v} */
    long edgeEnd(int v);

    /** @return out-degree of {@code v} */
    default int degree(final int v) {
        return (int)(edgeEnd(v) - edgeStart(v));
    }

    /** @return target vertex of edge {@code e} */
    int target(long e);

    /** @return weight of edge {@code e}; 1 when the graph is unweighted */
    int weight(long e);
}
