package dev.overlap.transport;

import org.agrona.DirectBuffer;

import java.util.ArrayList;
import java.util.List;

/** Test handler: records every item (as long) and every batch size, in delivery order. Not thread-safe by itself. */
final class Recorder implements BatchHandler {
    final List<Long> items = new ArrayList<>();
    final List<Integer> batches = new ArrayList<>();
    final ItemType type;

    Recorder(final ItemType type) {
        this.type = type;
    }

    @Override
    public void onBatch(final int queueId, final int sender, final DirectBuffer buffer, final int offset,
        final int count) {
        batches.add(count);
        for (int i = 0; i < count; i++) {
            items.add(type == ItemType.INT ? buffer.getInt(offset + 4 * i) : buffer.getLong(offset + 8 * i));
        }
    }
}
