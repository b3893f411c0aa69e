package dev.overlap.queues;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * Sequential specifications the Lincheck tests check against, written independently of the queues (a test that
 * used the queue itself as its specification would accept a queue that is wrong even sequentially).
 */
final class QueueSpecs {
    private QueueSpecs() {
    }

    /** A bounded FIFO of 3 ints: the spec of the rings (all-or-nothing batch push, greedy batch pop). */
    public static final class Ring3 {
        private final ArrayDeque<Integer> items = new ArrayDeque<>();

        public boolean offer(final int item) {
            if (items.size() == 3) {
                return false;
            }
            items.addLast(item);
            return true;
        }

        public boolean offerAll(final int a, final int b) {
            if (items.size() > 1) {
                return false;
            }
            items.addLast(a);
            items.addLast(b);
            return true;
        }

        public int poll() {
            final Integer item = items.pollFirst();
            return item == null ? -1 : item;
        }

        public List<Integer> pollBatch(final int max) {
            final List<Integer> out = new ArrayList<>();
            while (out.size() < max && !items.isEmpty()) {
                out.add(items.pollFirst());
            }
            return out;
        }
    }

    /** A one-shot block of 4 ints: pushes are refused once 4 were pushed; a batch push keeps what fits. */
    public static final class Block4 {
        private final ArrayDeque<Integer> items = new ArrayDeque<>();
        private int pushed;

        public boolean offer(final int item) {
            return offerBatch(item) == 1;
        }

        private int offerBatch(final int... batch) {
            int k = 0;
            for (final int item : batch) {
                if (pushed == 4) {
                    break;
                }
                pushed++;
                items.addLast(item);
                k++;
            }
            return k;
        }

        public int offerBatch(final int a, final int b) {
            return offerBatch(new int[] {a, b});
        }

        public int poll() {
            final Integer item = items.pollFirst();
            return item == null ? -1 : item;
        }

        public List<Integer> pollBatch(final int max) {
            final List<Integer> out = new ArrayList<>();
            while (out.size() < max && !items.isEmpty()) {
                out.add(items.pollFirst());
            }
            return out;
        }
    }

    /** A bounded FIFO of 3 objects: the spec of {@link CounterRingQueue} (drain takes min(max, size)). */
    public static final class ObjectQueue3 {
        private final ArrayDeque<Integer> items = new ArrayDeque<>();

        public boolean offer(final int item) {
            if (items.size() == 3) {
                return false;
            }
            items.addLast(item);
            return true;
        }

        public Integer poll() {
            return items.pollFirst();
        }

        public Integer peek() {
            return items.peekFirst();
        }

        public List<Integer> drain(final int max) {
            final List<Integer> out = new ArrayList<>();
            while (out.size() < max && !items.isEmpty()) {
                out.add(items.pollFirst());
            }
            return out;
        }
    }

    /** A bounded FIFO of 32 ints (never full in the batch-pop scenarios). */
    public static final class Ring32 {
        private final ArrayDeque<Integer> items = new ArrayDeque<>();

        public boolean offer(final int item) {
            if (items.size() == 32) {
                return false;
            }
            items.addLast(item);
            return true;
        }

        public boolean offerAll(final int a, final int b) {
            if (items.size() > 30) {
                return false;
            }
            items.addLast(a);
            items.addLast(b);
            return true;
        }

        public int poll() {
            final Integer item = items.pollFirst();
            return item == null ? -1 : item;
        }

        public List<Integer> pollBatch(final int max) {
            final List<Integer> out = new ArrayList<>();
            while (out.size() < max && !items.isEmpty()) {
                out.add(items.pollFirst());
            }
            return out;
        }
    }

    /** A bounded FIFO of 32 objects (never full in the drain scenarios). */
    public static final class ObjectQueue32 {
        private final ArrayDeque<Integer> items = new ArrayDeque<>();

        public boolean offer(final int item) {
            if (items.size() == 32) {
                return false;
            }
            items.addLast(item);
            return true;
        }

        public Integer poll() {
            return items.pollFirst();
        }

        public Integer peek() {
            return items.peekFirst();
        }

        public List<Integer> drain(final int max) {
            final List<Integer> out = new ArrayList<>();
            while (out.size() < max && !items.isEmpty()) {
                out.add(items.pollFirst());
            }
            return out;
        }
    }
}
