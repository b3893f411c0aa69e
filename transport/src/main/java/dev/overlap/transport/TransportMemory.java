package dev.overlap.transport;

import dev.overlap.core.DeviceRegion;
import dev.overlap.core.Mesh;
import dev.overlap.core.counters.OverlapCounters;
import org.agrona.BufferUtil;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.AtomicCounter;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * One job: the transport's own memory and its lifetime. It places one {@link Inbox} per device (in a symmetric
 * region of the mesh's device memory, in the caller's buffers, or in direct buffers), allocates the inboxes' receiver
 * counters in the transport's counters store (the endpoints' sender counters come from {@link TransportEndpoints}),
 * allocates the endpoints' reply areas (direct buffers, left to the garbage collector), and {@link #release releases}
 * the inbox memory and frees every counter once, at the end of the transport's close.
 *
 * <p><b>Reads that race the release.</b> A thread other than the drainers may read the transport's memory at any
 * time: the receiver and sender counters ({@link Transport#counter}, {@link Inbox#counter}, {@link Endpoint#counter})
 * and the bytes pending in a ring ({@link Transport#countersReport()}). A freed counter's slot may be reused at once by
 * another owner of the same counters store, so a counter is exactly as dangerous to read late as freed inbox memory.
 * Such reads pass a read gate, one atomic word: a reader increments it and reads the memory only if the word's
 * released bit is clear, then decrements it; the release sets the bit with one atomic add, then waits until no reader
 * is inside before it frees the memory and the counters. The word's atomic updates are totally ordered, so each read
 * either happens wholly before the memory goes, or learns that it is gone and reads the counters' final values, which
 * the release records before it closes the gate. No read touches freed memory or a freed counter, and none fails
 * because it raced the close.
 *
 * <p>Thread-safety: the transport builds and releases it; the gated reads come from any thread. Drains do not pass
 * the gate (they would contend on its word): the transport's close orders them before the release (see
 * {@link Transport#close()}).
 */
final class TransportMemory {
    private static final int RELEASED = Integer.MIN_VALUE;

    private final Inbox[] inboxes;
    /** The inbox memory when the transport lives on a mesh (freed by the release); null otherwise. */
    private final DeviceRegion inboxRegion;
    /** Every endpoint's reply area, in a mesh across processes (freed by the release); null otherwise. */
    private final DeviceRegion replyRegion;
    /** The reply area of each endpoint id, over {@link #replyRegion}; null in one process. */
    private final AtomicBuffer[] replyViews;
    private final int replySlotBytes;
    private final int replyAreaBytes;
    private final OverlapCounters counters;
    private final TransportEndpoints endpoints;
    /** Readers inside the gate, plus {@link #RELEASED} once the release began. */
    private final AtomicInteger gate = new AtomicInteger();
    /** Receiver counters per device as the release found them (by ordinal); null until then. */
    private volatile long[][] finalCounters;
    /** Sender counters per endpoint id as the release found them (by slot); null until then. */
    private volatile long[][] finalSenderCounters;

    /**
     * @param inboxBuffers  standalone placement of the inboxes (one per device), or null for direct buffers; ignored
     *                      when {@code mesh} is given
     * @param inboxSenders  endpoints that may send to an inbox: the transport's own, or in a mesh across processes
     *                      every rank's (endpoint ids are global there)
     * @param owned         by device: whether this process drains its inbox (see {@link Inbox#isOwned()})
     * @param replySlots    reply slots per endpoint
     * @param inlineReplies bytes a reply slot carries inline for a request answered by another process (0: one
     *                      process, replies go straight into the requester's buffer)
     */
    TransportMemory(final Transport transport, final Mesh mesh, final int devices, final AtomicBuffer[] inboxBuffers,
        final int ringCapacity, final int inboxSenders, final OverlapCounters counters, final String labelPrefix,
        final TransportEndpoints endpoints, final boolean[] owned, final int replySlots, final int inlineReplies) {
        final int inboxBytes = Inbox.requiredBytes(ringCapacity, inboxSenders);
        this.counters = counters;
        this.endpoints = endpoints;
        this.inboxes = new Inbox[devices];
        this.replySlotBytes = ReplySlots.slotBytes(inlineReplies);
        this.replyAreaBytes = replySlots * replySlotBytes;
        final AtomicCounter[][] receiver = new AtomicCounter[devices][];
        DeviceRegion region = null;
        DeviceRegion replies = null;
        try {
            for (int d = 0; d < devices; d++) {
                if (owned[d]) { // another process counts what its inboxes receive
                    receiver[d] = allocateCounters(counters, false, labelPrefix + " dev" + d + " inbox", d, -1);
                }
            }
            region = mesh != null ? mesh.allocateSymmetric(inboxBytes, 4096) : null;
            if (inlineReplies > 0) { // every endpoint's reply area where the other processes can write it
                replies = mesh.allocateSymmetric((long)inboxSenders * replyAreaBytes, 4096);
            }
        } catch (final RuntimeException e) {
            for (final AtomicCounter[] c : receiver) {
                freeCounters(counters, c);
            }
            if (region != null) {
                region.close();
            }
            throw e;
        }
        this.inboxRegion = region;
        this.replyRegion = replies;
        this.replyViews = replies != null ? new AtomicBuffer[inboxSenders] : null;
        if (replies != null) {
            final dev.overlap.core.World world = mesh.world();
            final int perRank = inboxSenders / world.ranks();
            for (int e = 0; e < inboxSenders; e++) {
                // endpoint e's area lives in the memory of its rank's first device (mapped by every rank)
                replyViews[e] = new UnsafeBuffer(replies.buffer(world.firstDeviceOf(e / perRank)),
                    e * replyAreaBytes, replyAreaBytes);
            }
        }
        for (int d = 0; d < devices; d++) {
            final AtomicBuffer buffer;
            if (inboxRegion != null) {
                buffer = inboxRegion.buffer(d);
            } else if (inboxBuffers != null) {
                buffer = inboxBuffers[d];
            } else {
                buffer = new UnsafeBuffer(BufferUtil.allocateDirectAligned(inboxBytes, 128));
            }
            inboxes[d] = new Inbox(transport, d, buffer, ringCapacity, inboxSenders, receiver[d], owned[d]);
        }
    }

    /**
     * Allocates the sender or the receiver counters of one owner, by slot, labelled {@code <prefix>: <label>}; frees
     * the ones it made if one allocation fails.
     */
    static AtomicCounter[] allocateCounters(final OverlapCounters counters, final boolean sender, final String prefix,
        final int device, final int index) {
        final AtomicCounter[] made = new AtomicCounter[sender ? TransportCounter.SENDER_COUNTERS
            : TransportCounter.RECEIVER_COUNTERS];
        try {
            for (final TransportCounter c : TransportCounter.values()) {
                if (c.isSenderCounter() == sender) {
                    made[c.slot()] = counters.allocate(c.typeId(), prefix + ": " + c.label(), device, index);
                }
            }
        } catch (final RuntimeException e) {
            freeCounters(counters, made);
            throw e;
        }
        return made;
    }

    private static void freeCounters(final OverlapCounters counters, final AtomicCounter[] made) {
        if (made == null) {
            return;
        }
        for (final AtomicCounter c : made) {
            if (c != null) {
                counters.free(c);
            }
        }
    }

    /**
     * @return the zeroed reply area of endpoint {@code id} ({@link ReplySlots}): in a mesh across processes its part
     *         of the shared reply region, where a drainer in another process writes replies; in one process a direct
     *         buffer of its own, left to the garbage collector (a late counter read of a closed endpoint stays safe)
     */
    AtomicBuffer replyArea(final int id) {
        return replyViews != null ? replyViews[id]
            : new UnsafeBuffer(BufferUtil.allocateDirectAligned(replyAreaBytes, ReplySlots.LINE));
    }

    /** @return bytes of one reply slot */
    int replySlotBytes() {
        return replySlotBytes;
    }

    /** @return the inboxes, by device */
    Inbox[] inboxes() {
        return inboxes;
    }

    /** @return the store the transport's counters live in */
    OverlapCounters counters() {
        return counters;
    }

    /**
     * Enters the read gate.
     *
     * @return true if the inbox memory may be read now: then call {@link #exitRead()} once done; false once it is
     *         released (or being released)
     */
    boolean enterRead() {
        if (gate.getAndIncrement() < 0) {
            gate.getAndDecrement();
            return false;
        }
        return true;
    }

    /** Leaves the read gate entered with a successful {@link #enterRead()}. */
    void exitRead() {
        gate.getAndDecrement();
    }

    /**
     * @return receiver counter {@code counter} of {@code device}'s inbox: the live value (acquire load) while the
     *         memory is held, the value the release recorded afterwards
     */
    long receiverCounter(final int device, final TransportCounter counter) {
        if (finalCounters == null && enterRead()) {
            try {
                return inboxes[device].counterValue(counter);
            } finally {
                exitRead();
            }
        }
        return finalCounters[device][counter.ordinal()]; // recorded before the gate closed
    }

    /**
     * @return sender counter {@code counter} of {@code endpoint}: the published value (acquire load) while the
     *         counters are allocated, the value the release recorded afterwards
     */
    long senderCounter(final Endpoint endpoint, final TransportCounter counter) {
        if (finalSenderCounters == null && enterRead()) {
            try {
                return endpoint.published(counter);
            } finally {
                exitRead();
            }
        }
        return finalSenderCounters[endpoints.localIndex(endpoint.id())][counter.slot()]; // recorded before the close
    }

    /** @return bytes pending in {@code device}'s ring (a snapshot), or 0 once the memory is released */
    int pendingBytes(final int device) {
        if (!enterRead()) {
            return 0;
        }
        try {
            return inboxes[device].ring().size();
        } finally {
            exitRead();
        }
    }

    /**
     * Takes every inbox's drain lock for good (waiting for drains in progress on other threads and applying what they
     * left, {@link Inbox#closeDrains()}), records the counters' final values, closes the read gate, waits for the
     * readers inside it, then frees every counter and the inbox memory. Called once, by the transport's close, after
     * every endpoint published its counters for the last time (no endpoint is created any more). Idempotent.
     *
     * @throws RuntimeException what a handler threw while the last messages were applied (after everything is freed)
     */
    void release() {
        if (gate.get() < 0) {
            return;
        }
        RuntimeException handlerFailure = null;
        for (final Inbox inbox : inboxes) {
            try {
                inbox.closeDrains(); // no drain is inside a ring when its memory goes, and none starts after
            } catch (final RuntimeException e) {
                handlerFailure = handlerFailure == null ? e : handlerFailure;
            }
        }
        final TransportCounter[] all = TransportCounter.values();
        final long[][] last = new long[inboxes.length][all.length];
        for (int d = 0; d < inboxes.length; d++) {
            for (final TransportCounter c : all) {
                if (!c.isSenderCounter()) {
                    last[d][c.ordinal()] = inboxes[d].counterValue(c);
                }
            }
        }
        final int endpointCount = endpoints.count();
        final long[][] lastSent = new long[endpointCount][TransportCounter.SENDER_COUNTERS];
        for (int e = 0; e < endpointCount; e++) {
            for (final TransportCounter c : all) {
                if (c.isSenderCounter()) {
                    lastSent[e][c.slot()] = endpoints.local(e).published(c);
                }
            }
        }
        finalCounters = last;
        finalSenderCounters = lastSent;
        gate.getAndAdd(RELEASED);
        while (gate.get() != RELEASED) { // readers inside finish a load or two; late ones back out at once
            Thread.onSpinWait();
            Thread.yield(); // a reader that was descheduled inside needs a core to finish
        }
        for (final Inbox inbox : inboxes) {
            freeCounters(counters, inbox.agronaCounters());
        }
        for (int e = 0; e < endpointCount; e++) {
            freeCounters(counters, endpoints.local(e).agronaCounters());
        }
        try {
            if (replyRegion != null) {
                replyRegion.close();
            }
        } finally {
            if (inboxRegion != null) {
                inboxRegion.close();
            }
        }
        if (handlerFailure != null) {
            throw handlerFailure;
        }
    }
}
