package dev.overlap.core;

import org.agrona.UnsafeApi;

/**
 * {@code long} elements in device memory, with plain, opaque, acquire/release, volatile and atomic accessors
 * (add, CAS, exchange, min, max). Instances come from {@link Mesh#allocateLongs(long)} (symmetric) or
 * {@link Device#allocateLongs(long)} (one device).
 *
 * <p>Thread-safety: any number of threads may access elements concurrently. Plain accessors give no ordering;
 * opaque gives per-location coherence; {@code setRelease}/{@code getAcquire} pair up; atomic updates are
 * sequentially consistent (volatile) read-modify-writes.
 */
public final class LongArray extends DeviceArray {
    LongArray(final DeviceRegion region, final DeviceMemory memory, final long offset, final long length) {
        super(region, memory, offset, length, 8);
    }

    @Override
    public int elementBytes() {
        return 8;
    }

    private long at(final int index) {
        if (index < 0 || index >= bound) {
            throw outside(index);
        }
        return address + ((long)index << 3);
    }

    /** @return the element, plain read */
    public long get(final int index) {
        return UnsafeApi.getLong(null, at(index));
    }

    /** Plain write. */
    public void set(final int index, final long value) {
        UnsafeApi.putLong(null, at(index), value);
    }

    /** @return the element, opaque read */
    public long getOpaque(final int index) {
        return UnsafeApi.getLongOpaque(null, at(index));
    }

    /** Opaque write. */
    public void setOpaque(final int index, final long value) {
        UnsafeApi.putLongOpaque(null, at(index), value);
    }

    /** @return the element, acquire read */
    public long getAcquire(final int index) {
        return UnsafeApi.getLongAcquire(null, at(index));
    }

    /** Release write: earlier writes are visible to an acquire read that sees this value. */
    public void setRelease(final int index, final long value) {
        UnsafeApi.putLongRelease(null, at(index), value);
    }

    /** @return the element, volatile read */
    public long getVolatile(final int index) {
        return UnsafeApi.getLongVolatile(null, at(index));
    }

    /** Volatile write. */
    public void setVolatile(final int index, final long value) {
        UnsafeApi.putLongVolatile(null, at(index), value);
    }

    /** @return the previous value, after atomically adding {@code delta} */
    public long getAndAdd(final int index, final long delta) {
        return UnsafeApi.getAndAddLong(null, at(index), delta);
    }

    /** @return the previous value, after atomically storing {@code value} */
    public long getAndSet(final int index, final long value) {
        return UnsafeApi.getAndSetLong(null, at(index), value);
    }

    /** @return true when the element was {@code expected} and is now {@code value} */
    public boolean compareAndSet(final int index, final long expected, final long value) {
        return UnsafeApi.compareAndSetLong(null, at(index), expected, value);
    }

    /**
     * Atomic minimum (the remote atomic-min of BFS/SSSP).
     *
     * @return the previous value; the element is now {@code min(previous, value)}
     */
    public long getAndMin(final int index, final long value) {
        final long i = at(index);
        long current = UnsafeApi.getLongVolatile(null, i);
        while (value < current && !UnsafeApi.compareAndSetLong(null, i, current, value)) {
            current = UnsafeApi.getLongVolatile(null, i);
        }
        return current;
    }

    /**
     * Atomic maximum.
     *
     * @return the previous value; the element is now {@code max(previous, value)}
     */
    public long getAndMax(final int index, final long value) {
        final long i = at(index);
        long current = UnsafeApi.getLongVolatile(null, i);
        while (value > current && !UnsafeApi.compareAndSetLong(null, i, current, value)) {
            current = UnsafeApi.getLongVolatile(null, i);
        }
        return current;
    }

    /**
     * Sets every element to {@code value} with plain stores.
     *
     * @throws IllegalStateException if the array has been freed
     */
    public void fill(final long value) {
        checkLive();
        final long end = address + (long)length() * 8;
        for (long at = address; at < end; at += 8) {
            UnsafeApi.putLong(null, at, value);
        }
    }
}
