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

    /** @return device {@code d}'s buffer */
    public AtomicBuffer buffer(final int d) {
        return buffers[d];
    }

    /** @return the byte offset of device {@code d}'s element 0 in {@link #buffer(int)} */
    public int base(final int d) {
        return bases[d];
    }

    /** @return devices */
    public int devices() {
        return buffers.length;
    }
}
