package dev.overlap.worklist;

import dev.overlap.core.Device;
import dev.overlap.core.OfferResult;
import dev.overlap.queues.IntCounterRing;
import dev.overlap.queues.IntPriorityWorklist;
import dev.overlap.queues.Publication;
import org.agrona.DirectBuffer;

/**
 * A device's task queue inside a {@link DistributedWorklist}: a counter-based ring (FIFO) or a priority worklist,
 * plus an overflow list for the rare moment the ring is full. The ring is the hot path (one reservation per push
 * or per batch pop); the overflow takes a lock, per batch, only when the ring refused an item: a full queue is
 * back-pressure that must neither drop a task nor block a worker or an inbox handler (blocking there could
 * deadlock devices that send to each other). Tasks in the overflow are still counted as existing by the
 * termination detector, so they are never forgotten. Thread-safe: any thread may push and pop.
 */
abstract class LocalQueue {
    private final Object overflowLock = new Object();
    private long[] overflow = new long[64];
    private int overflowCount;
    private volatile int overflowSize;
    private long overflowPushes;

    static LocalQueue fifo(final Device device, final int capacity, final Publication publication) {
        return new Fifo(IntCounterRing.allocate(device, capacity, publication));
    }

    static LocalQueue priority(final Device device, final int capacity, final int threshold, final int delta) {
        return new Priority(IntPriorityWorklist.allocate(device, capacity, threshold, delta));
    }

    /** Pushes one task; never fails. */
    final void push(final int task, final int priority) {
        if (!tryPush(task, priority)) {
            spill(IntPriorityWorklist.entry(task, priority));
        }
    }

    /** Pushes {@code tasks[0 .. n)} with priority 0; never fails (what the ring refuses spills). */
    abstract void pushAll(int[] tasks, int n);

    /**
     * Pushes {@code entries[0 .. n)} ({@link IntPriorityWorklist#entry} packed task and priority); never fails. May
     * reorder {@code entries}.
     */
    abstract void pushEntries(long[] entries, int n);

    /** Pushes {@code count} items of an inbox batch (ints for FIFO, packed entries for priority); never fails. */
    abstract void pushBatch(DirectBuffer items, int offset, int count);

    /**
     * Pops up to {@code max} tasks.
     *
     * @param tasks      receives the tasks
     * @param priorities receives their priorities (left untouched by a FIFO queue)
     * @param entries    scratch of at least {@code max} entries for a priority queue's batch pop (unused by FIFO)
     * @return how many were popped; 0 when both the ring and the overflow were empty
     */
    final int pop(final int[] tasks, final int[] priorities, final long[] entries, final int max) {
        final int n = popRing(tasks, priorities, entries, max);
        if (n > 0 || overflowSize == 0) {
            return n;
        }
        return popOverflow(tasks, priorities, max);
    }

    /** @return tasks in the queue (a moment's snapshot) */
    final long size() {
        return ringSize() + overflowSize;
    }

    /** @return pushes that went to the overflow because the ring was full (a snapshot) */
    final long overflowPushes() {
        synchronized (overflowLock) {
            return overflowPushes;
        }
    }

    abstract boolean tryPush(int task, int priority);

    /**
     * @param result what a non-blocking offer of the ring or worklist returned ({@link OfferResult})
     * @return the items it took: the count, or 0 for a full ring ({@link OfferResult#BACK_PRESSURED}), which spills
     * @throws IllegalStateException if the queue's memory was freed ({@link OfferResult#CLOSED}): a use after the
     *                               worklist closed, refused as every other call is
     */
    final int taken(final long result) {
        if (result == OfferResult.CLOSED) {
            throw new IllegalStateException("a local queue of a closed DistributedWorklist: its device memory was freed");
        }
        return result >= 0 ? (int)Math.min(result, Integer.MAX_VALUE) : 0;
    }

    abstract int popRing(int[] tasks, int[] priorities, long[] entries, int max);

    abstract long ringSize();

    abstract void free();

    /** @return true once the queue's device memory was freed (by {@link #free()} or its mesh's close) */
    abstract boolean isFreed();

    final void spill(final long entry) {
        synchronized (overflowLock) {
            if (overflowCount == overflow.length) {
                overflow = java.util.Arrays.copyOf(overflow, overflowCount * 2);
            }
            overflow[overflowCount++] = entry;
            overflowPushes++;
            overflowSize = overflowCount;
        }
    }

    private int popOverflow(final int[] tasks, final int[] priorities, final int max) {
        synchronized (overflowLock) {
            final int n = Math.min(max, overflowCount);
            for (int i = 0; i < n; i++) {
                final long e = overflow[--overflowCount];
                tasks[i] = IntPriorityWorklist.item(e);
                priorities[i] = IntPriorityWorklist.key(e);
            }
            overflowSize = overflowCount;
            return n;
        }
    }

    /** FIFO: an {@link IntCounterRing}; priorities are not stored (pops report 0). */
    private static final class Fifo extends LocalQueue {
        private final IntCounterRing ring;
        /** Staging for inbox batches; only used under the inbox drain lock, which serialises handler calls. */
        private int[] staging = new int[256];

        Fifo(final IntCounterRing ring) {
            this.ring = ring;
        }

        @Override
        boolean tryPush(final int task, final int priority) {
            final long result = ring.offer(task); // the new position, or a code
            taken(result);
            return result >= 0;
        }

        @Override
        void pushAll(final int[] tasks, final int n) {
            final int pushed = taken(ring.offer(tasks, 0, n));
            for (int i = pushed; i < n; i++) {
                spill(tasks[i] & 0xffffffffL);
            }
        }

        @Override
        void pushEntries(final long[] entries, final int n) {
            for (int i = 0; i < n; i++) {
                push(IntPriorityWorklist.item(entries[i]), 0);
            }
        }

        @Override
        void pushBatch(final DirectBuffer items, final int offset, final int count) {
            if (staging.length < count) {
                staging = new int[Integer.highestOneBit(count - 1) << 1];
            }
            final int[] s = staging;
            for (int i = 0; i < count; i++) {
                s[i] = items.getInt(offset + 4 * i);
            }
            final int pushed = taken(ring.offer(s, 0, count));
            for (int i = pushed; i < count; i++) {
                spill(s[i] & 0xffffffffL);
            }
        }

        @Override
        int popRing(final int[] tasks, final int[] priorities, final long[] entries, final int max) {
            return ring.poll(tasks, 0, max);
        }

        @Override
        long ringSize() {
            return ring.size();
        }

        @Override
        void free() {
            ring.free();
        }

        @Override
        boolean isFreed() {
            return ring.isFreed();
        }
    }

    /** Priority: an {@link IntPriorityWorklist}; remote batches carry packed (task, priority) entries. */
    private static final class Priority extends LocalQueue {
        private final IntPriorityWorklist worklist;
        /** Staging for inbox batches; only used under the inbox drain lock, which serialises handler calls. */
        private long[] staging = new long[256];

        Priority(final IntPriorityWorklist worklist) {
            this.worklist = worklist;
        }

        @Override
        boolean tryPush(final int task, final int priority) {
            final int result = worklist.push(task, priority); // the band that took it, or a code
            taken(result);
            return result >= 0;
        }

        @Override
        void pushAll(final int[] tasks, final int n) {
            for (int i = 0; i < n; i++) {
                push(tasks[i], 0);
            }
        }

        @Override
        void pushEntries(final long[] entries, final int n) {
            for (int i = taken(worklist.pushAll(entries, n)); i < n; i++) {
                spill(entries[i]);
            }
        }

        @Override
        void pushBatch(final DirectBuffer items, final int offset, final int count) {
            if (staging.length < count) {
                staging = new long[Integer.highestOneBit(count - 1) << 1];
            }
            final long[] s = staging;
            for (int i = 0; i < count; i++) {
                s[i] = items.getLong(offset + 8 * i);
            }
            pushEntries(s, count);
        }

        @Override
        int popRing(final int[] tasks, final int[] priorities, final long[] entries, final int max) {
            final int n = worklist.poll(entries, 0, max);
            for (int i = 0; i < n; i++) {
                final long e = entries[i];
                tasks[i] = IntPriorityWorklist.item(e);
                priorities[i] = IntPriorityWorklist.key(e);
            }
            return n;
        }

        @Override
        long ringSize() {
            return worklist.size();
        }

        @Override
        void free() {
            worklist.free();
        }

        @Override
        boolean isFreed() {
            return worklist.isFreed();
        }
    }
}
