package dev.overlap.graph.partition;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * The holds that runs take on a resource that may be freed (a placed graph), and its closing: a resource is closed at
 * most once, and never while a hold is taken, so nobody frees it under a reader.
 *
 * <p>One atomic integer: the holds taken, or {@code -1} once closed. {@link #acquire} adds one with a compare-and-set
 * unless closed; {@link #tryClose} swaps {@code 0} for {@code -1}. Both are compare-and-sets on the one variable, so
 * they are totally ordered: either the close comes first (the acquire fails) or the acquire does (the close finds a
 * hold and fails, until it is released). Memory ordering: a release (a volatile decrement) happens-before the close
 * that then succeeds, so whatever the run wrote before releasing is visible to the closer.
 *
 * <p>Thread-safety: every method may be called from any thread.
 */
public final class LeaseCount {
    /** {@link #tryClose} outcomes. */
    public static final int CLOSED_NOW = 0;
    public static final int ALREADY_CLOSED = 1;
    public static final int IN_USE = 2;
    private static final int CLOSED = -1;

    private final AtomicInteger held = new AtomicInteger();

    /** @return true if a hold was taken; false if closed (no hold taken) */
    public boolean acquire() {
        while (true) {
            final int h = held.get();
            if (h == CLOSED) {
                return false;
            }
            if (held.compareAndSet(h, h + 1)) {
                return true;
            }
        }
    }

    /** Gives back a hold {@link #acquire} took. Call once per successful acquire. */
    public void release() {
        held.decrementAndGet();
    }

    /** @return {@link #CLOSED_NOW} if this call closed it, {@link #ALREADY_CLOSED}, or {@link #IN_USE} (not closed) */
    public int tryClose() {
        if (held.compareAndSet(0, CLOSED)) {
            return CLOSED_NOW;
        }
        return held.get() == CLOSED ? ALREADY_CLOSED : IN_USE;
    }

    /** @return the holds taken now; 0 once closed */
    public int held() {
        return Math.max(0, held.get());
    }

    /** @return true once closed */
    public boolean isClosed() {
        return held.get() == CLOSED;
    }
}
