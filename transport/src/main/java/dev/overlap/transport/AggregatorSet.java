package dev.overlap.transport;

import java.util.Arrays;

/**
 * One job: the open aggregators of one endpoint (one per destination and queue the endpoint sends to), which the
 * endpoint's {@link Endpoint#poll() poll}, {@link Endpoint#flush() flush} and {@link Endpoint#close() close} visit.
 * An aggregator joins when the endpoint creates it and leaves when it closes.
 *
 * <p>Thread-safety: confined to the endpoint's owning thread. A handler that the endpoint runs while it waits (on the
 * same thread) may create or close aggregators during a visit: a visit reads the count afresh at each step, and an
 * aggregator moved into a visited position is visited at the next poll or flush.
 */
final class AggregatorSet {
    private Aggregator[] aggregators = new Aggregator[4];
    private int count;

    /** Adds {@code aggregator}; @return it */
    <A extends Aggregator> A add(final A aggregator) {
        if (count == aggregators.length) {
            aggregators = Arrays.copyOf(aggregators, count * 2);
        }
        aggregators[count++] = aggregator;
        return aggregator;
    }

    /** Removes {@code aggregator} (closed); nothing if it is not here. */
    void remove(final Aggregator aggregator) {
        for (int i = 0; i < count; i++) {
            if (aggregators[i] == aggregator) {
                aggregators[i] = aggregators[--count];
                aggregators[count] = null;
                return;
            }
        }
    }

    /** @return how many aggregators are open */
    int size() {
        return count;
    }

    /** Counts one poll on every aggregator (sending the batches whose wait is up). @return batches sent */
    int poll() {
        int work = 0;
        final Aggregator[] as = aggregators;
        for (int i = 0, n = count; i < n; i++) {
            work += as[i].poll();
        }
        return work;
    }

    /** Sends every aggregator's pending items through {@code sender} (blocking on back-pressure). */
    void flush(final EndpointRingSender sender) {
        final Aggregator[] as = aggregators;
        for (int i = 0; i < count; i++) {
            sender.sendBatch(as[i], FlushCause.EXPLICIT);
        }
    }

    /**
     * Closes every aggregator (each flushes its pending items and leaves the set), after aborting every open claim:
     * the endpoint refuses to wait while a claim is open, and a flush may wait.
     */
    void closeAll() {
        for (int i = 0; i < count; i++) {
            aggregators[i].abortClaimForClose();
        }
        while (count > 0) {
            aggregators[count - 1].close();
        }
    }
}
