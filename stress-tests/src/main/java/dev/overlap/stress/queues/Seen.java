package dev.overlap.stress.queues;

/**
 * What the actors of one jcstress state popped: a bit per distinct item value (values 1..30; 0 marks a slot read
 * before it was written, other values a stale slot of an earlier lap), a count (a duplicate makes it exceed the
 * number of distinct items) and order violations (an item of a producer seen after a later item of the same
 * producer by the same consumer).
 */
final class Seen {
    int mask;
    int count;
    int orderViolations;

    void add(final long value) {
        mask |= 1 << (int)Math.min(Math.max(value, 0), 31);
        count++;
    }

    void merge(final Seen other) {
        mask |= other.mask;
        count += other.count;
        orderViolations += other.orderViolations;
    }

    /** Items pushed as {@code producer * 10 + sequence}: checks sequence only grows per producer, for one consumer. */
    static int orderViolations(final long[] values, final int n) {
        int violations = 0;
        final int[] last = new int[4];
        for (int i = 0; i < n; i++) {
            final int producer = (int)(values[i] / 10);
            final int sequence = (int)(values[i] % 10);
            if (producer >= 0 && producer < last.length) {
                if (sequence <= last[producer]) {
                    violations++;
                }
                last[producer] = sequence;
            }
        }
        return violations;
    }
}
