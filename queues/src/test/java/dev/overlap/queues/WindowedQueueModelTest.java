package dev.overlap.queues;

import org.jetbrains.kotlinx.lincheck.Actor;
import org.jetbrains.kotlinx.lincheck.execution.ExecutionResult;
import org.jetbrains.kotlinx.lincheck.execution.ExecutionScenario;
import org.jetbrains.kotlinx.lincheck.execution.HBClock;
import org.jetbrains.kotlinx.lincheck.execution.ResultWithClock;
import org.jetbrains.kotlinx.lincheck.util.LincheckResult;
import org.jetbrains.kotlinx.lincheck.util.ValueResult;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The specifications the relaxed Lincheck tests check against, tested themselves: {@link WindowedQueueModel}
 * allows exactly the documented lag of {@link Publication#WINDOWED} (so a test passing against it means something),
 * and {@link ModelVerifier} finds the orders of steps that real time allows and no other.
 */
public class WindowedQueueModelTest {
    /** A sequence of steps on one model state, failing when a step is not allowed. */
    private static final class Run {
        RelaxedModel state;

        Run(final RelaxedModel initial) {
            state = initial;
        }

        Run step(final int thread, final String op, final Object result, final Object... args) {
            final List<RelaxedModel> next = state.step(thread, op, List.of(args), result);
            assertEquals(1, next.size(), op + List.of(args) + " -> " + result + " not allowed in " + state);
            state = next.get(0);
            return this;
        }

        boolean allows(final int thread, final String op, final Object result, final Object... args) {
            return !state.step(thread, op, List.of(args), result).isEmpty();
        }

        /** A whole single-item push: its reservation and its one write. */
        Run offer(final int thread, final int item) {
            step(thread, "offer", true, item);
            assertTrue(state.busy(thread), "a push that reserved still has to write");
            return step(thread, "offer", true, item);
        }
    }

    @Test
    void emptyMayNotHideAWrittenWindowBecauseAPushRunsInALaterOne() {
        // the counterexample: window [0, 2) holds 1 and 2, written; a push of 3 into [2, 4) is running
        final Run r = new Run(new WindowedQueueModel.ObjectRing3Window2()).offer(0, 1).offer(0, 2)
            .step(1, "offer", true, 3);
        assertTrue(r.state.busy(1));
        assertFalse(r.allows(2, "poll", null), "empty while the oldest element's window is all written");
        assertFalse(r.allows(2, "peek", null));
        assertTrue(r.allows(2, "poll", 1));
        assertFalse(r.allows(2, "poll", 2), "FIFO");
    }

    @Test
    void emptyMayHideWhileAPushOfTheSameWindowIsWriting() {
        final Run r = new Run(new WindowedQueueModel.ObjectRing3Window2()).offer(0, 1).step(1, "offer", true, 2);
        assertTrue(r.allows(2, "poll", null), "1's window holds 2's reserved, unwritten position");
        assertTrue(r.allows(2, "poll", 1), "1 may also already be published");
        r.step(1, "offer", true, 2);
        assertFalse(r.allows(2, "poll", null), "nothing is being written any more");
    }

    @Test
    void emptyMayHideWhileAnEarlierPushIsWriting() {
        // 1 reserved position 0 and is slow; 2 and 3 are written behind it, 3 in the next window
        final Run r = new Run(new WindowedQueueModel.ObjectRing3Window2()).step(1, "offer", true, 1).offer(0, 2)
            .offer(0, 3);
        assertTrue(r.allows(2, "poll", null));
        assertFalse(r.allows(2, "poll", 1), "an unwritten element cannot be popped");
        assertFalse(r.allows(2, "poll", 2), "nor can one behind it");
        r.step(1, "offer", true, 1);
        assertFalse(r.allows(2, "poll", null));
        r.step(2, "poll", 1).step(2, "poll", 2).step(2, "poll", 3).step(2, "poll", null);
    }

    @Test
    void fullCountsReservationsAndABatchWritesOneWindowAtATime() {
        final Run r = new Run(new WindowedQueueModel.IntRing3Window2()).offer(0, 1).step(1, "offerAll", true, 2, 3);
        assertFalse(r.allows(2, "offer", true, 4), "3 reserved: full, though 2 are still being written");
        r.step(2, "offer", false, 4);
        r.step(1, "offerAll", true, 2, 3); // writes position 1, window [0, 2)
        assertTrue(r.state.busy(1), "position 2 is in the next window: one more write");
        r.step(2, "poll", 1).step(2, "poll", 2);
        assertTrue(r.allows(2, "poll", -1), "3 is still being written");
        assertFalse(r.allows(2, "poll", 3));
        r.step(1, "offerAll", true, 2, 3);
        assertFalse(r.state.busy(1));
        r.step(2, "poll", 3).step(2, "poll", -1);
    }

    @Test
    void blockKeepsWhatFitsAndReservesPastItsEnd() {
        final Run r = new Run(new WindowedQueueModel.IntBlock4Window2());
        r.step(0, "offerBatch", 2, 1, 2).step(0, "offerBatch", 2, 1, 2).offer(0, 3);
        assertFalse(r.allows(0, "offerBatch", 2, 4, 5), "one position left");
        r.step(0, "offerBatch", 1, 4, 5).step(0, "offerBatch", 1, 4, 5);
        r.step(0, "offer", false, 6);
        assertFalse(r.state.busy(0), "nothing kept, nothing to write");
        r.step(1, "poll", 1).step(1, "poll", 2).step(1, "poll", 3).step(1, "poll", 4).step(1, "poll", -1);
        assertFalse(r.allows(1, "offer", true, 7), "pops do not free a block");
    }

    private static Actor actor(final String name, final Object... args) throws Exception {
        final Class<?>[] types = new Class<?>[args.length];
        java.util.Arrays.fill(types, int.class);
        return new Actor(CounterRingQueueWindowedLincheckTest.class.getMethod(name, types), List.of(args));
    }

    private static ResultWithClock result(final Object value, final int... clock) {
        return new ResultWithClock(new ValueResult(value), new HBClock(clock));
    }

    /**
     * Thread 1 pushes 1 (slowly); thread 2 pushes 2, then polls and finds nothing. Not linearizable (2 was in
     * the queue before the poll began), but exactly WINDOWED's lag: 1 reserved position 0 first and 2's position 1
     * shares its window. The same history with 2's push in the next window, or after 1's push finished, is wrong.
     */
    @Test
    void theVerifierAcceptsTheDocumentedLagAndNothingMore() throws Exception {
        final ExecutionScenario scenario = new ExecutionScenario(List.of(),
            List.of(List.of(actor("offer", 1)), List.of(actor("offer", 2), actor("poll"))), List.of(), null);
        final ExecutionResult lag = new ExecutionResult(List.<LincheckResult>of(),
            List.of(List.of(result(true, 0, 0)), List.of(result(true, 0, 0), result(null, 0, 1))),
            List.<LincheckResult>of());
        assertTrue(new ModelVerifier(WindowedQueueModel.ObjectRing3Window2.class).verifyResults(scenario, lag));

        // the poll began after thread 1's push had finished: nothing was being written
        final ExecutionResult late = new ExecutionResult(List.<LincheckResult>of(),
            List.of(List.of(result(true, 0, 0)), List.of(result(true, 0, 0), result(null, 1, 1))),
            List.<LincheckResult>of());
        assertFalse(new ModelVerifier(WindowedQueueModel.ObjectRing3Window2.class).verifyResults(scenario, late));

        // 7 and 8 fill window [0, 2) before the parallel part; thread 1's push of 1 (position 2, window [2, 4)) is
        // running during the poll: hiding 7 is not allowed
        final ExecutionScenario twoWindows = new ExecutionScenario(List.of(actor("offer", 7), actor("offer", 8)),
            List.of(List.of(actor("offer", 1)), List.of(actor("poll"))), List.of(), null);
        final ExecutionResult hidden = new ExecutionResult(List.<LincheckResult>of(new ValueResult(true),
            new ValueResult(true)), List.of(List.of(result(true, 0, 0)), List.of(result(null, 0, 0))),
            List.<LincheckResult>of());
        assertFalse(new ModelVerifier(WindowedQueueModel.ObjectRing3Window2.class).verifyResults(twoWindows, hidden));
    }
}
