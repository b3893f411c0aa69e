package dev.overlap.worklist;

import org.junit.jupiter.api.Test;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The decision rule of {@link RankTermination}, rank 0 of two, against a scripted other rank: the run ends only when a
 * round's created sum equals the previous round's completed sum (never on one round's own sums), a stop or failure of
 * any rank stops every rank, and a reduction that timed out is completed with the values it was started with.
 */
class RankTerminationTest {
    /** Rank 0 of 2: each reduction adds the other rank's next scripted contribution, or times out when told to. */
    private static final class ScriptedLink implements RankLink {
        final Deque<long[]> other = new ArrayDeque<>();
        final List<long[]> contributed = new ArrayList<>();
        int timeOuts;

        @Override
        public int rank() {
            return 0;
        }

        @Override
        public int ranks() {
            return 2;
        }

        @Override
        public int devicesPerRank() {
            return 1;
        }

        @Override
        public RankSender sender(final int homeDevice) {
            throw new UnsupportedOperationException("no sends in this test");
        }

        @Override
        public boolean allReduceSum(final long[] values, final long timeout, final TimeUnit unit) {
            contributed.add(values.clone());
            if (timeOuts > 0) {
                timeOuts--;
                return false;
            }
            final long[] o = other.removeFirst();
            for (int i = 0; i < values.length; i++) {
                values[i] += o[i];
            }
            return true;
        }

        @Override
        public void barrier() {
        }

        @Override
        public void checkPeers() {
        }
    }

    private final QuiescenceDetector detector = new QuiescenceDetector(2);
    private final ScriptedLink link = new ScriptedLink();
    private final RankTermination t = new RankTermination(link, detector);

    private int step() {
        return t.step(false, false, 1, TimeUnit.MILLISECONDS);
    }

    /** The other rank's (rank 1's) contribution: created, completed, stops, failures, and its failed rank + 1. */
    private void other(final long created, final long completed, final long stops, final long failures) {
        link.other.add(new long[] {created, completed, stops, failures, failures > 0 ? 2 : 0});
    }

    @Test
    void balancedCountsEndTheRunAtTheSecondRoundNotTheFirst() {
        detector.created(0, 3);
        detector.completed(1, 2);
        other(4, 5, 0, 0); // it completed one of ours: 7 created, 7 completed over both ranks
        other(4, 5, 0, 0);
        assertEquals(RankTermination.GOING, step(), "one round has no previous completed wave to compare with");
        assertEquals(RankTermination.QUIESCENT, step());
        assertEquals(2, t.rounds());
    }

    @Test
    void oneRoundsOwnEqualSumsDoNotEndTheRun() {
        detector.created(0, 3);
        detector.completed(1, 1);
        other(0, 0, 0, 0);
        assertEquals(RankTermination.GOING, step());
        detector.completed(1, 2); // this round's sums are equal (3 and 3), the previous completed wave was 1
        other(0, 0, 0, 0);
        assertEquals(RankTermination.GOING, step(), "a round's created sum is compared with the previous round's "
            + "completed sum, not with its own");
        other(0, 0, 0, 0);
        assertEquals(RankTermination.QUIESCENT, step());
    }

    @Test
    void aTaskCreatedBetweenTheWavesKeepsTheRunGoing() {
        detector.created(0, 2);
        detector.completed(1, 2);
        other(0, 0, 0, 0);
        assertEquals(RankTermination.GOING, step());
        detector.created(0, 1); // a child counted after the completed wave of round 1
        other(0, 0, 0, 0);
        assertEquals(RankTermination.GOING, step());
        detector.completed(1, 1);
        other(0, 0, 0, 0);
        assertEquals(RankTermination.GOING, step(), "round 2's completed wave (2) missed the child's completion");
        other(0, 0, 0, 0);
        assertEquals(RankTermination.QUIESCENT, step());
    }

    @Test
    void aStopOrFailureOfAnyRankStopsEveryRank() {
        other(0, 0, 1, 1);
        assertEquals(RankTermination.STOPPED, step());
        assertEquals(1, t.failures());
        assertEquals(1, t.failedRank(), "one failed rank is named");
        t.reset();
        other(0, 0, 0, 0);
        assertEquals(RankTermination.STOPPED, t.step(true, false, 1, TimeUnit.MILLISECONDS));
        assertEquals(0, t.failures());
        assertEquals(-1, t.failedRank());
        assertArrayEquals(new long[] {0, 0, 1, 0, 0}, link.contributed.get(1));
        other(0, 0, 0, 0);
        assertEquals(RankTermination.STOPPED, t.step(false, true, 1, TimeUnit.MILLISECONDS), "a failure is a stop");
        assertArrayEquals(new long[] {0, 0, 1, 1, 1}, link.contributed.get(2), "this rank (0) names itself as 0 + 1");
        other(0, 0, 1, 1);
        t.reset();
        assertEquals(RankTermination.STOPPED, t.step(false, true, 1, TimeUnit.MILLISECONDS));
        assertEquals(2, t.failures());
        assertEquals(-1, t.failedRank(), "two failed ranks: their sum names neither");
    }

    @Test
    void aReductionThatTimedOutIsCompletedWithTheValuesItStartedWith() {
        detector.created(0, 5);
        detector.completed(1, 5);
        link.timeOuts = 2;
        assertEquals(RankTermination.GOING, step());
        detector.created(0, 1); // after the round started: not in its contribution
        assertEquals(RankTermination.GOING, step());
        other(0, 0, 0, 0);
        assertEquals(RankTermination.GOING, step());
        assertEquals(1, t.rounds());
        for (final long[] c : link.contributed) {
            assertArrayEquals(new long[] {5, 5, 0, 0, 0}, c);
        }
        detector.completed(1, 1);
        other(0, 0, 0, 0);
        assertEquals(RankTermination.GOING, step(), "round 1's completed wave was 5, round 2 created 6");
        other(0, 0, 0, 0);
        assertEquals(RankTermination.QUIESCENT, step());
    }
}
