package dev.overlap.stress.transport;

import dev.overlap.transport.BatchHandler;
import org.agrona.DirectBuffer;

/**
 * Receiver for stress tests: items are {@code sender << 16 | seq} with {@code seq} counting from 0 per sender
 * ({@code int} items), or that value with {@link #LONG_MARK} in the upper half ({@code long} items, see
 * {@link #ofLongs}). Records how many arrived and flags a duplicate, a gap, a reordering or a corrupted upper half.
 * Plain fields: the inbox drain lock serialises calls (and orders them), and the arbiter reads after all actors.
 */
final class ItemLog implements BatchHandler {
    static final int DUPLICATE_OR_REORDERED = 1;
    static final int UNKNOWN_SENDER = 2;
    /** Flag: a {@code long} item whose upper half is not {@link #LONG_MARK} (torn, truncated or misaligned). */
    static final int BAD_UPPER_HALF = 8;
    /** Upper half of every {@code long} item. */
    static final long LONG_MARK = 0x5EED_0F0FL;

    private final int[] next;
    private final boolean longs;
    int received;
    int violations;

    /** A log of {@code int} items from {@code senders} senders. */
    ItemLog(final int senders) {
        this(senders, false);
    }

    private ItemLog(final int senders, final boolean longs) {
        this.next = new int[senders];
        this.longs = longs;
    }

    /** @return a log of {@code long} items ({@link #longItem}) from {@code senders} senders */
    static ItemLog ofLongs(final int senders) {
        return new ItemLog(senders, true);
    }

    /** @return the {@code long} item {@code seq} of {@code sender} */
    static long longItem(final int sender, final int seq) {
        return LONG_MARK << 32 | item(sender, seq);
    }

    static int item(final int sender, final int seq) {
        return sender << 16 | seq;
    }

    @Override
    public void onBatch(final int queueId, final int sender, final DirectBuffer items, final int offset,
        final int count) {
        for (int i = 0; i < count; i++) {
            final int item;
            if (longs) {
                final long value = items.getLong(offset + 8 * i);
                if (value >>> 32 != LONG_MARK) {
                    violations |= BAD_UPPER_HALF;
                }
                item = (int)value;
            } else {
                item = items.getInt(offset + 4 * i);
            }
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
