package dev.overlap.queues;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/** 128 bytes of padding before {@code start}. */
abstract class HeapCellsPad0 extends CounterCells {
    long p00, p01, p02, p03, p04, p05, p06, p07, p08, p09, p0a, p0b, p0c, p0d, p0e, p0f;
}

/** {@code start}: the next position to pop, and the consumers' hint of {@code end} on the same line. */
abstract class HeapCellsStart extends HeapCellsPad0 {
    volatile long start;
    volatile long cachedEnd;
}

/** Padding between {@code start} and {@code end}. */
abstract class HeapCellsPad1 extends HeapCellsStart {
    long p10, p11, p12, p13, p14, p15, p16, p17, p18, p19, p1a, p1b, p1c, p1d, p1e, p1f;
}

/** {@code end}: the published prefix. */
abstract class HeapCellsEnd extends HeapCellsPad1 {
    volatile long end;
}

/** Padding between {@code end} and {@code endAlloc}. */
abstract class HeapCellsPad2 extends HeapCellsEnd {
    long p20, p21, p22, p23, p24, p25, p26, p27, p28, p29, p2a, p2b, p2c, p2d, p2e, p2f;
}

/** {@code endAlloc}: the next position to reserve, and the producers' hint of {@code start} on the same line. */
abstract class HeapCellsEndAlloc extends HeapCellsPad2 {
    volatile long endAlloc;
    volatile long cachedStart;
}

/** Padding after {@code endAlloc}. */
abstract class HeapCellsPad3 extends HeapCellsEndAlloc {
    long p30, p31, p32, p33, p34, p35, p36, p37, p38, p39, p3a, p3b, p3c, p3d, p3e, p3f;
}

/**
 * Counters on the heap, no Agrona, no JVM flag. The three hot counters ({@code start}, {@code end},
 * {@code endAlloc}, with the two hints beside {@code start} and {@code endAlloc}) are padded fields reached through field VarHandles, each on its own 128-byte span (the padding
 * comes from the class hierarchy, which the JVM's field layout cannot reorder, as in JCTools); the per-window
 * completion counters of {@link Publication#WINDOWED} sit in a {@code long[]}. Callers pass the counter offsets of
 * {@link CounterSequencer} as constants, so after inlining the offset dispatch folds away and an access costs what a
 * field access costs: no array index check on the single-item path (an array of all counters cost the facade about
 * a third more time per push and pop than JCTools' {@code MpmcArrayQueue}, whose counters are padded fields too).
 */
final class HeapCells extends HeapCellsPad3 {
    private static final VarHandle START;
    private static final VarHandle END;
    private static final VarHandle END_ALLOC;
    private static final VarHandle CACHED_END;
    private static final VarHandle CACHED_START;
    private static final VarHandle WINDOWS = MethodHandles.arrayElementVarHandle(long[].class);

    static {
        try {
            final MethodHandles.Lookup lookup = MethodHandles.lookup();
            START = lookup.findVarHandle(HeapCellsStart.class, "start", long.class);
            END = lookup.findVarHandle(HeapCellsEnd.class, "end", long.class);
            END_ALLOC = lookup.findVarHandle(HeapCellsEndAlloc.class, "endAlloc", long.class);
            CACHED_END = lookup.findVarHandle(HeapCellsStart.class, "cachedEnd", long.class);
            CACHED_START = lookup.findVarHandle(HeapCellsEndAlloc.class, "cachedStart", long.class);
        } catch (final ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final long[] windows;

    /** @param bytes the sequencer's counter bytes ({@link CounterSequencer#slotsOffset(int)}) */
    HeapCells(final int bytes) {
        this.windows = new long[Math.max(0, (bytes - CounterSequencer.WINDOWS) >> 3)];
    }

    private static VarHandle counter(final int offset) {
        switch (offset) {
            case CounterSequencer.START:
                return START;
            case CounterSequencer.END:
                return END;
            case CounterSequencer.END_ALLOC:
                return END_ALLOC;
            case CounterSequencer.CACHED_END:
                return CACHED_END;
            case CounterSequencer.CACHED_START:
                return CACHED_START;
            default:
                return null;
        }
    }

    private static int window(final int offset) {
        return (offset - CounterSequencer.WINDOWS) >> 3;
    }

    @Override
    long getVolatile(final int offset) {
        final VarHandle h = counter(offset);
        return h != null ? (long)h.getVolatile(this) : (long)WINDOWS.getVolatile(windows, window(offset));
    }

    @Override
    long getAcquire(final int offset) {
        final VarHandle h = counter(offset);
        return h != null ? (long)h.getAcquire(this) : (long)WINDOWS.getAcquire(windows, window(offset));
    }

    @Override
    void setRelease(final int offset, final long value) {
        final VarHandle h = counter(offset);
        if (h != null) {
            h.setRelease(this, value);
        } else {
            WINDOWS.setRelease(windows, window(offset), value);
        }
    }

    @Override
    void setVolatile(final int offset, final long value) {
        final VarHandle h = counter(offset);
        if (h != null) {
            h.setVolatile(this, value);
        } else {
            WINDOWS.setVolatile(windows, window(offset), value);
        }
    }

    @Override
    long getAndAdd(final int offset, final long delta) {
        final VarHandle h = counter(offset);
        return h != null ? (long)h.getAndAdd(this, delta) : (long)WINDOWS.getAndAdd(windows, window(offset), delta);
    }

    @Override
    boolean compareAndSet(final int offset, final long expected, final long value) {
        final VarHandle h = counter(offset);
        return h != null ? h.compareAndSet(this, expected, value)
            : WINDOWS.compareAndSet(windows, window(offset), expected, value);
    }

    @Override
    long compareAndExchange(final int offset, final long expected, final long value) {
        final VarHandle h = counter(offset);
        return h != null ? (long)h.compareAndExchange(this, expected, value)
            : (long)WINDOWS.compareAndExchange(windows, window(offset), expected, value);
    }
}
