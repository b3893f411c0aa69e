package dev.overlap.testing;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Waiting helpers for tests that check how the library's blocking calls behave: they wait for a thread to reach a
 * state the test can observe (never a sleep standing in for synchronisation), and bound every wait of a test's own
 * so that a library bug fails the test instead of hanging it.
 */
public final class TestThreads {
    /** How long a test's own latch may hold a kernel or a thread: far longer than any test needs. */
    public static final long RELEASE_BOUND_SECONDS = 30;

    private TestThreads() {
    }

    /**
     * Waits until {@code thread} is in {@code state} (for instance blocked in a park).
     *
     * @throws AssertionError if the thread ends first
     */
    public static void awaitState(final Thread thread, final Thread.State state) {
        while (thread.getState() != state) {
            if (!thread.isAlive()) {
                throw new AssertionError(thread.getName() + " ended before reaching " + state);
            }
            Thread.onSpinWait();
            Thread.yield();
        }
    }

    /**
     * Waits until {@code thread} blocks in a park, timed or not (the library's waits park once their spins are
     * over).
     *
     * @throws AssertionError if the thread ends first
     */
    public static void awaitParked(final Thread thread) {
        while (thread.getState() != Thread.State.WAITING && thread.getState() != Thread.State.TIMED_WAITING) {
            if (!thread.isAlive()) {
                throw new AssertionError(thread.getName() + " ended instead of waiting");
            }
            Thread.onSpinWait();
            Thread.yield();
        }
    }

    /**
     * Waits for a test's release, at most {@link #RELEASE_BOUND_SECONDS}: a bound, not a synchronisation (the test
     * releases the latch long before), so that a library bug that makes a test fail early cannot leave a kernel
     * blocked and a close hanging after it.
     *
     * @throws IllegalStateException if interrupted (the interrupt status is set again), so that a kernel body that
     *                               waits here ends with an exception when the library interrupts its worker
     */
    public static void awaitRelease(final CountDownLatch latch) {
        try {
            latch.await(RELEASE_BOUND_SECONDS, TimeUnit.SECONDS);
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for a test latch", e);
        }
    }

    /**
     * @return the live thread named {@code name}
     * @throws AssertionError if there is none
     */
    public static Thread named(final String name) {
        for (final Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.getName().equals(name)) {
                return t;
            }
        }
        throw new AssertionError("no thread named " + name);
    }
}
