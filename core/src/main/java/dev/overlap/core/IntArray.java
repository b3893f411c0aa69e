package dev.overlap.core;

import java.util.Objects;

/**
 * {@code int} elements in device memory, with plain, opaque, acquire/release, volatile and atomic accessors
 * (add, CAS, exchange, min, max). Instances come from {@link Mesh#allocateInts(long)} (symmetric) or
 * {@link Device#allocateInts(long)} (one device).
 *
 * <p>Thread-safety: any number of threads may access elements concurrently. Plain accessors give no ordering;
 * opaque gives per-location coherence; {@code setRelease}/{@code getAcquire} pair up; atomic updates are
 * sequentially consistent (volatile) read-modify-writes.
 */
public final class IntArray extends DeviceArray {
    IntArray(final DeviceMemory memory, final long offset, final long length) {
        super(memory, offset, length, 4);
    }

    @Override
    public int elementBytes() {
        return 4;
    }

    private int at(final int index) {
        return offset + (Objects.checkIndex(index, length) << 2);
    }

    /** @return the element, plain read */
    public int get(final int index) {
        return buffer.getInt(at(index));
    }

    /** Plain write. */
    public void set(final int index, final int value) {
        buffer.putInt(at(index), value);
    }

    /** @return the element, opaque read */
    public int getOpaque(final int index) {
        return buffer.getIntOpaque(at(index));
    }

    /** Opaque write. */
    public void setOpaque(final int index, final int value) {
        buffer.putIntOpaque(at(index), value);
    }

    /** @return the element, acquire read */
    public int getAcquire(final int index) {
        return buffer.getIntAcquire(at(index));
    }

    /** Release write: earlier writes are visible to an acquire read that sees this value. */
    public void setRelease(final int index, final int value) {
        buffer.putIntRelease(at(index), value);
    }

    /** @return the element, volatile read */
    public int getVolatile(final int index) {
        return buffer.getIntVolatile(at(index));
    }

    /** Volatile write. */
    public void setVolatile(final int index, final int value) {
        buffer.putIntVolatile(at(index), value);
    }

    /** @return the previous value, after atomically adding {@code delta} */
    public int getAndAdd(final int index, final int delta) {
        return buffer.getAndAddInt(at(index), delta);
    }

    /** @return the previous value, after atomically storing {@code value} */
    public int getAndSet(final int index, final int value) {
        return buffer.getAndSetInt(at(index), value);
    }

    /** @return true when the element was {@code expected} and is now {@code value} */
    public boolean compareAndSet(final int index, final int expected, final int value) {
        return buffer.compareAndSetInt(at(index), expected, value);
    }

    /**
     * Atomic minimum (the remote atomic-min of BFS/SSSP).
     *
     * @return the previous value; the element is now {@code min(previous, value)}
     */
    public int getAndMin(final int index, final int value) {
        final int i = at(index);
        int current = buffer.getIntVolatile(i);
        while (value < current && !buffer.compareAndSetInt(i, current, value)) {
            current = buffer.getIntVolatile(i);
        }
        return current;
    }

    /**
     * Atomic maximum.
     *
     * @return the previous value; the element is now {@code max(previous, value)}
     */
    public int getAndMax(final int index, final int value) {
        final int i = at(index);
        int current = buffer.getIntVolatile(i);
        while (value > current && !buffer.compareAndSetInt(i, current, value)) {
            current = buffer.getIntVolatile(i);
        }
        return current;
    }

    /** Sets every element to {@code value} with plain stores. */
    public void fill(final int value) {
        for (int i = 0, at = offset; i < length; i++, at += 4) {
            buffer.putInt(at, value);
        }
    }
}
