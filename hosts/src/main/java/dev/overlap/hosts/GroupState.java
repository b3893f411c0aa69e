package dev.overlap.hosts;

import dev.overlap.core.PeerFailedException;
import org.agrona.DirectBuffer;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * One job: what a host group's rank knows about its peers, shared between the thread that receives their messages
 * (the group's {@link GroupAgent}) and the threads that wait on them (collectives, the join, the close).
 *
 * <p><b>Collectives.</b> Each peer has two slots, taken by the parity of the collective's generation (1, 2, ...).
 * The receiver {@linkplain #deposit deposits} a peer's values, operation and count into the slot with plain writes
 * and then publishes the generation with a release store; a waiter that reads that generation with an acquire load
 * ({@link #arrived}) therefore reads the values whole. Two slots suffice because a peer can be at most one collective
 * ahead of this rank: it finishes collective {@code g + 1} only after this rank's message for {@code g + 1}, which this
 * rank sends only after reading every value of {@code g}; so the message that reuses {@code g}'s slot ({@code g + 2})
 * cannot arrive before that read is over (the same argument as the shared-memory world's two reduction areas).
 *
 * <p><b>Flags.</b> Joined (a message arrived), left (the peer said goodbye) and acknowledged (the peer confirmed this
 * rank's goodbye) are set once by the receiver with a release store and read with acquire loads: a waiter that sees
 * a peer left also sees every collective the peer sent before its goodbye (one stream, read in order).
 *
 * <p><b>The failure.</b> The first failure recorded wins (one compare-and-exchange), whoever records it: the
 * receiver (a silent peer, a lost connection, a peer's report), a sender (a connection gone), Aeron's error handler.
 * Every caller of {@link #fail} gets the winner back, so every wait reports the same rank.
 *
 * <p>Thread-safety: {@link #deposit} and the {@code mark} methods have one writer, the receiver; every other method
 * may be called from any thread.
 */
final class GroupState {
    private static final VarHandle LONGS = MethodHandles.arrayElementVarHandle(long[].class);
    private static final VarHandle INTS = MethodHandles.arrayElementVarHandle(int[].class);
    private static final VarHandle FAILURE;

    static {
        try {
            FAILURE = MethodHandles.lookup().findVarHandle(GroupState.class, "failure", Failure.class);
        } catch (final ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** A failure and the reason it was recorded with (what a report to the other ranks carries). */
    static final class Failure {
        final PeerFailedException exception;
        final String reason;

        Failure(final int rank, final String reason) {
            this.exception = new PeerFailedException(rank, reason);
            this.reason = reason;
        }

        int rank() {
            return exception.rank();
        }
    }

    private final int ranks;
    /** The generation whose values sit in a slot, {@code [parity * ranks + sender]}; 0: none yet. */
    private final long[] generations;
    private final int[] ops;
    private final int[] counts;
    private final long[][] values;
    private final int[] joined;
    private final int[] left;
    private final int[] acked;
    /** Read and written through {@link #FAILURE}. */
    private volatile Failure failure;
    /** Messages ignored: another group's, or malformed. Written by the receiver only. */
    private volatile long ignored;

    /** @param ranks how many ranks the group has */
    GroupState(final int ranks) {
        this(ranks, Wire.MAX_VALUES);
    }

    /**
     * @param ranks     how many ranks the group has
     * @param maxValues the most values a contribution holds ({@link Wire#MAX_VALUES} in a group; fewer keep the
     *                  jcstress tests' states small)
     */
    GroupState(final int ranks, final int maxValues) {
        this.ranks = ranks;
        this.generations = new long[2 * ranks];
        this.ops = new int[2 * ranks];
        this.counts = new int[2 * ranks];
        this.values = new long[2 * ranks][maxValues];
        this.joined = new int[ranks];
        this.left = new int[ranks];
        this.acked = new int[ranks];
    }

    private int slot(final int sender, final long generation) {
        return (int)(generation & 1) * ranks + sender;
    }

    // ---------------------------------------------------------------------------------------------- collectives

    /**
     * Stores {@code sender}'s contribution to collective {@code generation}: {@code count} little-endian longs at
     * {@code offset} of {@code buffer}, then publishes the generation (release). Receiver only.
     */
    void deposit(final int sender, final long generation, final int op, final DirectBuffer buffer, final int offset,
        final int count) {
        final int slot = slot(sender, generation);
        final long[] v = values[slot];
        for (int i = 0; i < count; i++) {
            v[i] = buffer.getLong(offset + i * Long.BYTES, Wire.ORDER);
        }
        ops[slot] = op;
        counts[slot] = count;
        LONGS.setRelease(generations, slot, generation);
    }

    /** @return true once {@code sender}'s contribution to {@code generation} is in (acquire: its values are too) */
    boolean arrived(final int sender, final long generation) {
        return (long)LONGS.getAcquire(generations, slot(sender, generation)) == generation;
    }

    /** @return the operation {@code sender} made collective {@code generation} with (after {@link #arrived}) */
    int op(final int sender, final long generation) {
        return ops[slot(sender, generation)];
    }

    /** @return how many values {@code sender} sent for collective {@code generation} (after {@link #arrived}) */
    int count(final int sender, final long generation) {
        return counts[slot(sender, generation)];
    }

    /** @return value {@code i} of {@code sender}'s contribution to {@code generation} (after {@link #arrived}) */
    long value(final int sender, final long generation, final int i) {
        return values[slot(sender, generation)][i];
    }

    // ---------------------------------------------------------------------------------------------------- flags

    void markJoined(final int rank) {
        INTS.setRelease(joined, rank, 1);
    }

    boolean hasJoined(final int rank) {
        return (int)INTS.getAcquire(joined, rank) != 0;
    }

    void markLeft(final int rank) {
        INTS.setRelease(left, rank, 1);
    }

    boolean hasLeft(final int rank) {
        return (int)INTS.getAcquire(left, rank) != 0;
    }

    void markAcked(final int rank) {
        INTS.setRelease(acked, rank, 1);
    }

    boolean hasAcked(final int rank) {
        return (int)INTS.getAcquire(acked, rank) != 0;
    }

    /** Counts a message that was ignored. Receiver only. */
    void ignoredMessage() {
        ignored = ignored + 1; // one writer: a plain increment published by the volatile store
    }

    /** @return how many messages were ignored so far */
    long ignoredMessages() {
        return ignored;
    }

    // -------------------------------------------------------------------------------------------------- failure

    /**
     * Records {@code rank} as failed unless a failure was recorded first.
     *
     * @return the failure that won (this one, or the earlier one)
     */
    Failure fail(final int rank, final String reason) {
        final Failure f = new Failure(rank, reason);
        final Failure witness = (Failure)FAILURE.compareAndExchange(this, (Failure)null, f);
        return witness == null ? f : witness;
    }

    /** @return the failure recorded, or null */
    Failure failure() {
        return (Failure)FAILURE.getVolatile(this);
    }
}
