package dev.overlap.graph.app;

import dev.overlap.graph.GraphSummary;
import dev.overlap.graph.partition.DeviceGraph;

/**
 * One execution model of the graph apps on a mesh ({@code bsp}, {@code async}, {@code solo}): a service provider found
 * with {@link java.util.ServiceLoader} (register in {@code META-INF/services/dev.overlap.graph.app.GraphAlgorithms}),
 * selected by {@link #mode()} through {@link Algorithms#forMode}. Every method returns answers in original vertex
 * ids; the caller verifies them.
 *
 * <p>Implementations must be thread-safe to the extent that one run happens at a time per mesh, and run under a lease
 * on the placed graph ({@link DeviceGraph#leased}), as the built-in ones do, so that the graph cannot be closed (its
 * device memory freed) while their kernels read it. {@link GraphApp#run} (the commands and {@link AppRunner}) holds
 * one around every call, so an implementation run through it is covered either way; a caller that calls an
 * implementation directly relies on the implementation's own lease (leases nest: a count).
 */
public interface GraphAlgorithms {
    /** Which edges {@link #pageRank} wants placed on the mesh. */
    enum PageRankEdges {
        /** In-edges (the reverse graph): a pull formulation gathers from the vertices linking to {@code v}. */
        IN,
        /** Out-edges (the graph itself): a push formulation scatters to the vertices {@code v} links to. */
        OUT
    }

    /** @return the {@code --mode} name, lower case ({@code bsp}, {@code async}, {@code solo}) */
    String mode();

    /**
     * @return true when the model runs on one device with one worker (the one-thread path, {@code solo}): the
     *         runner then builds a mesh of one device with one worker for it, whatever mesh it was asked for; false
     *         (the default) for the models that use every device and worker
     */
    default boolean singleWorker() {
        return false;
    }

    /**
     * @return true when the model runs on one device holding the whole graph with every worker asked for (the
     *         cooperative path, {@code coop}): the runner then builds a mesh of one device with devices x workers
     *         per device workers; false (the default) for the others
     */
    default boolean oneDevice() {
        return false;
    }

    /**
     * @param g        the graph on the mesh (out-edges)
     * @param source   source vertex, original id
     * @param settings knobs
     * @return depths per vertex, -1 when unreached
     */
    AppResult bfs(DeviceGraph g, int source, AppSettings settings);

    /**
     * @param g        the graph on the mesh, placed with weights (unit weights for unweighted graphs)
     * @param source   source vertex, original id
     * @param settings knobs
     * @return distances per vertex, {@link Long#MAX_VALUE} when unreached
     */
    AppResult sssp(DeviceGraph g, int source, AppSettings settings);

    /**
     * @return the edges {@link #pageRank} needs placed; {@link PageRankEdges#IN} unless the model pushes
     */
    default PageRankEdges pageRankEdges() {
        return PageRankEdges.IN;
    }

    /**
     * @param g          the graph on the mesh in the orientation {@link #pageRankEdges()} asks for: for
     *                   {@link PageRankEdges#IN} the reverse graph ({@code g.targets} of {@code v} are the vertices
     *                   linking to {@code v}), for {@link PageRankEdges#OUT} the graph itself; for a symmetric graph
     *                   both are the graph itself
     * @param outDegrees out-degree of every vertex, original ids, read and never written; may be null when
     *                   {@link #pageRankReadsOutDegrees} says the model does not read them on {@code g}
     * @param settings   damping, tolerance, iteration limits
     * @return ranks summing to 1
     */
    AppResult pageRank(DeviceGraph g, int[] outDegrees, AppSettings settings);

    /**
     * @param g the graph as {@link #pageRank} gets it
     * @return whether {@link #pageRank} reads its out-degrees on {@code g}; when false a caller may pass null instead
     *         of a copy of them per run (a one-device pull on a symmetric graph reads its rows' lengths). True by
     *         default.
     */
    default boolean pageRankReadsOutDegrees(final DeviceGraph g) {
        return true;
    }

    /**
     * @return bytes each device needs for this model's state on top of the placed graph, for a graph of
     *         {@code vertices} vertices split so that a device owns at most {@code maxOwned}, with {@code workers}
     *         workers per device and {@code devices} devices
     */
    long stateBytesPerDevice(int vertices, int maxOwned, int devices, int workers);

    /**
     * As {@link #stateBytesPerDevice(int, int, int, int)} for a run with {@code settings} (which may change the
     * state, e.g. the inbox rings of a larger batch); by default the same.
     */
    default long stateBytesPerDevice(final int vertices, final int maxOwned, final int devices, final int workers,
        final AppSettings settings) {
        return stateBytesPerDevice(vertices, maxOwned, devices, workers);
    }

    /**
     * The device bytes a run of {@code app} needs on a one-device mesh of {@code vertices}, before the graph's
     * summary exists: what {@link AppRunner#loading} sizes a mesh with once the first pass has counted the graph.
     *
     * @param app      the app
     * @param vertices the vertices
     * @param workers  the workers of the device
     * @return bytes; by default the most any app needs ({@link #stateBytesPerDevice(int, int, int, int)})
     */
    default long stateBytesForLoad(final GraphApp app, final int vertices, final int workers) {
        return stateBytesPerDevice(vertices, vertices, 1, workers);
    }

    /**
     * As {@link #stateBytesPerDevice(int, int, int, int, AppSettings)} for the runs of {@code app} alone on the graph
     * {@code graph} summarises: the devices' memory is zeroed, so resident, from the mesh's start, and a BFS need not
     * carry PageRank's state. By default the state of any app (the method above); a model overrides it when its
     * apps' states differ.
     *
     * @param graph the summary of the app's graph (PageRank: of the graph, not its reverse)
     */
    default long stateBytesPerDevice(final GraphApp app, final GraphSummary graph, final int maxOwned,
        final int devices, final int workers, final AppSettings settings) {
        return stateBytesPerDevice(graph.vertexCount(), maxOwned, devices, workers, settings);
    }
}
