package dev.overlap.core;

import org.agrona.concurrent.AtomicBuffer;

/**
 * A typed view of a range of one device's memory. Subclasses add element accessors with explicit memory ordering;
 * element indices are checked against {@link #length()} with {@link java.util.Objects#checkIndex} (an intrinsic the
 * JIT hoists out of loops), so a bad index is a clear {@link IndexOutOfBoundsException}, never a stray write.
 *
 * <p>Thread-safety: views are immutable and may be shared; concurrent element access is safe and ordered as the
 * accessor states.
 */
public abstract class DeviceArray {
    final AtomicBuffer buffer;
    final DeviceMemory memory;
    final int offset;
    final int length;

    DeviceArray(final DeviceMemory memory, final long offset, final long length, final int elementBytes) {
        if (length < 0 || length > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("array length must be in 0.." + Integer.MAX_VALUE + ", was " + length);
        }
        memory.checkRange(offset, length * elementBytes);
        if ((offset & (elementBytes - 1)) != 0) {
            throw new IllegalArgumentException("offset " + offset + " is not aligned to the element size "
                + elementBytes);
        }
        this.memory = memory;
        this.buffer = memory.buffer();
        this.offset = (int)offset;
        this.length = (int)length;
    }

    /** @return number of elements */
    public final int length() {
        return length;
    }

    /** @return id of the device whose memory holds the elements */
    public final int device() {
        return memory.device();
    }

    /** @return byte offset of element 0 in the device's memory */
    public final long offset() {
        return offset;
    }

    /** @return size of one element in bytes */
    public abstract int elementBytes();

    /** @return byte length of the array */
    public final long byteLength() {
        return (long)length * elementBytes();
    }

    /** @return the global address of element {@code index} */
    public final long address(final int index) {
        return GlobalAddress.of(memory.device(), offset + (long)index * elementBytes());
    }

    /** @return the memory that holds this array */
    public final DeviceMemory memory() {
        return memory;
    }

    /** Zeroes every element (plain stores; publish with a release or a kernel boundary). */
    public final void clear() {
        buffer.setMemory(offset, length * elementBytes(), (byte)0);
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "{dev" + device() + "+" + offset + ", length " + length + "}";
    }
}
