package dev.overlap.graph.app;

import dev.overlap.graph.partition.DeviceGraph;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A provider for tests that do something around a BFS (wait on a latch, count calls, leave garbage, take no lease):
 * it reports a built-in mode's name, shape and memory, answers {@code bfs} as the subclass says (usually through
 * {@link #delegate}), and refuses SSSP and PageRank.
 */
public abstract class BfsOnly implements GraphAlgorithms {
    /** The built-in provider whose name, shape and memory this one reports. */
    protected final GraphAlgorithms delegate;

    /** @param mode the built-in mode to report and delegate to */
    protected BfsOnly(final String mode) {
        this.delegate = Algorithms.forMode(mode);
    }

    /**
     * For a run held open while the test acts: signals {@code inside}, then waits (at most a minute) until the test
     * counts {@code proceed} down.
     *
     * @throws IllegalStateException when the wait times out or is interrupted (the test then fails)
     */
    protected static void holdUntil(final CountDownLatch inside, final CountDownLatch proceed) {
        inside.countDown();
        try {
            if (!proceed.await(60, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the test did not let the run go on within a minute");
            }
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while the test held the run", e);
        }
    }

    @Override
    public String mode() {
        return delegate.mode();
    }

    @Override
    public boolean singleWorker() {
        return delegate.singleWorker();
    }

    @Override
    public boolean oneDevice() {
        return delegate.oneDevice();
    }

    @Override
    public AppResult sssp(final DeviceGraph g, final int source, final AppSettings settings) {
        throw new UnsupportedOperationException("bfs only");
    }

    @Override
    public AppResult pageRank(final DeviceGraph g, final int[] outDegrees, final AppSettings settings) {
        throw new UnsupportedOperationException("bfs only");
    }

    @Override
    public long stateBytesPerDevice(final int vertices, final int maxOwned, final int devices, final int workers) {
        return delegate.stateBytesPerDevice(vertices, maxOwned, devices, workers);
    }
}
