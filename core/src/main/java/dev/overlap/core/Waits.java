package dev.overlap.core;

import java.util.concurrent.TimeUnit;

/**
 * The rules every blocking call of Overlap follows, in one place: a timeout form beside the untimed one, interrupts
 * answered with {@link InterruptedWaitException} (interrupt status kept), and no busy waiting once a short spin is
 * over (the waits park, or idle with a parking Agrona idle strategy). Stateless; thread-safe.
 */
public final class Waits {
    /** Deadline value that means "no deadline" (an untimed wait). */
    public static final long NO_DEADLINE = Long.MAX_VALUE;

    private Waits() {
    }

    /**
     * @param timeout longest wait, {@code <= 0} for "do not wait"
     * @param unit    its unit
     * @return the {@link System#nanoTime()} at which the wait gives up (never {@link #NO_DEADLINE})
     * @throws NullPointerException for a null unit
     */
    public static long deadline(final long timeout, final TimeUnit unit) {
        final long nanos = unit.toNanos(timeout);
        final long now = System.nanoTime();
        if (nanos <= 0) {
            return now;
        }
        final long deadline = now + nanos;
        // saturate instead of wrapping for huge timeouts
        return deadline - now < 0 || deadline == NO_DEADLINE ? NO_DEADLINE - 1 : deadline;
    }

    /**
     * @param deadline a {@link System#nanoTime()} deadline from {@link #deadline(long, TimeUnit)}, or {@link
     *                 #NO_DEADLINE}
     * @return nanoseconds left before {@code deadline} (may be negative); a huge value for {@link #NO_DEADLINE}
     */
    public static long remaining(final long deadline) {
        return deadline == NO_DEADLINE ? Long.MAX_VALUE : deadline - System.nanoTime();
    }

    /**
     * Throws when the calling thread has been interrupted (clearing and then restoring its interrupt status).
     *
     * @param waitingFor what the thread waits for, for the message
     * @throws InterruptedWaitException if the thread is interrupted
     */
    public static void checkInterrupt(final String waitingFor) {
        if (Thread.interrupted()) {
            throw interrupted(waitingFor);
        }
    }

    /**
     * @param waitingFor what the thread waited for
     * @return the exception to throw for an interrupt noticed (and cleared) by the caller; sets the status again
     */
    public static InterruptedWaitException interrupted(final String waitingFor) {
        Thread.currentThread().interrupt();
        return new InterruptedWaitException(waitingFor);
    }

    /**
     * Waits until {@code thread} has ended, whatever interrupts come: the closes that stop Overlap's threads use it,
     * because a close that gave up on an interrupt would return with a thread still using what it is about to free.
     * The interrupt is not lost: the caller restores the status once all its waits are done (restoring it before a
     * second join would make that join throw at once, again and again).
     *
     * @param thread the thread to wait for (the calling thread itself returns at once: it cannot wait for itself)
     * @return true if the calling thread was interrupted while it waited (its status is then cleared)
     */
    public static boolean joinUninterruptibly(final Thread thread) {
        boolean interrupted = false;
        while (thread != Thread.currentThread() && thread.isAlive()) {
            try {
                thread.join();
            } catch (final InterruptedException e) {
                interrupted = true;
            }
        }
        return interrupted;
    }
}
