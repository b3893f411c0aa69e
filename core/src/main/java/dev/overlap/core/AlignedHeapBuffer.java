package dev.overlap.core;

import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * An Agrona {@link UnsafeBuffer} over a heap {@code byte[]} whose first byte is 8-byte aligned, for the 8-byte
 * atomics of small structures that live on the heap (in-memory counters, a worklist's control words, quiescence
 * counters): the heap keeps them reclaimable by the collector that the heap's own use runs, which direct buffers
 * made by the thousand (one per short-lived transport or worklist) are not.
 *
 * <p>Why a class. A {@code byte[]}'s elements start at the array's base offset, which depends on the JVM's object
 * header layout and need not be a multiple of 8; Agrona's {@code verifyAlignment} therefore cannot vouch for any
 * {@code byte[]} buffer and prints a warning (or throws, with {@code agrona.strict.alignment.checks}) whenever a
 * ring buffer or counters manager is built over one. Heap objects start at addresses that are multiples of 8, so
 * skipping {@code (8 - baseOffset % 8) % 8} bytes makes the wrapped range aligned wherever the collector moves the
 * array, and {@link #verifyAlignment()} here checks exactly that instead of warning.
 *
 * <p>Thread-safety: as {@link UnsafeBuffer}.
 */
public final class AlignedHeapBuffer extends UnsafeBuffer {
    private static final int SKIP = (8 - (int)(BufferUtil.ARRAY_BASE_OFFSET % 8)) % 8;

    private AlignedHeapBuffer(final byte[] array, final int length) {
        super(array, SKIP, length);
    }

    /**
     * @param length bytes, zeroed; {@code >= 0}
     * @return a buffer of {@code length} bytes whose first byte is 8-byte aligned
     * @throws IllegalArgumentException for a negative length
     */
    public static AlignedHeapBuffer allocate(final int length) {
        if (length < 0 || length > Integer.MAX_VALUE - 16) {
            throw new IllegalArgumentException("length must be in 0.." + (Integer.MAX_VALUE - 16) + ", was " + length);
        }
        return new AlignedHeapBuffer(new byte[length + SKIP], length);
    }

    /** @throws IllegalStateException if the wrapped range does not start on an 8-byte boundary */
    @Override
    public void verifyAlignment() {
        if ((addressOffset() & 7) != 0) {
            throw new IllegalStateException("AlignedHeapBuffer is not 8-byte aligned: addressOffset=" + addressOffset());
        }
    }
}
