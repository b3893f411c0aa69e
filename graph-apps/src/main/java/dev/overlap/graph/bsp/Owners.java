package dev.overlap.graph.bsp;

/**
 * Owner lookup of internal vertex ids from partition bounds, for kernels: a linear scan for a few devices (the
 * common case, branch-predictable), binary search beyond. Immutable; thread-safe.
 */
final class Owners {
    private final int[] bounds;
    private final int devices;

    Owners(final int[] bounds) {
        this.bounds = bounds.clone();
        this.devices = bounds.length - 1;
    }

    /** @return the device owning internal id {@code v} */
    int of(final int v) {
        if (devices <= 8) {
            int o = 0;
            while (v >= bounds[o + 1]) {
                o++;
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
    int lo(final int d) {
        return bounds[d];
    }
}
