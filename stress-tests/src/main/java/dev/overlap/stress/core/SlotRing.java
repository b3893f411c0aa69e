package dev.overlap.stress.core;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Hands out slots of a preallocated device array to jcstress state instances, round-robin, without ever freeing
 * them: a state claims a ticket in its constructor, uses slot {@code ticket % slots} and simply drops it.
 *
 * <p><b>Why a ring is safe.</b> jcstress 0.16 keeps at most {@code strideSize x strideCount} states alive at a time
 * (10 240 with the default presets) and re-creates them one by one after their arbiter ran. Tickets are
 * consecutive, so as long as the ring has more slots than live states, two live states never share a slot.
 * The default of 65 536 slots ({@code -Doverlap.stress.slots=N} in {@code -jvmArgsPrepend} to change) leaves a
 * 6x margin. A too-small ring is <em>detected</em>, not silently turned into a bogus FORBIDDEN outcome: each slot
 * remembers its last owner and {@link #verify(long)} (called from the arbiter) throws if a newer state took the slot
 * while the old one was still in use, which jcstress reports as an ERROR.
 *
 * <p><b>Stale data is a feature.</b> Slots are not zeroed between owners; tests that check visibility write a
 * per-state tag ({@link #tag(long)}) and count the cells that hold it, so a read of a previous owner's value is
 * recognised as stale.
 *
 * <p>Thread-safety: all methods may be called from any thread (states are created on the actor threads).
 */
final class SlotRing {
    /** Number of slots in every ring (a power of two). */
    static final int SLOTS = Integer.highestOneBit(Math.max(1024, Integer.getInteger("overlap.stress.slots", 1 << 16)));

    private final AtomicLong tickets = new AtomicLong();
    private final AtomicLongArray owners = new AtomicLongArray(SLOTS);

    /** @return a new ticket; its slot is {@link #slot(long)} and now belongs to the caller */
    long claim() {
        final long ticket = tickets.incrementAndGet();
        owners.set(slot(ticket), ticket);
        return ticket;
    }

    /** @return the slot index of {@code ticket}, 0..{@link #SLOTS}-1 */
    static int slot(final long ticket) {
        return (int)(ticket & (SLOTS - 1));
    }

    /** @return a non-zero int that differs from the tag of every other live or recent state */
    static int tag(final long ticket) {
        return (int)ticket | Integer.MIN_VALUE;
    }

    /**
     * @throws IllegalStateException if a newer state claimed {@code ticket}'s slot while its owner was still alive
     */
    void verify(final long ticket) {
        final long owner = owners.get(slot(ticket));
        if (owner != ticket) {
            throw new IllegalStateException("slot " + slot(ticket) + " of ticket " + ticket
                + " was re-claimed by ticket " + owner + " while still in use: more than " + SLOTS
                + " jcstress states are alive at once; raise -Doverlap.stress.slots (via -jvmArgsPrepend) or lower "
                + "-strideSize/-strideCount");
        }
    }
}
