package dev.overlap.core;

import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.List;

/**
 * One allocation of device memory and its lifetime: either a range of one device's memory
 * ({@link Device#allocate(long, int)}, and behind every array of {@link Device#allocateInts(long)} and friends) or
 * the same range on every device of the mesh ({@link Mesh#allocateSymmetric(long, int)}, and behind every
 * {@link SymmetricArray}). The region is the only thing that can free its range, exactly once: a second
 * {@link #close()} does nothing, and no other handle (a view of another allocation, an offset) can free it.
 *
 * <p><b>After the region is freed</b> (by {@link #close()}, by {@link Device#free(DeviceArray)} for an array's
 * region, or because its mesh closed), every typed array over it throws {@link IllegalStateException} naming the
 * array and what freed it, and {@link #checkLive()} does the same for structures built over {@link #buffer(int)}
 * (queues, inboxes), which call it in their public methods. The range is zeroed when freed, so the next allocation
 * that gets it starts zeroed.
 *
 * <p>Thread-safety: every method may be called from any thread; freeing is serialized by the mesh's allocator. A
 * thread that reads the region through a view must be ordered after the free (a join, a lock, a volatile) to be
 * sure to see it freed; a view access that races with the free itself may still read the range (zeros or the next
 * owner's data), never unmapped memory: the memory stays mapped while the mesh is open, and a mesh closed while
 * regions were still in use releases its memory only once nothing references it (see {@link Mesh#close()}).
 */
public final class DeviceRegion implements AutoCloseable {
    /** {@link #device} of a symmetric region. */
    static final int SYMMETRIC = -1;

    private final Mesh mesh;
    private final int device;
    private final long offset;
    private final long bytes;
    /** Typed views created with the region (arrays); their bounds drop to zero when it is freed. */
    private List<? extends DeviceArray> views = List.of();
    /** Why the region is no longer usable, or null while it is live; written under the allocator's lock. */
    private String freedBy;

    DeviceRegion(final Mesh mesh, final int device, final long offset, final long bytes) {
        this.mesh = mesh;
        this.device = device;
        this.offset = offset;
        this.bytes = bytes;
    }

    void views(final List<? extends DeviceArray> views) {
        this.views = List.copyOf(views);
    }

    /** @return the mesh whose memory holds the region */
    public Mesh mesh() {
        return mesh;
    }

    /** @return true for a symmetric region (the same range on every device) */
    public boolean isSymmetric() {
        return device == SYMMETRIC;
    }

    /** @return the device of a local region, or -1 for a symmetric one */
    public int device() {
        return device;
    }

    /** @return the byte offset of the region in its device's memory (the same on every device if symmetric) */
    public long offset() {
        return offset;
    }

    /** @return the size in bytes */
    public long bytes() {
        return bytes;
    }

    /** @return true once the region has been freed (closed, or its mesh closed) */
    public boolean isFreed() {
        return freedBy != null;
    }

    /**
     * @throws IllegalStateException naming the region and what freed it, if it has been freed
     */
    public void checkLive() {
        if (freedBy != null) {
            throw freedError(toString());
        }
    }

    /**
     * For structures built over the region (queues, inboxes), with their own name in the message.
     *
     * @param user what is built over the region, for the message
     * @throws IllegalStateException naming {@code user} and what freed the region, if it has been freed
     */
    public void checkLive(final String user) {
        if (freedBy != null) {
            throw freedError(user);
        }
    }

    IllegalStateException freedError(final String what) {
        return new IllegalStateException(what + " is no longer usable: " + freedBy);
    }

    /**
     * @param device a device this region spans (its own for a local region, any for a symmetric one)
     * @return a new buffer over the region on {@code device}, indexed from 0, for placing Agrona structures (ring
     *         buffers, counters) in device memory. A buffer does not check the region's lifetime: the structure
     *         built over it must call {@link #checkLive()} and must not be used after the region is freed.
     * @throws IllegalStateException if the region has been freed
     */
    public AtomicBuffer buffer(final int device) {
        checkLive();
        return new UnsafeBuffer(memoryOn(device).buffer(), (int)offset, (int)bytes);
    }

    /**
     * @param device a device this region spans
     * @return the global address of the region's first byte on {@code device}
     */
    public long address(final int device) {
        checkSpans(device);
        return GlobalAddress.of(device, offset);
    }

    private DeviceMemory memoryOn(final int device) {
        return mesh.memory(checkSpans(device));
    }

    private int checkSpans(final int d) {
        if (this.device != SYMMETRIC && d != this.device) {
            throw new IllegalArgumentException(this + " lives on dev" + this.device + " only, not on dev" + d);
        }
        mesh.device(d); // range check with the mesh's message
        return d;
    }

    /**
     * Frees the region (zeroing it, so the next allocation of the range starts zeroed); idempotent: a second call,
     * or a call after the mesh closed, does nothing. Every view of the region is unusable afterwards.
     */
    @Override
    public void close() {
        mesh.release(this, null);
    }

    /** Marks the region freed and bounds its views to nothing. Caller holds the allocator's lock. */
    void invalidate(final String reason) {
        freedBy = reason;
        for (final DeviceArray v : views) {
            v.invalidate();
        }
    }

    @Override
    public String toString() {
        return "DeviceRegion{" + (device == SYMMETRIC ? "symmetric" : "dev" + device) + "+" + offset + ", " + bytes
            + " bytes" + (freedBy != null ? ", freed" : "") + "}";
    }
}
