package dev.overlap.transport;

import dev.overlap.core.Specialized;

// template: codegen writes LongBatchClaim from this file, each @Specialized int a long (see codegen/README.md).
/**
 * A {@link BatchClaim} of {@code int} items, for {@link IntAggregator#tryClaim(int, IntBatchClaim)}: write claimed
 * item {@code i} with {@link #putInt(int, int)}, then {@link BatchClaim#commit()} or {@link BatchClaim#abort()}.
 * Reusable: create one per sending thread and claim with it again after each commit or abort.
 *
 * <pre>{@code
 * IntBatchClaim claim = new IntBatchClaim();         // one per sending thread, reused
 * var n = Math.min(aggregator.batchCapacity(), left); // a claim holds at most one batch
 * if (aggregator.tryClaim(n, claim) >= 0) {
 *     for (var i = 0; i < n; i++) {
 *         claim.putInt(i, next());                   // written in place, in the destination's ring
 *     }
 *     claim.commit();
 * } // else BACK_PRESSURED, ADMIN_ACTION or CLOSED (OfferResult): nothing was claimed
 * }</pre>
 */
public final class IntBatchClaim extends BatchClaim {
    /** An empty flyweight; {@link IntAggregator#tryClaim(int, IntBatchClaim)} opens it. */
    public IntBatchClaim() {
        super(ItemType.INT);
    }

    /**
     * Writes claimed item {@code index} (native byte order, as the handler reads it).
     *
     * @param index the claimed item's index, 0..{@code count() - 1}
     * @param item the item
     * @throws IndexOutOfBoundsException if {@code index} is outside {@code 0 .. count()-1}
     * @throws IllegalStateException     if no claim is open
     */
    public void putInt(final int index, final @Specialized int item) {
        final int at = at(index); // before the buffer: it is null when no claim is open
        buffer.putInt(at, item);
    }

    /**
     * @param index the claimed item's index, 0..{@code count() - 1}
     * @return claimed item {@code index} as written so far
     * @throws IndexOutOfBoundsException if {@code index} is outside {@code 0 .. count()-1}
     * @throws IllegalStateException     if no claim is open
     */
    public @Specialized int getInt(final int index) {
        final int at = at(index);
        return buffer.getInt(at);
    }
}
