package dev.overlap.graph.partition;

/**
 * Owner lookup of internal vertex ids from partition bounds, for kernels (the BSP baselines and the async apps). For
 * two devices it is a subtraction and a shift; for up to 8 it counts the bounds at or below the id without branching
 * (a neighbour's owner is effectively random, so a comparison loop would mispredict about every other edge); beyond,
 * binary search. Immutable; thread-safe.
 */
public final class Owners {
    private final int[] bounds;

    /** @param bounds partition bounds ({@link Partition#bounds()}): device {@code d} owns {@code [b[d], b[d+1])} */
    public Owners(final int[] bounds) {
        this.bounds = bounds.clone();
    }

    /** @return the device owning internal id {@code v} */
    public int of(final int v) {
        return of(bounds, v);
    }

    /**
     * The owner lookup for kernel loops that keep the bounds in a local (a field read after a CAS in the loop would
     * be repeated on every edge, on the path to the neighbour's address).
     *
     * @param bounds partition bounds, {@link #bounds()}
     * @return the device owning internal id {@code v}
     */
    public static int of(final int[] bounds, final int v) {
        final int devices = bounds.length - 1;
        if (devices == 2) { // the common mesh: no loop on the path to a neighbour's address
            return (bounds[1] - 1 - v) >>> 31;
        }
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

    /** @return a copy of the partition bounds: device {@code d} owns {@code [b[d], b[d+1])} */
    public int[] bounds() {
        return bounds.clone();
    }

    /** @return first internal id of device {@code d} */
    public int lo(final int d) {
        return bounds[d];
    }
}
