package dev.overlap.graph.solo;

import dev.overlap.graph.app.AppResult;
import dev.overlap.graph.app.AppSettings;
import dev.overlap.graph.GraphSummary;
import dev.overlap.graph.app.GraphAlgorithms;
import dev.overlap.graph.app.GraphApp;
import dev.overlap.graph.partition.DeviceGraph;

/**
 * The cooperative path ({@code --mode coop}): the whole graph in one device's memory and every worker of that device
 * in one persistent launch, the rounds separated by the launch's barrier: {@link CoopBfs} (level-synchronous,
 * direction-optimizing), {@link CoopPageRank} (pull, the BSP stopping rule) and {@link CoopSssp} (delta-stepping).
 * {@link #oneDevice()} is true, so
 * {@link dev.overlap.graph.app.AppRunner} builds a mesh of one device with all the workers asked for (devices x
 * workers per device). This is the shape of a shared-memory machine: no owner lookups, remote atomics or frontier
 * messages, and a round costs a barrier, not a launch and a join.
 *
 * <p>Stateless; one run at a time per placed graph. Runs in one process only (not across ranks).
 */
public final class CoopAlgorithms implements GraphAlgorithms {
    /** The {@code --mode} name. */
    public static final String MODE = "coop";

    @Override
    public String mode() {
        return MODE;
    }

    @Override
    public boolean oneDevice() {
        return true;
    }

    @Override
    public AppResult bfs(final DeviceGraph g, final int source, final AppSettings settings) {
        return g.leased(() -> CoopBfs.run(g, source, settings)); // the graph cannot be closed under the run
    }

    @Override
    public AppResult sssp(final DeviceGraph g, final int source, final AppSettings settings) {
        return g.leased(() -> CoopSssp.run(g, source, settings)); // the graph cannot be closed under the run
    }

    /** @return false on a symmetric graph: the pull reads its rows' lengths ({@link SoloPageRank.PullState#degree}) */
    @Override
    public boolean pageRankReadsOutDegrees(final DeviceGraph g) {
        return !g.summary().isSymmetric();
    }

    @Override
    public AppResult pageRank(final DeviceGraph in, final int[] outDegrees, final AppSettings settings) {
        return in.leased(() -> CoopPageRank.run(in, outDegrees, settings)); // the graph cannot be closed under the run
    }

    /** @return the larger of BFS's state (depths, queue, bitmaps) and SSSP's (distances); PageRank's is on the heap */
    @Override
    public long stateBytesPerDevice(final int vertices, final int maxOwned, final int devices, final int workers) {
        return Math.max(CoopBfs.stateBytes(vertices), CoopSssp.stateBytes(vertices));
    }

    /** @return the state of {@code app} alone, as {@link #stateBytesPerDevice(GraphApp, GraphSummary, int, int, int, AppSettings)} */
    @Override
    public long stateBytesForLoad(final GraphApp app, final int vertices, final int workers) {
        return app == GraphApp.BFS ? CoopBfs.stateBytes(vertices) : app == GraphApp.SSSP ? CoopSssp.stateBytes(vertices)
            : 0;
    }

    /** @return the state of {@code app} alone: BFS's depths, queue and bitmaps, SSSP's distances, none for PageRank */
    @Override
    public long stateBytesPerDevice(final GraphApp app, final GraphSummary graph, final int maxOwned,
        final int devices, final int workers, final AppSettings settings) {
        switch (app) {
            case BFS:
                return CoopBfs.stateBytes(graph.vertexCount());
            case SSSP:
                return CoopSssp.stateBytes(graph.vertexCount());
            default:
                return 0;
        }
    }
}
