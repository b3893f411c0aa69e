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

    /**
     * Runs {@code task(0)} .. {@code task(n - 1)} each on a thread of its own and waits for all of them (at most
     * {@link #RELEASE_BOUND_SECONDS} each): for calls that only complete together, such as the ranks of a mesh across
     * processes played by threads of one JVM (joins, barriers, collective closes), which a small pool would run one
     * after the other.
     *
     * @return the results, by index
     * @throws AssertionError if a task threw (the first failure, the others suppressed) or did not end in time
     */
    public static <T> java.util.List<T> inParallel(final int n, final java.util.function.IntFunction<T> task) {
        final java.util.List<java.util.concurrent.CompletableFuture<T>> futures = new java.util.ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            final int index = i;
            final java.util.concurrent.CompletableFuture<T> f = new java.util.concurrent.CompletableFuture<>();
            final Thread t = new Thread(() -> {
                try {
                    f.complete(task.apply(index));
                } catch (final Throwable e) {
                    f.completeExceptionally(e);
                }
            }, "in-parallel-" + index);
            t.setDaemon(true);
            t.start();
            futures.add(f);
        }
        final java.util.List<T> results = new java.util.ArrayList<>(n);
        AssertionError failure = null;
        for (int i = 0; i < n; i++) {
            try {
                results.add(futures.get(i).get(RELEASE_BOUND_SECONDS, TimeUnit.SECONDS));
            } catch (final java.util.concurrent.ExecutionException e) {
                failure = add(failure, new AssertionError("task " + i + " failed: " + e.getCause(), e.getCause()));
                results.add(null);
            } catch (final java.util.concurrent.TimeoutException e) {
                failure = add(failure, new AssertionError("task " + i + " did not end within "
                    + RELEASE_BOUND_SECONDS + " s"));
                results.add(null);
            } catch (final InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for parallel tasks", e);
            }
        }
        if (failure != null) {
            throw failure;
        }
        return results;
    }

    /** As {@link #inParallel(int, java.util.function.IntFunction)} for tasks without a result. */
    public static void runInParallel(final int n, final java.util.function.IntConsumer task) {
        inParallel(n, i -> {
            task.accept(i);
            return Boolean.TRUE;
        });
    }

    private static AssertionError add(final AssertionError first, final AssertionError next) {
        if (first == null) {
            return next;
        }
        first.addSuppressed(next);
        return first;
    }
}
