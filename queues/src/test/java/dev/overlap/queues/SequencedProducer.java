package dev.overlap.queues;

import java.util.Arrays;
import java.util.function.IntFunction;
import java.util.function.Predicate;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Elements that say who offered them and in which order, {@code producer << 24 | sequence}, for the per-producer
 * FIFO checks of the conformance tests (JCTools' scheme: the producer's index in the top 8 bits).
 */
final class SequencedProducer {
    private static final int SEQUENCE_BITS = 24;
    private static final int MAX_SEQUENCE = (1 << SEQUENCE_BITS) - 1;

    private SequencedProducer() {
    }

    /**
     * @param offer the queue's offer ({@code q::offer})
     * @return laps for producer threads (by index) that each offer their next element once per lap; the sequence
     * advances only when the offer succeeded
     */
    static IntFunction<Race.Lap> offering(final Predicate<Integer> offer) {
        return producer -> {
            final int[] next = {0};
            return () -> {
                assertTrue(next[0] < MAX_SEQUENCE, "sequence numbers exhausted: lower the laps");
                if (offer.test(producer << SEQUENCE_BITS | next[0])) {
                    next[0]++;
                }
            };
        };
    }

    /** @return a consumer's last sequence seen per producer, none yet */
    static int[] noneSeen(final int producers) {
        final int[] last = new int[producers];
        Arrays.fill(last, -1);
        return last;
    }

    /**
     * Checks that {@code e} comes after the last element of its producer that this consumer saw, and records it.
     *
     * @param last         this consumer's last sequence per producer
     * @param repeatOk     whether the same element may be seen again (a peek)
     * @param how          "polled", "peeked"...: for the failure message
     */
    static void checkOrder(final int e, final int[] last, final boolean repeatOk, final String how) {
        final int producer = e >>> SEQUENCE_BITS;
        final int sequence = e & MAX_SEQUENCE;
        assertTrue(producer < last.length, how + " an element of producer " + producer + ", which does not exist");
        assertTrue(repeatOk ? sequence >= last[producer] : sequence > last[producer], how + " element " + sequence
            + " of producer " + producer + " after its element " + last[producer]);
        last[producer] = sequence;
    }
}
