package dev.overlap.queues;

/**
 * The 64-bit counters of one queue, addressed by byte offset: in device memory ({@link BufferCells}, Agrona) or on
 * the heap ({@link HeapCells}: padded fields and VarHandles, no JVM flag needed). Memory ordering follows the method names
 * ({@code volatile} = sequentially consistent; atomics are sequentially consistent read-modify-writes).
 */
abstract class CounterCells {
    abstract long getVolatile(int offset);

    abstract long getAcquire(int offset);

    abstract void setRelease(int offset, long value);

    abstract void setVolatile(int offset, long value);

    abstract long getAndAdd(int offset, long delta);

    abstract boolean compareAndSet(int offset, long expected, long value);

    /** @return the value seen: {@code expected} when the exchange happened */
    abstract long compareAndExchange(int offset, long expected, long value);
}
