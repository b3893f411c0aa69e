package dev.overlap.worklist;

import java.util.concurrent.TimeUnit;

/**
 * The global termination check of a {@link DistributedWorklist} whose ranks share no memory: the
 * {@link QuiescenceDetector}'s two waves, done with the ranks' collectives. Each rank's host calls {@link #step}
 * in a loop while its workers run; every rank gets the same sums, so every rank takes the same decision in the same
 * round.
 *
 * <p><b>Rounds.</b> In round {@code r} every rank reads its own created total {@code K_r} (the sum of its
 * participants' created counters), <em>then</em> its completed total {@code C_r}, and contributes both to one
 * {@link RankLink#allReduceSum}. The run is over when the global {@code C} of round {@code r-1} equals the global
 * {@code K} of round {@code r}: the completed wave of round {@code r-1} and the created wave of round {@code r}
 * form Mattern's two waves, one collective per check instead of two.
 *
 * <p><b>Why never early.</b> No rank reads {@code K_r} before every rank has read {@code C_{r-1}}: a rank reads
 * {@code K_r} after round {@code r-1}'s reduction returned, and the reduction returns only once every rank has
 * contributed, i.e. read its {@code C_{r-1}}. Take the tasks counted in the global {@code C_{r-1}} (completed before
 * their completer's read) and those counted in {@code K_r} (created before their creator's read). A task is counted
 * created before it is visible anywhere — a push to another rank before it enters a batch, so before its message is
 * sent — and completed after its function ran, so after its children were counted created. Hence a task counted
 * completed in wave 1 was counted created before its completion, which happened-before the completer's wave-1 read,
 * which happened-before every wave-2 read (through the reduction's messages): it is counted in {@code K_r} too. So
 * the completed set of wave 1 is a subset of the created set of wave 2; equal sizes make them equal. Suppose a task
 * {@code t} is created after its creator's wave-2 read. Its parent was running then, so it completed after its
 * rank's wave-1 read (which preceded that wave-2 read) and is not in the completed set; being in the created set
 * would put it in the completed set, so it too was created after its creator's wave-2 read. Going up the parents
 * ends at a seed, counted created by a host before the run started, before any wave: a contradiction. So when the
 * sums are equal no task exists (queued, batched, in flight between ranks, running) and none ever will. The check may
 * be late (a round that overlaps activity fails and the next one is tried), never early.
 *
 * <p><b>Stops and failures</b> travel in the same reduction: a rank whose run was stopped or whose task failed
 * contributes a one (and a failed one its rank plus one, so that a single failed rank is named); every rank then sees
 * it in the same round and stops.
 *
 * <p>Thread-safety: confined to one rank's host thread (the run's caller); not a concurrent class.
 */
final class RankTermination {
    /** {@link #step}: no decision yet (the round is pending, or it found activity). */
    static final int GOING = 0;
    /** {@link #step}: every rank's tasks are done and none will come. */
    static final int QUIESCENT = 1;
    /** {@link #step}: some rank stopped its run or had a task fail: every rank stops. */
    static final int STOPPED = 2;

    private static final int CREATED = 0;
    private static final int COMPLETED = 1;
    private static final int STOPS = 2;
    private static final int FAILURES = 3;
    /** The sum of (rank + 1) over the ranks whose task failed: with one such rank, it names that rank. */
    private static final int FAILED_RANKS = 4;

    private final RankLink link;
    private final QuiescenceDetector detector;
    private final long[] values = new long[5];
    private long previousCompleted = -1;
    private boolean inRound;
    private long rounds;
    private long failures;
    private long failedRanks;

    RankTermination(final RankLink link, final QuiescenceDetector detector) {
        this.link = link;
        this.detector = detector;
    }

    /** Before a run: no previous round. */
    void reset() {
        previousCompleted = -1;
        inRound = false;
        failures = 0;
        failedRanks = 0;
    }

    /**
     * Starts a round (reading this rank's totals) unless one is pending, and waits for it at most {@code timeout}.
     *
     * @param stopped this rank's run was stopped or failed
     * @param failed this rank had a task fail
     * @return {@link #GOING}, {@link #QUIESCENT} or {@link #STOPPED}
     */
    int step(final boolean stopped, final boolean failed, final long timeout, final TimeUnit unit) {
        if (!inRound) {
            // the waves are this round's created and the previous round's completed: the order within a round is free
            values[CREATED] = detector.createdTotal();
            values[COMPLETED] = detector.completedTotal();
            values[STOPS] = stopped || failed ? 1 : 0;
            values[FAILURES] = failed ? 1 : 0;
            values[FAILED_RANKS] = failed ? link.rank() + 1 : 0;
            inRound = true;
        }
        if (!link.allReduceSum(values, timeout, unit)) {
            return GOING;
        }
        inRound = false;
        rounds++;
        if (values[STOPS] > 0) {
            failures = values[FAILURES];
            failedRanks = values[FAILED_RANKS];
            return STOPPED;
        }
        final boolean quiescent = values[CREATED] == previousCompleted;
        previousCompleted = values[COMPLETED];
        return quiescent ? QUIESCENT : GOING;
    }

    /** @return ranks whose task failed, as the deciding round counted them */
    long failures() {
        return failures;
    }

    /** @return the rank whose task failed when exactly one did (as the deciding round counted them), else -1 */
    int failedRank() {
        return failures == 1 ? (int)(failedRanks - 1) : -1;
    }

    /** @return rounds completed since the worklist was built */
    long rounds() {
        return rounds;
    }
}
