package dev.overlap.core;

import org.agrona.concurrent.AtomicBuffer;

/**
 * A typed view of a range of one device's memory: the elements of one {@link DeviceRegion} on one device.
 * Subclasses add element accessors with explicit memory ordering.
 *
 * <p><b>Checked access, one comparison.</b> Every accessor checks its index against the view's bound, a field that
 * holds the length while the region is live and drops to zero when the region is freed (by its owner or by the
 * mesh's close). So a bad index is an {@link IndexOutOfBoundsException} and an access after the free an
 * {@link IllegalStateException} naming the array and what freed it, never a stray read or write, and the lifetime
 * check costs nothing beyond the bounds check every accessor needs anyway. The element itself is read or written at
 * its raw address ({@code jdk.internal.misc.Unsafe} through Agrona), with no second bounds check.
 *
 * <p>Thread-safety: views may be shared; concurrent element access is safe and ordered as the accessor states. A view
 * used by a thread that is not ordered after the free (no join, lock or volatile in between) may still see the old
 * bound and read or write the freed range, which stays mapped (see {@link DeviceRegion}); order frees after the
 * last use, as with any shared resource.
 */
public abstract class DeviceArray {
    final DeviceRegion region;
    final DeviceMemory memory;
    /** The whole device memory, for bulk copies between arrays. */
    final AtomicBuffer buffer;
    /** Raw address of element 0. */
    final long address;
    final int offset;
    private final int capacity;
    /** Elements an accessor may touch: {@link #capacity} while the region is live, 0 once it is freed. */
    int bound;

    DeviceArray(final DeviceRegion region, final DeviceMemory memory, final long offset, final long length,
        final int elementBytes) {
        if (length < 0 || length > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("array length must be in 0.." + Integer.MAX_VALUE + ", was " + length);
        }
        memory.checkRange(offset, length * elementBytes);
        if ((offset & (elementBytes - 1)) != 0) {
            throw new IllegalArgumentException("offset " + offset + " is not aligned to the element size "
                + elementBytes);
        }
        this.region = region;
        this.memory = memory;
        this.buffer = memory.rawBuffer();
        this.address = buffer.addressOffset() + offset;
        this.offset = (int)offset;
        this.capacity = (int)length;
        this.bound = (int)length;
    }

    /** Called when the region is freed, under the allocator's lock. */
    final void invalidate() {
        bound = 0;
    }

    /**
     * The failure of an accessor whose index is outside {@code [0, bound)}: a freed array or a bad index.
     *
     * @return the exception to throw
     */
    final RuntimeException outside(final int index) {
        if (region.isFreed()) {
            return region.freedError(toString());
        }
        return new IndexOutOfBoundsException("index " + index + " is outside " + this);
    }

    /**
     * @throws IllegalStateException if the array's region has been freed
     */
    public final void checkLive() {
        if (region.isFreed()) {
            throw region.freedError(toString());
        }
    }

    /** @return number of elements (the length it was allocated with, also after it is freed) */
    public final int length() {
        return capacity;
    }

    /** @return id of the device whose memory holds the elements */
    public final int device() {
        return memory.device();
    }

    /** @return byte offset of element 0 in the device's memory */
    public final long offset() {
        return offset;
    }

    /** @return the allocation this array views */
    public final DeviceRegion region() {
        return region;
    }

    /** @return size of one element in bytes */
    public abstract int elementBytes();

    /** @return byte length of the array */
    public final long byteLength() {
        return (long)capacity * elementBytes();
    }

    /**
     * @param index an element index; not checked against {@link #length()}
     * @return the global address of element {@code index}
     */
    public final long address(final int index) {
        return GlobalAddress.of(memory.device(), offset + (long)index * elementBytes());
    }

    /** @return the memory that holds this array */
    public final DeviceMemory memory() {
        return memory;
    }

    /**
     * Zeroes every element (plain stores; publish with a release or a kernel boundary).
     *
     * @throws IllegalStateException if the array has been freed
     */
    public final void clear() {
        checkLive();
        buffer.setMemory(offset, capacity * elementBytes(), (byte)0);
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "{dev" + device() + "+" + offset + ", length " + capacity
            + (region.isFreed() ? ", freed" : "") + "}";
    }
}
