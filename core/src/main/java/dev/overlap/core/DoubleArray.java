package dev.overlap.core;

import org.agrona.UnsafeApi;

/**
 * {@code double} elements in device memory, with plain, opaque, acquire/release, volatile and atomic accessors.
 * Atomic updates (add, CAS, min, max) are CAS loops on the IEEE-754 bits; {@link #compareAndSet} compares bits,
 * so {@code -0.0} and {@code 0.0} differ and a NaN matches the same NaN bits. Instances come from
 * {@link Mesh#allocateDoubles(long)} or {@link Device#allocateDoubles(long)}.
 *
 * <p>Thread-safety: any number of threads may access elements concurrently. Plain accessors give no ordering;
 * {@code setRelease}/{@code getAcquire} pair up; atomic updates are sequentially consistent read-modify-writes.
 */
public final class DoubleArray extends DeviceArray {
    DoubleArray(final DeviceRegion region, final DeviceMemory memory, final long offset, final long length) {
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

    /**
     * @param index the element index, 0..{@code length() - 1}
     * @return the element, plain read
     */
    public double get(final int index) {
        return Double.longBitsToDouble(UnsafeApi.getLong(null, at(index)));
    }

    /**
     * Plain write.
     *
     * @param index the element index, 0..{@code length() - 1}
     * @param value the new value
     */
    public void set(final int index, final double value) {
        UnsafeApi.putLong(null, at(index), Double.doubleToRawLongBits(value));
    }

    /**
     * @param index the element index, 0..{@code length() - 1}
     * @return the element, opaque read
     */
    public double getOpaque(final int index) {
        return Double.longBitsToDouble(UnsafeApi.getLongOpaque(null, at(index)));
    }

    /**
     * Opaque write.
     *
     * @param index the element index, 0..{@code length() - 1}
     * @param value the new value
     */
    public void setOpaque(final int index, final double value) {
        UnsafeApi.putLongOpaque(null, at(index), Double.doubleToRawLongBits(value));
    }

    /**
     * @param index the element index, 0..{@code length() - 1}
     * @return the element, acquire read
     */
    public double getAcquire(final int index) {
        return Double.longBitsToDouble(UnsafeApi.getLongAcquire(null, at(index)));
    }

    /**
     * Release write.
     *
     * @param index the element index, 0..{@code length() - 1}
     * @param value the new value
     */
    public void setRelease(final int index, final double value) {
        UnsafeApi.putLongRelease(null, at(index), Double.doubleToRawLongBits(value));
    }

    /**
     * @param index the element index, 0..{@code length() - 1}
     * @return the element, volatile read
     */
    public double getVolatile(final int index) {
        return Double.longBitsToDouble(UnsafeApi.getLongVolatile(null, at(index)));
    }

    /**
     * Volatile write.
     *
     * @param index the element index, 0..{@code length() - 1}
     * @param value the new value
     */
    public void setVolatile(final int index, final double value) {
        UnsafeApi.putLongVolatile(null, at(index), Double.doubleToRawLongBits(value));
    }

    /**
     * @param index the element index, 0..{@code length() - 1}
     * @param expected the value the element must hold, compared by its raw bits (so {@code -0.0} is not {@code 0.0},
     *                 and one NaN bit pattern is not another)
     * @param value the new value
     * @return true when the element's bits were {@code expected}'s and it is now {@code value}
     */
    public boolean compareAndSet(final int index, final double expected, final double value) {
        return UnsafeApi.compareAndSetLong(null, at(index), Double.doubleToRawLongBits(expected),
            Double.doubleToRawLongBits(value));
    }

    /**
     * @param index the element index, 0..{@code length() - 1}
     * @param delta added to the element
     * @return the previous value, after atomically adding {@code delta} (CAS loop)
     */
    public double getAndAdd(final int index, final double delta) {
        final long i = at(index);
        long bits;
        do {
            bits = UnsafeApi.getLongVolatile(null, i);
        } while (!UnsafeApi.compareAndSetLong(null, i, bits, Double.doubleToRawLongBits(Double.longBitsToDouble(bits) + delta)));
        return Double.longBitsToDouble(bits);
    }

    /**
     * @param index the element index, 0..{@code length() - 1}
     * @param value the new value
     * @return the previous value, after atomically storing {@code value}
     */
    public double getAndSet(final int index, final double value) {
        return Double.longBitsToDouble(UnsafeApi.getAndSetLong(null, at(index), Double.doubleToRawLongBits(value)));
    }

    /**
     * @param index the element index, 0..{@code length() - 1}
     * @param value the candidate minimum
     * @return the previous value; the element is now {@code min(previous, value)} (a NaN argument is ignored)
     */
    public double getAndMin(final int index, final double value) {
        final long i = at(index);
        long bits = UnsafeApi.getLongVolatile(null, i);
        while (value < Double.longBitsToDouble(bits)
            && !UnsafeApi.compareAndSetLong(null, i, bits, Double.doubleToRawLongBits(value))) {
            bits = UnsafeApi.getLongVolatile(null, i);
        }
        return Double.longBitsToDouble(bits);
    }

    /**
     * @param index the element index, 0..{@code length() - 1}
     * @param value the candidate maximum
     * @return the previous value; the element is now {@code max(previous, value)} (a NaN argument is ignored)
     */
    public double getAndMax(final int index, final double value) {
        final long i = at(index);
        long bits = UnsafeApi.getLongVolatile(null, i);
        while (value > Double.longBitsToDouble(bits)
            && !UnsafeApi.compareAndSetLong(null, i, bits, Double.doubleToRawLongBits(value))) {
            bits = UnsafeApi.getLongVolatile(null, i);
        }
        return Double.longBitsToDouble(bits);
    }

    /**
     * Sets every element to {@code value} with plain stores.
     *
     * @param value stored in every element
     * @throws IllegalStateException if the array has been freed
     */
    public void fill(final double value) {
        checkLive();
        final long bits = Double.doubleToRawLongBits(value);
        final long end = address + (long)length() * 8;
        for (long at = address; at < end; at += 8) {
            UnsafeApi.putLong(null, at, bits);
        }
    }
}
