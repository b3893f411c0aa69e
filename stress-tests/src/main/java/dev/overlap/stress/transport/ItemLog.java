package dev.overlap.stress.transport;

import dev.overlap.transport.inbox.BatchHandler;
import org.agrona.DirectBuffer;

/**
 * Receiver for stress tests: items are {@code sender << 16 | seq} with {@code seq} counting from 0 per sender.
 * Records how many arrived and flags a duplicate, a gap or a reordering. Plain fields: the inbox drain lock
 * serialises calls (and orders them), and the arbiter reads after all actors.
 */
final class ItemLog implements BatchHandler {
    static final int DUPLICATE_OR_REORDERED = 1;
    static final int UNKNOWN_SENDER = 2;

    private final int[] next;
    int received;
    int violations;

    ItemLog(final int senders) {
        next = new int[senders];
    }

    static int item(final int sender, final int seq) {
        return sender << 16 | seq;
    }

    @Override
    public void onBatch(final int queueId, final int sender, final DirectBuffer items, final int offset,
        final int count) {
        for (int i = 0; i < count; i++) {
            final int item = items.getInt(offset + 4 * i);
            final int from = item >>> 16;
            if (from >= next.length) {
                violations |= UNKNOWN_SENDER;
            } else if ((item & 0xFFFF) != next[from]++) {
                violations |= DUPLICATE_OR_REORDERED;
            }
            received++;
        }
    }

    /** @return true if sender {@code s} delivered exactly {@code n} items */
    boolean complete(final int s, final int n) {
        return next[s] == n;
    }
}
