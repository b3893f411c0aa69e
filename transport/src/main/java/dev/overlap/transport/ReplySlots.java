package dev.overlap.transport;

import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.AtomicBuffer;

import java.util.concurrent.CompletableFuture;

/**
 * One job: an endpoint's reply slots, where the replies to its gets and fetching atomics sent through a ring arrive.
 * Replies never use a ring: the drainer that applies the request copies the result straight into the requester's
 * buffer (or the slot's value word) and then stores the request's sequence number into the slot with a release
 * store; the requester waits for it with acquire loads (draining as {@link EndpointWaits} describes), so the data is
 * visible once the sequence is. Request {@code seq} uses slot {@code seq & mask}: a new request first waits for the
 * reply of the slot's previous request, and completes its future if it was an async get.
 *
 * <p>Each slot is a run of 64-byte lines of the reply area ({@link TransportMemory#replyArea}): the sequence at +0, a
 * fetched value (or a get's bytes) from +8. In one process a slot is one line and a get's bytes go straight into the
 * requester's buffer. In a mesh across processes the drainer of another process cannot reach that buffer (the
 * UPC runtime's fastpath: the remote side writes the bytes into the requester's registered buffer, which copies them
 * out): the reply area is shared memory, a slot carries up to the rendezvous threshold inline
 * ({@link #completeRemoteGet}), and the requester copies the bytes into its buffer once it sees the sequence.
 *
 * <p>Thread-safety: the owner thread (the endpoint's) uses every method but {@link #completeGet} and
 * {@link #completeFetch}, which the drainer applying the request calls; the request's commit (a release store)
 * publishes the slot's target to that drainer, and the sequence's release store publishes the reply back.
 */
final class ReplySlots {
    /** Reply slots are whole 64-byte lines. */
    static final int LINE = 64;
    private static final int VALUE = 8;

    private final EndpointWaits waits;
    private final int mask;
    private final int slotBytes;
    /** By device: whether this process drains its inbox (a reply from any other comes inline, see the class). */
    private final boolean[] localDevices;
    /** Each slot's reply came inline and still has to be copied to its target; its length. */
    private final boolean[] inline;
    private final int[] lengths;
    private final AtomicBuffer replies;
    private final MutableDirectBuffer[] targets;
    private final int[] offsets;
    /** The sequence of each slot's latest request (0: none yet). */
    private final long[] seqs;
    /** The device each slot's latest request went to (whose inbox a waiter for that slot helps). */
    private final int[] dests;
    private final CompletableFuture<?>[] futures;
    private long lastSeq;
    private int outstandingAsync;

    /**
     * @param replies      {@code slots} slots of {@code slotBytes}, zeroed; {@code slots} a power of two
     * @param slotBytes    {@link #slotBytes(int)}
     * @param localDevices by device, whether this process drains its inbox (null: every device, one process)
     */
    ReplySlots(final EndpointWaits waits, final AtomicBuffer replies, final int slots, final int slotBytes,
        final boolean[] localDevices) {
        this.waits = waits;
        this.mask = slots - 1;
        this.slotBytes = slotBytes;
        this.localDevices = localDevices;
        this.replies = replies;
        this.targets = new MutableDirectBuffer[slots];
        this.offsets = new int[slots];
        this.seqs = new long[slots];
        this.dests = new int[slots];
        this.futures = new CompletableFuture<?>[slots];
        this.inline = new boolean[slots];
        this.lengths = new int[slots];
    }

    /**
     * @param inlineBytes bytes of a reply carried in the slot (0 in one process)
     * @return bytes of one slot: the sequence and the value or inline bytes, rounded up to whole lines
     */
    static int slotBytes(final int inlineBytes) {
        return (VALUE + Math.max(8, inlineBytes) + LINE - 1) & -LINE;
    }

    /**
     * @return the slot of the next request, once the reply of its previous request is in; the slot is taken only
     *         when the request is {@link #sent}, so a send that fails (interrupt, timeout, closed transport) leaves
     *         no slot waiting for a reply that will never come
     */
    int acquire() {
        final int slot = (int)(lastSeq + 1) & mask;
        final long previous = seqs[slot];
        if (previous != 0 && replies.getLongAcquire(slot * slotBytes) != previous) {
            await(slot, previous, dests[slot]);
        }
        if (futures[slot] != null) {
            completeAsync(slot);
        }
        return slot;
    }

    /** @return the sequence number of the next request */
    long nextSeq() {
        return lastSeq + 1;
    }

    /** The reply to {@code slot}'s next request, {@code length} bytes, goes to {@code target} at {@code offset}. */
    void expect(final int slot, final MutableDirectBuffer target, final int offset, final int length) {
        targets[slot] = target;
        offsets[slot] = offset;
        lengths[slot] = length;
    }

    /** The reply to {@code slot}'s next request (8 bytes) goes to the slot's value word; read it with {@link #value}. */
    void expectValue(final int slot) {
        targets[slot] = replies;
        offsets[slot] = slot * slotBytes + VALUE;
        lengths[slot] = 0; // read in place with value()
    }

    /** The request {@code seq} to {@code dest} is in the ring: its slot now waits for that reply. */
    void sent(final int slot, final long seq, final int dest) {
        lastSeq = seq;
        seqs[slot] = seq;
        dests[slot] = dest;
        inline[slot] = localDevices != null && !localDevices[dest] && lengths[slot] > 0;
    }

    /** Waits for the reply to {@code slot}'s latest request. */
    void await(final int slot) {
        await(slot, seqs[slot], dests[slot]);
    }

    private void await(final int slot, final long seq, final int dest) {
        if (replies.getLongAcquire(slot * slotBytes) != seq) {
            waits.begin(EndpointWaits.REPLY, dest);
            while (replies.getLongAcquire(slot * slotBytes) != seq) {
                waits.idle(EndpointWaits.REPLY, dest);
            }
        }
        copyInline(slot);
    }

    /** A reply that came inline (from another process) goes to its target now that its sequence is in (acquire). */
    private void copyInline(final int slot) {
        if (inline[slot]) {
            inline[slot] = false;
            targets[slot].putBytes(offsets[slot], replies, slot * slotBytes + VALUE, lengths[slot]);
        }
    }

    /** @return the value word of {@code slot} (a fetched value, or a {@link #expectValue} get's bytes) */
    long value(final int slot) {
        return replies.getLong(slot * slotBytes + VALUE);
    }

    /** The reply to {@code slot} has been consumed: drop the reference to its target. */
    void release(final int slot) {
        targets[slot] = null;
    }

    /** {@code slot}'s request is an async get: {@code future} completes once its reply is in. */
    void async(final int slot, final CompletableFuture<?> future) {
        futures[slot] = future;
        outstandingAsync++;
    }

    /** @return true while an async get is not completed */
    boolean hasAsync() {
        return outstandingAsync > 0;
    }

    /** Completes the async gets whose replies are in. @return how many */
    int pollAsync() {
        int done = 0;
        for (int slot = 0; slot <= mask && outstandingAsync > 0; slot++) {
            if (futures[slot] != null && replies.getLongAcquire(slot * slotBytes) == seqs[slot]) {
                completeAsync(slot);
                done++;
            }
        }
        return done;
    }

    private void completeAsync(final int slot) {
        copyInline(slot);
        final CompletableFuture<?> future = futures[slot];
        futures[slot] = null;
        targets[slot] = null;
        outstandingAsync--;
        future.complete(null);
    }

    /** Called by the receiver (under its drain lock): copy the requested bytes, then release the slot's sequence. */
    void completeGet(final int slot, final long seq, final AtomicBuffer src, final int srcOffset, final int length) {
        final int s = slot & mask;
        targets[s].putBytes(offsets[s], src, srcOffset, length);
        replies.putLongRelease(s * slotBytes, seq);
    }

    /** Called by the receiver: store the previous value, then release the slot's sequence. */
    void completeFetch(final int slot, final long seq, final long previous) {
        final int s = slot & mask;
        replies.putLong(s * slotBytes + VALUE, previous);
        replies.putLongRelease(s * slotBytes, seq);
    }

    /**
     * Called by the receiver in another process than the requester's (under its drain lock): copies the requested
     * bytes into the slot of the requester's shared reply area, then releases the sequence; the requester copies
     * them to their target when it sees the sequence ({@link #copyInline}).
     *
     * @param area      the requester's reply area ({@link TransportMemory#replyArea})
     * @param slotBytes its slot size
     * @param slot      the slot the request names, masked by {@code slots - 1}
     */
    static void completeRemoteGet(final AtomicBuffer area, final int slotBytes, final int slot, final long seq,
        final AtomicBuffer src, final int srcOffset, final int length) {
        final int at = slot * slotBytes;
        area.putBytes(at + VALUE, src, srcOffset, length);
        area.putLongRelease(at, seq);
    }

    /** {@link #completeFetch} for a requester in another process: the previous value, then the sequence (release). */
    static void completeRemoteFetch(final AtomicBuffer area, final int slotBytes, final int slot, final long seq,
        final long previous) {
        final int at = slot * slotBytes;
        area.putLong(at + VALUE, previous);
        area.putLongRelease(at, seq);
    }
}
