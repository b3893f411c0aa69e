package dev.overlap.transport;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.AtomicBuffer;

import java.util.Objects;

/**
 * A reusable flyweight over one batch record claimed in a destination inbox ring by an aggregator's
 * {@code tryClaim(count, claim)}: the caller writes the claimed items in place ({@link IntBatchClaim#putInt},
 * {@link LongBatchClaim#putLong}), then {@link #commit()} sends the batch or {@link #abort()} gives the room back.
 * Aeron's {@code BufferClaim} for Overlap's batches: the items are written once, straight into the ring, instead of
 * staged in the aggregator and copied.
 *
 * <p><b>What a commit sends.</b> One batch message in the format the destination's {@link BatchHandler} already reads
 * ({@link MessageFormat#BATCH_INT}/{@link MessageFormat#BATCH_LONG}): the pending items the claim carried (offered
 * before the claim, so they come first), then the claimed items {@code 0 .. count()-1} in index order. Before the
 * record is committed the claimed items are counted in {@link TransportCounter#ITEMS_ENQUEUED} (published at once,
 * as for every batch: see {@link TransportCounter}), so no item is ever delivered before it was counted enqueued; the
 * message is counted as an {@link FlushCause#EXPLICIT explicit} flush. Write every claimed item: one left unwritten
 * is sent as the ring holds it (zero, as Agrona's ring clears what its consumer read).
 *
 * <p><b>While it is open.</b> The record holds up the destination's consumer (the ring is read in order), so commit
 * or abort promptly. Meanwhile the claiming aggregator takes nothing else and the endpoint refuses to wait (see
 * {@link Aggregator}); a close of the aggregator, its endpoint or the transport aborts the claim. Afterwards the
 * flyweight may be used for the next claim.
 *
 * <p><b>Misuse</b> is an exception that names what was wrong: an item index outside {@code 0 .. count()-1} is an
 * {@link IndexOutOfBoundsException}; writing, reading, committing or aborting when no claim is open (never claimed,
 * committed, aborted, or aborted by a close) an {@link IllegalStateException} that says which.
 *
 * <p><b>Thread-safety:</b> confined to the thread that owns the claiming aggregator's endpoint. The commit's release
 * store (Agrona's record length) publishes the items to the thread that applies the batch.
 */
public abstract sealed class BatchClaim permits IntBatchClaim, LongBatchClaim {
    private final int shift;
    /** The aggregator whose claim is open, or null. */
    Aggregator aggregator;
    /** The destination ring's buffer and the claimed record's index in it (while open). */
    AtomicBuffer buffer;
    int index;
    /** The record's payload length. */
    int length;
    /** Pending items carried ahead of the claimed ones. */
    int carried;
    /** Byte index in {@link #buffer} of claimed item 0. */
    int itemsIndex;
    /** Items claimed; 0 when no claim is open (so that every item index check fails then). */
    private int count;
    /** How the last claim ended, for the message of a call made after it. */
    private String ended = "no claim was made with it yet";

    BatchClaim(final ItemType type) {
        this.shift = type.shift();
    }

    /** @return items claimed (writable at indices {@code 0 .. count()-1}); 0 when no claim is open */
    public final int count() {
        return count;
    }

    /** @return true while a claim is open: made and neither committed nor aborted */
    public final boolean isOpen() {
        return aggregator != null;
    }

    /**
     * Sends the claimed batch: counts its items as enqueued, then commits the record, which publishes every item
     * written before (release store). Never waits.
     *
     * @throws IllegalStateException if no claim is open (saying how the last one ended)
     */
    public final void commit() {
        open("commit").endpoint.commitClaim(this);
    }

    /**
     * Writes claimed items {@code index .. index + count - 1} from {@code src} with one bulk copy: the items lie in
     * {@code src} from byte {@code srcIndex}, in native byte order (as the handler reads them), like the items of a
     * batch that arrived from elsewhere. The per-item {@code putInt}/{@code putLong} of the subclasses do the same one
     * item at a time.
     *
     * @param index    the first claimed item to write, 0..{@code count() - 1}
     * @param src      holds the items
     * @param srcIndex byte index in {@code src} of the first
     * @param count    items to write, at least 1, with {@code index + count <= count()}
     * @throws IndexOutOfBoundsException if the items do not lie in the claim or in {@code src}
     * @throws IllegalStateException     if no claim is open
     */
    public final void putItems(final int index, final DirectBuffer src, final int srcIndex, final int count) {
        Objects.requireNonNull(src, "src");
        final int at = at(index); // throws when no claim is open or index is outside it
        if (count < 1 || count > this.count - index) {
            throw new IndexOutOfBoundsException(count + " items from item " + index + " do not lie in the claim of "
                + this.count + " items");
        }
        final long bytes = (long)count << shift;
        if (srcIndex < 0 || srcIndex + bytes > src.capacity()) {
            throw new IndexOutOfBoundsException(count + " items from byte " + srcIndex + " do not lie in the source "
                + "buffer of " + src.capacity() + " bytes");
        }
        buffer.putBytes(at, src, srcIndex, (int)bytes);
    }

    /**
     * Gives the claimed room back: the destination skips the record, no claimed item is sent, and the pending items
     * the claim carried are pending again in the aggregator. Never waits.
     *
     * @throws IllegalStateException if no claim is open (saying how the last one ended)
     */
    public final void abort() {
        final Aggregator a = open("abort");
        a.endpoint.abortClaim(this, "aborted");
    }

    /** Opens this flyweight over a claimed record. */
    final void opened(final Aggregator a, final AtomicBuffer ring, final int recordIndex, final int recordLength,
        final int carriedItems, final int claimed) {
        aggregator = a;
        buffer = ring;
        index = recordIndex;
        length = recordLength;
        carried = carriedItems;
        itemsIndex = recordIndex + MessageFormat.ITEMS_OFFSET + (carriedItems << shift);
        count = claimed;
    }

    /** Closes this flyweight; {@code how} says why, for later calls. */
    final void ended(final String how) {
        aggregator = null;
        buffer = null;
        count = 0;
        ended = how;
    }

    /**
     * @return the byte index in {@link #buffer} of claimed item {@code i}
     * @throws IndexOutOfBoundsException if {@code i} is outside the claim
     * @throws IllegalStateException     if no claim is open
     */
    final int at(final int i) {
        if (Integer.compareUnsigned(i, count) >= 0) {
            throw aggregator == null ? notOpen("write or read an item") : new IndexOutOfBoundsException("item index "
                + i + " is outside the claim of " + count + " items");
        }
        return itemsIndex + (i << shift);
    }

    private Aggregator open(final String what) {
        final Aggregator a = aggregator;
        if (a == null) {
            throw notOpen(what);
        }
        return a;
    }

    private IllegalStateException notOpen(final String what) {
        return new IllegalStateException("cannot " + what + ": no claim is open on this " + getClass().getSimpleName()
            + " (" + ended + ")");
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + (aggregator == null ? "{not open: " + ended + "}"
            : "{" + count + " items, " + carried + " carried, " + aggregator + "}");
    }
}
