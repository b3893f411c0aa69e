package dev.overlap.transport;

import dev.overlap.core.DeviceRegion;
import dev.overlap.core.Mesh;
import org.agrona.BufferUtil;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * One job: the transport's own memory and its lifetime. It places one {@link Inbox} per device (in a symmetric
 * region of the mesh's device memory, in the caller's buffers, or in direct buffers), allocates the endpoints'
 * counter blocks and reply areas (direct buffers, left to the garbage collector, so a late counter read of a closed
 * transport's endpoint reads live memory), and {@link #release releases} the inbox memory once, at the end of the
 * transport's close.
 *
 * <p><b>Reads that race the release.</b> A thread other than the drainers may read inbox memory at any time: the
 * receiver counters ({@link Transport#counter}, {@link Inbox#counter}) and the bytes pending in a ring
 * ({@link Transport#countersReport()}). Such reads pass a read gate, one atomic word: a reader increments it and
 * reads the memory only if the word's released bit is clear, then decrements it; the release sets the bit with one
 * atomic add, then waits until no reader is inside before it frees the memory. The word's atomic updates are totally
 * ordered, so each read either happens wholly before the memory goes, or learns that it is gone and reads the
 * receiver counters' final values, which the release records before it closes the gate. No read touches freed memory
 * and none fails because it raced the close.
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
    private final AtomicBuffer endpointCounters;
    /** Readers inside the gate, plus {@link #RELEASED} once the release began. */
    private final AtomicInteger gate = new AtomicInteger();
    /** Receiver counters per device as the release found them (by ordinal); null until then. */
    private volatile long[][] finalCounters;

    /**
     * @param inboxBuffers standalone placement of the inboxes (one per device), or null for direct buffers; ignored
     *                     when {@code mesh} is given
     */
    TransportMemory(final Transport transport, final Mesh mesh, final int devices, final AtomicBuffer[] inboxBuffers,
        final int ringCapacity, final int maxEndpoints) {
        final int inboxBytes = Inbox.requiredBytes(ringCapacity, maxEndpoints);
        this.inboxRegion = mesh != null ? mesh.allocateSymmetric(inboxBytes, 4096) : null;
        this.endpointCounters = new UnsafeBuffer(allocate(maxEndpoints * TransportCounter.BLOCK_BYTES));
        this.inboxes = new Inbox[devices];
        for (int d = 0; d < devices; d++) {
            final AtomicBuffer buffer;
            if (inboxRegion != null) {
                buffer = inboxRegion.buffer(d);
            } else if (inboxBuffers != null) {
                buffer = inboxBuffers[d];
            } else {
                buffer = new UnsafeBuffer(allocate(inboxBytes));
            }
            inboxes[d] = new Inbox(transport, d, buffer, ringCapacity, maxEndpoints);
        }
    }

    private static java.nio.ByteBuffer allocate(final int bytes) {
        return BufferUtil.allocateDirectAligned(bytes, TransportCounter.BLOCK_BYTES);
    }

    /** @return a zeroed reply area of {@code slots} slots for one endpoint ({@link ReplySlots}) */
    static AtomicBuffer replyArea(final int slots) {
        return new UnsafeBuffer(BufferUtil.allocateDirectAligned(slots * ReplySlots.SLOT_BYTES,
            ReplySlots.SLOT_BYTES));
    }

    /** @return the inboxes, by device */
    Inbox[] inboxes() {
        return inboxes;
    }

    /** @return the endpoints' sender counter blocks, {@link TransportCounter#BLOCK_BYTES} per endpoint id */
    AtomicBuffer endpointCounters() {
        return endpointCounters;
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
     * Records the receiver counters' final values, closes the read gate, waits for the readers inside it, then frees
     * the inbox memory. Called once, by the transport's close, after every drain ended. Idempotent.
     */
    void release() {
        if (gate.get() < 0) {
            return;
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
        finalCounters = last;
        gate.getAndAdd(RELEASED);
        while (gate.get() != RELEASED) { // readers inside finish a load or two; late ones back out at once
            Thread.onSpinWait();
            Thread.yield(); // a reader that was descheduled inside needs a core to finish
        }
        if (inboxRegion != null) {
            inboxRegion.close();
        }
    }
}
