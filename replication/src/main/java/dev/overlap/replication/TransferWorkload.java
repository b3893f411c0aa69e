package dev.overlap.replication;

import dev.overlap.core.BlockMapping;

/**
 * A user's producing workload, as the {@link TransferProfiler} and {@link TransferMetrics} run it: the shape of
 * its replicated region and one iteration of its kernels. Implementations must be deterministic in the bytes
 * each block writes (PROACT's requirement).
 */
public interface TransferWorkload {
    /** @return a name for profiles and reports */
    String name();

    /** @return 8-byte elements in the replicated region */
    long elements();

    /** @return blocks of each producing kernel */
    int gridSize();

    /** @return which bytes of its slice each block writes; null for one-to-one over the slice */
    default BlockMapping mapping() {
        return null;
    }

    /** @return the producing devices; null for all */
    default int[] producers() {
        return null;
    }

    /**
     * Launches one iteration: {@link ReplicatedRegion#launch} once on every producing device. The caller then
     * awaits the transfers.
     *
     * @param region    the region, configured for the point being measured
     * @param iteration 0, 1, 2... within the current measurement
     */
    void launchIteration(ReplicatedRegion region, int iteration);

    /**
     * @param mesh the mesh the region lives on
     * @param config the transfer point (mode, chunk size, transfer threads)
     * @return a region builder for this workload on {@code mesh} with {@code config}
     */
    default ReplicatedRegion build(final dev.overlap.core.Mesh mesh, final TransferConfig config) {
        final ReplicatedRegion.Builder b = config.applyTo(ReplicatedRegion.builder(mesh)).elements(elements())
            .gridSize(gridSize());
        if (mapping() != null) {
            b.mapping(mapping());
        }
        if (producers() != null) {
            b.producers(producers());
        }
        return b.build();
    }
}
