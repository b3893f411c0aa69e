package dev.overlap.replication;

import dev.overlap.core.ChunkTracker;
import dev.overlap.core.Device;
import dev.overlap.core.Kernel;
import dev.overlap.core.KernelLaunch;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.IdleStrategy;

import java.util.List;
import java.util.concurrent.ThreadFactory;
import java.util.function.Supplier;

/**
 * One job: how a {@link ReplicatedRegion}'s producing kernels run and how the chunks they make ready reach the peer
 * replicas, for one {@link TransferMode}. The region chooses the implementation once, when it is built
 * ({@link #of}); its launches, ready chunks and waits then ask the strategy instead of switching on the mode.
 *
 * <ul>
 *   <li>{@link Inline} ({@link TransferMode#INLINE}): plain kernels whose stores go to every replica.</li>
 *   <li>{@link Polling} ({@link TransferMode#POLLING}): tracked kernels; a ready chunk sets its bit for the transfer
 *       threads, which poll the bitmaps ({@link TransferAgents}).</li>
 *   <li>{@link Triggered} ({@link TransferMode#TRIGGERED}): tracked kernels; a ready chunk goes to the transfer
 *       threads' queue, or, with none, is copied by the completing worker.</li>
 *   <li>{@link Bulk} ({@link TransferMode#BULK}): a plain kernel, then a copy kernel over the whole slice.</li>
 *   <li>{@link NoCopy} ({@link TransferMode#NONE}, {@link TransferMode#TRACK_ONLY}): plain kernels, or tracked ones
 *       whose ready chunks are only counted.</li>
 * </ul>
 *
 * <p>Thread-safety: {@link #launch}, {@link #tracks()} and {@link #close()} are called by the region's host thread;
 * {@link #chunkReady} by the worker whose block completion made the chunk ready (the tracker's listener: every write
 * of the chunk's writer blocks happens-before it), concurrently for different chunks. Whatever a strategy hands to
 * its transfer threads it publishes through a concurrent structure (the bitmap's atomic OR, the queue's offer).
 */
abstract sealed class TransferStrategy implements AutoCloseable {
    final ReplicatedRegion region;
    /** The producers' readiness trackers, by device (null for a device that produces nothing). */
    final ChunkTracker[] trackers;
    final int gridSize;

    TransferStrategy(final ReplicatedRegion region, final ChunkTracker[] trackers, final int gridSize) {
        this.region = region;
        this.trackers = trackers;
        this.gridSize = gridSize;
    }

    /** @return the transfer agents (POLLING and TRIGGERED with transfer threads), else none */
    List<Agent> agents() {
        return List.of();
    }

    /**
     * @param trackers        the producers' trackers, built with listeners that call {@link #chunkReady}
     * @param transferThreads transfer threads for POLLING and TRIGGERED
     * @param totalChunks     chunks over all producing slices
     * @return the strategy of {@code mode}, its transfer threads (if any) started
     */
    static TransferStrategy of(final TransferMode mode, final ReplicatedRegion region, final ChunkTracker[] trackers,
        final int gridSize, final int transferThreads, final int totalChunks, final Supplier<IdleStrategy> idle,
        final String name, final ThreadFactory factory, final boolean withThreads) {
        switch (mode) {
            case INLINE:
                return new Inline(region, trackers, gridSize);
            case POLLING:
                return new Polling(region, trackers, gridSize, transferThreads, totalChunks, idle, name, factory,
                    withThreads);
            case TRIGGERED:
                return new Triggered(region, trackers, gridSize, transferThreads, totalChunks, idle, name, factory,
                    withThreads);
            case BULK:
                return new Bulk(region, trackers, gridSize);
            case NONE:
                return new NoCopy(region, trackers, gridSize, false);
            default:
                return new NoCopy(region, trackers, gridSize, true);
        }
    }

    /**
     * Launches this iteration's producing kernel on {@code dev} (device {@code device}), and what else the mode runs
     * after it.
     *
     * @param inFlight takes every launch that the iteration must join besides the one returned
     * @return the launch that ends the device's part of the iteration
     */
    KernelLaunch launch(final Device dev, final int device, final Kernel kernel, final List<KernelLaunch> inFlight) {
        return dev.launch(gridSize, tracks() ? trackers[device].track(kernel) : kernel);
    }

    /** @return true when block completions are counted per chunk and the region waits for every chunk's copy */
    abstract boolean tracks();

    /** @return true when every store goes to every replica ({@link TransferMode#INLINE}) */
    boolean storesToEveryReplica() {
        return false;
    }

    /** Chunk {@code chunk} of {@code device}'s slice is ready: all of its writer blocks finished this iteration. */
    void chunkReady(final int device, final int chunk) {
        region.chunkDone();
    }

    /** Stops the transfer threads, if any; the region has no launch running any more. */
    @Override
    public void close() {
    }

    /** {@link TransferMode#INLINE}: every store goes to every replica; nothing to copy or track. */
    static final class Inline extends TransferStrategy {
        Inline(final ReplicatedRegion region, final ChunkTracker[] trackers, final int gridSize) {
            super(region, trackers, gridSize);
        }

        @Override
        boolean tracks() {
            return false;
        }

        @Override
        boolean storesToEveryReplica() {
            return true;
        }
    }

    /** {@link TransferMode#POLLING}: ready chunks set bits that the transfer threads poll and copy. */
    static final class Polling extends TransferStrategy {
        private final ReadyBitmap[] bitmaps;
        private final TransferAgents agents;

        Polling(final ReplicatedRegion region, final ChunkTracker[] trackers, final int gridSize, final int threads,
            final int totalChunks, final Supplier<IdleStrategy> idle, final String name, final ThreadFactory factory,
            final boolean withThreads) {
            super(region, trackers, gridSize);
            this.bitmaps = new ReadyBitmap[trackers.length];
            for (int d = 0; d < trackers.length; d++) {
                if (trackers[d] != null) {
                    bitmaps[d] = new ReadyBitmap(trackers[d].chunkCount());
                }
            }
            this.agents = new TransferAgents(region, TransferMode.POLLING, threads, bitmaps, queueCapacity(totalChunks),
                idle, name, factory, withThreads, ReplicatedRegion::printTransferError);
        }

        @Override
        List<Agent> agents() {
            return agents.agents();
        }

        @Override
        boolean tracks() {
            return true;
        }

        @Override
        void chunkReady(final int device, final int chunk) {
            bitmaps[device].set(chunk);
        }

        @Override
        public void close() {
            agents.close();
        }
    }

    /**
     * {@link TransferMode#TRIGGERED}: a ready chunk goes to the transfer threads at once, or with no transfer thread is
     * copied by the worker that completed it.
     */
    static final class Triggered extends TransferStrategy {
        /** One preallocated job per chunk, by device: triggering allocates nothing. */
        private final TransferAgents.ChunkJob[][] jobs;
        /** Null with no transfer thread. */
        private final TransferAgents agents;

        Triggered(final ReplicatedRegion region, final ChunkTracker[] trackers, final int gridSize, final int threads,
            final int totalChunks, final Supplier<IdleStrategy> idle, final String name, final ThreadFactory factory,
            final boolean withThreads) {
            super(region, trackers, gridSize);
            this.jobs = new TransferAgents.ChunkJob[trackers.length][];
            for (int d = 0; d < trackers.length; d++) {
                if (trackers[d] != null) {
                    jobs[d] = new TransferAgents.ChunkJob[trackers[d].chunkCount()];
                    for (int c = 0; c < jobs[d].length; c++) {
                        jobs[d][c] = new TransferAgents.ChunkJob(d, c);
                    }
                }
            }
            this.agents = threads > 0 ? new TransferAgents(region, TransferMode.TRIGGERED, threads, null,
                queueCapacity(totalChunks), idle, name, factory, withThreads, ReplicatedRegion::printTransferError)
                : null;
        }

        @Override
        List<Agent> agents() {
            return agents != null ? agents.agents() : List.of();
        }

        @Override
        boolean tracks() {
            return true;
        }

        @Override
        void chunkReady(final int device, final int chunk) {
            if (agents != null) {
                agents.submit(jobs[device][chunk]);
            } else {
                region.copyChunk(device, chunk);
            }
        }

        @Override
        public void close() {
            if (agents != null) {
                agents.close();
            }
        }
    }

    /** {@link TransferMode#BULK}: the producing kernel, then a copy kernel of one block per chunk of the slice. */
    static final class Bulk extends TransferStrategy {
        Bulk(final ReplicatedRegion region, final ChunkTracker[] trackers, final int gridSize) {
            super(region, trackers, gridSize);
        }

        @Override
        KernelLaunch launch(final Device dev, final int device, final Kernel kernel,
            final List<KernelLaunch> inFlight) {
            inFlight.add(dev.launch(gridSize, kernel));
            return dev.launch(trackers[device].chunkCount(), (ctx, chunk) -> region.copyChunk(device, chunk));
        }

        @Override
        boolean tracks() {
            return false;
        }
    }

    /**
     * {@link TransferMode#NONE} (no copy, no tracking: the infinite-bandwidth bound) and {@link TransferMode#TRACK_ONLY}
     * (tracking whose ready chunks are only counted: the tracking overhead).
     */
    static final class NoCopy extends TransferStrategy {
        private final boolean tracks;

        NoCopy(final ReplicatedRegion region, final ChunkTracker[] trackers, final int gridSize, final boolean tracks) {
            super(region, trackers, gridSize);
            this.tracks = tracks;
        }

        @Override
        boolean tracks() {
            return tracks;
        }
    }

    /** @return the transfer queue's capacity: a power of two that holds every chunk of an iteration */
    private static int queueCapacity(final int totalChunks) {
        return Math.max(2, Integer.highestOneBit(Math.max(1, totalChunks - 1)) << 1);
    }
}
