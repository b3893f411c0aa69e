package dev.overlap.graph.app;

import dev.overlap.graph.CsrGraph;

import java.util.Objects;
import java.util.function.Consumer;

/**
 * A host graph handed over to {@link AppRunner#measure(HostGraph, GraphApp, GraphAlgorithms, int, AppSettings)}
 * for good: the runner reads it to partition and place it, gives it to the {@linkplain #of(CsrGraph, Consumer)
 * last reader} (e.g. the command's reference answer) before it builds the mesh (across processes: once the graph is
 * placed), then drops it before the first run, so that the garbage
 * collector can take the CSR while the device copy runs (the runs read a {@link dev.overlap.graph.GraphSummary}).
 * That only frees the graph when the caller keeps no reference to it either: a command hands the graph over and
 * forgets it.
 *
 * <p>Thread-safety: not thread-safe; one runner takes it, once.
 */
public final class HostGraph {
    private CsrGraph graph;
    private final Consumer<CsrGraph> lastReader;
    private boolean read;

    private HostGraph(final CsrGraph graph, final Consumer<CsrGraph> lastReader) {
        this.graph = Objects.requireNonNull(graph, "graph");
        this.lastReader = lastReader;
    }

    /**
     * @param graph the graph (the runner places it and lets go of it)
     * @return the handle
     */
    public static HostGraph of(final CsrGraph graph) {
        return new HostGraph(graph, null);
    }

    /**
     * @param graph      the graph (the runner places it and lets go of it)
     * @param lastReader called once with the graph, on the runner's thread, before the graph is dropped: before the
     *                   mesh is built (the devices' memory is not allocated yet), or across processes once the graph
     *                   is placed (so that a long computation does not hold up the other ranks joining the mesh); it
     *                   must keep no reference to the graph (only what it computes from it)
     * @return the handle
     */
    public static HostGraph of(final CsrGraph graph, final Consumer<CsrGraph> lastReader) {
        return new HostGraph(graph, Objects.requireNonNull(lastReader, "lastReader"));
    }

    /**
     * @return the graph
     * @throws IllegalStateException once it was released (a handle is measured once)
     */
    CsrGraph graph() {
        if (graph == null) {
            throw new IllegalStateException("the host graph was released after its placement: hand each measurement "
                + "a HostGraph of its own");
        }
        return graph;
    }

    /** Gives the graph to the last reader, if there is one and it has not had it yet. */
    void readLast() {
        final Consumer<CsrGraph> reader = lastReader;
        if (reader != null && !read) {
            read = true;
            reader.accept(graph());
        }
    }

    /** Gives the graph to the last reader (unless it had it), then drops it. */
    void release() {
        readLast();
        graph = null;
    }

    /** @return true once the runner has dropped the graph (after its placement) */
    public boolean isReleased() {
        return graph == null;
    }

    @Override
    public String toString() {
        return "HostGraph{" + (graph == null ? "released" : graph.toString()) + "}";
    }
}
