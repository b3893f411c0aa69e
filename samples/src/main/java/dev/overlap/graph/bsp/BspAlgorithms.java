package dev.overlap.graph.bsp;

import dev.overlap.graph.GraphSummary;
import dev.overlap.graph.app.AppResult;
import dev.overlap.graph.app.AppSettings;
import dev.overlap.graph.app.GraphAlgorithms;
import dev.overlap.graph.app.GraphApp;
import dev.overlap.graph.partition.DeviceGraph;

/**
 * The bulk-synchronous baselines ({@code --mode bsp}): level-synchronous BFS ({@link BspBfs}), delta-stepping SSSP
 * ({@link BspSssp}) and pull PageRank ({@link BspPageRank}), each a sequence of device kernels separated by host
 * barriers. Stateless; one run at a time per mesh.
 */
public final class BspAlgorithms implements GraphAlgorithms {
    @Override
    public String mode() {
        return "bsp";
    }

    @Override
    public AppResult bfs(final DeviceGraph g, final int source, final AppSettings settings) {
        return g.leased(() -> BspBfs.run(g, source, settings)); // the graph cannot be closed under the run
    }

    @Override
    public AppResult sssp(final DeviceGraph g, final int source, final AppSettings settings) {
        return g.leased(() -> BspSssp.run(g, source, settings)); // the graph cannot be closed under the run
    }

    @Override
    public AppResult pageRank(final DeviceGraph in, final int[] outDegrees, final AppSettings settings) {
        GraphApp.requireJacobiSweep(settings, "bsp");
        return in.leased(() -> BspPageRank.run(in, outDegrees, settings)); // the graph cannot be closed under the run
    }

    @Override
    public long stateBytesPerDevice(final int vertices, final int maxOwned, final int devices, final int workers) {
        return Math.max(Math.max(BspBfs.stateBytesPerDevice(maxOwned, devices, workers),
            BspSssp.stateBytesPerDevice(maxOwned, devices, workers)), BspPageRank.stateBytesPerDevice(vertices, maxOwned));
    }

    @Override
    public long stateBytesPerDevice(final GraphApp app, final GraphSummary graph, final int maxOwned,
        final int devices, final int workers, final AppSettings settings) {
        switch (app) {
            case BFS:
                return BspBfs.stateBytesPerDevice(maxOwned, devices, workers);
            case SSSP:
                return BspSssp.stateBytesPerDevice(maxOwned, devices, workers);
            default:
                return BspPageRank.stateBytesPerDevice(graph.vertexCount(), maxOwned);
        }
    }
}
