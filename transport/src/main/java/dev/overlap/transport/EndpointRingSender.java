package dev.overlap.transport;

import dev.overlap.core.OfferResult;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.ringbuffer.ManyToOneRingBuffer;
import org.agrona.concurrent.status.AtomicCounter;

import static dev.overlap.transport.MessageFormat.ADDRESS_OFFSET;
import static dev.overlap.transport.MessageFormat.ATOMIC_LENGTH;
import static dev.overlap.transport.MessageFormat.BATCH_HEADER_LENGTH;
import static dev.overlap.transport.MessageFormat.EXPECTED_OFFSET;
import static dev.overlap.transport.MessageFormat.FETCH_LENGTH;
import static dev.overlap.transport.MessageFormat.FETCH_SEQ_OFFSET;
import static dev.overlap.transport.MessageFormat.FETCH_SLOT_OFFSET;
import static dev.overlap.transport.MessageFormat.GET_ADDRESS_OFFSET;
import static dev.overlap.transport.MessageFormat.GET_LENGTH;
import static dev.overlap.transport.MessageFormat.GET_LENGTH_OFFSET;
import static dev.overlap.transport.MessageFormat.GET_SEQ_OFFSET;
import static dev.overlap.transport.MessageFormat.GET_SLOT_OFFSET;
import static dev.overlap.transport.MessageFormat.ITEMS_OFFSET;
import static dev.overlap.transport.MessageFormat.OPERAND_OFFSET;
import static dev.overlap.transport.MessageFormat.OP_OFFSET;
import static dev.overlap.transport.MessageFormat.PUT_ADDRESS_OFFSET;
import static dev.overlap.transport.MessageFormat.PUT_DATA_OFFSET;
import static dev.overlap.transport.MessageFormat.PUT_HEADER_LENGTH;
import static dev.overlap.transport.MessageFormat.PUT_LENGTH_OFFSET;
import static dev.overlap.transport.MessageFormat.QUEUE_ID_OFFSET;
import static dev.overlap.transport.MessageFormat.SENDER_OFFSET;

/**
 * One job: writing an endpoint's messages into destination rings. A message is claimed in the destination's Agrona
 * ring ({@code tryClaim}; on a full ring the endpoint waits as {@link EndpointWaits} describes, or, on the
 * never-waiting paths, gives up at once), written, counted and committed; the commit (a release store of the record
 * length) publishes everything written before it to the drainer that applies the message. Every batch of items,
 * whatever sent it (a full batch, a poll, a flush, a close, a bulk offer, eager mode, waiting or not), is committed
 * by {@link #commitBatch}, after its items are in the record and its items are counted as enqueued (a claimed batch
 * too: {@link #commitClaim}); every remote operation by {@link #commitOp}. The never-waiting paths answer with
 * {@link OfferResult} codes.
 *
 * <p>The third of {@link Endpoint}'s superclasses (see {@link EndpointCounters}), so the batch-send paths of the
 * aggregators reach the endpoint's fields with no extra load; every method is final. It refuses every send once the
 * endpoint or its transport is closed ({@link #checkOpen}).
 *
 * <p>Thread-safety: confined to the endpoint's owning thread. {@link #directSource()} is also read by the drainer
 * that applies a batch by reference: the descriptor's commit publishes it.
 */
abstract class EndpointRingSender extends EndpointFence {
    final Transport transport;
    final int device;
    private final int directBatchThreshold;
    /**
     * The caller's buffer while a bulk offer has batches out by reference (else null). Written by the owner before
     * it commits the first descriptor (the commit's release store publishes it) and cleared after the last one has
     * been applied; read by the drainer that applies a descriptor.
     */
    private DirectBuffer directSource;
    private boolean closed;

    EndpointRingSender(final Transport transport, final int id, final int device, final IdleStrategy idle,
        final AtomicCounter[] counters) {
        super(transport, id, device, idle, counters);
        this.transport = transport;
        this.device = device;
        this.directBatchThreshold = transport.directPolicy() == DirectPolicy.NEVER ? Integer.MAX_VALUE
            : transport.directBatchThreshold();
    }

    /** @throws IllegalStateException if this endpoint or its transport is closed (naming the transport) */
    final void checkOpen() {
        if (closed) {
            throw new IllegalStateException("endpoint " + id + " on dev" + device + " is closed");
        }
        if (transport.isClosed()) {
            throw new IllegalStateException(transport + " is closed (endpoint " + id + " on dev" + device + ")");
        }
    }

    /** Refuses every later send; the owner calls it once the endpoint's close has flushed it. */
    final void markClosed() {
        closed = true;
    }

    /** @return true once {@link #markClosed()} */
    final boolean closed() {
        return closed;
    }

    // ---------------------------------------------------------------------------------------------- claims

    /** Claims {@code length} payload bytes in {@code inbox}'s ring, waiting on back-pressure. @return the index */
    final int claim(final Inbox inbox, final int msgTypeId, final int length) {
        final int index = inbox.ring().tryClaim(msgTypeId, length);
        return index > 0 ? index : claimSlow(inbox, msgTypeId, length);
    }

    private int claimSlow(final Inbox inbox, final int msgTypeId, final int length) {
        final ManyToOneRingBuffer ring = inbox.ring();
        final int dest = inbox.device();
        waits.begin(EndpointWaits.SPACE, dest);
        while (true) {
            add(TransportCounter.BACK_PRESSURE_RETRIES, 1);
            waits.idle(EndpointWaits.SPACE, dest);
            final int index = ring.tryClaim(msgTypeId, length);
            if (index > 0) {
                return index;
            }
        }
    }

    /** Claims without waiting. @return the index, or 0 if the ring has no room now (counted as a retry) */
    private int tryClaim(final Inbox inbox, final int msgTypeId, final int length) {
        final int index = inbox.ring().tryClaim(msgTypeId, length);
        if (index > 0) {
            return index;
        }
        add(TransportCounter.BACK_PRESSURE_RETRIES, 1);
        return 0;
    }

    // ---------------------------------------------------------------------------------------------- batches

    /** Sends the pending items of {@code a} as one batch (blocking on back-pressure). */
    final void sendBatch(final Aggregator a, final FlushCause cause) {
        checkOpen();
        if (a.count > 0) {
            sendStaged(a, null, 0, 0, cause, true);
        }
    }

    /**
     * Non-blocking flush. Nothing changes unless it answers 0.
     *
     * @return 0 when sent (or nothing was pending); {@link OfferResult#BACK_PRESSURED} when the destination ring has
     *         no room now, {@link OfferResult#ADMIN_ACTION} when {@code a} is in the middle of a blocking send on this
     *         thread (a handler running during that send's wait), {@link OfferResult#CLOSED} when this endpoint or
     *         its transport is closed
     */
    final int trySendBatch(final Aggregator a, final FlushCause cause) {
        if (closed || transport.isClosed()) {
            return OfferResult.CLOSED;
        }
        return a.count == 0 ? 0 : sendStaged(a, null, 0, 0, cause, false);
    }

    /**
     * Sends the items staged in {@code a} followed by {@code count} items straight from {@code src} as one batch (a
     * size flush: callers complete a batch): the source items are copied once, into the ring, never into the
     * staging buffer.
     */
    final void sendBatchFrom(final Aggregator a, final DirectBuffer src, final int offset, final int count) {
        checkOpen();
        sendStaged(a, src, offset, count, FlushCause.SIZE, true);
    }

    /**
     * The items staged in {@code a}, then {@code count} items of {@code src} from byte {@code offset}, as one batch.
     * A blocking send ({@code wait}) refuses an aggregator that is already inside a blocking send on this thread (a
     * handler run by that send's wait used it); a non-blocking one answers {@link OfferResult#ADMIN_ACTION} then, or
     * {@link OfferResult#BACK_PRESSURED} when the ring is full. Items a handler adds to {@code a} while the send
     * waits for ring space stay pending, after the sent ones.
     *
     * @return 0 if the batch was committed, else the code
     */
    private int sendStaged(final Aggregator a, final DirectBuffer src, final int offset, final int count,
        final FlushCause cause, final boolean wait) {
        final int n = a.count;
        final int length = BATCH_HEADER_LENGTH + ((n + count) << a.shift);
        final Inbox inbox = inboxes[a.destination];
        final int index;
        if (wait) {
            if (a.sending) {
                throw new IllegalStateException("aggregator to dev" + a.destination + " queue " + a.queueId
                    + " was used to send from a handler that ran while it waited to send; handlers must not block on"
                    + " sends");
            }
            a.sending = true;
            try {
                index = claim(inbox, a.msgTypeId, length);
            } finally {
                a.sending = false;
            }
        } else {
            if (a.sending) {
                return OfferResult.ADMIN_ACTION;
            }
            index = tryClaim(inbox, a.msgTypeId, length);
            if (index == 0) {
                return OfferResult.BACK_PRESSURED;
            }
        }
        final AtomicBuffer rb = inbox.ringBuffer();
        if (n > 0) {
            a.copyStaged(rb, index + ITEMS_OFFSET, n);
        }
        if (count > 0) {
            rb.putBytes(index + ITEMS_OFFSET + (n << a.shift), src, offset, count << a.shift);
        }
        commitBatch(inbox, index, a, length, n + count, cause);
        a.batchSent(n);
        return 0;
    }

    /** Eager mode: one message for one item. */
    final void sendEager(final Aggregator a, final long item) {
        checkOpen();
        sendOne(a, item, true);
    }

    /**
     * Eager mode, non-blocking.
     *
     * @return 0 (sent: nothing is pending), {@link OfferResult#BACK_PRESSURED} (nothing sent) if the ring has no
     *         room now, {@link OfferResult#CLOSED} if this endpoint or its transport is closed
     */
    final int trySendEager(final Aggregator a, final long item) {
        if (closed || transport.isClosed()) {
            return OfferResult.CLOSED;
        }
        return sendOne(a, item, false);
    }

    private int sendOne(final Aggregator a, final long item, final boolean wait) {
        final Inbox inbox = inboxes[a.destination];
        final int length = BATCH_HEADER_LENGTH + a.type.bytes();
        final int index = wait ? claim(inbox, a.msgTypeId, length) : tryClaim(inbox, a.msgTypeId, length);
        if (index == 0) {
            return OfferResult.BACK_PRESSURED;
        }
        final AtomicBuffer rb = inbox.ringBuffer();
        if (a.type == ItemType.INT) {
            rb.putInt(index + ITEMS_OFFSET, (int)item);
        } else {
            rb.putLong(index + ITEMS_OFFSET, item);
        }
        commitBatch(inbox, index, a, length, 1, FlushCause.EAGER);
        return 0;
    }

    // ---------------------------------------------------------------------------------------------- batch claims

    /**
     * Claims a batch record for {@code items} items of {@code a} that its owner writes in place, and opens
     * {@code claim} over it. The pending items of {@code a} leave first: copied into the front of the record when they
     * fit one batch with the claimed ones (and counted as enqueued now, as a poll would), else sent ahead as their own
     * batch. Never waits.
     *
     * @return {@code items}, or a code: {@link OfferResult#BACK_PRESSURED} (no room now), {@link OfferResult#ADMIN_ACTION}
     *         ({@code a} is inside a blocking send on this thread), {@link OfferResult#CLOSED}; nothing is claimed then
     */
    final int tryClaimBatch(final Aggregator a, final int items, final BatchClaim claim) {
        if (closed || transport.isClosed()) {
            return OfferResult.CLOSED;
        }
        if (a.sending) {
            return OfferResult.ADMIN_ACTION;
        }
        if (a.count + items > a.capacity) {
            final int sent = sendStaged(a, null, 0, 0, FlushCause.EXPLICIT, false);
            if (sent < 0) {
                return sent;
            }
        }
        final int carried = a.count;
        final int length = BATCH_HEADER_LENGTH + ((carried + items) << a.shift);
        final Inbox inbox = inboxes[a.destination];
        final int index = tryClaim(inbox, a.msgTypeId, length);
        if (index == 0) {
            return OfferResult.BACK_PRESSURED;
        }
        final AtomicBuffer rb = inbox.ringBuffer();
        if (carried > 0) {
            a.copyStaged(rb, index + ITEMS_OFFSET, carried);
            a.publishEnqueued(); // the carried items stay counted while they wait in the claim
        }
        claim.opened(a, rb, index, length, carried, items);
        a.claimOpened(claim);
        waits.claimOpened();
        return items;
    }

    /** Commits the open {@code claim}: its items (the carried ones counted already) counted enqueued, then sent. */
    final void commitClaim(final BatchClaim claim) {
        final Aggregator a = claim.aggregator;
        commitBatch(inboxes[a.destination], claim.index, a, claim.length, claim.carried + claim.count(),
            FlushCause.EXPLICIT);
        a.claimCommitted();
        waits.claimClosed();
        claim.ended("committed");
    }

    /** Aborts the open {@code claim}: the record is skipped by the consumer, the carried items pending again. */
    final void abortClaim(final BatchClaim claim, final String how) {
        final Aggregator a = claim.aggregator;
        inboxes[a.destination].ring().abort(claim.index);
        a.claimAborted(claim.carried);
        waits.claimClosed();
        claim.ended(how);
    }

    /**
     * Completes the batch record claimed at {@code index} of {@code inbox}, whose {@code items} items are written:
     * writes the sender and queue id, counts the items not counted yet as enqueued (published at once: before the
     * commit can deliver them), commits the record and counts the message. The one commit of every batch of items.
     */
    private void commitBatch(final Inbox inbox, final int index, final Aggregator a, final int length,
        final int items, final FlushCause cause) {
        final AtomicBuffer rb = inbox.ringBuffer();
        rb.putInt(index + SENDER_OFFSET, id);
        rb.putInt(index + QUEUE_ID_OFFSET, a.queueId);
        addEnqueued(items - a.publishedPending); // counted before it can be delivered
        inbox.ring().commit(index);
        sentTo(a.destination);
        countBatch(length, items, cause);
    }

    /** @return true if whole batches of {@code batchBytes} (header included) may be delivered by reference */
    final boolean byReference(final int batchBytes) {
        return batchBytes >= directBatchThreshold;
    }

    /** @return true if this thread may wait here now (it is not running a handler of its transport's inboxes) */
    final boolean mayWait() {
        return !transport.isDrainingOnCurrentThread();
    }

    /** @return the buffer that batches by reference of this endpoint point into (for the drainer applying them) */
    final DirectBuffer directSource() {
        return directSource;
    }

    /**
     * Sends {@code count} items of {@code src} (a multiple of the batch capacity) as whole batches by reference, in one
     * descriptor message, then waits until the destination has applied it, draining the home inbox meanwhile: on
     * return the handler has read every item and {@code src} may be reused. Ring order is kept: these batches are
     * applied after everything this endpoint sent to the destination before, and before anything it sends later.
     */
    final void sendBatchesByReference(final Aggregator a, final DirectBuffer src, final int offset, final int count) {
        checkOpen();
        if (a.sending) {
            throw new IllegalStateException("aggregator to dev" + a.destination + " queue " + a.queueId + " was used"
                + " to send from a handler that ran while it waited to send; handlers must not block on sends");
        }
        final int dest = a.destination;
        waits.checkMayWait(EndpointWaits.BY_REFERENCE, dest);
        final Inbox inbox = inboxes[dest];
        final int batch = a.capacity;
        final int batches = count / batch;
        a.sending = true;
        directSource = src;
        try {
            final int index = claim(inbox, a.type.refMsgTypeId(), MessageFormat.BATCH_REF_LENGTH);
            final AtomicBuffer rb = inbox.ringBuffer();
            rb.putInt(index + SENDER_OFFSET, id);
            rb.putInt(index + QUEUE_ID_OFFSET, a.queueId);
            rb.putInt(index + MessageFormat.REF_COUNT_OFFSET, count);
            rb.putInt(index + MessageFormat.REF_BATCH_OFFSET, batch);
            rb.putLong(index + MessageFormat.REF_OFFSET_OFFSET, offset);
            addEnqueued(count); // counted before the items can be delivered
            inbox.ring().commit(index);
            sentTo(dest);
            countBatchesByReference((long)batches * BATCH_HEADER_LENGTH + ((long)count << a.shift), count, batches);
            awaitAppliedUninterruptibly(dest);
        } finally {
            a.sending = false;
        }
        directSource = null; // only once applied: a failed wait leaves it for a drainer that may still apply them
    }

    // ---------------------------------------------------------------------------------------------- remote ops

    /** Sends a put of {@code length} bytes of {@code src} through {@code dest}'s ring (it fits one message). */
    final void sendPut(final int dest, final long dstAddress, final DirectBuffer src, final int srcOffset,
        final int length) {
        final Inbox inbox = inboxes[dest];
        final int index = claim(inbox, MessageFormat.PUT, PUT_HEADER_LENGTH + length);
        final AtomicBuffer rb = inbox.ringBuffer();
        rb.putInt(index + SENDER_OFFSET, id);
        rb.putInt(index + PUT_LENGTH_OFFSET, length);
        rb.putLong(index + PUT_ADDRESS_OFFSET, dstAddress);
        rb.putBytes(index + PUT_DATA_OFFSET, src, srcOffset, length);
        commitOp(inbox, index, dest, PUT_HEADER_LENGTH + length);
    }

    /** Sends a put of one {@code long} through {@code dest}'s ring. */
    final void sendPutLong(final int dest, final long dstAddress, final long value) {
        final Inbox inbox = inboxes[dest];
        final int index = claim(inbox, MessageFormat.PUT, PUT_HEADER_LENGTH + 8);
        final AtomicBuffer rb = inbox.ringBuffer();
        rb.putInt(index + SENDER_OFFSET, id);
        rb.putInt(index + PUT_LENGTH_OFFSET, 8);
        rb.putLong(index + PUT_ADDRESS_OFFSET, dstAddress);
        rb.putLong(index + PUT_DATA_OFFSET, value);
        commitOp(inbox, index, dest, PUT_HEADER_LENGTH + 8);
    }

    /** Sends a remote atomic without a result ({@link RemoteAtomic#code()}) through {@code dest}'s ring. */
    final void sendAtomic(final int dest, final int code, final long address, final long operand) {
        final Inbox inbox = inboxes[dest];
        final int index = claim(inbox, MessageFormat.ATOMIC, ATOMIC_LENGTH);
        final AtomicBuffer rb = inbox.ringBuffer();
        rb.putInt(index + SENDER_OFFSET, id);
        rb.putInt(index + OP_OFFSET, code);
        rb.putLong(index + ADDRESS_OFFSET, address);
        rb.putLong(index + OPERAND_OFFSET, operand);
        commitOp(inbox, index, dest, ATOMIC_LENGTH);
    }

    /** Sends a fetching atomic whose previous value is to come back to reply slot {@code slot} as {@code seq}. */
    final void sendFetch(final int dest, final int code, final long address, final long operand, final long expected,
        final int slot, final long seq) {
        final Inbox inbox = inboxes[dest];
        final int index = claim(inbox, MessageFormat.FETCH, FETCH_LENGTH);
        final AtomicBuffer rb = inbox.ringBuffer();
        rb.putInt(index + SENDER_OFFSET, id);
        rb.putInt(index + OP_OFFSET, code);
        rb.putLong(index + ADDRESS_OFFSET, address);
        rb.putLong(index + OPERAND_OFFSET, operand);
        rb.putLong(index + EXPECTED_OFFSET, expected);
        rb.putInt(index + FETCH_SLOT_OFFSET, slot);
        rb.putInt(index + FETCH_SLOT_OFFSET + 4, 0);
        rb.putLong(index + FETCH_SEQ_OFFSET, seq);
        commitOp(inbox, index, dest, FETCH_LENGTH);
    }

    /** Sends a get of {@code length} bytes whose reply is to come to reply slot {@code slot} as {@code seq}. */
    final void sendGet(final int dest, final long srcAddress, final int length, final int slot, final long seq) {
        final Inbox inbox = inboxes[dest];
        final int index = claim(inbox, MessageFormat.GET, GET_LENGTH);
        final AtomicBuffer rb = inbox.ringBuffer();
        rb.putInt(index + SENDER_OFFSET, id);
        rb.putInt(index + GET_SLOT_OFFSET, slot);
        rb.putLong(index + GET_ADDRESS_OFFSET, srcAddress);
        rb.putInt(index + GET_LENGTH_OFFSET, length);
        rb.putInt(index + GET_LENGTH_OFFSET + 4, 0);
        rb.putLong(index + GET_SEQ_OFFSET, seq);
        commitOp(inbox, index, dest, GET_LENGTH);
    }

    /** Commits a written remote-operation record and counts it. The one commit of every remote operation. */
    private void commitOp(final Inbox inbox, final int index, final int dest, final int length) {
        inbox.ring().commit(index);
        sentTo(dest);
        countRingOp(length);
    }
}
