package dev.overlap.graph.partition;

import dev.overlap.core.DeviceArray;
import org.agrona.concurrent.AtomicBuffer;

/**
 * The raw form of one {@link DeviceArray} per device, for kernel hot loops: device {@code d}'s buffer and the byte
 * offset of element 0 in it, so a loop can read and write elements (plainly or atomically) at
 * {@code base(d) + (i << shift)} without the typed arrays' per-access index checks. The caller owns the bounds: it
 * may only use indices the arrays were allocated for (a graph kernel's local vertex ids and edge slots, which were
 * validated when the graph was placed).
 *
 * <p><b>Raw addresses.</b> Device memory is off-heap (direct or mapped), so each device's element 0 also has an
 * absolute address ({@link #address(int)}); {@link #globalAddresses(int[], int)} folds the partition bounds in, so a
 * loop reaches element {@code w} of a vertex array on its owner {@code o} at {@code global[o] + (w << shift)}
 * with {@code org.agrona.UnsafeApi} and no per-access object or field loads. A kernel keeps such arrays in locals:
 * after a CAS in its loop, the JIT must reload every field it reads, and each load on the path to a neighbour's
 * address lengthens the chain every edge waits for (on a grid BFS, reading the buffer objects, bases and partition
 * bounds through fields cost about 30 % of the whole single-threaded run).
 *
 * <p>Immutable; thread-safe. It does not own the arrays: whoever allocated them frees them, and no kernel may use
 * this view afterwards.
 */
public final class RawArrays {
    private final AtomicBuffer[] buffers;
    private final int[] bases;

    private RawArrays(final AtomicBuffer[] buffers, final int[] bases) {
        this.buffers = buffers;
        this.bases = bases;
    }

    /**
     * @param arrays one array per device (entry {@code d} in device {@code d}'s memory)
     * @return their raw view
     * @throws IllegalArgumentException when an array is missing or its offset does not fit an {@code int} (the
     *                                  buffers of device memory are {@code int}-addressed)
     */
    public static RawArrays of(final DeviceArray... arrays) {
        final AtomicBuffer[] buffers = new AtomicBuffer[arrays.length];
        final int[] bases = new int[arrays.length];
        for (int d = 0; d < arrays.length; d++) {
            final DeviceArray a = arrays[d];
            if (a == null) {
                throw new IllegalArgumentException("no array for device " + d);
            }
            if (a.offset() + a.byteLength() > Integer.MAX_VALUE) {
                throw new IllegalArgumentException("device " + d + "'s array ends beyond 2 GiB: " + a);
            }
            buffers[d] = a.memory().buffer();
            bases[d] = (int)a.offset();
        }
        return new RawArrays(buffers, bases);
    }

    /**
     * The raw address of one array's element 0, for a kernel that works on a single array (see the class comment
     * for who owns its bounds and lifetime).
     *
     * @param a an array in device memory
     * @return the absolute address of its element 0
     * @throws IllegalStateException if the array is not in off-heap memory
     */
    public static long addressOf(final DeviceArray a) {
        final AtomicBuffer b = a.memory().buffer();
        if (b.byteArray() != null) {
            throw new IllegalStateException(a + " is on the heap: it has no raw address");
        }
        return b.addressOffset() + a.offset();
    }

    /** @return device {@code d}'s buffer */
    public AtomicBuffer buffer(final int d) {
        return buffers[d];
    }

    /** @return the byte offset of device {@code d}'s element 0 in {@link #buffer(int)} */
    public int base(final int d) {
        return bases[d];
    }

    /**
     * @return the absolute address of device {@code d}'s element 0
     * @throws IllegalStateException if the array is not in off-heap memory
     */
    public long address(final int d) {
        final AtomicBuffer b = buffers[d];
        if (b.byteArray() != null) {
            throw new IllegalStateException("device " + d + "'s array is on the heap: it has no raw address");
        }
        return b.addressOffset() + bases[d];
    }

    /** @return {@link #address(int)} of every device */
    public long[] addresses() {
        final long[] a = new long[buffers.length];
        for (int d = 0; d < a.length; d++) {
            a[d] = address(d);
        }
        return a;
    }

    /**
     * @param bounds partition bounds ({@link Owners#bounds()}): device {@code d}'s array holds the elements of
     *               internal ids {@code [bounds[d], bounds[d+1])}
     * @param shift  log2 of the element size
     * @return per device {@code o}, the address {@code g[o]} with element {@code w} (an internal id {@code o} owns)
     *         at {@code g[o] + ((long)w << shift)}
     */
    public long[] globalAddresses(final int[] bounds, final int shift) {
        if (bounds.length != buffers.length + 1) {
            throw new IllegalArgumentException(bounds.length + " bounds for " + buffers.length + " devices");
        }
        final long[] g = new long[buffers.length];
        for (int d = 0; d < g.length; d++) {
            g[d] = address(d) - ((long)bounds[d] << shift);
        }
        return g;
    }

    /** @return devices */
    public int devices() {
        return buffers.length;
    }
}
