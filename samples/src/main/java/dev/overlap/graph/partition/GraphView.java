package dev.overlap.graph.partition;

import org.agrona.concurrent.AtomicBuffer;

/**
 * The raw per-device view of a {@link DeviceGraph} that kernel hot loops use: the owner and local index of an
 * internal vertex id ({@link Owners} and the partition bounds), and each device's CSR slice — offsets, targets and
 * (when placed) weights — as {@link RawArrays} (buffer and byte base), so the edge loop reads device memory without
 * the typed arrays' per-access index checks. Every index a kernel derives from the slices is in bounds: the slices
 * were validated when the graph was placed and every target is an internal id below the vertex count.
 *
 * <p>Loops should take {@link #targets()} (and the other arrays) into locals per vertex, not call the per-edge
 * accessors in the inner loop: a CAS in the loop body keeps the JIT from hoisting array loads across it.
 *
 * <p>Immutable; thread-safe; valid while the graph is open.
 */
public final class GraphView {
    private final Owners owners;
    private final int[] lo;
    private final RawArrays offsets;
    private final RawArrays targets;
    private final RawArrays weights;

    /** @param g the placed graph */
    public GraphView(final DeviceGraph g) {
        final Partition p = g.partition();
        final int devices = p.devices();
        this.owners = new Owners(p.bounds());
        this.lo = new int[devices];
        final dev.overlap.core.LongArray[] off = new dev.overlap.core.LongArray[devices];
        final dev.overlap.core.IntArray[] tgt = new dev.overlap.core.IntArray[devices];
        final dev.overlap.core.IntArray[] wgt = new dev.overlap.core.IntArray[devices];
        for (int d = 0; d < devices; d++) {
            lo[d] = p.lo(d);
            off[d] = g.offsets(d);
            tgt[d] = g.targets(d);
            wgt[d] = g.weights(d);
        }
        this.offsets = RawArrays.of(off);
        this.targets = RawArrays.of(tgt);
        this.weights = g.hasWeights() ? RawArrays.of(wgt) : null;
    }

    /** @return the owner lookup (for loops that keep it in a local) */
    public Owners owners() {
        return owners;
    }

    /** @return the device that owns internal id {@code v} */
    public int owner(final int v) {
        return owners.of(v);
    }

    /** @return the first internal id device {@code d} owns (local index 0) */
    public int lo(final int d) {
        return lo[d];
    }

    /** @return devices */
    public int devices() {
        return lo.length;
    }

    /** @return the offsets ({@code long} edge slots, {@code size(d) + 1} per device) */
    public RawArrays offsets() {
        return offsets;
    }

    /** @return the targets (internal ids, {@code int} per edge slot) */
    public RawArrays targets() {
        return targets;
    }

    /** @return the weights ({@code int} per edge slot); null when the graph was placed without weights */
    public RawArrays weights() {
        return weights;
    }

    /** @return the first edge slot of local vertex {@code lv} on device {@code d} */
    public int edgeBegin(final int d, final int lv) {
        return (int)offsets.buffer(d).getLong(offsets.base(d) + (lv << 3));
    }

    /** @return the end (exclusive) of local vertex {@code lv}'s edge slots on device {@code d} */
    public int edgeEnd(final int d, final int lv) {
        return (int)offsets.buffer(d).getLong(offsets.base(d) + (lv << 3) + 8);
    }

    /** @return the out-degree of local vertex {@code lv} on device {@code d} */
    public int degree(final int d, final int lv) {
        final AtomicBuffer b = offsets.buffer(d);
        final int i = offsets.base(d) + (lv << 3);
        return (int)(b.getLong(i + 8) - b.getLong(i));
    }
}
