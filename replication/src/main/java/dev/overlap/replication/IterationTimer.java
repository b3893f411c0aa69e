package dev.overlap.replication;

import dev.overlap.core.Mesh;

import java.util.Arrays;

/** Runs a workload on a fresh region for one configuration and returns the median iteration time. */
final class IterationTimer {
    private IterationTimer() {
    }

    /**
     * @return median nanoseconds of {@code measured} iterations (launch to awaitTransfers) after {@code warmup}
     */
    static long medianNanos(final Mesh mesh, final TransferWorkload workload, final TransferConfig config,
        final int warmup, final int measured) {
        final long[] times = new long[measured];
        try (ReplicatedRegion region = workload.build(mesh, config)) {
            for (int i = -warmup; i < measured; i++) {
                final long start = System.nanoTime();
                workload.launchIteration(region, i + warmup);
                region.awaitTransfers();
                final long elapsed = System.nanoTime() - start;
                if (i >= 0) {
                    times[i] = elapsed;
                }
            }
        }
        Arrays.sort(times);
        return times[measured / 2];
    }
}
