package dev.overlap.core;

import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.UnsafeBuffer;


/**
 * One device's off-heap memory: a zeroed, page-aligned region (direct buffer or mapped file) seen through an
 * Agrona {@link AtomicBuffer}. Structures that live here hold offsets, never Java references, so the same bytes can
 * later be shared with other processes.
 *
 * <p>Thread-safety: the buffer may be read and written by any thread; ordering is whatever the accessor used
 * promises (plain, opaque, acquire/release, volatile/atomic). Allocation goes through the {@link Mesh}, which owns
 * the memory: once the mesh is closed, {@link #buffer()} and {@link #slice} throw {@link IllegalStateException}, and
 * typed arrays over the memory throw too (see {@link DeviceArray}). A buffer obtained before the close is a raw
 * view with no lifetime check of its own: code that keeps one (kernels, transport structures) must be done with it
 * when the mesh closes, which is what the mesh's close order ensures for everything built on it.
 */
public final class DeviceMemory {
    private final Mesh mesh;
    private final int device;
    private final int capacity;
    private final MemoryBacking.Allocation backing;
    private final UnsafeBuffer buffer;

    DeviceMemory(final Mesh mesh, final int device, final int capacity, final MemoryBacking.Allocation backing) {
        this.mesh = mesh;
        this.device = device;
        this.capacity = capacity;
        this.backing = backing;
        this.buffer = new UnsafeBuffer(backing.aligned);
    }

    /** @return the id of the device that owns this memory */
    public int device() {
        return device;
    }

    /** @return size in bytes */
    public int capacity() {
        return capacity;
    }

    /**
     * The whole memory as one buffer, indexed by device offset. For transport code that places Agrona structures
     * (rings, counters) in device memory; application code uses typed arrays.
     *
     * @return the shared buffer (do not re-wrap it)
     * @throws IllegalStateException if the mesh is closed
     */
    public AtomicBuffer buffer() {
        mesh.checkOpen();
        return buffer;
    }

    /** The buffer without the open check, for views built while the mesh is open. */
    AtomicBuffer rawBuffer() {
        return buffer;
    }

    /**
     * @param offset byte offset of the view in this memory
     * @param length byte length of the view
     * @return a new buffer over {@code [offset, offset+length)}, indexed from 0 (e.g. for an Agrona ring buffer)
     * @throws IllegalStateException if the mesh is closed
     */
    public AtomicBuffer slice(final long offset, final int length) {
        mesh.checkOpen();
        checkRange(offset, length);
        return new UnsafeBuffer(buffer, (int)offset, length);
    }

    /**
     * @throws IndexOutOfBoundsException naming the device when {@code [offset, offset+length)} is outside
     */
    void checkRange(final long offset, final long length) {
        if (offset < 0 || length < 0 || offset + length > capacity) {
            throw new IndexOutOfBoundsException("range [" + offset + ", " + (offset + length) + ") is outside dev"
                + device + " memory of " + capacity + " bytes");
        }
    }

    MemoryBacking.Allocation backing() {
        return backing;
    }

    @Override
    public String toString() {
        return "DeviceMemory{dev" + device + ", " + capacity + " bytes}";
    }
}
