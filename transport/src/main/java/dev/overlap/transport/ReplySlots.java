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
 * <p>Each slot is a 64-byte line of the reply area ({@link TransportMemory#replyArea}): the sequence at +0, a fetched
 * value at +8.
 *
 * <p>Thread-safety: the owner thread (the endpoint's) uses every method but {@link #completeGet} and
 * {@link #completeFetch}, which the drainer applying the request calls; the request's commit (a release store)
 * publishes the slot's target to that drainer, and the sequence's release store publishes the reply back.
 */
final class ReplySlots {
    static final int SLOT_BYTES = 64;
    private static final int VALUE = 8;

    private final EndpointWaits waits;
    private final int mask;
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

    /** @param replies {@code slots} lines of {@value #SLOT_BYTES} bytes, zeroed; {@code slots} a power of two */
    ReplySlots(final EndpointWaits waits, final AtomicBuffer replies, final int slots) {
        this.waits = waits;
        this.mask = slots - 1;
        this.replies = replies;
        this.targets = new MutableDirectBuffer[slots];
        this.offsets = new int[slots];
        this.seqs = new long[slots];
        this.dests = new int[slots];
        this.futures = new CompletableFuture<?>[slots];
    }

    /**
     * @return the slot of the next request, once the reply of its previous request is in; the slot is taken only
     *         when the request is {@link #sent}, so a send that fails (interrupt, timeout, closed transport) leaves
     *         no slot waiting for a reply that will never come
     */
    int acquire() {
        final int slot = (int)(lastSeq + 1) & mask;
        final long previous = seqs[slot];
        if (previous != 0 && replies.getLongAcquire(slot * SLOT_BYTES) != previous) {
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

    /** The reply to {@code slot}'s next request goes to {@code target} at {@code offset}. */
    void expect(final int slot, final MutableDirectBuffer target, final int offset) {
        targets[slot] = target;
        offsets[slot] = offset;
    }

    /** The reply to {@code slot}'s next request (8 bytes) goes to the slot's value word; read it with {@link #value}. */
    void expectValue(final int slot) {
        targets[slot] = replies;
        offsets[slot] = slot * SLOT_BYTES + VALUE;
    }

    /** The request {@code seq} to {@code dest} is in the ring: its slot now waits for that reply. */
    void sent(final int slot, final long seq, final int dest) {
        lastSeq = seq;
        seqs[slot] = seq;
        dests[slot] = dest;
    }

    /** Waits for the reply to {@code slot}'s latest request. */
    void await(final int slot) {
        await(slot, seqs[slot], dests[slot]);
    }

    private void await(final int slot, final long seq, final int dest) {
        if (replies.getLongAcquire(slot * SLOT_BYTES) == seq) {
            return;
        }
        waits.begin(EndpointWaits.REPLY, dest);
        while (replies.getLongAcquire(slot * SLOT_BYTES) != seq) {
            waits.idle(EndpointWaits.REPLY, dest);
        }
    }

    /** @return the value word of {@code slot} (a fetched value, or a {@link #expectValue} get's bytes) */
    long value(final int slot) {
        return replies.getLong(slot * SLOT_BYTES + VALUE);
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
            if (futures[slot] != null && replies.getLongAcquire(slot * SLOT_BYTES) == seqs[slot]) {
                completeAsync(slot);
                done++;
            }
        }
        return done;
    }

    private void completeAsync(final int slot) {
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
        replies.putLongRelease(s * SLOT_BYTES, seq);
    }

    /** Called by the receiver: store the previous value, then release the slot's sequence. */
    void completeFetch(final int slot, final long seq, final long previous) {
        final int s = slot & mask;
        replies.putLong(s * SLOT_BYTES + VALUE, previous);
        replies.putLongRelease(s * SLOT_BYTES, seq);
    }
}
