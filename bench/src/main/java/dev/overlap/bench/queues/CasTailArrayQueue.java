package dev.overlap.bench.queues;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The plain baseline of Atos' Fig. 1 ("our implementation of an atomicCAS-based queue"): a bounded MPMC array
 * queue where each push reserves one slot with a CAS on {@code tail} and each pop claims one with a CAS on
 * {@code head}; a slot's null/non-null state tells a consumer the item is written and a producer a lap later that
 * the slot was cleared. One CAS per item, no batching. Benchmark use only.
 */
final class CasTailArrayQueue<E> {
    private static final VarHandle SLOTS = MethodHandles.arrayElementVarHandle(Object[].class);
    private final Object[] slots;
    private final int mask;
    private final int capacity;
    private final AtomicLong head = new PaddedAtomicLong();
    private final AtomicLong tail = new PaddedAtomicLong();

    CasTailArrayQueue(final int capacity) {
        this.capacity = capacity;
        final int size = Integer.highestOneBit(capacity - 1) << 1;
        this.slots = new Object[Math.max(2, size)];
        this.mask = slots.length - 1;
    }

    boolean offer(final E e) {
        long t;
        do {
            t = tail.get();
            if (t - head.get() >= capacity) {
                return false;
            }
        } while (!tail.compareAndSet(t, t + 1));
        final int i = (int)(t & mask);
        while (SLOTS.getAcquire(slots, i) != null) {
            Thread.onSpinWait();
        }
        SLOTS.setRelease(slots, i, e);
        return true;
    }

    @SuppressWarnings("unchecked")
    E poll() {
        long h;
        do {
            h = head.get();
            if (h >= tail.get()) {
                return null;
            }
        } while (!head.compareAndSet(h, h + 1));
        final int i = (int)(h & mask);
        Object e;
        while ((e = SLOTS.getAcquire(slots, i)) == null) {
            Thread.onSpinWait();
        }
        SLOTS.setRelease(slots, i, null);
        return (E)e;
    }

    /** An AtomicLong with its value kept off its neighbours' cache lines. */
    @SuppressWarnings("unused")
    static final class PaddedAtomicLong extends AtomicLong {
        private static final long serialVersionUID = 1L;
        long p1, p2, p3, p4, p5, p6, p7, p8, p9, p10, p11, p12, p13, p14, p15;
    }
}
