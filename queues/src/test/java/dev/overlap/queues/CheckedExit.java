package dev.overlap.queues;

import org.jctools.queues.MessagePassingQueue;

import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An exit condition for one call of a waiting {@code drain} or {@code fill} that remembers what it said, so that a
 * call that does not honour it is caught at once instead of hanging the test: asking again after the stop, taking or
 * asking for an element after the stop ({@link #assertRunning(String)} in its consumer or supplier), or waiting after
 * the stop or twice without asking in between ({@link #waiting()} in its wait strategy). Both JCTools' loop (ask,
 * poll one, wait if none) and {@link CounterRingQueue}'s (ask, take a batch, wait if empty) ask before every wait.
 */
final class CheckedExit implements MessagePassingQueue.ExitCondition {
    private final BooleanSupplier keepRunning;
    private boolean stopped;
    private boolean askedSinceWait;

    /** @param keepRunning the condition: true to go on */
    CheckedExit(final BooleanSupplier keepRunning) {
        this.keepRunning = keepRunning;
    }

    @Override
    public boolean keepRunning() {
        assertFalse(stopped, "the exit condition was asked again after it said stop");
        stopped = !keepRunning.getAsBoolean();
        askedSinceWait = true;
        return !stopped;
    }

    /** @param what what the call did ("took an element", "waited"): fails if it did so after the stop */
    void assertRunning(final String what) {
        assertFalse(stopped, what + " after the exit condition said stop");
    }

    /** Called by the wait strategy: fails if the call waits after the stop, or twice without asking in between. */
    void waiting() {
        assertRunning("waited");
        assertTrue(askedSinceWait, "waited twice without asking the exit condition in between");
        askedSinceWait = false;
    }

    /** @return whether the condition said stop */
    boolean stopped() {
        return stopped;
    }
}
