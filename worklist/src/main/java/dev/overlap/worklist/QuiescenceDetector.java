package dev.overlap.worklist;

import dev.overlap.core.AlignedHeapBuffer;
import org.agrona.concurrent.AtomicBuffer;

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
 * <p><b>Memory ordering.</b> Counter updates are release stores by the single owner (a plain {@code mov} on x86, no
 * fence), the waves use acquire loads. That is enough for the argument above, because it only needs "a completion
 * seen implies its creation and its children's creations seen": a task's creation is sequenced before the release
 * (queue CAS, ring commit) that makes it visible, its consumer acquires it before running it and counts its
 * completion with a release store after creating the children, and the detector's acquire load of that completion
 * count then happens-after every one of those creation counts. Thread-safety: {@code created(p, n)} and {@code completed(p, n)} only by participant
 * {@code p}'s own thread (single writer per counter); {@link #isQuiescent()} from any thread.
 *
 * <p><b>Across processes.</b> The counters may live in memory that several processes map (a distributed worklist
 * over a mesh across processes keeps them in a symmetric allocation, one participant per worker of every rank and one
 * host per rank): the counters are the same words and the orderings the same release stores and acquire loads, so
 * the argument above holds for the participants of all processes together.
 */
public final class QuiescenceDetector {
    /** 128 bytes between counters: no false sharing, adjacent-line prefetch included. */
    private static final int STRIDE = 128;

    private final int participants;
    private final AtomicBuffer counters;

    /** @param participants number of participants, 1..65536 */
    public QuiescenceDetector(final int participants) {
        this(AlignedHeapBuffer.allocate(bytes(checkParticipants(participants))), participants);
    }

    /**
     * Over a caller's memory (zeroed, at least {@link #bytes(int)} bytes, 8-byte aligned): for counters shared by the
     * processes of a mesh.
     */
    QuiescenceDetector(final AtomicBuffer counters, final int participants) {
        checkParticipants(participants);
        counters.boundsCheck(0, bytes(participants));
        this.participants = participants;
        this.counters = counters;
    }

    private static int checkParticipants(final int participants) {
        if (participants < 1 || participants > 65536) {
            throw new IllegalArgumentException("participants must be in 1..65536, was " + participants);
        }
        return participants;
    }

    /** @return bytes of memory the counters of {@code participants} take */
    static int bytes(final int participants) {
        return (2 * participants + 1) * STRIDE;
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

    /**
     * Counts {@code n} tasks created by {@code participant}; call before they become visible to others.
     *
     * @param participant the participant's index, 0..participants - 1
     * @param n tasks created, >= 0
     */
    public void created(final int participant, final long n) {
        final int i = createdIndex(check(participant));
        counters.putLongRelease(i, counters.getLong(i) + n);
    }

    /**
     * Counts {@code n} tasks completed by {@code participant}; call after their work and pushes are done.
     *
     * @param participant the participant's index, 0..participants - 1
     * @param n tasks completed, >= 0
     */
    public void completed(final int participant, final long n) {
        final int i = completedIndex(check(participant));
        counters.putLongRelease(i, counters.getLong(i) + n);
    }

    /** @return true when no task exists anywhere and none ever will again (never early; possibly late) */
    public boolean isQuiescent() {
        return quiescentCreated() >= 0;
    }

    /**
     * One detection attempt that also says how many tasks had been created when it succeeded.
     *
     * @return the number of tasks ever created (= completed) if the system was quiescent, else -1
     */
    public long quiescentCreated() {
        long completed = 0;
        for (int p = 0; p < participants; p++) {
            completed += counters.getLongAcquire(completedIndex(p));
        }
        long created = 0;
        for (int p = 0; p < participants; p++) {
            created += counters.getLongAcquire(createdIndex(p));
        }
        return created == completed ? created : -1;
    }

    /** @return tasks created so far, summed over participants (a racy snapshot, for statistics) */
    public long createdTotal() {
        long sum = 0;
        for (int p = 0; p < participants; p++) {
            sum += counters.getLongAcquire(createdIndex(p));
        }
        return sum;
    }

    /** @return tasks completed so far, summed over participants (a racy snapshot, for statistics) */
    public long completedTotal() {
        long sum = 0;
        for (int p = 0; p < participants; p++) {
            sum += counters.getLongAcquire(completedIndex(p));
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
