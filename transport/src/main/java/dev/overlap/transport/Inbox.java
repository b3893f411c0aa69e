package dev.overlap.transport;

import org.agrona.BitUtil;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.ringbuffer.ManyToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;
import org.agrona.concurrent.status.AtomicCounter;

/**
 * A device's inbox: an Agrona {@link ManyToOneRingBuffer} in that device's memory, followed by a small control block
 * (drain lock, per-sender applied counts). Senders write messages with {@code tryClaim}/{@code commit} through their
 * {@link Endpoint}; anyone may {@link #drain()} it. Its receiver counters ({@link TransportCounter}, one writer: the
 * lock holder) are Agrona counters of the transport's counters store.
 *
 * <pre>
 * [0, capacity + 768)           Agrona ring: records, then Agrona's trailer (tail, head cache, head, ...)
 * +0    (128 B)                 drain lock (int)
 * +128  (maxEndpoints x 8 B)    messages applied per sender endpoint (one writer: the lock holder)
 * </pre>
 *
 * <p>Thread-safety: many threads may send to an inbox concurrently (Agrona's multi-producer claim). Agrona's ring
 * has one consumer; here "the consumer" is whoever holds the drain lock, a word in the control block taken with a
 * compare-and-set and released with a release store. A drain that finds the lock taken returns 0 at once (the holder
 * is draining), so the owner device, the progress thread and waiting senders can all drain the same inbox and no
 * message is applied twice. Memory ordering: a message's payload (written before {@code commit}, a release store)
 * is visible to its handler (the ring reads the record length with a volatile load); everything one drain did
 * happens-before the next drain (lock release, then lock acquire). Receiver counters and per-sender applied counts
 * are published once per drain, with release stores, before the lock is released: an applied count read with acquire
 * semantics (e.g. by {@link Endpoint#quiet()}) makes the effects of the counted messages visible to the reader.
 */
public final class Inbox {
    /**
     * Smallest ring capacity: every message type must fit one message (at most
     * {@link AggregatorConfig#largestBatch(int)} of the capacity).
     */
    public static final int MIN_RING_CAPACITY = 512;
    /** Largest ring capacity. */
    public static final int MAX_RING_CAPACITY = 1 << 30;
    /** Messages one {@link #drain()} applies at most. */
    public static final int DEFAULT_DRAIN_LIMIT = 256;

    private static final int MESSAGES_DELIVERED = TransportCounter.MESSAGES_DELIVERED.slot();
    private static final int BYTES_DELIVERED = TransportCounter.BYTES_DELIVERED.slot();
    private static final int ITEMS_DELIVERED = TransportCounter.ITEMS_DELIVERED.slot();
    private static final int DRAINS = TransportCounter.DRAINS.slot();
    private static final int HELPER_DRAINS = TransportCounter.HELPER_DRAINS.slot();

    private static final int LOCK = 0;
    private static final int APPLIED = 128;
    /** Cache-line pair the control block's parts are aligned to. */
    private static final int PAD = 128;

    private final int device;
    private final AtomicBuffer buffer;
    private final ManyToOneRingBuffer ring;
    private final int capacity;
    private final int headPositionIndex;
    private final int lockIndex;
    private final int appliedIndex;
    /** The receiver counters, by slot; written by the drain lock's holder. */
    private final AtomicCounter[] counters;
    private final int maxEndpoints;
    final Dispatcher dispatcher;
    /** What the lock holder writes during a drain, kept off the cache lines that senders read (see {@link DrainState}). */
    private final DrainState state;
    /** Null for an inbox built outside a transport (tests); its lifetime is then the caller's. */
    private final Transport transport;
    /**
     * True when this process drains the inbox: always in one process; in a mesh across processes only for the
     * devices of this rank (the handlers live in the owner's process; the others only send into the ring).
     */
    private final boolean owned;

    Inbox(final Transport transport, final int device, final AtomicBuffer buffer, final int ringCapacity,
        final int maxEndpoints, final AtomicCounter[] counters) {
        this(transport, device, buffer, ringCapacity, maxEndpoints, counters, true);
    }

    /**
     * @param owned false for the inbox of a device of another process: its memory is that process's to set up (it is
     *              not zeroed here), and this process never drains it
     */
    Inbox(final Transport transport, final int device, final AtomicBuffer buffer, final int ringCapacity,
        final int maxEndpoints, final AtomicCounter[] counters, final boolean owned) {
        final int required = requiredBytes(ringCapacity, maxEndpoints);
        if (buffer.capacity() < required) {
            throw new IllegalArgumentException("inbox buffer of dev" + device + " has " + buffer.capacity()
                + " bytes; a ring of " + ringCapacity + " bytes for " + maxEndpoints + " endpoints needs " + required);
        }
        this.transport = transport;
        this.device = device;
        this.buffer = buffer;
        this.counters = counters;
        this.owned = owned;
        final int ringBytes = ringCapacity + RingBufferDescriptor.TRAILER_LENGTH;
        if (owned) {
            buffer.setMemory(0, required, (byte)0);
        }
        this.ring = new ManyToOneRingBuffer(new org.agrona.concurrent.UnsafeBuffer(buffer, 0, ringBytes));
        this.capacity = ringCapacity;
        this.headPositionIndex = ringCapacity + RingBufferDescriptor.HEAD_POSITION_OFFSET;
        this.lockIndex = ringBytes + LOCK;
        this.appliedIndex = ringBytes + APPLIED;
        this.maxEndpoints = maxEndpoints;
        this.state = new DrainState(maxEndpoints);
        this.dispatcher = new Dispatcher(transport, this, maxEndpoints);
    }

    /**
     * @param ringCapacity ring capacity: a power of two, at least {@value #MIN_RING_CAPACITY}
     * @param maxEndpoints how many endpoints may send to the inbox
     * @return bytes an inbox needs (ring, Agrona trailer, control block)
     */
    public static int requiredBytes(final int ringCapacity, final int maxEndpoints) {
        checkRingCapacity(ringCapacity);
        return ringCapacity + RingBufferDescriptor.TRAILER_LENGTH + APPLIED
            + BitUtil.align(maxEndpoints * 8, PAD);
    }

    static void checkRingCapacity(final int ringCapacity) {
        if (ringCapacity < MIN_RING_CAPACITY || !BitUtil.isPowerOfTwo(ringCapacity)
            || ringCapacity > MAX_RING_CAPACITY) {
            throw new IllegalArgumentException("ringCapacity must be a power of two in " + MIN_RING_CAPACITY + ".."
                + MAX_RING_CAPACITY + " bytes, was " + ringCapacity);
        }
    }

    /** @return the device that owns this inbox */
    public int device() {
        return device;
    }

    /** @return ring capacity in bytes */
    public int ringCapacity() {
        return capacity;
    }

    /** @return largest message payload the ring accepts ({@link AggregatorConfig#largestBatch(int)} of its capacity) */
    public int maxMessageLength() {
        return ring.maxMsgLength();
    }

    /** @return bytes of committed or claimed messages not yet consumed (a snapshot) */
    public int size() {
        checkNotClosed();
        return ring.size();
    }

    private void checkNotClosed() {
        if (transport != null) {
            transport.checkNotClosed();
        }
    }

    /** @return true when the record at the consumer position is committed (there is something to apply now) */
    public boolean hasReadyMessage() {
        checkNotClosed();
        return ready();
    }

    /** {@link #hasReadyMessage()} without the lifetime check, for drains the transport's close has accounted for. */
    boolean ready() {
        final long head = buffer.getLongVolatile(headPositionIndex);
        return buffer.getIntVolatile((int)head & (capacity - 1)) > 0;
    }

    /** @return the ring's consumer position (bytes consumed so far) */
    public long consumerPosition() {
        checkNotClosed();
        return ring.consumerPosition();
    }

    /**
     * Applies up to {@link #DEFAULT_DRAIN_LIMIT} messages, unless another thread is draining (then returns 0).
     * May be called from any thread.
     *
     * @return messages applied
     * @throws RuntimeException what a batch handler threw (that message and those before it count as applied)
     */
    public int drain() {
        checkNotClosed();
        return drain(DEFAULT_DRAIN_LIMIT, false);
    }

    /**
     * @param limit most messages to apply, at least 1
     * @return messages applied; 0 when empty or when another thread holds the drain lock
     * @see #drain()
     */
    public int drain(final int limit) {
        if (limit < 1) {
            throw new IllegalArgumentException("drain limit must be at least 1, was " + limit);
        }
        checkNotClosed();
        return drain(limit, false);
    }

    int drain(final int limit, final boolean helper) {
        if (!owned) {
            throw notOwned("drained");
        }
        if (!ready() || !buffer.compareAndSetInt(lockIndex, 0, 1)) {
            return 0;
        }
        final DrainState st = state;
        st.drainer = Thread.currentThread();
        int applied = 0;
        try {
            applied = ring.read(dispatcher, limit);
            if (applied < limit && ((int)buffer.getLong(headPositionIndex) & (capacity - 1)) == 0) {
                applied += ring.read(dispatcher, limit - applied); // the first read stopped at the end of the ring
            }
            return applied;
        } finally {
            publishDrain(st, helper);
            st.drainer = null;
            buffer.putIntRelease(lockIndex, 0);
        }
    }

    /** Publishes the counts of the drain that ends (release stores, before the lock is released). */
    private void publishDrain(final DrainState st, final boolean helper) {
        final AtomicBuffer b = buffer;
        final AtomicCounter[] c = counters;
        final long[] applied = st.applied;
        final int[] senders = st.senders;
        for (int i = 0, n = st.senderCount; i < n; i++) {
            final int slot = senders[DrainState.INT_PAD + i];
            b.addLongRelease(appliedIndex + ((slot - DrainState.LONG_PAD) << 3), applied[slot]);
            applied[slot] = 0;
        }
        st.senderCount = 0;
        if (st.messages > 0) {
            c[MESSAGES_DELIVERED].getAndAddRelease(st.messages);
            c[BYTES_DELIVERED].getAndAddRelease(st.bytes);
            c[ITEMS_DELIVERED].getAndAddRelease(st.items);
            c[DRAINS].getAndAddRelease(1);
            if (helper) {
                c[HELPER_DRAINS].getAndAddRelease(1);
            }
            st.messages = 0;
            st.bytes = 0;
            st.items = 0;
        }
    }

    /** @return true if this process drains the inbox (the device is this rank's, or the mesh is one process) */
    public boolean isOwned() {
        return owned;
    }

    private IllegalStateException notOwned(final String what) {
        final dev.overlap.core.World w = transport.mesh().world();
        return new IllegalStateException("dev" + device + "'s inbox can only be " + what + " by rank " + w.rankOf(device)
            + ", the process that runs dev" + device + " and its handlers (this is rank " + w.rank() + ")");
    }

    /**
     * The transport's close, before the inbox memory is freed: takes the drain lock for good, waiting (without a
     * bound, as {@code Mesh.close} waits for running kernels) while another thread holds it, then applies what is
     * left in the ring. A drain in progress on another thread is inside the ring, running a handler: freeing the
     * memory under it would make it read freed memory when the handler returns. Drains that come later find the
     * lock taken (they return 0) and the transport closed. Interrupts do not end the wait; they are kept.
     *
     * @throws RuntimeException what a handler threw while the rest was applied (the lock stays taken)
     */
    void closeDrains() {
        if (!owned) {
            return;
        }
        boolean interrupted = false;
        for (int spins = 0; !buffer.compareAndSetInt(lockIndex, 0, 1); spins++) {
            if (spins < 64) {
                Thread.onSpinWait();
            } else {
                java.util.concurrent.locks.LockSupport.parkNanos(this, 100_000);
                interrupted |= Thread.interrupted();
            }
        }
        final DrainState st = state;
        st.drainer = Thread.currentThread();
        try {
            while (ready()) {
                ring.read(dispatcher, DEFAULT_DRAIN_LIMIT);
            }
        } finally {
            publishDrain(st, false);
            st.drainer = null;
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** @return true if another thread is inside a drain of this inbox (applying messages: the ring is progressing) */
    boolean isDrainingOnAnotherThread() {
        final Thread drainer = state.drainer;
        return drainer != null && drainer != Thread.currentThread();
    }

    /** @return true if the calling thread is inside a drain of this inbox (i.e. runs one of its handlers) */
    boolean isDrainingOnCurrentThread() {
        return state.drainer == Thread.currentThread();
    }

    /**
     * @param counter a receiver counter
     * @return its current value (acquire load)
     * @throws IllegalStateException naming the transport once it is closed (a read that races the close returns the
     *                               value or throws this; it never reads freed memory): read the final values with
     *                               {@link Transport#counter(int, TransportCounter)}
     */
    public long counter(final TransportCounter counter) {
        if (!owned) {
            throw notOwned("counted");
        }
        if (counter.isSenderCounter()) {
            throw new IllegalArgumentException(counter + " is a sender counter: read it from an Endpoint or "
                + "Transport.counter(device, counter)");
        }
        if (transport == null) {
            return counterValue(counter);
        }
        checkNotClosed();
        final TransportMemory memory = transport.ownMemory();
        if (!memory.enterRead()) { // the close freed the memory since the check
            throw transport.closedError();
        }
        try {
            return counterValue(counter);
        } finally {
            memory.exitRead();
        }
    }

    /** {@link #counter} without the checks, for readers that hold the counters (acquire load). */
    long counterValue(final TransportCounter counter) {
        return counters == null ? 0 : counters[counter.slot()].getAcquire(); // none: another process's inbox
    }

    /** @return the receiver counters, by slot (for the close that frees them) */
    AtomicCounter[] agronaCounters() {
        return counters;
    }

    /**
     * @param endpointId a sender
     * @return messages from that endpoint applied so far (acquire load)
     */
    public long applied(final int endpointId) {
        checkNotClosed();
        return appliedBy(checkEndpoint(endpointId));
    }

    /** {@link #applied(int)} for the endpoints' own fences (they check their transport per operation). */
    long appliedBy(final int endpointId) {
        return buffer.getLongAcquire(appliedIndex + (endpointId << 3));
    }

    private int checkEndpoint(final int endpointId) {
        if (endpointId < 0 || endpointId >= maxEndpoints) {
            throw new IndexOutOfBoundsException("endpoint id " + endpointId + " outside 0.." + (maxEndpoints - 1));
        }
        return endpointId;
    }

    // ---- sender side (package-private, used by Endpoint) ----

    ManyToOneRingBuffer ring() {
        return ring;
    }

    AtomicBuffer ringBuffer() {
        return ring.buffer();
    }

    int maxEndpoints() {
        return maxEndpoints;
    }

    // ---- receiver side, called by the lock holder only ----

    void onApplied(final int sender, final int payloadLength, final int items) {
        final DrainState st = state;
        st.messages++;
        st.bytes += payloadLength;
        st.items += items;
        if (sender >= 0 && sender < maxEndpoints && st.applied[DrainState.LONG_PAD + sender]++ == 0) {
            st.senders[DrainState.INT_PAD + st.senderCount++] = DrainState.LONG_PAD + sender;
        }
    }

    void onHandlerError() {
        counters[TransportCounter.HANDLER_ERRORS.slot()].getAndAddRelease(1);
    }

    @Override
    public String toString() {
        return "Inbox{dev" + device + ", ring " + capacity + " bytes"
            + (transport == null ? ", " + ring.size() + " bytes pending" : transport.isClosed() ? ", closed"
            : ", " + transport.ownMemory().pendingBytes(device) + " bytes pending") + "}";
    }

    /** 128 bytes in front of the drain state's fields (the int fills the gap after the object header). */
    abstract static class DrainStatePadding {
        int p00;
        long p01, p02, p03, p04, p05, p06, p07, p08, p09, p10, p11, p12, p13, p14, p15, p16;
    }

    /** The fields of {@link DrainState}. */
    abstract static class DrainStateFields extends DrainStatePadding {
        /** The lock holder (written by it after taking the lock, cleared before release); for re-entrancy checks. */
        Thread drainer;
        long messages;
        long bytes;
        long items;
        int senderCount;
    }

    /**
     * The counts of the drain in progress, written for every message applied and published once at the drain's end.
     * Confined to the drain lock's holder (the lock orders successive holders). Padded by 128 bytes on both sides,
     * and its arrays at both ends, so that these writes never touch a cache line that senders read on their hot path
     * (the {@code Inbox} and ring objects next to it in the heap): one message would otherwise cost the sender and
     * the drainer a cache-line transfer each.
     */
    static final class DrainState extends DrainStateFields {
        static final int LONG_PAD = 16;
        static final int INT_PAD = 32;

        /** Messages applied per sender in this drain, at {@code LONG_PAD + sender}. */
        final long[] applied;
        /** Slots of {@link #applied} that are non-zero, at {@code INT_PAD + i} for {@code i < senderCount}. */
        final int[] senders;
        long q01, q02, q03, q04, q05, q06, q07, q08, q09, q10, q11, q12, q13, q14, q15, q16;

        DrainState(final int maxEndpoints) {
            applied = new long[maxEndpoints + 2 * LONG_PAD];
            senders = new int[maxEndpoints + 2 * INT_PAD];
        }
    }
}
