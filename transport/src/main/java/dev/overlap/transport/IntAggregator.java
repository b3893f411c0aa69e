package dev.overlap.transport;

import dev.overlap.core.OfferResult;
import dev.overlap.core.Specialized;
import org.agrona.DirectBuffer;
import org.agrona.UnsafeApi;
import org.agrona.concurrent.AtomicBuffer;

import java.util.Objects;

// template: codegen writes LongAggregator from this file, each @Specialized int a long (see codegen/README.md).
/**
 * An {@link Aggregator} of {@code int} items. Created by {@link Endpoint#intAggregator(int, int, AggregatorConfig)}.
 * Single-writer: only the owning endpoint's thread may call it.
 *
 * <p>{@link #tryOffer(int)} never waits and returns a result code ({@link OfferResult}),
 * {@link #offer(int, long, java.util.concurrent.TimeUnit)} waits at most its timeout, the {@code offerBlocking} forms
 * wait until taken, and {@link #tryClaim(int, IntBatchClaim)} claims a batch to write in place (see
 * {@link Aggregator}).
 */
public final class IntAggregator extends Aggregator {
    private static final long BASE = UnsafeApi.arrayBaseOffset(int[].class);
    private static final int SHIFT = Integer.numberOfTrailingZeros(Integer.BYTES);

    private final int[] staged;

    IntAggregator(final Endpoint endpoint, final int destination, final int queueId, final int capacity,
        final AggregatorConfig config) {
        super(endpoint, destination, queueId, ItemType.INT, capacity, config);
        this.staged = new int[config.isEager() ? 1 : capacity];
    }

    @Override
    void copyStaged(final AtomicBuffer dst, final int index, final int count) {
        UnsafeApi.copyMemory(staged, BASE, dst.byteArray(), dst.addressOffset() + index, (long)count << SHIFT);
    }

    @Override
    void stage(final DirectBuffer src, final int offset, final int at, final int count) {
        UnsafeApi.copyMemory(src.byteArray(), src.addressOffset() + offset, staged, BASE + ((long)at << SHIFT),
            (long)count << SHIFT);
    }

    @Override
    void moveToFront(final int from, final int count) {
        System.arraycopy(staged, from, staged, 0, count);
    }

    /**
     * Adds an item; sends the batch when it is full (or at once in eager mode), waiting on back-pressure as long as it
     * takes (see {@link Endpoint} on how senders wait).
     *
     * <p>If the thread is interrupted while waiting, the answer says whether the item was taken: an
     * {@link dev.overlap.core.InterruptedWaitException} means it was not (the wait came before it could be staged or
     * sent); a normal return with the interrupt status set means it was, and the batch it completed stays pending
     * until the next offer, poll or flush sends it. Nothing is lost or sent twice either way.
     *
     * @param item the item to send
     * @throws IllegalStateException if closed, or a claim is open
     */
    public void offerBlocking(final @Specialized int item) {
        if (closed || claim != null) {
            checkUsable();
        }
        if (eager) {
            endpoint.sendEager(this, item);
            return;
        }
        int n = count;
        if (n == capacity) { // left full by a failed tryOffer
            endpoint.sendBatch(this, FlushCause.SIZE);
            n = count;
        }
        staged[n] = item;
        added(n + 1);
    }

    /**
     * As {@link #offerBlocking(int)}, waiting at most {@code timeout} for ring space.
     *
     * @param item the item to send
     * @param timeout longest wait, {@code <= 0} for none
     * @param unit its unit
     * @return true if the item was taken (its batch may still be pending if sending it timed out); false if the
     *         wait before it could be taken timed out (the item was not added)
     * @throws dev.overlap.core.InterruptedWaitException if interrupted before the item was taken
     * @throws IllegalStateException                     if closed, or a claim is open
     */
    public boolean offer(final @Specialized int item, final long timeout, final java.util.concurrent.TimeUnit unit) {
        return endpoint.withDeadline(timeout, unit, () -> offerBlocking(item));
    }

    /**
     * Adds an item without ever waiting. A full batch that cannot be sent stays pending until a later offer, poll or
     * flush. Safe to call from a {@link BatchHandler}.
     *
     * @param item the item to send
     * @return non-negative when the item was taken: the items pending afterwards (0 when its batch went out, or in
     *         eager mode; {@link Aggregator#batchCapacity()} when the batch it completed could not go out yet); otherwise, with
     *         nothing taken, {@link OfferResult#BACK_PRESSURED} when the batch is full and the destination ring has no
     *         room for it now, {@link OfferResult#ADMIN_ACTION} when this aggregator is inside a blocking send on this
     *         thread (a handler that ran during that send's wait offered; retry after it), {@link OfferResult#CLOSED}
     *         when the aggregator, its endpoint or its transport is closed
     * @throws IllegalStateException if a claim of this aggregator is open
     */
    public int tryOffer(final @Specialized int item) {
        if (closed || claim != null) {
            if (closed) {
                return OfferResult.CLOSED;
            }
            checkUsable();
        }
        if (eager) {
            return endpoint.trySendEager(this, item);
        }
        final int n = count;
        if (n == capacity) {
            final int sent = endpoint.trySendBatch(this, FlushCause.SIZE);
            if (sent < 0) {
                return sent;
            }
        }
        final int m = count;
        staged[m] = item;
        count = m + 1;
        if (m == 0 && timed) {
            firstItemNanos = System.nanoTime();
        }
        if (m + 1 == capacity) {
            endpoint.trySendBatch(this, FlushCause.SIZE);
        }
        return count;
    }

    /**
     * Claims room for {@code count} items in the destination ring, to be written in place through {@code claim}
     * ({@link IntBatchClaim#putInt}) and sent with {@link BatchClaim#commit()} (or given back with
     * {@link BatchClaim#abort()}): zero-copy, where {@link #offerBlocking(int)} stages each item and copies the batch.
     * Never waits. Pending items leave first: carried in the same record when they fit one batch with the claimed
     * ones, else sent ahead as a batch of their own. See {@link BatchClaim} for what is sent and counted, and
     * {@link Aggregator} for what holds while the claim is open.
     *
     * @param count items to claim, 1 to {@link Aggregator#batchCapacity()}
     * @param claim the flyweight to open over the claimed record (not open already)
     * @return {@code count} when claimed; otherwise, with nothing claimed (the pending items may have been sent
     *         ahead), {@link OfferResult#BACK_PRESSURED} when the destination ring has no room now,
     *         {@link OfferResult#ADMIN_ACTION} when this aggregator is inside a blocking send on this thread,
     *         {@link OfferResult#CLOSED} when the aggregator, its endpoint or its transport is closed
     * @throws IllegalArgumentException if {@code count} is outside {@code 1 .. batchCapacity()}
     * @throws IllegalStateException    if {@code claim} is open, or this aggregator has an open claim
     */
    public int tryClaim(final int count, final IntBatchClaim claim) {
        return claim(count, claim);
    }

    /**
     * Adds {@code length} items of {@code items} from {@code offset}, in order, waiting on back-pressure; see
     * {@link #offerBlocking(int)}.
     *
     * @param items the items to send, not null
     * @param offset index in {@code items} of the first item
     * @param length items to send, >= 0; {@code [offset, offset+length)} must lie in {@code items}
     */
    public void offerBlocking(final int[] items, final int offset, final int length) {
        Objects.checkFromIndexSize(offset, length, items.length);
        for (int i = offset, end = offset + length; i < end; i++) {
            offerBlocking(items[i]);
        }
    }

    /**
     * Adds {@code count} {@code int} items stored in {@code src} from byte {@code offset} (native order), in order.
     * Whole batches are copied from {@code src} straight into the destination ring, without staging; or, when the
     * transport delivers batches of this size by reference ({@link Transport.Builder#directBatchThreshold(int)}), sent
     * as one descriptor that the receiving handler follows into {@code src}, batch by batch: the call then returns once the receiver has
     * applied them (draining this endpoint's inbox meanwhile), and {@code src} may be reused. Waits on back-pressure.
     *
     * @param src holds the items, in native byte order
     * @param offset byte index in {@code src} of the first item
     * @param count items to send, >= 0; all of them must lie in {@code src}
     * @throws IllegalStateException if closed, or a claim is open
     */
    public void offerBlocking(final DirectBuffer src, final int offset, final int count) {
        checkUsable();
        Objects.checkFromIndexSize(offset, (long)count << SHIFT, src.capacity());
        if (eager) {
            for (int i = 0; i < count; i++) {
                endpoint.sendEager(this, src.getInt(offset + (i << SHIFT)));
            }
            return;
        }
        int done = 0;
        while (done < count) {
            final int n = this.count;
            final int left = count - done;
            if (byReference && left >= capacity && endpoint.mayWait()) {
                if (n > 0) { // the pending items leave first, as their own batch: order is kept
                    endpoint.sendBatch(this, FlushCause.SIZE);
                    continue;
                }
                final int whole = left - left % capacity;
                endpoint.sendBatchesByReference(this, src, offset + (done << SHIFT), whole);
                done += whole;
                continue;
            }
            if (left >= capacity - n) { // completes a batch: staged items and source items leave in one message
                final int take = capacity - n;
                endpoint.sendBatchFrom(this, src, offset + (done << SHIFT), take);
                done += take;
                continue;
            }
            stage(src, offset + (done << SHIFT), n, left);
            done += left;
            added(n + left); // below capacity: nothing is sent
        }
    }
}
