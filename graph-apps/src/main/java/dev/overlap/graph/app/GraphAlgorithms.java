package dev.overlap.graph.app;

import dev.overlap.graph.partition.DeviceGraph;

/**
 * One execution model of the graph apps on a mesh ({@code bsp}, later {@code async}): a service provider found
 * with {@link java.util.ServiceLoader} (register in {@code META-INF/services/dev.overlap.graph.app.GraphAlgorithms}),
 * selected by {@link #mode()} through {@link Algorithms#forMode}. Every method returns answers in original vertex
 * ids; the caller verifies them.
 *
 * <p>Implementations must be thread-safe to the extent that one run happens at a time per mesh.
 */
public interface GraphAlgorithms {
    /** @return the {@code --mode} name, lower case ({@code bsp}, {@code async}) */
    String mode();

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
     * @param in         the reverse graph on the mesh (in-edges: {@code in.targets} of {@code v} are the vertices
     *                   linking to {@code v}); for a symmetric graph the graph itself
     * @param outDegrees out-degree of every vertex, original ids
     * @param settings   damping, tolerance, iteration limits
     * @return ranks summing to 1
     */
    AppResult pageRank(DeviceGraph in, int[] outDegrees, AppSettings settings);

    /**
     * @return bytes each device needs for this model's state on top of the placed graph, for a graph of
     *         {@code vertices} vertices split so that a device owns at most {@code maxOwned}, with {@code workers}
     *         workers per device and {@code devices} devices
     */
    long stateBytesPerDevice(int vertices, int maxOwned, int devices, int workers);
}
