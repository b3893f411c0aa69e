package dev.overlap.graph.partition;

/**
 * Owner lookup of internal vertex ids from partition bounds, for kernels (the BSP baselines and the async apps). For
 * up to 8 devices it counts the bounds at or below the id without branching (a neighbour's owner is effectively
 * random, so a comparison loop would mispredict about every other edge); beyond, binary search. Immutable;
 * thread-safe.
 */
public final class Owners {
    private final int[] bounds;
    private final int devices;

    /** @param bounds partition bounds ({@link Partition#bounds()}): device {@code d} owns {@code [b[d], b[d+1])} */
    public Owners(final int[] bounds) {
        this.bounds = bounds.clone();
        this.devices = bounds.length - 1;
    }

    /** @return the device owning internal id {@code v} */
    public int of(final int v) {
        if (devices <= 8) {
            int o = 0;
            for (int i = 1; i < devices; i++) {
                o += (bounds[i] - 1 - v) >>> 31;
            }
            return o;
        }
        int lo = 0;
        int hi = devices - 1;
        while (lo < hi) {
            final int mid = (lo + hi + 1) >>> 1;
            if (bounds[mid] <= v) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        return lo;
    }

    /** @return first internal id of device {@code d} */
    public int lo(final int d) {
        return bounds[d];
    }
}
