package dev.overlap.transport;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.AtomicBuffer;

/**
 * Collects items for one queue on one destination device and sends them as batch messages (the Atos communication
 * aggregator): a batch goes out when it holds {@link AggregatorConfig#batchBytes()}, when its oldest item has waited
 * {@link AggregatorConfig#waitPolls()} polls or {@link AggregatorConfig#waitNanos()} (checked by {@link #poll()}),
 * at once in eager mode, on {@link #flush()} and on {@link #close()}. Items are staged in a private buffer and copied
 * into the destination ring with one {@code tryClaim}/{@code commit}; a full ring blocks the sender (draining its
 * own inbox) and never drops an item.
 *
 * <p><b>Offers, by how they wait</b> (the conventions of {@link java.util.concurrent.BlockingQueue}, with
 * {@code offerBlocking} where a blocking queue says {@code put}, which on an {@link Endpoint} means a one-sided remote
 * put): {@code tryOffer(item)} never waits and returns an Aeron-style result code ({@link dev.overlap.core.OfferResult}:
 * non-negative, the items now pending, when the item was taken; {@code BACK_PRESSURED}, {@code ADMIN_ACTION} or
 * {@code CLOSED} when it was not); {@code offer(item, timeout, unit)} waits at most the timeout; the
 * {@code offerBlocking} forms (one item, an array, a buffer) wait until every item is taken.
 *
 * <p><b>Zero-copy claims.</b> {@code tryClaim(count, claim)} reserves a whole batch record in the destination ring
 * and lets the caller write the items in place through a reusable {@link BatchClaim} flyweight (Aeron's
 * {@code tryClaim} and {@code BufferClaim}, on Agrona's ring claim): {@link BatchClaim#commit()} sends it,
 * {@link BatchClaim#abort()} gives the room back. Items pending in the aggregator leave first: they are carried
 * ahead of the claimed ones in the same record when both fit one batch, else sent as a batch of their own before the
 * claim. While a claim is open the aggregator takes nothing else (its offers, claims and flush throw an
 * {@link IllegalStateException}; its polls find nothing pending), and its endpoint refuses to wait (every operation
 * that would wait throws an {@link IllegalStateException}): the open record holds up the destination's consumer,
 * which reads the ring in order, so a waiting owner could wait for itself. {@link #close()} aborts an open claim.
 *
 * <p><b>Thread-safety:</b> single-writer. An aggregator belongs to its {@link Endpoint} and must only be used by the
 * endpoint's thread. The counters it updates are readable from any thread.
 *
 * <p><b>Ordering:</b> items reach the destination's handler in offer order, in batches applied in flush order
 * relative to everything else the endpoint sends to that device.
 *
 * <p><b>Counting:</b> an offer costs no shared-memory write. {@link TransportCounter#ITEMS_ENQUEUED} is published
 * (release store) on every {@link #poll()} and every flush: it includes every item offered before the owner's latest
 * poll or flush, and an item is always counted as enqueued before it can be delivered. An owner that polls while
 * idle therefore keeps the count exact, which is what termination detection needs.
 */
public abstract sealed class Aggregator implements AutoCloseable permits IntAggregator, LongAggregator {
    final Endpoint endpoint;
    final int destination;
    final int queueId;
    final ItemType type;
    final int msgTypeId;
    final int shift;
    final int capacity;
    final boolean eager;
    final long waitPolls;
    final long waitNanos;
    final boolean timed;
    /** Whole batches of bulk offers go by reference (see {@link Transport.Builder#directBatchThreshold(int)}). */
    final boolean byReference;
    private final AggregatorConfig config;

    int count;
    /**
     * Items of the pending batch already counted in ITEMS_ENQUEUED (by a poll); while a claim is open, the pending
     * items the claim carries (counted when it opened).
     */
    int publishedPending;
    /** The open claim, or null; while it is open, {@link #count} is 0 (the pending items are in the claim). */
    BatchClaim claim;
    boolean sending;
    boolean closed;
    private long polls;
    long firstItemNanos;

    Aggregator(final Endpoint endpoint, final int destination, final int queueId, final ItemType type,
        final int capacity, final AggregatorConfig config) {
        this.endpoint = endpoint;
        this.destination = destination;
        this.queueId = queueId;
        this.type = type;
        this.msgTypeId = type.msgTypeId();
        this.shift = type.shift();
        this.capacity = capacity;
        this.config = config;
        this.eager = config.isEager();
        this.waitPolls = config.waitPolls();
        this.waitNanos = config.waitNanos();
        this.timed = waitNanos != AggregatorConfig.NO_WAIT_NANOS;
        // by reference only within one process: the descriptor points into this process's buffer
        this.byReference = !eager && endpoint.byReference(MessageFormat.BATCH_HEADER_LENGTH + (capacity << shift))
            && endpoint.transport().isLocal(destination);
    }

    /** Copies the first {@code count} staged items to {@code dst} at {@code index} (native byte order). */
    abstract void copyStaged(AtomicBuffer dst, int index, int count);

    /** Stages {@code count} items read from {@code src} at byte {@code offset}, from staging position {@code at}. */
    abstract void stage(DirectBuffer src, int offset, int at, int count);

    /** Moves {@code count} staged items from position {@code from} to position 0. */
    abstract void moveToFront(int from, int count);

    /** @return the destination device */
    public final int destination() {
        return destination;
    }

    /** @return the queue id */
    public final int queueId() {
        return queueId;
    }

    /** @return the configuration */
    public final AggregatorConfig config() {
        return config;
    }

    /** @return items in one full batch */
    public final int batchCapacity() {
        return capacity;
    }

    /** @return items pending (offered, not yet sent) */
    public final int pending() {
        return count;
    }

    /** @return the owning endpoint */
    public final Endpoint endpoint() {
        return endpoint;
    }

    /**
     * Sends the pending items now, if any (blocking on back-pressure).
     *
     * @return 1 if a batch was sent, else 0
     * @throws IllegalStateException if closed, or a claim is open
     */
    public final int flush() {
        checkUsable();
        if (count == 0) {
            return 0;
        }
        endpoint.sendBatch(this, FlushCause.EXPLICIT);
        endpoint.publishCounters();
        return 1;
    }

    /**
     * As {@link #flush()}, waiting at most {@code timeout} for ring space.
     *
     * @param timeout longest wait, {@code <= 0} for none
     * @param unit its unit
     * @return true if nothing is pending any more; false if the wait timed out (the items stay pending)
     * @throws dev.overlap.core.InterruptedWaitException if interrupted while waiting (the items stay pending)
     */
    public final boolean flush(final long timeout, final java.util.concurrent.TimeUnit unit) {
        checkUsable();
        return endpoint.withDeadline(timeout, unit, this::flush);
    }

    /**
     * Counts one poll (Atos' {@code WAIT_TIME} visit) and sends the pending items when the oldest has waited
     * {@code waitPolls} polls or {@code waitNanos}. {@link Endpoint#poll()} polls every aggregator of the endpoint.
     *
     * @return 1 if a batch was sent, else 0
     */
    public final int poll() {
        if (count == 0 || closed) {
            return 0;
        }
        publishEnqueued();
        if (++polls >= waitPolls || (timed && System.nanoTime() - firstItemNanos >= waitNanos)) {
            endpoint.sendBatch(this, FlushCause.WAIT);
            endpoint.publishCounters();
            return 1;
        }
        return 0;
    }

    /**
     * Aborts an open claim, flushes the pending items (counted as {@link FlushCause#CLOSE}) and closes; idempotent.
     * Later non-blocking offers return {@link dev.overlap.core.OfferResult#CLOSED}; every other call throws.
     */
    @Override
    public final void close() {
        if (closed) {
            return;
        }
        abortClaimForClose();
        try {
            if (count > 0) {
                endpoint.sendBatch(this, FlushCause.CLOSE);
                endpoint.publishCounters();
            }
        } finally {
            closed = true;
            endpoint.unregister(this);
        }
    }

    /** @return true once closed */
    public final boolean isClosed() {
        return closed;
    }

    /** @return true while a claim of this aggregator is open (neither committed nor aborted) */
    public final boolean hasOpenClaim() {
        return claim != null;
    }

    /**
     * The claim that {@code tryClaim} makes: checks, then claims through the endpoint.
     *
     * @return the number of items claimed, or a negative {@link dev.overlap.core.OfferResult} code
     */
    final int claim(final int items, final BatchClaim into) {
        java.util.Objects.requireNonNull(into, "claim");
        if (items < 1 || items > capacity) {
            throw new IllegalArgumentException("a claim of " + items + " items: " + this + " claims 1 to its batch"
                + " capacity " + capacity + " items at a time (offerBlocking(DirectBuffer, int, int) sends more)");
        }
        if (into.isOpen()) {
            throw new IllegalStateException("this " + into.getClass().getSimpleName() + " holds an open claim of "
                + into.aggregator + ": commit or abort it before claiming again");
        }
        if (closed) {
            return dev.overlap.core.OfferResult.CLOSED;
        }
        checkUsable();
        return endpoint.tryClaimBatch(this, items, into);
    }

    /** A claim opened: the pending items went into its record (counted as enqueued), none is pending now. */
    final void claimOpened(final BatchClaim opened) {
        claim = opened;
        count = 0;
    }

    /** The open claim was committed: its carried items left with it. */
    final void claimCommitted() {
        claim = null;
        publishedPending = 0;
        polls = 0;
    }

    /** The open claim was aborted: the pending items it carried are pending again, in place (nothing touched them). */
    final void claimAborted(final int carried) {
        claim = null;
        count = carried;
    }

    /** Aborts the open claim, if any: the close's first step (the claim's holder learns of it on commit or abort). */
    final void abortClaimForClose() {
        final BatchClaim open = claim;
        if (open != null) {
            endpoint.abortClaim(open, "aborted when " + this + " closed");
        }
    }

    /** Counts the pending items not counted yet in ITEMS_ENQUEUED (release store). */
    final void publishEnqueued() {
        final int delta = count - publishedPending;
        if (delta != 0) {
            endpoint.addEnqueued(delta);
            publishedPending = count;
        }
    }

    /** Items were added to the staging buffer: start the wait clock, send a full batch. */
    final void added(final int newCount) {
        final int before = count;
        count = newCount;
        if (before == 0 && timed) {
            firstItemNanos = System.nanoTime();
        }
        if (newCount == capacity) {
            try {
                endpoint.sendBatch(this, FlushCause.SIZE);
            } catch (final dev.overlap.core.InterruptedWaitException | Endpoint.WaitTimedOutException e) {
                // the items are taken and stay pending (the interrupt status stays set): a later offer, poll or
                // flush sends them; the caller learns of the interrupt from its status, not by losing the item
            }
        }
    }

    /** The first {@code sent} items went out; keep any added meanwhile (by a handler on this thread). */
    final void batchSent(final int sent) {
        final int extra = count - sent;
        if (extra > 0) {
            moveToFront(sent, extra);
            if (timed) {
                firstItemNanos = System.nanoTime();
            }
        }
        count = extra;
        publishedPending = 0;
        polls = 0;
    }

    final void checkOpen() {
        if (closed) {
            throw new IllegalStateException("aggregator to dev" + destination + " queue " + queueId + " is closed");
        }
    }

    /** @throws IllegalStateException if closed, or a claim is open (it takes nothing else meanwhile) */
    final void checkUsable() {
        checkOpen();
        if (claim != null) {
            throw new IllegalStateException("aggregator to dev" + destination + " queue " + queueId + " has an open"
                + " claim of " + claim.count() + " items: commit or abort it first");
        }
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "{endpoint " + endpoint.id() + " -> dev" + destination + " queue "
            + queueId + ", " + count + "/" + capacity + " pending" + (claim != null ? ", a claim open" : "") + ", "
            + config + "}";
    }
}
