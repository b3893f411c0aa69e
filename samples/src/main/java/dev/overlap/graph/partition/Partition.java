package dev.overlap.graph.partition;

import dev.overlap.graph.Csr;

/**
 * Which device owns which vertex. Devices own contiguous ranges of <em>internal</em> ids: device {@code d} owns
 * internal ids {@code [lo(d), hi(d))}. With {@link #byEdges range partitioning} internal ids are the original ids
 * (ranges cut so each device gets about the same number of edges); with {@link #byHash hash partitioning} each
 * vertex goes to {@code hash(v) mod devices} and the vertices are renumbered device by device (keeping their
 * order within a device), so the device code is the same for both: a vertex's owner is found by comparing its
 * internal id with the range bounds, its local index is {@code internal - lo(owner)}.
 *
 * <p>Thread-safety: immutable; share freely.
 */
public final class Partition {
    /** How vertices are assigned. */
    public enum Kind {
        /** Contiguous id ranges balanced by edges. */
        RANGE,
        /** {@code hash(v) mod devices}, renumbered device by device. */
        HASH
    }

    private final Kind kind;
    private final int vertices;
    private final int[] bounds;
    private final int[] toInternal;
    private final int[] toOriginal;

    private Partition(final Kind kind, final int vertices, final int[] bounds, final int[] toInternal,
        final int[] toOriginal) {
        this.kind = kind;
        this.vertices = vertices;
        this.bounds = bounds;
        this.toInternal = toInternal;
        this.toOriginal = toOriginal;
    }

    /**
     * Cuts the ids into {@code devices} contiguous ranges so each holds about the same number of edges plus
     * vertices (counting vertices too keeps ranges of isolated vertices from collapsing).
     */
    public static Partition byEdges(final Csr g, final int devices) {
        checkDevices(devices);
        final int n = g.vertexCount();
        final long total = g.edgeCount() + n;
        final int[] bounds = new int[devices + 1];
        bounds[devices] = n;
        for (int d = 1; d < devices; d++) {
            final long goal = total * d / devices;
            int lo = bounds[d - 1];
            int hi = n;
            while (lo < hi) {
                final int mid = (lo + hi) >>> 1;
                if (g.edgeStart(mid) + mid < goal) {
                    lo = mid + 1;
                } else {
                    hi = mid;
                }
            }
            bounds[d] = lo;
        }
        return new Partition(Kind.RANGE, n, bounds, null, null);
    }

    /**
     * Like {@link #byEdges}, then renumbers each device's vertices by decreasing degree (ties by id): the
     * high-degree vertices every gather and bottom-up scan touches most end up packed at the start of each range,
     * so their entries in per-vertex arrays share cache lines. Kind {@link Kind#RANGE}, not the identity.
     */
    public static Partition byEdgesDegreeOrdered(final Csr g, final int devices) {
        final Partition ranges = byEdges(g, devices);
        final int n = g.vertexCount();
        final int[] toInternal = new int[n];
        final int[] toOriginal = new int[n];
        final long[] keys = new long[n];
        for (int d = 0; d < devices; d++) {
            final int lo = ranges.lo(d);
            final int hi = ranges.hi(d);
            for (int v = lo; v < hi; v++) {
                keys[v] = (long)(Integer.MAX_VALUE - g.degree(v)) << 32 | v;
            }
            java.util.Arrays.sort(keys, lo, hi);
            for (int i = lo; i < hi; i++) {
                final int v = (int)keys[i];
                toOriginal[i] = v;
                toInternal[v] = i;
            }
        }
        return new Partition(Kind.RANGE, n, ranges.bounds, toInternal, toOriginal);
    }

    /** Assigns vertex {@code v} to device {@code hash(v) mod devices} (a 32-bit finalizer mix). */
    public static Partition byHash(final Csr g, final int devices) {
        checkDevices(devices);
        final int n = g.vertexCount();
        final int[] bounds = new int[devices + 1];
        for (int v = 0; v < n; v++) {
            bounds[hashOwner(v, devices) + 1]++;
        }
        for (int d = 0; d < devices; d++) {
            bounds[d + 1] += bounds[d];
        }
        final int[] next = java.util.Arrays.copyOf(bounds, devices);
        final int[] toInternal = new int[n];
        final int[] toOriginal = new int[n];
        for (int v = 0; v < n; v++) {
            final int id = next[hashOwner(v, devices)]++;
            toInternal[v] = id;
            toOriginal[id] = v;
        }
        return new Partition(Kind.HASH, n, bounds, toInternal, toOriginal);
    }

    /** @return the device {@code hash(v) mod devices} for hash partitioning */
    static int hashOwner(final int v, final int devices) {
        int h = v;
        h ^= h >>> 16;
        h *= 0x85ebca6b;
        h ^= h >>> 13;
        h *= 0xc2b2ae35;
        h ^= h >>> 16;
        return (int)(((h & 0xFFFFFFFFL) * devices) >>> 32);
    }

    private static void checkDevices(final int devices) {
        if (devices < 1) {
            throw new IllegalArgumentException("devices must be >= 1, was " + devices);
        }
    }

    /** @return how vertices were assigned */
    public Kind kind() {
        return kind;
    }

    /** @return number of devices */
    public int devices() {
        return bounds.length - 1;
    }

    /** @return number of vertices */
    public int vertexCount() {
        return vertices;
    }

    /** @return first internal id owned by device {@code d} */
    public int lo(final int d) {
        return bounds[d];
    }

    /** @return one past the last internal id owned by device {@code d} */
    public int hi(final int d) {
        return bounds[d + 1];
    }

    /** @return vertices owned by device {@code d} */
    public int size(final int d) {
        return bounds[d + 1] - bounds[d];
    }

    /** @return a copy of the range bounds: {@code devices + 1} entries, device {@code d} owns {@code [b[d], b[d+1])} */
    public int[] bounds() {
        return bounds.clone();
    }

    /** @return the owner of an original vertex id */
    public int owner(final int originalVertex) {
        return ownerOfInternal(internal(originalVertex));
    }

    /** @return the owner of an internal id (binary search over the bounds) */
    public int ownerOfInternal(final int internalVertex) {
        int lo = 0;
        int hi = bounds.length - 2;
        while (lo < hi) {
            final int mid = (lo + hi + 1) >>> 1;
            if (bounds[mid] <= internalVertex) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        return lo;
    }

    /** @return the internal id of an original vertex id */
    public int internal(final int originalVertex) {
        return toInternal == null ? originalVertex : toInternal[originalVertex];
    }

    /** @return the original id of an internal id */
    public int original(final int internalVertex) {
        return toOriginal == null ? internalVertex : toOriginal[internalVertex];
    }

    /** @return true when internal ids are the original ids */
    public boolean isIdentity() {
        return toInternal == null;
    }

    @Override
    public String toString() {
        final StringBuilder sb = new StringBuilder("Partition{").append(kind).append(", ");
        for (int d = 0; d < devices(); d++) {
            sb.append(d == 0 ? "" : ", ").append("dev").append(d).append(" [").append(lo(d)).append(", ")
                .append(hi(d)).append(")");
        }
        return sb.append('}').toString();
    }
}
