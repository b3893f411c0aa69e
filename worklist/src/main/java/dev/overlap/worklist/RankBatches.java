package dev.overlap.worklist;

import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteOrder;

/**
 * One worker's batches of tasks for devices of other ranks: one buffer per destination (rank, device), allocated at
 * the first push to it, sent as one batch through the worker's {@link RankLink.RankSender} when it is full or
 * flushed. The batching of local remote pushes (the transport's aggregators) for pushes that leave the process:
 * aggregated per destination, one message per batch, no allocation per task.
 *
 * <p>Every task is counted created (its worker's participant in the {@link QuiescenceDetector}) <em>before</em> it
 * enters a batch, so before its message is sent: a task waiting in a batch or in flight to another rank keeps every
 * rank's run alive ({@link RankTermination} relies on it).
 *
 * <p>Thread-safety: confined to its worker (the host takes it over between runs, after joining the launch).
 */
final class RankBatches {
    private final RankLink.RankSender sender;
    private final QuiescenceDetector detector;
    private final int participant;
    private final int rank;
    private final int devices;
    private final int queueId;
    private final int itemBytes;
    private final int batchItems;
    private final UnsafeBuffer[] buffers;
    private final int[] counts;
    private boolean pending;

    /**
     * @param batchBytes bytes of a full batch (1 item for an eager worklist), capped by what one message carries
     */
    RankBatches(final RankLink link, final RankLink.RankSender sender, final QuiescenceDetector detector,
        final int participant, final int queueId, final int itemBytes, final int batchBytes) {
        this.sender = sender;
        this.detector = detector;
        this.participant = participant;
        this.rank = link.rank();
        this.devices = link.devicesPerRank();
        this.queueId = queueId;
        this.itemBytes = itemBytes;
        this.batchItems = Math.max(1, Math.min(batchBytes / itemBytes, sender.maxBatchItems(itemBytes)));
        this.buffers = new UnsafeBuffer[link.ranks() * devices];
        this.counts = new int[buffers.length];
    }

    /** Counts an {@code int} task for {@code device} of rank {@code toRank} created and adds it; sends a full batch. */
    void addInt(final int toRank, final int device, final int task) {
        detector.created(participant, 1);
        final int d = toRank * devices + device;
        final int n = counts[d];
        buffer(d).putInt(n * 4, task, ByteOrder.nativeOrder());
        added(d, n + 1, toRank, device);
    }

    /** Adds a priority worklist's {@code long} entry for {@code device} of rank {@code toRank}. */
    void addLong(final int toRank, final int device, final long entry) {
        detector.created(participant, 1);
        final int d = toRank * devices + device;
        final int n = counts[d];
        buffer(d).putLong(n * 8, entry, ByteOrder.nativeOrder());
        added(d, n + 1, toRank, device);
    }

    private UnsafeBuffer buffer(final int d) {
        UnsafeBuffer b = buffers[d];
        if (b == null) {
            b = buffers[d] = new UnsafeBuffer(new byte[batchItems * itemBytes]);
        }
        return b;
    }

    private void added(final int d, final int n, final int toRank, final int device) {
        if (n == batchItems) {
            counts[d] = 0;
            sender.send(toRank, device, queueId, itemBytes, buffers[d], n);
        } else {
            counts[d] = n;
            pending = true;
        }
    }

    /** @return true if some batch holds tasks not sent yet */
    boolean pending() {
        return pending;
    }

    /** Sends every batch that holds tasks. */
    void flush() {
        if (!pending) {
            return;
        }
        pending = false;
        for (int d = 0; d < counts.length; d++) {
            final int n = counts[d];
            if (n > 0) {
                counts[d] = 0;
                sender.send(d / devices, d % devices, queueId, itemBytes, buffers[d], n);
            }
        }
    }

    /** Forgets the tasks not sent (a stopped run: they were counted and the stop rebalances the counts). */
    void discard() {
        java.util.Arrays.fill(counts, 0);
        pending = false;
    }

    /** Waits until every batch sent has been applied at its destination (host, after a stopped run). */
    void quiet() {
        sender.quiet();
    }

    /** @return this rank (pushes to it stay local) */
    int rank() {
        return rank;
    }
}
