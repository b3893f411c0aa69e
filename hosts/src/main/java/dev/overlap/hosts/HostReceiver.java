package dev.overlap.hosts;

import dev.overlap.core.InterruptedWaitException;
import dev.overlap.transport.Aggregator;
import dev.overlap.transport.AggregatorConfig;
import dev.overlap.transport.Endpoint;
import dev.overlap.transport.IntAggregator;
import dev.overlap.transport.IntBatchClaim;
import dev.overlap.transport.LongAggregator;
import dev.overlap.transport.LongBatchClaim;
import dev.overlap.transport.RemoteAtomic;
import dev.overlap.transport.Transport;
import io.aeron.FragmentAssembler;
import io.aeron.Image;
import io.aeron.Publication;
import io.aeron.Subscription;
import io.aeron.logbuffer.Header;
import org.agrona.DirectBuffer;
import org.agrona.collections.Long2ObjectHashMap;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * One job: a {@link HostTransport}'s receiver, an Agrona agent on the transport's own thread. Each duty cycle polls
 * the transport's subscription (reassembling fragmented messages) and applies every message through the local
 * {@link Endpoint} that stands for its sending rank: a batch is claimed into the destination device's inbox (waiting,
 * and draining that inbox itself, while it is full), a put, an atomic, a get or a fetching atomic is that endpoint's
 * operation, whose reply goes back to the requester; a reply is deposited in the requesting endpoint's
 * {@link ReplyBox}; an {@code APPLIED} report and a {@code DONE} are handed to the transport.
 *
 * <p><b>Completion reports.</b> After each poll it notes, per peer, a checkpoint: the stream position taken from the
 * peer's image so far and the forwarding endpoint's ring messages to each local device at that moment. A checkpoint
 * whose ring messages every local inbox has applied (its per-sender applied count, acquire) means everything the peer
 * sent up to that position has taken effect (direct operations took effect before they returned); the newest such
 * position is reported to the peer. At most {@value #CHECKPOINTS} checkpoints wait per peer: when they are all
 * taken the newest is moved forward, which only delays a report. While a checkpoint waits and the cycle found no
 * other work, the receiver drains the inboxes it waits on (handlers may then run on this thread).
 *
 * <p>An exception thrown while a message is applied (a handler's, or a message for memory that does not exist) goes
 * to the transport's error handler and the message counts as consumed: it is never applied twice.
 *
 * <p>Thread-safety: confined to the agent's thread (its arrays are plain); it shares the reply boxes, the
 * transport's applied positions (release) and the Aeron publications (safe for several senders).
 */
final class HostReceiver implements Agent {
    static final int CHECKPOINTS = 64;
    private static final int FRAGMENT_LIMIT = 64;
    /** Whether the wire's byte order (little-endian) is this host's, so that items are copied as they are. */
    private static final boolean NATIVE_ORDER = java.nio.ByteOrder.nativeOrder() == DataWire.ORDER;

    private final HostTransport owner;
    private final Transport local;
    private final Endpoint[] forwarders;
    private final Subscription subscription;
    private final Publication[] publications;
    private final int rank;
    private final int ranks;
    private final int devices;
    private final long fingerprint;
    private final int ringMessage;
    private final FragmentAssembler assembler = new FragmentAssembler(this::onMessage);
    private final IdleStrategy idle = HostTransport.idle();
    private final IntBatchClaim intClaim = new IntBatchClaim();
    private final LongBatchClaim longClaim = new LongBatchClaim();
    /** The forwarding aggregators by (sending rank, device, queue, item type), made at first use. */
    private final Long2ObjectHashMap<Aggregator> aggregators = new Long2ObjectHashMap<>();
    private final UnsafeBuffer out;
    private final UnsafeBuffer scratch;
    private final Image[] images;
    /** Per peer: a ring of checkpoints (position, then one token per local device). */
    private final long[][] positions;
    private final long[][] tokens;
    private final int[] head;
    private final int[] size;
    private final long[] reported;
    private final long[] appliedPosition;
    private long ignored;

    HostReceiver(final HostTransport owner, final Transport local, final Endpoint[] forwarders,
        final Subscription subscription, final Publication[] publications, final int ringMessage) {
        this.owner = owner;
        this.local = local;
        this.forwarders = forwarders;
        this.subscription = subscription;
        this.publications = publications;
        this.rank = owner.rank();
        this.ranks = owner.ranks();
        this.devices = owner.devicesPerRank();
        this.fingerprint = owner.fingerprint();
        this.ringMessage = ringMessage;
        this.out = new UnsafeBuffer(new byte[owner.maxMessageBytes()]);
        this.scratch = new UnsafeBuffer(new byte[owner.maxMessageBytes()]);
        this.images = new Image[ranks];
        this.positions = new long[ranks][CHECKPOINTS];
        this.tokens = new long[ranks][CHECKPOINTS * devices];
        this.head = new int[ranks];
        this.size = new int[ranks];
        this.reported = new long[ranks];
        this.appliedPosition = new long[ranks];
    }

    @Override
    public String roleName() {
        return "overlap-hosts-data-r" + rank;
    }

    @Override
    public int doWork() {
        int work = subscription.poll(assembler, FRAGMENT_LIMIT);
        boolean waiting = false;
        for (int r = 0; r < ranks; r++) {
            final Image image = images[r];
            if (image == null) {
                continue;
            }
            checkpoint(r, image.position());
            work += advance(r);
            waiting |= size[r] > 0;
        }
        if (work == 0 && waiting) {
            work += help();
        }
        return work;
    }

    // ---------------------------------------------------------------------------------------------- messages

    private void onMessage(final DirectBuffer b, final int offset, final int length, final Header header) {
        if (length < Wire.HEADER_LENGTH || b.getLong(offset + Wire.GROUP_OFFSET, DataWire.ORDER) != fingerprint) {
            ignored++;
            return;
        }
        final int type = b.getInt(offset + Wire.TYPE_OFFSET, DataWire.ORDER);
        final int from = b.getInt(offset + Wire.SENDER_OFFSET, DataWire.ORDER);
        if (from < 0 || from >= ranks || from == rank) {
            ignored++;
            return;
        }
        if (images[from] == null) {
            images[from] = subscription.imageBySessionId(header.sessionId());
        }
        try {
            apply(type, from, b, offset, length);
        } catch (final RuntimeException e) {
            // never out of the poll: Aeron would hand it to the client's error handler, which fails this rank; an
            // InterruptedWaitException (the close interrupting a receiver that did not stop) keeps the interrupt
            // status, so the runner ends
            owner.reportError(new IllegalStateException("rank " + rank + " could not apply a "
                + DataWire.typeName(type) + " message from rank " + from + ": " + e.getMessage(), e));
        }
    }

    private void apply(final int type, final int from, final DirectBuffer b, final int offset, final int length) {
        final Endpoint via = forwarders[from];
        switch (type) {
            case DataWire.BATCH:
                forwardBatch(from, b, offset);
                break;
            case DataWire.PUT:
                via.put(b.getLong(offset + DataWire.ADDRESS_OFFSET, DataWire.ORDER), b, offset + DataWire.DATA_OFFSET,
                    b.getInt(offset + DataWire.LENGTH_OFFSET, DataWire.ORDER));
                break;
            case DataWire.ATOMIC:
                via.atomic(op(b.getInt(offset + DataWire.OP_OFFSET, DataWire.ORDER)),
                    b.getLong(offset + DataWire.ADDRESS_OFFSET, DataWire.ORDER),
                    b.getLong(offset + DataWire.OPERAND_OFFSET, DataWire.ORDER));
                break;
            case DataWire.FETCH:
                fetch(from, via, b, offset);
                break;
            case DataWire.GET: {
                final int n = b.getInt(offset + DataWire.LENGTH_OFFSET, DataWire.ORDER);
                if (n < 0 || n > scratch.capacity() - DataWire.REPLY_DATA_OFFSET) {
                    throw new IllegalArgumentException("a get of " + n + " bytes is larger than a reply carries");
                }
                via.get(b.getLong(offset + DataWire.ADDRESS_OFFSET, DataWire.ORDER), scratch, 0, n);
                reply(from, b.getInt(offset + DataWire.ENDPOINT_OFFSET, DataWire.ORDER),
                    b.getLong(offset + DataWire.GET_SEQ_OFFSET, DataWire.ORDER), 0, n);
                break;
            }
            case DataWire.REPLY: {
                final HostEndpoint ep = owner.endpointAt(b.getInt(offset + DataWire.REPLY_ENDPOINT_OFFSET,
                    DataWire.ORDER));
                final int n = b.getInt(offset + DataWire.REPLY_LENGTH_OFFSET, DataWire.ORDER);
                if (ep != null && n >= 0 && DataWire.REPLY_DATA_OFFSET + n <= length) {
                    ep.replyBox().deposit(b.getLong(offset + DataWire.REPLY_SEQ_OFFSET, DataWire.ORDER),
                        b.getLong(offset + DataWire.REPLY_VALUE_OFFSET, DataWire.ORDER), b,
                        offset + DataWire.REPLY_DATA_OFFSET, n);
                }
                break;
            }
            case DataWire.APPLIED:
                owner.applied(from, b.getLong(offset + DataWire.POSITION_OFFSET, DataWire.ORDER));
                break;
            case DataWire.DONE:
                owner.doneFrom(from);
                break;
            default:
                ignored++;
        }
    }

    private static RemoteAtomic op(final int ordinal) {
        final RemoteAtomic[] all = RemoteAtomic.values();
        if (ordinal < 0 || ordinal >= all.length) {
            throw new IllegalArgumentException("unknown remote atomic " + ordinal);
        }
        return all[ordinal];
    }

    private void fetch(final int from, final Endpoint via, final DirectBuffer b, final int offset) {
        final int code = b.getInt(offset + DataWire.OP_OFFSET, DataWire.ORDER);
        final long address = b.getLong(offset + DataWire.ADDRESS_OFFSET, DataWire.ORDER);
        final long operand = b.getLong(offset + DataWire.OPERAND_OFFSET, DataWire.ORDER);
        final long expected = b.getLong(offset + DataWire.EXPECTED_OFFSET, DataWire.ORDER);
        final long value;
        if (code == DataWire.INT_CAS) {
            value = via.compareAndSetInt(address, (int)expected, (int)operand) ? expected : ~expected;
        } else if (code == DataWire.LONG_CAS) {
            value = via.compareAndSetLong(address, expected, operand) ? expected : ~expected;
        } else {
            value = via.fetch(op(code), address, operand);
        }
        reply(from, b.getInt(offset + DataWire.ENDPOINT_OFFSET, DataWire.ORDER),
            b.getLong(offset + DataWire.FETCH_SEQ_OFFSET, DataWire.ORDER), value, 0);
    }

    /** Sends a reply ({@code n} bytes of {@link #scratch} for a get), waiting on back-pressure. */
    private void reply(final int to, final int endpoint, final long seq, final long value, final int n) {
        Wire.header(out, DataWire.REPLY, rank, fingerprint);
        out.putInt(DataWire.REPLY_ENDPOINT_OFFSET, endpoint, DataWire.ORDER);
        out.putInt(DataWire.REPLY_LENGTH_OFFSET, n, DataWire.ORDER);
        out.putLong(DataWire.REPLY_SEQ_OFFSET, seq, DataWire.ORDER);
        out.putLong(DataWire.REPLY_VALUE_OFFSET, value, DataWire.ORDER);
        if (n > 0) {
            out.putBytes(DataWire.REPLY_DATA_OFFSET, scratch, 0, n);
        }
        offer(to, DataWire.REPLY_DATA_OFFSET + n);
    }

    /**
     * Offers {@code length} bytes of {@link #out} to rank {@code to}, retrying on back-pressure; gives up (the
     * requester then fails with the group's failure) when the peer's receiver is gone or the transport closes.
     */
    private void offer(final int to, final int length) {
        idle.reset();
        while (true) {
            final long r = publications[to].offer(out, 0, length);
            if (r > 0 || r == Publication.NOT_CONNECTED || r == Publication.CLOSED
                || r == Publication.MAX_POSITION_EXCEEDED || owner.state().failure() != null) {
                return;
            }
            if (Thread.currentThread().isInterrupted()) {
                throw dev.overlap.core.Waits.interrupted("a reply to rank " + to);
            }
            idle.idle();
        }
    }

    /** Claims the batch's items into the destination inbox through the sending rank's aggregator, waiting for room. */
    private void forwardBatch(final int from, final DirectBuffer b, final int offset) {
        final int device = b.getInt(offset + DataWire.DEVICE_OFFSET, DataWire.ORDER);
        final int queue = b.getInt(offset + DataWire.QUEUE_OFFSET, DataWire.ORDER);
        final int itemBytes = b.getInt(offset + DataWire.ITEM_BYTES_OFFSET, DataWire.ORDER);
        final int count = b.getInt(offset + DataWire.COUNT_OFFSET, DataWire.ORDER);
        final boolean ints = itemBytes == Integer.BYTES;
        if (!ints && itemBytes != Long.BYTES || device < 0 || device >= devices || queue < 0
            || queue >= local.maxQueues()) {
            throw new IllegalArgumentException("a batch for dev" + device + " queue " + queue + " of " + itemBytes
                + "-byte items does not fit this rank's transport");
        }
        final long key = (((long)from * local.maxQueues() + queue) * devices + device) * 2 + (ints ? 0 : 1);
        Aggregator a = aggregators.get(key);
        if (a == null) {
            final AggregatorConfig config = AggregatorConfig.builder().batchBytes(ringMessage).build();
            a = ints ? forwarders[from].intAggregator(device, queue, config)
                : forwarders[from].longAggregator(device, queue, config);
            aggregators.put(key, a);
        }
        final int items = offset + DataWire.ITEMS_OFFSET;
        idle.reset();
        while (true) {
            final int r = ints ? ((IntAggregator)a).tryClaim(count, intClaim)
                : ((LongAggregator)a).tryClaim(count, longClaim);
            if (r >= 0) {
                break;
            }
            if (r == dev.overlap.core.OfferResult.CLOSED) {
                throw new IllegalStateException(local + " is closed: " + owner + " cannot deliver");
            }
            if (Thread.currentThread().isInterrupted()) {
                throw dev.overlap.core.Waits.interrupted("room in dev" + device + "'s inbox");
            }
            idle.idle(drain(device)); // the inbox is full: apply some of it here
        }
        if (NATIVE_ORDER) { // little-endian items on a little-endian host: one copy
            (ints ? intClaim : longClaim).putItems(0, b, items, count);
        } else if (ints) {
            for (int i = 0; i < count; i++) {
                intClaim.putInt(i, b.getInt(items + i * 4, DataWire.ORDER));
            }
        } else {
            for (int i = 0; i < count; i++) {
                longClaim.putLong(i, b.getLong(items + i * 8, DataWire.ORDER));
            }
        }
        (ints ? intClaim : longClaim).commit();
    }

    // ---------------------------------------------------------------------------------------------- completion

    /** Notes a checkpoint for peer {@code r} at {@code position} if it moved. */
    private void checkpoint(final int r, final long position) {
        final int n = size[r];
        final long newest = n == 0 ? appliedPosition[r] : positions[r][(head[r] + n - 1) % CHECKPOINTS];
        if (position <= newest) {
            return;
        }
        final int slot = n == CHECKPOINTS ? (head[r] + n - 1) % CHECKPOINTS : (head[r] + n) % CHECKPOINTS;
        positions[r][slot] = position;
        final Endpoint via = forwarders[r];
        for (int d = 0; d < devices; d++) {
            tokens[r][slot * devices + d] = via.ringMessagesSent(d);
        }
        if (n < CHECKPOINTS) {
            size[r] = n + 1;
        }
    }

    /** Retires the applied checkpoints of peer {@code r} and reports the newest; @return work done */
    private int advance(final int r) {
        final Endpoint via = forwarders[r];
        int work = 0;
        while (size[r] > 0) {
            final int slot = head[r];
            for (int d = 0; d < devices; d++) {
                if (local.inbox(d).applied(via.id()) < tokens[r][slot * devices + d]) {
                    return work + report(r);
                }
            }
            appliedPosition[r] = positions[r][slot];
            head[r] = (slot + 1) % CHECKPOINTS;
            size[r]--;
            work++;
        }
        return work + report(r);
    }

    private int report(final int r) {
        final long p = appliedPosition[r];
        if (p <= reported[r]) {
            return 0;
        }
        Wire.header(out, DataWire.APPLIED, rank, fingerprint);
        out.putLong(DataWire.POSITION_OFFSET, p, DataWire.ORDER);
        final long result = publications[r].offer(out, 0, DataWire.APPLIED_LENGTH);
        if (result > 0 || result == Publication.NOT_CONNECTED || result == Publication.CLOSED) {
            reported[r] = p; // else tried again next cycle
            return 1;
        }
        return 0;
    }

    /** Drains the inboxes the oldest checkpoints wait on. */
    private int help() {
        int work = 0;
        for (int r = 0; r < ranks; r++) {
            if (size[r] == 0) {
                continue;
            }
            final Endpoint via = forwarders[r];
            for (int d = 0; d < devices; d++) {
                if (local.inbox(d).applied(via.id()) < tokens[r][head[r] * devices + d]) {
                    work += drain(d);
                }
            }
        }
        return work;
    }

    /** Drains device {@code d}'s inbox, reporting a handler's exception. */
    private int drain(final int d) {
        try {
            return local.inbox(d).drain();
        } catch (final InterruptedWaitException e) {
            throw e;
        } catch (final RuntimeException e) {
            if (local.isClosed()) {
                throw e;
            }
            owner.reportError(e); // a handler's: the messages before it are applied, the drain goes on next time
            return 1;
        }
    }

    /** @return messages ignored (another group's, or malformed) */
    long ignored() {
        return ignored;
    }
}
