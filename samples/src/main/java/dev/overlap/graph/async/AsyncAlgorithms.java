package dev.overlap.graph.async;

import dev.overlap.graph.app.AppResult;
import dev.overlap.graph.CsrGraph;
import dev.overlap.graph.GraphSummary;
import dev.overlap.graph.app.AppSettings;
import dev.overlap.graph.app.GraphAlgorithms;
import dev.overlap.graph.app.GraphApp;
import dev.overlap.graph.partition.DeviceGraph;

/**
 * The asynchronous Atos apps ({@code --mode async}) on the distributed worklist of {@code queues}: push BFS with the
 * remote atomic-min ({@link AsyncBfs}; on symmetric graphs a hybrid with bottom-up steps for the middle levels, see
 * there), SSSP with the priority worklist, delta-stepping style ({@link AsyncSssp}), and PageRank: push with residuals
 * ({@link AsyncPageRank}) or, on skewed or dense symmetric graphs, Gauss-Seidel pull with block activation
 * ({@link AsyncPullPageRank}). No barriers inside a phase: workers pop vertices, update their
 * neighbours' state with atomics on the owning device's memory, and push the neighbours that changed to their owners
 * (locally, or through the worker's aggregator, batched or eager as {@link AppSettings#remote()} says).
 * {@link AppSettings} chooses the queue (FIFO or priority), the kernels (persistent or discrete), the tasks per pop
 * ({@link AppSettings#fetch()}, 32 = Atos' warp worker) and the batching.
 *
 * <p><b>Across processes</b> (a mesh over several processes, {@link dev.overlap.core.World}): every app runs SPMD, each
 * rank on its own devices of the same placed graph with the same settings (collective: every rank calls the same app
 * at the same point). Every state another device reads or updates one-sidedly is a symmetric allocation, the
 * coordination that was a Java object (the BFS direction switch, PageRank's sums and bounds) is shared words or values
 * every rank reads alike after a barrier, so every host takes the same decisions; every rank returns the whole
 * answer and the work counts summed over the ranks. In one process the world's barriers return at once.
 *
 * <p>Stateless; thread-safe to the extent of one run at a time per mesh (every run builds and closes its own
 * worklist).
 */
public final class AsyncAlgorithms implements GraphAlgorithms {
    @Override
    public String mode() {
        return "async";
    }

    @Override
    public AppResult bfs(final DeviceGraph g, final int source, final AppSettings settings) {
        return g.leased(() -> AsyncBfs.run(g, source, settings)); // the graph cannot be closed under the run
    }

    @Override
    public AppResult sssp(final DeviceGraph g, final int source, final AppSettings settings) {
        return g.leased(() -> AsyncSssp.run(g, source, settings)); // the graph cannot be closed under the run
    }

    /** Push PageRank scatters along out-edges. */
    @Override
    public PageRankEdges pageRankEdges() {
        return PageRankEdges.OUT;
    }

    /**
     * @param g the graph itself on the mesh (out-edges; see {@link #pageRankEdges()}); a reverse graph is refused
     * @throws IllegalArgumentException when the placed degrees are not {@code outDegrees}
     */
    @Override
    public AppResult pageRank(final DeviceGraph g, final int[] outDegrees, final AppSettings settings) {
        GraphApp.requireJacobiSweep(settings, "async");
        return g.leased(() -> AsyncPageRank.run(g, outDegrees, settings)); // the graph cannot be closed under the run
    }

    @Override
    public long stateBytesPerDevice(final int vertices, final int maxOwned, final int devices, final int workers) {
        return stateBytesPerDevice(vertices, maxOwned, devices, workers, null);
    }

    @Override
    public long stateBytesPerDevice(final int vertices, final int maxOwned, final int devices, final int workers,
        final AppSettings settings) {
        final long state = Math.max(Math.max(AsyncBfs.stateBytesPerDevice(maxOwned),
            AsyncSssp.stateBytesPerDevice(maxOwned)), AsyncPageRank.stateBytesPerDevice(vertices, maxOwned, devices));
        return state + Worklists.bytesPerDevice(maxOwned, devices, workers, settings);
    }

    @Override
    public long stateBytesPerDevice(final GraphApp app, final GraphSummary graph, final int maxOwned,
        final int devices, final int workers, final AppSettings settings) {
        final long state;
        switch (app) {
            case BFS:
                state = AsyncBfs.stateBytesPerDevice(maxOwned);
                break;
            case SSSP:
                state = AsyncSssp.stateBytesPerDevice(maxOwned);
                break;
            default:
                state = AsyncPageRank.stateBytesPerDevice(PageRankVariant.of(settings.pageRankVariant())
                    .resolve(graph), graph.vertexCount(), maxOwned, devices, workers);
        }
        return state + Worklists.bytesPerDevice(maxOwned, devices, workers, settings);
    }

    /**
     * @param graph    the graph the run is on
     * @param settings the run's settings ({@link AppSettings#pageRankVariant()})
     * @return the async PageRank variant a run of these settings takes on that graph and why, as a report line:
     *         {@code "async variant auto -> pull (symmetric, mean degree ...)"}
     */
    public static String pageRankVariantChoice(final GraphSummary graph, final AppSettings settings) {
        final AppSettings.PageRankVariant asked = settings.pageRankVariant();
        return "async variant " + asked.name().toLowerCase(java.util.Locale.ROOT) + " -> "
            + PageRankVariant.of(asked).describe(graph);
    }

    /**
     * @return the priority band width of an SSSP on {@code g}: {@code settings.delta()}, or when 0 Meyer and
     *         Sanders' choice (as {@code --mode async} uses it)
     */
    public static int ssspDelta(final CsrGraph g, final AppSettings settings) {
        return AsyncSssp.delta(GraphSummary.of(g), settings);
    }
}
