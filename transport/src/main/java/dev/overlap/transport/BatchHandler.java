package dev.overlap.transport;

import org.agrona.DirectBuffer;

/**
 * Receives the item batches that arrive in a device's inbox for one queue, without allocation: the items are read
 * in place ({@code items.getInt(offset + 4 * i)} or {@code items.getLong(offset + 8 * i)} for
 * {@code i < count}, in the order the sender offered them).
 *
 * <p>Threading: calls for one inbox never overlap (the drain lock serialises them) and each call happens-after the
 * previous one, but successive calls may run on different threads: the owner device's workers, the progress thread,
 * a sender that drains its own inbox while it waits for space elsewhere, or {@link Transport#close()}. A handler must
 * therefore not rely on thread identity, must return promptly, and must not block on a send (use
 * {@link IntAggregator#tryOffer(int)} if it forwards items): a handler that waits for ring space can deadlock.
 *
 * <p>The buffer region is valid only during the call and must not be written: it is the inbox ring, which reclaims
 * (zeroes) it afterwards, or, for a batch delivered by reference
 * ({@link Transport.Builder#directBatchThreshold(int)}), the sender's own buffer, which the sender reuses once the
 * call has returned.
 */
@FunctionalInterface
public interface BatchHandler {
    /**
     * @param queueId the queue the batch is for
     * @param sender  id of the sending {@link Endpoint}
     * @param items   buffer holding the items (the inbox ring, or the sender's buffer for a batch by reference)
     * @param offset  byte offset of the first item
     * @param count   number of items, at least 1
     */
    void onBatch(int queueId, int sender, DirectBuffer items, int offset, int count);
}
