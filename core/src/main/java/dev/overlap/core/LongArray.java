package dev.overlap.core;

import java.util.Objects;

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
    LongArray(final DeviceMemory memory, final long offset, final long length) {
        super(memory, offset, length, 8);
    }

    @Override
    public int elementBytes() {
        return 8;
    }

    private int at(final int index) {
        return offset + (Objects.checkIndex(index, length) << 3);
    }

    /** @return the element, plain read */
    public long get(final int index) {
        return buffer.getLong(at(index));
    }

    /** Plain write. */
    public void set(final int index, final long value) {
        buffer.putLong(at(index), value);
    }

    /** @return the element, opaque read */
    public long getOpaque(final int index) {
        return buffer.getLongOpaque(at(index));
    }

    /** Opaque write. */
    public void setOpaque(final int index, final long value) {
        buffer.putLongOpaque(at(index), value);
    }

    /** @return the element, acquire read */
    public long getAcquire(final int index) {
        return buffer.getLongAcquire(at(index));
    }

    /** Release write: earlier writes are visible to an acquire read that sees this value. */
    public void setRelease(final int index, final long value) {
        buffer.putLongRelease(at(index), value);
    }

    /** @return the element, volatile read */
    public long getVolatile(final int index) {
        return buffer.getLongVolatile(at(index));
    }

    /** Volatile write. */
    public void setVolatile(final int index, final long value) {
        buffer.putLongVolatile(at(index), value);
    }

    /** @return the previous value, after atomically adding {@code delta} */
    public long getAndAdd(final int index, final long delta) {
        return buffer.getAndAddLong(at(index), delta);
    }

    /** @return the previous value, after atomically storing {@code value} */
    public long getAndSet(final int index, final long value) {
        return buffer.getAndSetLong(at(index), value);
    }

    /** @return true when the element was {@code expected} and is now {@code value} */
    public boolean compareAndSet(final int index, final long expected, final long value) {
        return buffer.compareAndSetLong(at(index), expected, value);
    }

    /**
     * Atomic minimum (the remote atomic-min of BFS/SSSP).
     *
     * @return the previous value; the element is now {@code min(previous, value)}
     */
    public long getAndMin(final int index, final long value) {
        final int i = at(index);
        long current = buffer.getLongVolatile(i);
        while (value < current && !buffer.compareAndSetLong(i, current, value)) {
            current = buffer.getLongVolatile(i);
        }
        return current;
    }

    /**
     * Atomic maximum.
     *
     * @return the previous value; the element is now {@code max(previous, value)}
     */
    public long getAndMax(final int index, final long value) {
        final int i = at(index);
        long current = buffer.getLongVolatile(i);
        while (value > current && !buffer.compareAndSetLong(i, current, value)) {
            current = buffer.getLongVolatile(i);
        }
        return current;
    }

    /** Sets every element to {@code value} with plain stores. */
    public void fill(final long value) {
        for (int i = 0, at = offset; i < length; i++, at += 8) {
            buffer.putLong(at, value);
        }
    }
}
