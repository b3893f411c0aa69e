package dev.overlap.graph.solo;

import dev.overlap.graph.app.AppResult;
import dev.overlap.graph.app.AppSettings;
import dev.overlap.graph.app.GraphAlgorithms;
import dev.overlap.graph.partition.DeviceGraph;

/**
 * The one-thread path ({@code --mode solo}): the graph on one device's memory and the calling thread running a tight
 * loop over it: {@link SoloBfs} (a queue, direction-optimizing on a symmetric graph), {@link SoloPageRank} (pull, the BSP stopping rule) and
 * {@link SoloSssp} (delta-stepping buckets). {@link #singleWorker()} is true, so {@link dev.overlap.graph.app.AppRunner}
 * builds a mesh of one device with one worker for it whatever mesh it was asked for (the device holds the graph; its
 * worker stays parked); the apps refuse a graph placed on several devices. Their working state (depths, ranks,
 * distances, queue, buckets) is heap arrays of the calling thread, so a device needs room for the graph only.
 *
 * <p>Stateless; one run at a time per placed graph. Runs in one process only (not across ranks).
 */
public final class SoloAlgorithms implements GraphAlgorithms {
    /** The {@code --mode} name. */
    public static final String MODE = "solo";

    @Override
    public String mode() {
        return MODE;
    }

    @Override
    public boolean singleWorker() {
        return true;
    }

    @Override
    public AppResult bfs(final DeviceGraph g, final int source, final AppSettings settings) {
        return g.leased(() -> SoloBfs.run(g, source, settings)); // the graph cannot be closed under the run
    }

    @Override
    public AppResult sssp(final DeviceGraph g, final int source, final AppSettings settings) {
        return g.leased(() -> SoloSssp.run(g, source, settings)); // the graph cannot be closed under the run
    }

    /** @return false on a symmetric graph: the pull reads its rows' lengths ({@link SoloPageRank.PullState#degree}) */
    @Override
    public boolean pageRankReadsOutDegrees(final DeviceGraph g) {
        return !g.summary().isSymmetric();
    }

    @Override
    public AppResult pageRank(final DeviceGraph in, final int[] outDegrees, final AppSettings settings) {
        return in.leased(() -> SoloPageRank.run(in, outDegrees, settings)); // the graph cannot be closed under the run
    }

    /** @return 0: the state lives on the heap, not in device memory */
    @Override
    public long stateBytesPerDevice(final int vertices, final int maxOwned, final int devices, final int workers) {
        return 0;
    }
}
