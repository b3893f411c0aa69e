package dev.overlap.queues;

import org.agrona.UnsafeApi;
import org.agrona.concurrent.AtomicBuffer;

/**
 * A queue's region (its counters and its item slots) in an Agrona {@link AtomicBuffer}: device memory or any
 * off-heap / on-heap buffer.
 *
 * <p><b>No per-access bounds check.</b> The region's size is checked once, when the queue is built
 * ({@link QueueMemory#checkRegion}); every offset a queue passes here is a counter constant or a slot offset masked
 * into the slot array, so it is in range by construction. Accesses therefore go straight to
 * {@link UnsafeApi} with the buffer's base object and address captured at construction, as JCTools does for its
 * arrays. {@code AtomicBuffer}'s own accessors check every index unless the JVM runs with
 * {@code -Dagrona.disable.bounds.checks=true}; on the single-item path of a ring that check was a large share of
 * the time of a push and pop (JMH {@code QueueThroughputBenchmark.single}; figures in
 * {@code bench/results/2026-11-25-queues.md}). The
 * buffer must therefore stay wrapped around the same memory while the queue is in use (device memory never moves;
 * an on-heap buffer's array is held through {@link #base}). The buffer itself is held too: for a buffer over a
 * direct {@code ByteBuffer}, the buffer is what keeps the memory from being freed by the {@code ByteBuffer}'s
 * cleaner (an address alone does not; a jcstress state that held only the address read freed memory).
 */
final class BufferCells extends CounterCells {
    private final Object base;
    private final long address;
    /** Held for reachability only: it keeps the memory behind {@link #address} alive as long as the queue. */
    @SuppressWarnings("unused")
    private final AtomicBuffer owner;

    BufferCells(final AtomicBuffer buffer) {
        this.base = buffer.byteArray();
        this.address = buffer.addressOffset();
        this.owner = buffer;
    }

    @Override
    long getVolatile(final int offset) {
        return UnsafeApi.getLongVolatile(base, address + offset);
    }

    @Override
    long getAcquire(final int offset) {
        return UnsafeApi.getLongAcquire(base, address + offset);
    }

    @Override
    void setRelease(final int offset, final long value) {
        UnsafeApi.putLongRelease(base, address + offset, value);
    }

    @Override
    void setVolatile(final int offset, final long value) {
        UnsafeApi.putLongVolatile(base, address + offset, value);
    }

    @Override
    long getAndAdd(final int offset, final long delta) {
        return UnsafeApi.getAndAddLong(base, address + offset, delta);
    }

    @Override
    boolean compareAndSet(final int offset, final long expected, final long value) {
        return UnsafeApi.compareAndSetLong(base, address + offset, expected, value);
    }

    @Override
    long compareAndExchange(final int offset, final long expected, final long value) {
        return UnsafeApi.compareAndExchangeLong(base, address + offset, expected, value);
    }

    /** Plain read of the {@code int} slot at {@code offset}. */
    int getInt(final int offset) {
        return UnsafeApi.getInt(base, address + offset);
    }

    /** Plain write of the {@code int} slot at {@code offset}. */
    void putInt(final int offset, final int value) {
        UnsafeApi.putInt(base, address + offset, value);
    }

    /** Plain read of the {@code long} slot at {@code offset}. */
    long getLong(final int offset) {
        return UnsafeApi.getLong(base, address + offset);
    }

    /** Plain write of the {@code long} slot at {@code offset}. */
    void putLong(final int offset, final long value) {
        UnsafeApi.putLong(base, address + offset, value);
    }
}
