package dev.overlap.core;

import org.agrona.UnsafeApi;

// template: codegen writes LongArray from this file, each @Specialized int a long (see codegen/README.md).
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
    private static final int SHIFT = Integer.numberOfTrailingZeros(Integer.BYTES);

    IntArray(final DeviceRegion region, final DeviceMemory memory, final long offset, final long length) {
        super(region, memory, offset, length, Integer.BYTES);
    }

    @Override
    public int elementBytes() {
        return Integer.BYTES;
    }

    private long at(final int index) {
        if (index < 0 || index >= bound) {
            throw outside(index);
        }
        return address + ((long)index << SHIFT);
    }

    /**
     * @param index the element index, 0..{@code length() - 1}
     * @return the element, plain read
     */
    public @Specialized int get(final int index) {
        return UnsafeApi.getInt(null, at(index));
    }

    /**
     * Plain write.
     *
     * @param index the element index, 0..{@code length() - 1}
     * @param value the new value
     */
    public void set(final int index, final @Specialized int value) {
        UnsafeApi.putInt(null, at(index), value);
    }

    /**
     * @param index the element index, 0..{@code length() - 1}
     * @return the element, opaque read
     */
    public @Specialized int getOpaque(final int index) {
        return UnsafeApi.getIntOpaque(null, at(index));
    }

    /**
     * Opaque write.
     *
     * @param index the element index, 0..{@code length() - 1}
     * @param value the new value
     */
    public void setOpaque(final int index, final @Specialized int value) {
        UnsafeApi.putIntOpaque(null, at(index), value);
    }

    /**
     * @param index the element index, 0..{@code length() - 1}
     * @return the element, acquire read
     */
    public @Specialized int getAcquire(final int index) {
        return UnsafeApi.getIntAcquire(null, at(index));
    }

    /**
     * Release write: earlier writes are visible to an acquire read that sees this value.
     *
     * @param index the element index, 0..{@code length() - 1}
     * @param value the new value
     */
    public void setRelease(final int index, final @Specialized int value) {
        UnsafeApi.putIntRelease(null, at(index), value);
    }

    /**
     * @param index the element index, 0..{@code length() - 1}
     * @return the element, volatile read
     */
    public @Specialized int getVolatile(final int index) {
        return UnsafeApi.getIntVolatile(null, at(index));
    }

    /**
     * Volatile write.
     *
     * @param index the element index, 0..{@code length() - 1}
     * @param value the new value
     */
    public void setVolatile(final int index, final @Specialized int value) {
        UnsafeApi.putIntVolatile(null, at(index), value);
    }

    /**
     * @param index the element index, 0..{@code length() - 1}
     * @param delta added to the element (wraps on overflow)
     * @return the previous value, after atomically adding {@code delta}
     */
    public @Specialized int getAndAdd(final int index, final @Specialized int delta) {
        return UnsafeApi.getAndAddInt(null, at(index), delta);
    }

    /**
     * @param index the element index, 0..{@code length() - 1}
     * @param value the new value
     * @return the previous value, after atomically storing {@code value}
     */
    public @Specialized int getAndSet(final int index, final @Specialized int value) {
        return UnsafeApi.getAndSetInt(null, at(index), value);
    }

    /**
     * @param index the element index, 0..{@code length() - 1}
     * @param expected the value the element must hold
     * @param value the new value
     * @return true when the element was {@code expected} and is now {@code value}
     */
    public boolean compareAndSet(final int index, final @Specialized int expected, final @Specialized int value) {
        return UnsafeApi.compareAndSetInt(null, at(index), expected, value);
    }

    /**
     * Atomic minimum (the remote atomic-min of BFS/SSSP).
     *
     * @param index the element index, 0..{@code length() - 1}
     * @param value the candidate minimum
     * @return the previous value; the element is now {@code min(previous, value)}
     */
    public @Specialized int getAndMin(final int index, final @Specialized int value) {
        final long i = at(index);
        @Specialized int current = UnsafeApi.getIntVolatile(null, i);
        while (value < current && !UnsafeApi.compareAndSetInt(null, i, current, value)) {
            current = UnsafeApi.getIntVolatile(null, i);
        }
        return current;
    }

    /**
     * Atomic maximum.
     *
     * @param index the element index, 0..{@code length() - 1}
     * @param value the candidate maximum
     * @return the previous value; the element is now {@code max(previous, value)}
     */
    public @Specialized int getAndMax(final int index, final @Specialized int value) {
        final long i = at(index);
        @Specialized int current = UnsafeApi.getIntVolatile(null, i);
        while (value > current && !UnsafeApi.compareAndSetInt(null, i, current, value)) {
            current = UnsafeApi.getIntVolatile(null, i);
        }
        return current;
    }

    /**
     * Sets every element to {@code value} with plain stores.
     *
     * @param value stored in every element
     * @throws IllegalStateException if the array has been freed
     */
    public void fill(final @Specialized int value) {
        checkLive();
        final long end = address + ((long)length() << SHIFT);
        for (long at = address; at < end; at += Integer.BYTES) {
            UnsafeApi.putInt(null, at, value);
        }
    }
}
