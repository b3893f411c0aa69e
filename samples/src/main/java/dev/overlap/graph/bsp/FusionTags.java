package dev.overlap.graph.bsp;

import org.agrona.UnsafeApi;

/**
 * The claims on a vertex's tag in {@link BspSssp}'s rounds: who relaxes a vertex whose distance was lowered, so that
 * every lowering is relaxed by someone and no vertex is pushed twice in a round. A tag is one int at its owner, at a
 * raw address, changed only by compare-and-set, except by the one worker that holds the vertex on its fusion stack.
 *
 * <p><b>States</b> in round {@code r}: {@code r} (relaxed in this round: in its frontier, or a filed entry claimed),
 * {@code r + 1} (pushed for the next round), {@link #FUSED} (on a worker's fusion stack), {@link #FUSED_PUSHED} (on a
 * stack and in the next frontier), anything else free ({@link #FREE} at the start).
 *
 * <p><b>Why a lowering is never lost.</b> A lowering first lowers the distance (a CAS), then reads the tag. When it
 * finds the vertex fused it does nothing: the popper writes the tag (volatile) and then reads the distance
 * (volatile), so in the order of these synchronization actions either the lowering's read comes after the popper's
 * write (and claims the vertex again) or the popper's read comes after the lowering's CAS (and relaxes at the new
 * distance). A plain write of the tag would let the popper read the distance before its write is seen (a store
 * buffered past a load on x86), and both would leave the new distance to the other.
 *
 * <p>Thread-safety: every method is an atomic protocol step on one tag; {@link #release} only by the worker that
 * claimed the vertex with {@link #FUSE}.
 */
final class FusionTags {
    /** The tag of a vertex nobody has claimed in this round or the next. */
    static final int FREE = -1;
    /** The tag of a vertex on a worker's fusion stack (never left at the end of a block: its popper frees it). */
    static final int FUSED = -2;
    /** The tag of a vertex on a worker's fusion stack that is in the next frontier too (its popper restores that). */
    static final int FUSED_PUSHED = -3;

    /** {@link #claim}: the caller put the vertex on its fusion stack. */
    static final int FUSE = 0;
    /** {@link #claim}: the caller claimed the vertex for the next round and pushes it. */
    static final int PUSH = 1;
    /** {@link #claim}: the vertex is in the next frontier already; the caller only counts the lowering. */
    static final int PUSHED = 2;
    /** {@link #claim}: the vertex is on a fusion stack; its popper reads the distance after this lowering. */
    static final int HELD = 3;

    private FusionTags() {
    }

    /**
     * After lowering a vertex's distance: claims it for fusion ({@code fusable}: on the caller's device, in the current
     * bucket, room on its stack) or for the next round.
     *
     * @param tagAt   the tag's raw address
     * @param nextTag the next round's number
     * @return {@link #FUSE}, {@link #PUSH}, {@link #PUSHED} or {@link #HELD}
     */
    static int claim(final long tagAt, final int nextTag, final boolean fusable) {
        int tag = UnsafeApi.getIntVolatile(null, tagAt);
        while (true) {
            if (tag == FUSED || tag == FUSED_PUSHED) {
                return HELD;
            }
            if (!fusable && tag == nextTag) {
                return PUSHED;
            }
            final int claim = !fusable ? nextTag : tag == nextTag ? FUSED_PUSHED : FUSED;
            if (UnsafeApi.compareAndSetInt(null, tagAt, tag, claim)) {
                return fusable ? FUSE : PUSH;
            }
            tag = UnsafeApi.getIntVolatile(null, tagAt);
        }
    }

    /**
     * The popper, before it reads the distance of a vertex it took from its fusion stack: back to pushed (it is in
     * the next frontier) or free. A volatile write: see the class comment.
     */
    static void release(final long tagAt, final int nextTag) {
        UnsafeApi.putIntVolatile(null, tagAt, UnsafeApi.getIntVolatile(null, tagAt) == FUSED_PUSHED ? nextTag : FREE);
    }

    /**
     * Claims a filed vertex for this round's relaxation (its tag becomes the round's), unless it is relaxed in this
     * round already (in the frontier, or filed twice), in the next one (pushed), or by a worker's fusion.
     *
     * @return whether the caller relaxes it
     */
    static boolean claimFiled(final long tagAt, final int round) {
        final int nextTag = round + 1;
        int tag = UnsafeApi.getIntVolatile(null, tagAt);
        while (tag != round && tag != nextTag && tag != FUSED && tag != FUSED_PUSHED) {
            if (UnsafeApi.compareAndSetInt(null, tagAt, tag, round)) {
                return true;
            }
            tag = UnsafeApi.getIntVolatile(null, tagAt);
        }
        return false;
    }
}
