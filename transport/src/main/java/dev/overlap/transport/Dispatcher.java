package dev.overlap.transport;

import dev.overlap.core.GlobalAddress;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.MessageHandler;

import static dev.overlap.transport.MessageFormat.ADDRESS_OFFSET;
import static dev.overlap.transport.MessageFormat.BATCH_HEADER_LENGTH;
import static dev.overlap.transport.MessageFormat.EXPECTED_OFFSET;
import static dev.overlap.transport.MessageFormat.FETCH_SEQ_OFFSET;
import static dev.overlap.transport.MessageFormat.FETCH_SLOT_OFFSET;
import static dev.overlap.transport.MessageFormat.GET_ADDRESS_OFFSET;
import static dev.overlap.transport.MessageFormat.GET_LENGTH_OFFSET;
import static dev.overlap.transport.MessageFormat.GET_SEQ_OFFSET;
import static dev.overlap.transport.MessageFormat.GET_SLOT_OFFSET;
import static dev.overlap.transport.MessageFormat.ITEMS_OFFSET;
import static dev.overlap.transport.MessageFormat.OPERAND_OFFSET;
import static dev.overlap.transport.MessageFormat.OP_OFFSET;
import static dev.overlap.transport.MessageFormat.PUT_ADDRESS_OFFSET;
import static dev.overlap.transport.MessageFormat.PUT_DATA_OFFSET;
import static dev.overlap.transport.MessageFormat.PUT_LENGTH_OFFSET;
import static dev.overlap.transport.MessageFormat.QUEUE_ID_OFFSET;
import static dev.overlap.transport.MessageFormat.REF_BATCH_OFFSET;
import static dev.overlap.transport.MessageFormat.REF_COUNT_OFFSET;
import static dev.overlap.transport.MessageFormat.REF_OFFSET_OFFSET;
import static dev.overlap.transport.MessageFormat.SENDER_OFFSET;

/**
 * Applies the messages of one inbox; called by Agrona's ring read under the inbox's drain lock, so it is confined to
 * one thread at a time. Queue bindings are published copy-on-write through a volatile array.
 */
final class Dispatcher implements MessageHandler {
    /** A queue's receiver on this device. */
    static final class Binding {
        final ItemType type;
        final BatchHandler handler;

        Binding(final ItemType type, final BatchHandler handler) {
            this.type = type;
            this.handler = handler;
        }
    }

    private final Transport transport;
    /** The senders, whose gets, fetches and batches by reference a drain completes (cached: one load less). */
    private final TransportEndpoints endpoints;
    private final Inbox inbox;
    private final int replySlotBytes;
    private final int replySlotMask;
    /** Endpoint ids with a reply area: every rank's. */
    private final int replyAreas;
    private volatile Binding[] bindings;

    Dispatcher(final Transport transport, final Inbox inbox, final int senders) {
        this.transport = transport;
        this.endpoints = transport.endpoints();
        this.inbox = inbox;
        this.replySlotBytes = transport.replySlotBytes();
        this.replySlotMask = transport.replySlots() - 1;
        this.replyAreas = senders;
        this.bindings = new Binding[transport.maxQueues()];
    }

    synchronized void bind(final int queueId, final ItemType type, final BatchHandler handler) {
        final Binding[] current = bindings;
        if (current[queueId] != null) {
            throw new IllegalStateException("dev" + inbox.device() + " already has a handler for queue " + queueId);
        }
        final Binding[] next = current.clone();
        next[queueId] = new Binding(type, handler);
        bindings = next;
    }

    Binding binding(final int queueId) {
        return bindings[queueId];
    }

    @Override
    public void onMessage(final int msgTypeId, final MutableDirectBuffer buffer, final int index, final int length) {
        final int sender = buffer.getInt(index + SENDER_OFFSET);
        int items = 0;
        int bytes = length;
        try {
            switch (msgTypeId) {
                case MessageFormat.BATCH_INT:
                case MessageFormat.BATCH_LONG:
                    items = onBatch(msgTypeId, sender, buffer, index, length);
                    break;
                case MessageFormat.BATCH_INT_REF:
                case MessageFormat.BATCH_LONG_REF:
                    items = onBatchesByReference(msgTypeId, sender, buffer, index);
                    bytes = BATCH_HEADER_LENGTH * (items / buffer.getInt(index + REF_BATCH_OFFSET))
                        + (items << (msgTypeId == MessageFormat.BATCH_INT_REF ? 2 : 3));
                    break;
                case MessageFormat.PUT:
                    onPut(buffer, index);
                    break;
                case MessageFormat.ATOMIC:
                    onAtomic(buffer, index, false, sender);
                    break;
                case MessageFormat.FETCH:
                    onAtomic(buffer, index, true, sender);
                    break;
                case MessageFormat.GET:
                    onGet(buffer, index, sender);
                    break;
                default:
                    throw new IllegalStateException("dev" + inbox.device() + " inbox: unknown message "
                        + MessageFormat.typeName(msgTypeId) + " from endpoint " + sender);
            }
        } catch (final RuntimeException | Error e) {
            inbox.onHandlerError();
            throw e;
        } finally {
            inbox.onApplied(sender, bytes, items);
        }
    }

    private int onBatch(final int msgTypeId, final int sender, final MutableDirectBuffer buffer, final int index,
        final int length) {
        final int queueId = buffer.getInt(index + QUEUE_ID_OFFSET);
        final Binding binding = binding(msgTypeId, queueId, sender);
        final int count = (length - ITEMS_OFFSET) >> binding.type.shift();
        binding.handler.onBatch(queueId, sender, buffer, index + ITEMS_OFFSET, count);
        return count;
    }

    /**
     * Whole batches delivered by reference: the handler reads each in place in the sender's source buffer, one call
     * per batch, in order; the sender keeps the buffer untouched until it sees this message applied (its applied
     * count is published after this returns).
     */
    private int onBatchesByReference(final int msgTypeId, final int sender, final MutableDirectBuffer buffer,
        final int index) {
        final int queueId = buffer.getInt(index + QUEUE_ID_OFFSET);
        final Binding binding = binding(msgTypeId == MessageFormat.BATCH_INT_REF ? MessageFormat.BATCH_INT
            : MessageFormat.BATCH_LONG, queueId, sender);
        final int count = buffer.getInt(index + REF_COUNT_OFFSET);
        final int batch = buffer.getInt(index + REF_BATCH_OFFSET);
        final int offset = (int)buffer.getLong(index + REF_OFFSET_OFFSET);
        final Endpoint from = endpoints.get(sender);
        final DirectBuffer source = from != null ? from.directSource() : null;
        if (source == null || batch < 1 || count % batch != 0) {
            throw new IllegalStateException("dev" + inbox.device() + " inbox: " + MessageFormat.typeName(msgTypeId)
                + " from endpoint " + sender + " with " + count + " items in batches of " + batch
                + (source == null ? ", but the endpoint holds no source buffer" : ""));
        }
        final BatchHandler handler = binding.handler;
        final int shift = binding.type.shift();
        for (int done = 0; done < count; done += batch) {
            handler.onBatch(queueId, sender, source, offset + (done << shift), batch);
        }
        return count;
    }

    private Binding binding(final int msgTypeId, final int queueId, final int sender) {
        final Binding[] current = bindings;
        final Binding binding = queueId >= 0 && queueId < current.length ? current[queueId] : null;
        if (binding == null || binding.type.msgTypeId() != msgTypeId) {
            throw new IllegalStateException("dev" + inbox.device() + " inbox: " + MessageFormat.typeName(msgTypeId)
                + " for queue " + queueId + " from endpoint " + sender + " but "
                + (binding == null ? "no handler is registered for that queue"
                : "the queue's handler takes " + binding.type + " items"));
        }
        return binding;
    }

    private void onPut(final MutableDirectBuffer buffer, final int index) {
        final long address = buffer.getLong(index + PUT_ADDRESS_OFFSET);
        final int length = buffer.getInt(index + PUT_LENGTH_OFFSET);
        final AtomicBuffer memory = transport.memory(GlobalAddress.device(address));
        memory.putBytes((int)GlobalAddress.offset(address), buffer, index + PUT_DATA_OFFSET, length);
    }

    private void onAtomic(final MutableDirectBuffer buffer, final int index, final boolean fetch, final int sender) {
        final int op = buffer.getInt(index + OP_OFFSET);
        final long address = buffer.getLong(index + ADDRESS_OFFSET);
        final long operand = buffer.getLong(index + OPERAND_OFFSET);
        final AtomicBuffer memory = transport.memory(GlobalAddress.device(address));
        if (!fetch) {
            RemoteAtomic.apply(op, memory, (int)GlobalAddress.offset(address), operand, 0);
            return;
        }
        final long expected = buffer.getLong(index + EXPECTED_OFFSET);
        final long previous = RemoteAtomic.apply(op, memory, (int)GlobalAddress.offset(address), operand, expected);
        final int slot = buffer.getInt(index + FETCH_SLOT_OFFSET);
        final long seq = buffer.getLong(index + FETCH_SEQ_OFFSET);
        final Endpoint requester = endpoints.get(sender);
        if (requester != null) {
            requester.replySlots().completeFetch(slot, seq, previous);
        } else { // a requester in another process: its shared reply area
            ReplySlots.completeRemoteFetch(replyArea(sender), replySlotBytes, slot & replySlotMask, seq, previous);
        }
    }

    private AtomicBuffer replyArea(final int sender) {
        if (sender < 0 || sender >= replyAreas) {
            throw new IllegalStateException("dev" + inbox.device() + " inbox: a request from endpoint " + sender
                + ", which no rank has");
        }
        return transport.ownMemory().replyArea(sender);
    }

    private void onGet(final MutableDirectBuffer buffer, final int index, final int sender) {
        final long address = buffer.getLong(index + GET_ADDRESS_OFFSET);
        final int length = buffer.getInt(index + GET_LENGTH_OFFSET);
        final AtomicBuffer memory = transport.memory(GlobalAddress.device(address));
        final int slot = buffer.getInt(index + GET_SLOT_OFFSET);
        final long seq = buffer.getLong(index + GET_SEQ_OFFSET);
        final Endpoint requester = endpoints.get(sender);
        if (requester != null) {
            requester.replySlots().completeGet(slot, seq, memory, (int)GlobalAddress.offset(address), length);
        } else { // a requester in another process: the bytes go inline into its shared reply area
            if (length < 0 || length > replySlotBytes - 8) {
                throw new IllegalStateException("dev" + inbox.device() + " inbox: a get of " + length + " bytes from "
                    + "endpoint " + sender + " does not fit its reply slot of " + replySlotBytes + " bytes");
            }
            ReplySlots.completeRemoteGet(replyArea(sender), replySlotBytes, slot & replySlotMask, seq, memory,
                (int)GlobalAddress.offset(address), length);
        }
    }
}
