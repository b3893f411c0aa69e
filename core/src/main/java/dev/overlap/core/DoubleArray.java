package dev.overlap.core;

import java.util.Objects;

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
    DoubleArray(final DeviceMemory memory, final long offset, final long length) {
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
    public double get(final int index) {
        return buffer.getDouble(at(index));
    }

    /** Plain write. */
    public void set(final int index, final double value) {
        buffer.putDouble(at(index), value);
    }

    /** @return the element, opaque read */
    public double getOpaque(final int index) {
        return Double.longBitsToDouble(buffer.getLongOpaque(at(index)));
    }

    /** Opaque write. */
    public void setOpaque(final int index, final double value) {
        buffer.putLongOpaque(at(index), Double.doubleToRawLongBits(value));
    }

    /** @return the element, acquire read */
    public double getAcquire(final int index) {
        return Double.longBitsToDouble(buffer.getLongAcquire(at(index)));
    }

    /** Release write. */
    public void setRelease(final int index, final double value) {
        buffer.putLongRelease(at(index), Double.doubleToRawLongBits(value));
    }

    /** @return the element, volatile read */
    public double getVolatile(final int index) {
        return Double.longBitsToDouble(buffer.getLongVolatile(at(index)));
    }

    /** Volatile write. */
    public void setVolatile(final int index, final double value) {
        buffer.putLongVolatile(at(index), Double.doubleToRawLongBits(value));
    }

    /** @return true when the element's bits were {@code expected}'s and it is now {@code value} */
    public boolean compareAndSet(final int index, final double expected, final double value) {
        return buffer.compareAndSetLong(at(index), Double.doubleToRawLongBits(expected),
            Double.doubleToRawLongBits(value));
    }

    /** @return the previous value, after atomically adding {@code delta} (CAS loop) */
    public double getAndAdd(final int index, final double delta) {
        final int i = at(index);
        long bits;
        do {
            bits = buffer.getLongVolatile(i);
        } while (!buffer.compareAndSetLong(i, bits, Double.doubleToRawLongBits(Double.longBitsToDouble(bits) + delta)));
        return Double.longBitsToDouble(bits);
    }

    /** @return the previous value, after atomically storing {@code value} */
    public double getAndSet(final int index, final double value) {
        return Double.longBitsToDouble(buffer.getAndSetLong(at(index), Double.doubleToRawLongBits(value)));
    }

    /** @return the previous value; the element is now {@code min(previous, value)} (a NaN argument is ignored) */
    public double getAndMin(final int index, final double value) {
        final int i = at(index);
        long bits = buffer.getLongVolatile(i);
        while (value < Double.longBitsToDouble(bits)
            && !buffer.compareAndSetLong(i, bits, Double.doubleToRawLongBits(value))) {
            bits = buffer.getLongVolatile(i);
        }
        return Double.longBitsToDouble(bits);
    }

    /** @return the previous value; the element is now {@code max(previous, value)} (a NaN argument is ignored) */
    public double getAndMax(final int index, final double value) {
        final int i = at(index);
        long bits = buffer.getLongVolatile(i);
        while (value > Double.longBitsToDouble(bits)
            && !buffer.compareAndSetLong(i, bits, Double.doubleToRawLongBits(value))) {
            bits = buffer.getLongVolatile(i);
        }
        return Double.longBitsToDouble(bits);
    }

    /** Sets every element to {@code value} with plain stores. */
    public void fill(final double value) {
        for (int i = 0, at = offset; i < length; i++, at += 8) {
            buffer.putDouble(at, value);
        }
    }
}
