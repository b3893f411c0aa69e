package dev.overlap.transport;

import dev.overlap.core.GlobalAddress;
import dev.overlap.core.InterruptedWaitException;
import dev.overlap.core.Waits;
import org.agrona.BufferUtil;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.ManyToOneRingBuffer;

import java.util.Arrays;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

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
 * A sending context bound to one thread and one home device: it owns aggregators (one per destination and queue),
 * issues one-sided remote operations (put, get, remote atomics) and, whenever it has to wait (a full destination
 * ring, a reply, an ordering fence), keeps draining its home device's inbox so that devices sending to each other
 * can never deadlock. Obtain one per worker with {@link Transport#endpoint(dev.overlap.core.WorkerContext)} or for
 * any other thread with {@link Transport#newEndpoint(int)}.
 *
 * <p><b>Thread-safety:</b> single-threaded. An endpoint and its aggregators must be used by one thread at a time,
 * with a happens-before edge (thread start, join, kernel launch/join) when ownership moves. Only its counters may be
 * read from other threads.
 *
 * <p><b>Ordering:</b> everything one endpoint sends to one device takes effect there in issue order: batches (in
 * the order they are flushed; items of an aggregator in offer order), puts, atomics and gets. Ring messages are FIFO;
 * an operation that takes the direct path first waits until this endpoint's earlier ring messages to that device
 * have been applied (see {@link DirectPolicy}). Nothing is promised between different endpoints, or between an item
 * still pending in an aggregator and other operations.
 *
 * <p><b>Completion and visibility:</b> {@code put} returns when the source may be reused (a small put is copied into
 * the ring; a large one is copied directly into the destination). Remote effects become visible to other threads as
 * plain stores do: publish them with a remote atomic, a release store or a kernel boundary. After {@link #quiet()}
 * every operation issued before it has been applied and its effects are visible to the caller. Blocking gets and
 * fetching atomics return with the remote value as of the moment the destination applied the request.
 *
 * <p><b>Back-pressure:</b> a full ring is never an error and never drops anything: the sender counts a
 * {@link TransportCounter#BACK_PRESSURE_RETRIES retry}, drains its own inbox, idles with its Agrona idle strategy and
 * tries again. Handlers that run during such a wait run on this thread; they must not block on sends themselves
 * (an {@link IllegalStateException} says so if they try).
 *
 * <p><b>Waiting.</b> Every blocking operation (a send on back-pressure, a get or fetching atomic, a fence,
 * {@link #quiet()}) waits the same way: it drains its home inbox, and once it has waited the transport's
 * {@link Transport.Builder#helpAfter help-after} time it also applies the messages waiting in the destination's inbox
 * itself (the UPC helper's job, done by the waiter), so a wait never depends on the destination's own threads or a
 * progress thread: a get to a device that nobody drains completes. Idle rounds use the endpoint's Agrona idle
 * strategy (which parks once its spins and yields are over). An interrupt ends the wait with
 * {@link InterruptedWaitException} (interrupt status kept) and a timed form ({@link #getLong(long, long, TimeUnit)},
 * {@link #get(long, MutableDirectBuffer, int, int, long, TimeUnit)}, {@link #fetch(RemoteAtomic, long, long, long,
 * TimeUnit)}, {@link #quiet(long, TimeUnit)}, the aggregators' timed {@code offer} and {@code flush}) gives up at its
 * deadline ({@link #put(long, DirectBuffer, int, int, long, TimeUnit)}, {@link #putLong(long, long, long,
 * TimeUnit)}, {@link #atomic(RemoteAtomic, long, long, long, TimeUnit)} and {@link #flush(long, TimeUnit)} too).
 * Neither loses anything: a request already sent still takes effect (a get's bytes may still arrive in its
 * destination buffer: {@link #quiet()} waits for that), and an item already handed to an aggregator stays there.
 */
public final class Endpoint extends EndpointPadding implements AutoCloseable {
    static final int SLOT_BYTES = 64;
    /** Messages sent between two publications of the sender counters, at most. */
    static final int PUBLISH_EVERY = 64;
    private static final int ENQUEUED_SLOT = TransportCounter.ITEMS_ENQUEUED.slot();

    private final Transport transport;
    private final int id;
    private final int device;
    private final Inbox home;
    private final Inbox[] inboxes;
    private final long[] sent;
    private final long[] appliedSeen;
    private final IdleStrategy idle;
    private final AtomicBuffer counters;
    private final int countersBase;
    /** The owner's values of its sender counters; published to {@link #counters} in batches. */
    private final long[] local = new long[TransportCounter.BLOCK_BYTES / 8];
    private boolean dirty;
    private int unpublishedMessages;
    private final DirectPolicy policy;
    private final int rendezvousThreshold;
    private final int directBatchThreshold;
    /**
     * The caller's buffer while a bulk offer has batches out by reference (else null). Written by the owner before
     * it commits the first descriptor (the commit's release store publishes it) and cleared after the last one has
     * been applied; read by the drainer that applies a descriptor.
     */
    private DirectBuffer directSource;

    private Aggregator[] aggregators = new Aggregator[4];
    private int aggregatorCount;

    private final int slotMask;
    private final AtomicBuffer replies;
    private final MutableDirectBuffer[] replyTargets;
    private final int[] replyOffsets;
    private final long[] slotSeq;
    /** The device each slot's latest request went to (whose inbox a waiter for that slot helps). */
    private final int[] slotDest;
    private final CompletableFuture<?>[] futures;
    private long lastSeq;
    private int outstandingAsync;
    private boolean closed;
    /** When the blocking call in progress gives up ({@link System#nanoTime()}), or {@link Waits#NO_DEADLINE}. */
    private long deadline = Waits.NO_DEADLINE;
    private final long helpAfterNanos;
    /** The wait in progress: the destination's consumer position last seen, and since when it stood still. */
    private long lastDestPosition;
    private long stalledSince;

    Endpoint(final Transport transport, final int id, final int device, final IdleStrategy idle,
        final AtomicBuffer counters, final int countersBase, final int replySlots) {
        this.transport = transport;
        this.id = id;
        this.device = device;
        this.inboxes = transport.inboxes();
        this.home = inboxes[device];
        this.sent = new long[inboxes.length];
        this.appliedSeen = new long[inboxes.length];
        this.idle = idle;
        this.counters = counters;
        this.countersBase = countersBase;
        this.policy = transport.directPolicy();
        this.rendezvousThreshold = transport.rendezvousThreshold();
        this.directBatchThreshold = policy == DirectPolicy.NEVER ? Integer.MAX_VALUE
            : transport.directBatchThreshold();
        this.slotMask = replySlots - 1;
        this.replies = new UnsafeBuffer(BufferUtil.allocateDirectAligned(replySlots * SLOT_BYTES, SLOT_BYTES));
        this.replyTargets = new MutableDirectBuffer[replySlots];
        this.replyOffsets = new int[replySlots];
        this.slotSeq = new long[replySlots];
        this.slotDest = new int[replySlots];
        this.futures = new CompletableFuture<?>[replySlots];
        this.helpAfterNanos = transport.helpAfterNanos();
    }

    /** @return this endpoint's id (carried in every message it sends) */
    public int id() {
        return id;
    }

    /** @return the home device, whose inbox this endpoint drains while it waits */
    public int device() {
        return device;
    }

    /** @return the transport */
    public Transport transport() {
        return transport;
    }

    // ------------------------------------------------------------------------------------------------ aggregators

    /**
     * Creates an aggregator of {@code int} items for queue {@code queueId} on device {@code destination}.
     *
     * @throws IllegalArgumentException for a bad device or queue id, or a batch that does not fit one message of the
     *                                  destination ring
     * @throws IllegalStateException    if the destination has no {@code INT} handler for the queue
     */
    public IntAggregator intAggregator(final int destination, final int queueId, final AggregatorConfig config) {
        checkOpen();
        return register(new IntAggregator(this, destination, queueId, checkAggregator(destination, queueId,
            ItemType.INT, config), config));
    }

    /** @see #intAggregator(int, int, AggregatorConfig) */
    public LongAggregator longAggregator(final int destination, final int queueId, final AggregatorConfig config) {
        checkOpen();
        return register(new LongAggregator(this, destination, queueId, checkAggregator(destination, queueId,
            ItemType.LONG, config), config));
    }

    private int checkAggregator(final int destination, final int queueId, final ItemType type,
        final AggregatorConfig config) {
        Objects.requireNonNull(config, "config");
        transport.checkDevice(destination);
        transport.checkQueueId(queueId);
        final Dispatcher.Binding binding = inboxes[destination].dispatcher.binding(queueId);
        if (binding == null) {
            throw new IllegalStateException("dev" + destination + " has no handler for queue " + queueId
                + ": register one with Transport.registerHandler(" + destination + ", " + queueId + ", ItemType."
                + type + ", handler) before creating aggregators");
        }
        if (binding.type != type) {
            throw new IllegalStateException("queue " + queueId + " on dev" + destination + " takes " + binding.type
                + " items, not " + type);
        }
        final int max = inboxes[destination].maxMessageLength();
        final int batchBytes = config.isEager() ? BATCH_HEADER_LENGTH + type.bytes() : config.batchBytes();
        if (batchBytes > max) {
            throw new IllegalArgumentException("batchBytes " + batchBytes + " exceeds the largest message dev"
                + destination + "'s inbox accepts: " + max + " bytes (Agrona allows ring capacity / 8; the ring has "
                + inboxes[destination].ringCapacity() + " bytes). Use a ring of at least "
                + AggregatorConfig.smallestRing(batchBytes) + " bytes or a smaller batch");
        }
        return MessageFormat.itemsPerBatch(batchBytes, type);
    }

    private <A extends Aggregator> A register(final A aggregator) {
        if (aggregatorCount == aggregators.length) {
            aggregators = Arrays.copyOf(aggregators, aggregatorCount * 2);
        }
        aggregators[aggregatorCount++] = aggregator;
        return aggregator;
    }

    void unregister(final Aggregator aggregator) {
        for (int i = 0; i < aggregatorCount; i++) {
            if (aggregators[i] == aggregator) {
                aggregators[i] = aggregators[--aggregatorCount];
                aggregators[aggregatorCount] = null;
                return;
            }
        }
    }

    /** Sends the pending items of {@code a} as one batch (blocking on back-pressure). */
    void sendBatch(final Aggregator a, final FlushCause cause) {
        checkOpen();
        final int n = a.count;
        if (n == 0) {
            return;
        }
        if (a.sending) {
            throw new IllegalStateException("aggregator to dev" + a.destination + " queue " + a.queueId + " was used"
                + " to send from a handler that ran while it waited to send; handlers must not block on sends");
        }
        a.sending = true;
        try {
            final int bytes = n << a.shift;
            final int dest = a.destination;
            final Inbox inbox = inboxes[dest];
            final int index = claim(inbox, a.msgTypeId, BATCH_HEADER_LENGTH + bytes);
            final AtomicBuffer rb = inbox.ringBuffer();
            rb.putInt(index + SENDER_OFFSET, id);
            rb.putInt(index + QUEUE_ID_OFFSET, a.queueId);
            a.copyStaged(rb, index + ITEMS_OFFSET, n);
            addEnqueued(n - a.publishedPending); // counted before it can be delivered
            inbox.ring().commit(index);
            batchSent(dest, BATCH_HEADER_LENGTH + bytes, n, cause);
            a.batchSent(n);
        } finally {
            a.sending = false;
        }
    }

    /**
     * Non-blocking flush: false when the destination ring has no room now, or when {@code a} is in the middle of a
     * blocking send on this thread (a handler running during that send's wait): nothing changes then.
     */
    boolean trySendBatch(final Aggregator a, final FlushCause cause) {
        checkOpen();
        final int n = a.count;
        if (n == 0) {
            return true;
        }
        if (a.sending) {
            return false;
        }
        final int bytes = n << a.shift;
        final int dest = a.destination;
        final Inbox inbox = inboxes[dest];
        final int index = inbox.ring().tryClaim(a.msgTypeId, BATCH_HEADER_LENGTH + bytes);
        if (index <= 0) {
            add(TransportCounter.BACK_PRESSURE_RETRIES, 1);
            return false;
        }
        final AtomicBuffer rb = inbox.ringBuffer();
        rb.putInt(index + SENDER_OFFSET, id);
        rb.putInt(index + QUEUE_ID_OFFSET, a.queueId);
        a.copyStaged(rb, index + ITEMS_OFFSET, n);
        addEnqueued(n - a.publishedPending); // counted before it can be delivered
        inbox.ring().commit(index);
        batchSent(dest, BATCH_HEADER_LENGTH + bytes, n, cause);
        a.batchSent(n);
        return true;
    }

    /**
     * Sends the items staged in {@code a} followed by {@code count} items straight from {@code src} as one batch (a
     * size flush: callers complete a batch): the source items are copied once, into the ring, never into the
     * staging buffer.
     */
    void sendBatchFrom(final Aggregator a, final DirectBuffer src, final int offset, final int count) {
        checkOpen();
        if (a.sending) {
            throw new IllegalStateException("aggregator to dev" + a.destination + " queue " + a.queueId + " was used"
                + " to send from a handler that ran while it waited to send; handlers must not block on sends");
        }
        a.sending = true;
        try {
            final int n = a.count;
            final int items = n + count;
            final int bytes = items << a.shift;
            final int dest = a.destination;
            final Inbox inbox = inboxes[dest];
            final int index = claim(inbox, a.msgTypeId, BATCH_HEADER_LENGTH + bytes);
            final AtomicBuffer rb = inbox.ringBuffer();
            rb.putInt(index + SENDER_OFFSET, id);
            rb.putInt(index + QUEUE_ID_OFFSET, a.queueId);
            if (n > 0) {
                a.copyStaged(rb, index + ITEMS_OFFSET, n);
            }
            rb.putBytes(index + ITEMS_OFFSET + (n << a.shift), src, offset, count << a.shift);
            addEnqueued(items - a.publishedPending); // counted before the items can be delivered
            inbox.ring().commit(index);
            batchSent(dest, BATCH_HEADER_LENGTH + bytes, items, FlushCause.SIZE);
            a.batchSent(n);
        } finally {
            a.sending = false;
        }
    }

    /** @return true if whole batches of {@code batchBytes} (header included) may be delivered by reference */
    boolean byReference(final int batchBytes) {
        return batchBytes >= directBatchThreshold;
    }

    /** @return true if this thread may wait here now (it is not running a handler of its home inbox) */
    boolean mayWait() {
        return !transport.isDrainingOnCurrentThread();
    }

    /** @return the buffer that batches by reference of this endpoint point into (for the drainer applying them) */
    DirectBuffer directSource() {
        return directSource;
    }

    /**
     * Sends {@code count} items of {@code src} (a multiple of the batch capacity) as whole batches by reference, in one
     * descriptor message, then waits until the destination has applied it, draining the home inbox meanwhile: on return the handler has read
     * every item and {@code src} may be reused. Ring order is kept: these batches are applied after everything this
     * endpoint sent to the destination before, and before anything it sends later.
     */
    void sendBatchesByReference(final Aggregator a, final DirectBuffer src, final int offset, final int count) {
        checkOpen();
        if (a.sending) {
            throw new IllegalStateException("aggregator to dev" + a.destination + " queue " + a.queueId + " was used"
                + " to send from a handler that ran while it waited to send; handlers must not block on sends");
        }
        final int dest = a.destination;
        checkMayWait(WAIT_BY_REFERENCE, dest);
        final Inbox inbox = inboxes[dest];
        final ManyToOneRingBuffer ring = inbox.ring();
        final AtomicBuffer rb = inbox.ringBuffer();
        final int batch = a.capacity;
        final int batches = count / batch;
        a.sending = true;
        directSource = src;
        try {
            final int index = claim(inbox, a.type.refMsgTypeId(), MessageFormat.BATCH_REF_LENGTH);
            rb.putInt(index + SENDER_OFFSET, id);
            rb.putInt(index + QUEUE_ID_OFFSET, a.queueId);
            rb.putInt(index + MessageFormat.REF_COUNT_OFFSET, count);
            rb.putInt(index + MessageFormat.REF_BATCH_OFFSET, batch);
            rb.putLong(index + MessageFormat.REF_OFFSET_OFFSET, offset);
            addEnqueued(count); // counted before the items can be delivered
            ring.commit(index);
            local[TransportCounter.DIRECT_BATCHES.slot()] += batches;
            final long[] l = local;
            sent[dest]++;
            l[TransportCounter.MESSAGES_SENT.slot()]++;
            l[TransportCounter.BYTES_SENT.slot()] += (long)batches * BATCH_HEADER_LENGTH + ((long)count << a.shift);
            l[TransportCounter.ITEMS_FLUSHED.slot()] += count;
            l[TransportCounter.FLUSHES_SIZE.slot()] += batches;
            messageCounted();
            awaitAppliedUninterruptibly(dest);
        } finally {
            a.sending = false;
        }
        directSource = null; // only once applied: a failed wait leaves it for a drainer that may still apply them
    }

    /** Eager mode: one message for one item. */
    void sendEager(final Aggregator a, final long item) {
        checkOpen();
        final int dest = a.destination;
        final Inbox inbox = inboxes[dest];
        final int length = BATCH_HEADER_LENGTH + a.type.bytes();
        final int index = claim(inbox, a.msgTypeId, length);
        addEnqueued(1); // counted before the item can be delivered
        final AtomicBuffer rb = inbox.ringBuffer();
        rb.putInt(index + SENDER_OFFSET, id);
        rb.putInt(index + QUEUE_ID_OFFSET, a.queueId);
        if (a.type == ItemType.INT) {
            rb.putInt(index + ITEMS_OFFSET, (int)item);
        } else {
            rb.putLong(index + ITEMS_OFFSET, item);
        }
        inbox.ring().commit(index);
        batchSent(dest, length, 1, FlushCause.EAGER);
    }

    /** Eager mode, non-blocking. */
    boolean trySendEager(final Aggregator a, final long item) {
        checkOpen();
        final int dest = a.destination;
        final Inbox inbox = inboxes[dest];
        final int length = BATCH_HEADER_LENGTH + a.type.bytes();
        final int index = inbox.ring().tryClaim(a.msgTypeId, length);
        if (index <= 0) {
            add(TransportCounter.BACK_PRESSURE_RETRIES, 1);
            return false;
        }
        addEnqueued(1); // counted before the item can be delivered
        final AtomicBuffer rb = inbox.ringBuffer();
        rb.putInt(index + SENDER_OFFSET, id);
        rb.putInt(index + QUEUE_ID_OFFSET, a.queueId);
        if (a.type == ItemType.INT) {
            rb.putInt(index + ITEMS_OFFSET, (int)item);
        } else {
            rb.putLong(index + ITEMS_OFFSET, item);
        }
        inbox.ring().commit(index);
        batchSent(dest, length, 1, FlushCause.EAGER);
        return true;
    }

    private void batchSent(final int dest, final int length, final int items, final FlushCause cause) {
        sent[dest]++;
        final long[] l = local;
        l[TransportCounter.MESSAGES_SENT.slot()]++;
        l[TransportCounter.BYTES_SENT.slot()] += length;
        l[TransportCounter.ITEMS_FLUSHED.slot()] += items;
        l[causeCounter(cause).slot()]++;
        messageCounted();
    }

    private void messageCounted() {
        dirty = true;
        if (++unpublishedMessages >= PUBLISH_EVERY) {
            publishCounters();
        }
    }

    private static TransportCounter causeCounter(final FlushCause cause) {
        switch (cause) {
            case SIZE:
                return TransportCounter.FLUSHES_SIZE;
            case WAIT:
                return TransportCounter.FLUSHES_WAIT;
            case EAGER:
                return TransportCounter.FLUSHES_EAGER;
            case EXPLICIT:
                return TransportCounter.FLUSHES_EXPLICIT;
            default:
                return TransportCounter.FLUSHES_CLOSE;
        }
    }

    // ---------------------------------------------------------------------------------------------- remote ops

    /**
     * One-sided put of {@code length} bytes of {@code src} to a global address. Returns when {@code src} may be
     * reused: up to the rendezvous threshold the bytes are copied into the destination's inbox (or, as the
     * {@link DirectPolicy} allows, straight into its memory); larger puts are copied straight into the destination
     * memory after this endpoint's earlier ring messages to that device have been applied.
     *
     * @throws IndexOutOfBoundsException if the range is outside the destination memory or {@code src}
     */
    public void put(final long dstAddress, final DirectBuffer src, final int srcOffset, final int length) {
        checkOpen();
        Objects.checkFromIndexSize(srcOffset, length, src.capacity());
        final int dest = transport.checkRange(dstAddress, length, 1, "put destination");
        if (length == 0) {
            return;
        }
        final Inbox inbox = inboxes[dest];
        if (length >= rendezvousThreshold || length > inbox.maxMessageLength() - PUT_HEADER_LENGTH
            || goDirect(dest)) {
            fence(dest);
            transport.memory(dest).putBytes((int)GlobalAddress.offset(dstAddress), src, srcOffset, length);
            add(TransportCounter.DIRECT_OPS, 1);
            return;
        }
        final int index = claim(inbox, MessageFormat.PUT, PUT_HEADER_LENGTH + length);
        final AtomicBuffer rb = inbox.ringBuffer();
        rb.putInt(index + SENDER_OFFSET, id);
        rb.putInt(index + PUT_LENGTH_OFFSET, length);
        rb.putLong(index + PUT_ADDRESS_OFFSET, dstAddress);
        rb.putBytes(index + PUT_DATA_OFFSET, src, srcOffset, length);
        inbox.ring().commit(index);
        opSent(dest, PUT_HEADER_LENGTH + length);
    }

    /**
     * As {@link #put(long, DirectBuffer, int, int)}, waiting at most {@code timeout} for ring space or for earlier
     * messages to be applied.
     *
     * @return true if the put was issued; false if the wait before it timed out (nothing was sent or written)
     * @throws dev.overlap.core.InterruptedWaitException if interrupted before the put was issued
     */
    public boolean put(final long dstAddress, final DirectBuffer src, final int srcOffset, final int length,
        final long timeout, final TimeUnit unit) {
        return withDeadline(timeout, unit, () -> put(dstAddress, src, srcOffset, length));
    }

    /**
     * As {@link #putLong(long, long)}, waiting at most {@code timeout}.
     *
     * @return true if the put was issued; false if the wait before it timed out (nothing was sent or written)
     */
    public boolean putLong(final long dstAddress, final long value, final long timeout, final TimeUnit unit) {
        return withDeadline(timeout, unit, () -> putLong(dstAddress, value));
    }

    /** Puts one {@code long} (8-byte aligned address); see {@link #put(long, DirectBuffer, int, int)}. */
    public void putLong(final long dstAddress, final long value) {
        checkOpen();
        final int dest = transport.checkRange(dstAddress, 8, 8, "put destination");
        if (8 >= rendezvousThreshold || goDirect(dest)) {
            fence(dest);
            transport.memory(dest).putLong((int)GlobalAddress.offset(dstAddress), value);
            add(TransportCounter.DIRECT_OPS, 1);
            return;
        }
        final Inbox inbox = inboxes[dest];
        final int index = claim(inbox, MessageFormat.PUT, PUT_HEADER_LENGTH + 8);
        final AtomicBuffer rb = inbox.ringBuffer();
        rb.putInt(index + SENDER_OFFSET, id);
        rb.putInt(index + PUT_LENGTH_OFFSET, 8);
        rb.putLong(index + PUT_ADDRESS_OFFSET, dstAddress);
        rb.putLong(index + PUT_DATA_OFFSET, value);
        inbox.ring().commit(index);
        opSent(dest, PUT_HEADER_LENGTH + 8);
    }

    /**
     * Blocking one-sided get of {@code length} bytes at a global address into {@code dst}. Through the ring, the
     * destination (its owner, the progress thread, or a sender waiting on it) copies the bytes straight into
     * {@code dst} and signals this endpoint's reply slot; large gets (and small ones the {@link DirectPolicy}
     * allows) read the remote memory directly after an ordering fence. Drains the home inbox while waiting.
     */
    public void get(final long srcAddress, final MutableDirectBuffer dst, final int dstOffset, final int length) {
        checkOpen();
        Objects.checkFromIndexSize(dstOffset, length, dst.capacity());
        final int dest = transport.checkRange(srcAddress, length, 1, "get source");
        if (length == 0) {
            return;
        }
        if (length >= rendezvousThreshold || goDirect(dest)) {
            fence(dest);
            dst.putBytes(dstOffset, transport.memory(dest), (int)GlobalAddress.offset(srcAddress), length);
            add(TransportCounter.DIRECT_OPS, 1);
            return;
        }
        final int slot = acquireSlot();
        final long seq = lastSeq + 1;
        replyTargets[slot] = dst;
        replyOffsets[slot] = dstOffset;
        sendGet(dest, srcAddress, length, slot, seq);
        awaitSlot(slot, seq, dest);
        replyTargets[slot] = null;
    }

    /**
     * As {@link #get(long, MutableDirectBuffer, int, int)}, giving up after {@code timeout}: on a
     * {@link TimeoutException} the request stays outstanding and its bytes may still arrive in {@code dst} (a later
     * {@link #quiet()} waits for them).
     *
     * @throws TimeoutException         if the bytes did not arrive in time
     * @throws InterruptedWaitException if the thread is interrupted while waiting
     */
    public void get(final long srcAddress, final MutableDirectBuffer dst, final int dstOffset, final int length,
        final long timeout, final TimeUnit unit) throws TimeoutException {
        final long saved = startTimed(timeout, unit);
        try {
            get(srcAddress, dst, dstOffset, length);
        } catch (final WaitTimedOutException e) {
            throw timeout(e);
        } finally {
            deadline = saved;
        }
    }

    /**
     * As {@link #getLong(long)}, giving up after {@code timeout} (the request then stays outstanding; the value is
     * dropped when it arrives).
     *
     * @throws TimeoutException         if the value did not arrive in time
     * @throws InterruptedWaitException if the thread is interrupted while waiting
     */
    public long getLong(final long srcAddress, final long timeout, final TimeUnit unit) throws TimeoutException {
        final long saved = startTimed(timeout, unit);
        try {
            return getLong(srcAddress);
        } catch (final WaitTimedOutException e) {
            throw timeout(e);
        } finally {
            deadline = saved;
        }
    }

    /**
     * As {@link #fetch(RemoteAtomic, long, long)}, giving up after {@code timeout}: the atomic still takes effect
     * once applied; only its previous value is lost to the caller.
     *
     * @throws TimeoutException         if the reply did not arrive in time
     * @throws InterruptedWaitException if the thread is interrupted while waiting
     */
    public long fetch(final RemoteAtomic op, final long address, final long operand, final long timeout,
        final TimeUnit unit) throws TimeoutException {
        final long saved = startTimed(timeout, unit);
        try {
            return fetch(op, address, operand);
        } catch (final WaitTimedOutException e) {
            throw timeout(e);
        } finally {
            deadline = saved;
        }
    }

    /**
     * Sets the deadline of a timed call; nested timed calls (from a handler run during the wait) keep the earlier one.
     *
     * @return the deadline to restore afterwards
     */
    private long startTimed(final long timeout, final TimeUnit unit) {
        final long saved = deadline;
        final long mine = Waits.deadline(timeout, unit);
        deadline = saved == Waits.NO_DEADLINE || mine - saved < 0 ? mine : saved;
        return saved;
    }

    /** Runs {@code call} with a deadline; @return false if it timed out. For the aggregators' timed forms. */
    boolean withDeadline(final long timeout, final TimeUnit unit, final Runnable call) {
        final long saved = startTimed(timeout, unit);
        try {
            call.run();
            return true;
        } catch (final WaitTimedOutException e) {
            return false;
        } finally {
            deadline = saved;
        }
    }

    private static TimeoutException timeout(final WaitTimedOutException e) {
        return new TimeoutException(e.getMessage());
    }

    /** Blocking get of one {@code long} (8-byte aligned address); see {@link #get(long, MutableDirectBuffer, int, int)}. */
    public long getLong(final long srcAddress) {
        checkOpen();
        final int dest = transport.checkRange(srcAddress, 8, 8, "get source");
        if (8 >= rendezvousThreshold || goDirect(dest)) {
            fence(dest);
            add(TransportCounter.DIRECT_OPS, 1);
            return transport.memory(dest).getLongVolatile((int)GlobalAddress.offset(srcAddress));
        }
        final int slot = acquireSlot();
        final long seq = lastSeq + 1;
        replyTargets[slot] = replies;
        replyOffsets[slot] = slot * SLOT_BYTES + 8;
        sendGet(dest, srcAddress, 8, slot, seq);
        awaitSlot(slot, seq, dest);
        replyTargets[slot] = null;
        return replies.getLong(slot * SLOT_BYTES + 8);
    }

    /**
     * Non-blocking get: the future completes (on this endpoint's thread, inside {@link #poll()}, {@link #quiet()} or
     * another wait of this endpoint) once the bytes are in {@code dst}. {@code dst} must stay untouched until then.
     * Allocates the future; prefer the blocking forms on hot paths.
     */
    public CompletableFuture<Void> getAsync(final long srcAddress, final MutableDirectBuffer dst, final int dstOffset,
        final int length) {
        checkOpen();
        Objects.checkFromIndexSize(dstOffset, length, dst.capacity());
        final int dest = transport.checkRange(srcAddress, length, 1, "get source");
        if (length == 0) {
            return CompletableFuture.completedFuture(null);
        }
        if (length >= rendezvousThreshold || goDirect(dest)) {
            fence(dest);
            dst.putBytes(dstOffset, transport.memory(dest), (int)GlobalAddress.offset(srcAddress), length);
            add(TransportCounter.DIRECT_OPS, 1);
            return CompletableFuture.completedFuture(null);
        }
        final int slot = acquireSlot();
        final long seq = lastSeq + 1;
        final CompletableFuture<Void> future = new CompletableFuture<>();
        replyTargets[slot] = dst;
        replyOffsets[slot] = dstOffset;
        sendGet(dest, srcAddress, length, slot, seq);
        futures[slot] = future;
        outstandingAsync++;
        return future;
    }

    private void sendGet(final int dest, final long srcAddress, final int length, final int slot, final long seq) {
        slotDest[slot] = dest;
        final Inbox inbox = inboxes[dest];
        final int index = claim(inbox, MessageFormat.GET, GET_LENGTH);
        final AtomicBuffer rb = inbox.ringBuffer();
        rb.putInt(index + SENDER_OFFSET, id);
        rb.putInt(index + GET_SLOT_OFFSET, slot);
        rb.putLong(index + GET_ADDRESS_OFFSET, srcAddress);
        rb.putInt(index + GET_LENGTH_OFFSET, length);
        rb.putInt(index + GET_LENGTH_OFFSET + 4, 0);
        rb.putLong(index + GET_SEQ_OFFSET, seq);
        inbox.ring().commit(index);
        slotSent(slot, seq);
        opSent(dest, GET_LENGTH);
    }

    /**
     * Remote atomic without a result (e.g. the atomic-min of BFS): returns once the operation is queued in the
     * destination's inbox or, as the {@link DirectPolicy} allows, applied directly.
     *
     * @throws IllegalArgumentException if the address is not aligned to the operand width
     */
    public void atomic(final RemoteAtomic op, final long address, final long operand) {
        checkOpen();
        final int dest = transport.checkRange(address, op.width(), op.width(), "atomic target");
        if (goDirect(dest)) {
            fence(dest);
            RemoteAtomic.apply(op.code(), transport.memory(dest), (int)GlobalAddress.offset(address), operand, 0);
            add(TransportCounter.DIRECT_OPS, 1);
            return;
        }
        final Inbox inbox = inboxes[dest];
        final int index = claim(inbox, MessageFormat.ATOMIC, ATOMIC_LENGTH);
        final AtomicBuffer rb = inbox.ringBuffer();
        rb.putInt(index + SENDER_OFFSET, id);
        rb.putInt(index + OP_OFFSET, op.code());
        rb.putLong(index + ADDRESS_OFFSET, address);
        rb.putLong(index + OPERAND_OFFSET, operand);
        inbox.ring().commit(index);
        opSent(dest, ATOMIC_LENGTH);
    }

    /**
     * As {@link #atomic(RemoteAtomic, long, long)}, waiting at most {@code timeout} for ring space or for earlier
     * messages to be applied.
     *
     * @return true if the operation was issued; false if the wait before it timed out (nothing was sent)
     */
    public boolean atomic(final RemoteAtomic op, final long address, final long operand, final long timeout,
        final TimeUnit unit) {
        return withDeadline(timeout, unit, () -> atomic(op, address, operand));
    }

    /**
     * Blocking remote atomic that returns the previous value (ints sign-extended).
     *
     * @throws IllegalArgumentException if the address is not aligned to the operand width
     */
    public long fetch(final RemoteAtomic op, final long address, final long operand) {
        checkOpen();
        return fetchOp(op.code(), address, operand, 0, op.width());
    }

    /** Blocking remote compare-and-set of an {@code int}; @return true if it was {@code expected} */
    public boolean compareAndSetInt(final long address, final int expected, final int value) {
        checkOpen();
        return (int)fetchOp(RemoteAtomic.INT_CAS, address, value, expected, 4) == expected;
    }

    /** Blocking remote compare-and-set of a {@code long}; @return true if it was {@code expected} */
    public boolean compareAndSetLong(final long address, final long expected, final long value) {
        checkOpen();
        return fetchOp(RemoteAtomic.LONG_CAS, address, value, expected, 8) == expected;
    }

    private long fetchOp(final int code, final long address, final long operand, final long expected,
        final int width) {
        final int dest = transport.checkRange(address, width, width, "atomic target");
        if (goDirect(dest)) {
            fence(dest);
            add(TransportCounter.DIRECT_OPS, 1);
            return RemoteAtomic.apply(code, transport.memory(dest), (int)GlobalAddress.offset(address), operand,
                expected);
        }
        final int slot = acquireSlot();
        final long seq = lastSeq + 1;
        slotDest[slot] = dest;
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
        inbox.ring().commit(index);
        slotSent(slot, seq);
        opSent(dest, FETCH_LENGTH);
        awaitSlot(slot, seq, dest);
        return replies.getLong(slot * SLOT_BYTES + 8);
    }

    private void opSent(final int dest, final int length) {
        sent[dest]++;
        final long[] l = local;
        l[TransportCounter.MESSAGES_SENT.slot()]++;
        l[TransportCounter.BYTES_SENT.slot()] += length;
        l[TransportCounter.RING_OPS.slot()]++;
        messageCounted();
    }

    /** Called by the receiver (under its drain lock): copy the requested bytes, then release the slot's sequence. */
    void completeGet(final int slot, final long seq, final AtomicBuffer src, final int srcOffset, final int length) {
        final int s = slot & slotMask;
        replyTargets[s].putBytes(replyOffsets[s], src, srcOffset, length);
        replies.putLongRelease(s * SLOT_BYTES, seq);
    }

    /** Called by the receiver: store the previous value, then release the slot's sequence. */
    void completeFetch(final int slot, final long seq, final long previous) {
        final int s = slot & slotMask;
        replies.putLong(s * SLOT_BYTES + 8, previous);
        replies.putLongRelease(s * SLOT_BYTES, seq);
    }

    /**
     * @return the slot of request {@code lastSeq + 1}, once its previous request's reply is in; the slot is taken
     *         only when the request is sent ({@link #slotSent}), so a send that fails (interrupt, timeout, closed
     *         transport) leaves no slot waiting for a reply that will never come
     */
    private int acquireSlot() {
        final long seq = lastSeq + 1;
        final int slot = (int)seq & slotMask;
        final long previous = slotSeq[slot];
        if (previous != 0 && replies.getLongAcquire(slot * SLOT_BYTES) != previous) {
            awaitSlot(slot, previous, slotDest[slot]);
        }
        if (futures[slot] != null) {
            completeAsync(slot);
        }
        return slot;
    }

    /** The request {@code seq} is in the ring: its slot now waits for that reply. */
    private void slotSent(final int slot, final long seq) {
        lastSeq = seq;
        slotSeq[slot] = seq;
    }

    private void completeAsync(final int slot) {
        final CompletableFuture<?> future = futures[slot];
        futures[slot] = null;
        replyTargets[slot] = null;
        outstandingAsync--;
        future.complete(null);
    }

    private int pollReplies() {
        int done = 0;
        for (int slot = 0; slot <= slotMask && outstandingAsync > 0; slot++) {
            if (futures[slot] != null && replies.getLongAcquire(slot * SLOT_BYTES) == slotSeq[slot]) {
                completeAsync(slot);
                done++;
            }
        }
        return done;
    }

    // ---------------------------------------------------------------------------------------------- waiting

    private boolean goDirect(final int dest) {
        switch (policy) {
            case NEVER:
                return false;
            case ALWAYS:
                return true;
            default:
                return !pending(dest);
        }
    }

    /** @return true if this endpoint has ring messages to {@code dest} that are not applied yet */
    private boolean pending(final int dest) {
        final long s = sent[dest];
        if (appliedSeen[dest] == s) {
            return false;
        }
        final long applied = inboxes[dest].appliedBy(id);
        appliedSeen[dest] = applied;
        return applied != s;
    }

    /** Waits until every ring message this endpoint sent to {@code dest} has been applied. */
    private void fence(final int dest) {
        if (!pending(dest)) {
            return;
        }
        add(TransportCounter.FENCE_WAITS, 1);
        checkMayWait(WAIT_APPLIED, dest);
        idle.reset();
        startWait(dest);
        while (pending(dest)) {
            idle.idle(waitWork(WAIT_APPLIED, dest));
        }
    }

    /**
     * Waits until {@code dest} applied everything this endpoint sent, ignoring interrupts and deadlines (they are
     * noted and the interrupt status set again at the end): for batches sent by reference, whose source buffer the
     * caller may reuse only once they are applied. The wait always ends: the waiter applies them itself if nobody
     * else does.
     */
    private void awaitAppliedUninterruptibly(final int dest) {
        if (!pending(dest)) {
            return;
        }
        final long saved = deadline;
        deadline = Waits.NO_DEADLINE;
        boolean interrupted = false;
        try {
            idle.reset();
            startWait(dest);
            while (pending(dest)) {
                try {
                    idle.idle(waitWork(WAIT_BY_REFERENCE, dest));
                } catch (final InterruptedWaitException e) {
                    Thread.interrupted();
                    interrupted = true;
                }
            }
        } finally {
            deadline = saved;
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private int claim(final Inbox inbox, final int msgTypeId, final int length) {
        final ManyToOneRingBuffer ring = inbox.ring();
        final int index = ring.tryClaim(msgTypeId, length);
        return index > 0 ? index : claimSlow(inbox, msgTypeId, length);
    }

    private int claimSlow(final Inbox inbox, final int msgTypeId, final int length) {
        final ManyToOneRingBuffer ring = inbox.ring();
        final int dest = inbox.device();
        checkMayWait(WAIT_SPACE, dest);
        idle.reset();
        startWait(dest);
        while (true) {
            add(TransportCounter.BACK_PRESSURE_RETRIES, 1);
            idle.idle(waitWork(WAIT_SPACE, dest));
            final int index = ring.tryClaim(msgTypeId, length);
            if (index > 0) {
                return index;
            }
        }
    }

    private void awaitSlot(final int slot, final long seq, final int dest) {
        if (replies.getLongAcquire(slot * SLOT_BYTES) == seq) {
            return;
        }
        checkMayWait(WAIT_REPLY, dest);
        idle.reset();
        startWait(dest);
        while (replies.getLongAcquire(slot * SLOT_BYTES) != seq) {
            idle.idle(waitWork(WAIT_REPLY, dest));
        }
    }

    /** What a wait waits for, for its messages (built only when one is thrown). */
    private static final int WAIT_APPLIED = 0;
    private static final int WAIT_BY_REFERENCE = 1;
    private static final int WAIT_SPACE = 2;
    private static final int WAIT_REPLY = 3;

    private String describe(final int what, final int dest) {
        switch (what) {
            case WAIT_APPLIED:
                return "dev" + dest + " to apply the messages of endpoint " + id;
            case WAIT_BY_REFERENCE:
                return "dev" + dest + " to apply batches that reference the caller's buffer (endpoint " + id + ")";
            case WAIT_SPACE:
                return "space in dev" + dest + "'s inbox (endpoint " + id + ")";
            default:
                return "a reply from dev" + dest + " (endpoint " + id + ")";
        }
    }

    /** Starts the clock of a wait for {@code dest}: see {@link #waitWork}. */
    private void startWait(final int dest) {
        stalledSince = System.nanoTime();
        lastDestPosition = inboxes[dest].ring().consumerPosition();
    }

    /**
     * One round of useful work while waiting for {@code dest}: drain the home inbox, and, once the destination's
     * inbox has had no consumer progress for the help-after time (its owner and the progress thread, if any, are not
     * draining it), the destination's inbox too, as the UPC helper would; all inboxes while the transport closes.
     * Then check the transport, the interrupt status and the deadline. While the destination's own threads drain,
     * the waiter never competes with them for its inbox.
     */
    private int waitWork(final int what, final int dest) {
        publishCounters();
        int work = home.drain();
        if (transport.isClosing()) {
            work += transport.drainAll();
        } else if (dest != device && work == 0) {
            final long position = inboxes[dest].ring().consumerPosition();
            final long now = System.nanoTime();
            if (position != lastDestPosition) {
                lastDestPosition = position;
                stalledSince = now;
            } else if (now - stalledSince >= helpAfterNanos) {
                work += inboxes[dest].drain(Inbox.DEFAULT_DRAIN_LIMIT, true);
                lastDestPosition = inboxes[dest].ring().consumerPosition(); // our progress is no sign of the owner's
            }
        }
        if (transport.isClosed()) {
            throw new IllegalStateException("transport closed while endpoint " + id + " waited for "
                + describe(what, dest));
        }
        if (Thread.interrupted()) {
            throw Waits.interrupted(describe(what, dest));
        }
        if (deadline != Waits.NO_DEADLINE && System.nanoTime() - deadline >= 0) {
            throw new WaitTimedOutException(describe(what, dest));
        }
        return work;
    }

    private void checkMayWait(final int what, final int dest) {
        if (transport.isDrainingOnCurrentThread()) {
            throw new IllegalStateException("endpoint " + id + " on dev" + device + " would wait for "
                + describe(what, dest) + " from inside a handler (this thread is applying an inbox's messages): "
                + "handlers must not block on sends (use tryOffer), or the devices could deadlock");
        }
    }

    /** A timed call's deadline passed inside a wait; the timed methods turn it into their own answer. */
    static final class WaitTimedOutException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        WaitTimedOutException(final String waitingFor) {
            super("timed out waiting for " + waitingFor, null, false, false);
        }
    }

    // ---------------------------------------------------------------------------------------------- progress

    /**
     * One step of progress, for the owning thread's loop (e.g. a persistent kernel's poll): drains the home inbox,
     * counts one poll on every aggregator (sending batches whose wait time is up) and completes async gets.
     *
     * @return work done (messages applied, batches sent, gets completed); 0 lets the caller idle
     */
    public int poll() {
        checkOpen();
        int work = home.drain();
        final Aggregator[] as = aggregators;
        for (int i = 0, n = aggregatorCount; i < n; i++) {
            work += as[i].poll();
        }
        if (outstandingAsync > 0) {
            work += pollReplies();
        }
        publishCounters();
        return work;
    }

    /**
     * As {@link #flush()}, waiting at most {@code timeout} for ring space.
     *
     * @return true if every aggregator's pending items were sent; false if the wait timed out (what was not sent
     *         stays pending)
     */
    public boolean flush(final long timeout, final TimeUnit unit) {
        return withDeadline(timeout, unit, this::flush);
    }

    /** Sends every aggregator's pending items now (blocking on back-pressure). */
    public void flush() {
        checkOpen();
        final Aggregator[] as = aggregators;
        for (int i = 0; i < aggregatorCount; i++) {
            sendBatch(as[i], FlushCause.EXPLICIT);
        }
        publishCounters();
    }

    /**
     * Flushes every aggregator, then waits until every message this endpoint has sent has been applied at its
     * destination (draining the home inbox meanwhile) and completes async gets. Afterwards the effects of all earlier
     * operations are visible to the caller.
     */
    public void quiet() {
        flush();
        for (int dest = 0; dest < inboxes.length; dest++) {
            fence(dest);
        }
        if (outstandingAsync > 0) {
            pollReplies();
        }
        publishCounters();
    }

    /**
     * As {@link #quiet()}, giving up after {@code timeout}.
     *
     * @return true if everything was applied in time; false leaves the rest to apply later (nothing is lost)
     * @throws InterruptedWaitException if the thread is interrupted while waiting
     */
    public boolean quiet(final long timeout, final TimeUnit unit) {
        return withDeadline(timeout, unit, this::quiet);
    }

    /**
     * @param dest a device
     * @return true if every message this endpoint sent to {@code dest} has been applied (pending aggregator items do
     *         not count: they have not been sent)
     */
    public boolean isQuiet(final int dest) {
        transport.checkDevice(dest);
        return !pending(dest);
    }

    /**
     * @param counter a sender counter
     * @return this endpoint's value as last published (acquire load; may be read from any thread): see
     *         {@link TransportCounter} for when the owner publishes
     */
    public long counter(final TransportCounter counter) {
        if (!counter.isSenderCounter()) {
            throw new IllegalArgumentException(counter + " is a receiver counter: read it from an Inbox");
        }
        return counters.getLongAcquire(countersBase + counter.offset());
    }

    void add(final TransportCounter counter, final long delta) {
        local[counter.slot()] += delta;
        dirty = true;
    }

    /** Counts enqueued items and publishes the count at once (release): before the items can be delivered. */
    void addEnqueued(final long delta) {
        final long value = local[ENQUEUED_SLOT] + delta;
        local[ENQUEUED_SLOT] = value;
        counters.putLongRelease(countersBase + (ENQUEUED_SLOT << 3), value);
    }

    /** Publishes the sender counters (release stores) if any changed since the last publication. */
    void publishCounters() {
        if (!dirty) {
            return;
        }
        dirty = false;
        unpublishedMessages = 0;
        final long[] l = local;
        for (int slot = 0; slot < l.length; slot++) {
            if (slot != ENQUEUED_SLOT) {
                counters.putLongRelease(countersBase + (slot << 3), l[slot]);
            }
        }
    }

    /** Flushes and closes every aggregator; later operations throw. Idempotent. Call from the owning thread. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        flushForClose();
        closed = true;
    }

    void flushForClose() {
        while (aggregatorCount > 0) {
            aggregators[aggregatorCount - 1].close();
        }
        publishCounters();
    }

    /** @return true once closed */
    public boolean isClosed() {
        return closed;
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("endpoint " + id + " on dev" + device + " is closed");
        }
        if (transport.isClosed()) {
            throw new IllegalStateException("transport is closed (endpoint " + id + " on dev" + device + ")");
        }
    }

    @Override
    public String toString() {
        return "Endpoint{" + id + " on dev" + device + ", " + aggregatorCount + " aggregators}";
    }
}
