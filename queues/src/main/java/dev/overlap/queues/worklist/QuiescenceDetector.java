package dev.overlap.queues.worklist;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Global termination detection without a global lock or a shared hot counter: each participant (a worker thread,
 * or the host) owns two monotonic counters on their own cache lines — tasks it <em>created</em> and tasks it
 * <em>completed</em> — and anyone may ask whether the system is quiescent.
 *
 * <p><b>Protocol.</b> A participant counts a task as created <em>before</em> the task becomes visible to anyone
 * (before it enters a queue, an aggregator or a message), and counts it completed <em>after</em> the task's work —
 * including the creation of its child tasks — is done. So at every instant the true totals satisfy
 * {@code created >= completed}, and a task exists somewhere (queued, buffered, in flight, running) exactly when
 * {@code created > completed}.
 *
 * <p><b>Detection (two waves, after Mattern's counting method).</b> {@link #isQuiescent()} first reads every
 * participant's completed counter, then every participant's created counter, and reports quiescence when the two
 * sums are equal. This is never premature: every completed value read in wave 1 is at most its value at the end of
 * wave 1, and every created value read in wave 2 is at least its value at that instant; with
 * {@code created >= completed} at that instant, equal sums force {@code created == completed} then — no task
 * existed, and since only tasks create tasks, none ever will. It may be late (a wave that overlaps activity just
 * fails and is retried), never early.
 *
 * <p><b>Memory ordering.</b> Counter updates are volatile adds by the owner (one per task or per batch); the waves
 * use volatile reads. Thread-safety: {@code created(p, n)} and {@code completed(p, n)} only by participant
 * {@code p}'s own thread (single writer per counter); {@link #isQuiescent()} from any thread.
 */
public final class QuiescenceDetector {
    /** 16 longs = 128 bytes between counters: no false sharing, adjacent-line prefetch included. */
    private static final int STRIDE = 16;

    private final int participants;
    private final AtomicLongArray counters;

    /** @param participants number of participants, 1..65536 */
    public QuiescenceDetector(final int participants) {
        if (participants < 1 || participants > 65536) {
            throw new IllegalArgumentException("participants must be in 1..65536, was " + participants);
        }
        this.participants = participants;
        this.counters = new AtomicLongArray((2 * participants + 1) * STRIDE);
    }

    private static int createdIndex(final int participant) {
        return (2 * participant + 1) * STRIDE;
    }

    private static int completedIndex(final int participant) {
        return (2 * participant + 2) * STRIDE;
    }

    /** @return number of participants */
    public int participants() {
        return participants;
    }

    /** Counts {@code n} tasks created by {@code participant}; call before they become visible to others. */
    public void created(final int participant, final long n) {
        final int i = createdIndex(check(participant));
        counters.set(i, counters.getPlain(i) + n);
    }

    /** Counts {@code n} tasks completed by {@code participant}; call after their work and pushes are done. */
    public void completed(final int participant, final long n) {
        final int i = completedIndex(check(participant));
        counters.set(i, counters.getPlain(i) + n);
    }

    /** @return true when no task exists anywhere and none ever will again (never early; possibly late) */
    public boolean isQuiescent() {
        long completed = 0;
        for (int p = 0; p < participants; p++) {
            completed += counters.get(completedIndex(p));
        }
        long created = 0;
        for (int p = 0; p < participants; p++) {
            created += counters.get(createdIndex(p));
        }
        return created == completed;
    }

    /** @return tasks created so far, summed over participants (a racy snapshot, for statistics) */
    public long createdTotal() {
        long sum = 0;
        for (int p = 0; p < participants; p++) {
            sum += counters.get(createdIndex(p));
        }
        return sum;
    }

    /** @return tasks completed so far, summed over participants (a racy snapshot, for statistics) */
    public long completedTotal() {
        long sum = 0;
        for (int p = 0; p < participants; p++) {
            sum += counters.get(completedIndex(p));
        }
        return sum;
    }

    private int check(final int participant) {
        if (participant < 0 || participant >= participants) {
            throw new IndexOutOfBoundsException("participant " + participant + " outside 0.." + (participants - 1));
        }
        return participant;
    }
}
