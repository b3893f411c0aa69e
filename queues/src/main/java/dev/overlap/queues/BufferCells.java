package dev.overlap.queues;

import org.agrona.concurrent.AtomicBuffer;

/** Counters in an Agrona {@link AtomicBuffer} (device memory or any off-heap / on-heap buffer). */
final class BufferCells extends CounterCells {
    private final AtomicBuffer buffer;

    BufferCells(final AtomicBuffer buffer) {
        this.buffer = buffer;
    }

    @Override
    long getVolatile(final int offset) {
        return buffer.getLongVolatile(offset);
    }

    @Override
    long getAcquire(final int offset) {
        return buffer.getLongAcquire(offset);
    }

    @Override
    void setRelease(final int offset, final long value) {
        buffer.putLongRelease(offset, value);
    }

    @Override
    void setVolatile(final int offset, final long value) {
        buffer.putLongVolatile(offset, value);
    }

    @Override
    long getAndAdd(final int offset, final long delta) {
        return buffer.getAndAddLong(offset, delta);
    }

    @Override
    boolean compareAndSet(final int offset, final long expected, final long value) {
        return buffer.compareAndSetLong(offset, expected, value);
    }

    @Override
    long compareAndExchange(final int offset, final long expected, final long value) {
        return buffer.compareAndExchangeLong(offset, expected, value);
    }
}
