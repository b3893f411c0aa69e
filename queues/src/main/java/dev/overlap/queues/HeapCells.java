package dev.overlap.queues;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/** Counters in a {@code long[]} accessed through a VarHandle: on-heap, no Agrona, no JVM flag. */
final class HeapCells extends CounterCells {
    private static final VarHandle LONGS = MethodHandles.arrayElementVarHandle(long[].class);
    private final long[] cells;

    HeapCells(final int bytes) {
        this.cells = new long[bytes >> 3];
    }

    @Override
    long getVolatile(final int offset) {
        return (long)LONGS.getVolatile(cells, offset >> 3);
    }

    @Override
    long getAcquire(final int offset) {
        return (long)LONGS.getAcquire(cells, offset >> 3);
    }

    @Override
    void setRelease(final int offset, final long value) {
        LONGS.setRelease(cells, offset >> 3, value);
    }

    @Override
    void setVolatile(final int offset, final long value) {
        LONGS.setVolatile(cells, offset >> 3, value);
    }

    @Override
    long getAndAdd(final int offset, final long delta) {
        return (long)LONGS.getAndAdd(cells, offset >> 3, delta);
    }

    @Override
    boolean compareAndSet(final int offset, final long expected, final long value) {
        return LONGS.compareAndSet(cells, offset >> 3, expected, value);
    }

    @Override
    long compareAndExchange(final int offset, final long expected, final long value) {
        return (long)LONGS.compareAndExchange(cells, offset >> 3, expected, value);
    }
}
