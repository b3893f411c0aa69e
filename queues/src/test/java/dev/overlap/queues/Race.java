package dev.overlap.queues;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntFunction;

/**
 * Runs groups of threads against one queue for the concurrent conformance tests. Every thread waits at one barrier,
 * then repeats its lap until every thread that has a quota has done that many laps, and stops. No clock decides when
 * a run ends, so a loaded machine makes it slower, not weaker: each thread has done its share of the interleaving.
 * A lap checks what it observes with assertions; the first failure stops every thread and is rethrown by
 * {@link #run()}, named after its thread.
 *
 * <p>A deadline ({@value #DEFAULT_DEADLINE_SECONDS} s by default, {@code -Doverlap.conformance.deadlineSeconds})
 * only turns a hang into a failure: a quota never reached (a call that never returns, an element never seen), or a
 * thread still inside a call after the stop. Laps must therefore never wait for something another thread may never
 * do (loops inside a lap also end on {@link #stopping()}).
 *
 * <p>Budgets: {@link #LAPS} (default {@value #DEFAULT_LAPS}, {@code -Doverlap.conformance.laps}) is the unit the
 * tests scale their quotas by; {@link #PRODUCERS} and {@link #CONSUMERS} (default 2 each,
 * {@code -Doverlap.conformance.producers}, {@code -Doverlap.conformance.consumers}) size the MPMC groups, as
 * JCTools' suites size theirs from the cores (at least 2 so that producers race producers and consumers race
 * consumers; more threads than the 2 cores of CI on purpose, so that threads are preempted mid-call).
 */
final class Race {
    static final int DEFAULT_LAPS = 500;
    static final int DEFAULT_DEADLINE_SECONDS = 60;
    static final int LAPS = Integer.getInteger("overlap.conformance.laps", DEFAULT_LAPS);
    /** A pause where JCTools yields ({@link #pause(int)}). */
    static final int SHORT_PAUSE = 32;
    /** A pause where JCTools sleeps for a millisecond ({@link #pause(int)}). */
    static final int LONG_PAUSE = 256;
    static final int PRODUCERS = Integer.getInteger("overlap.conformance.producers", 2);
    static final int CONSUMERS = Integer.getInteger("overlap.conformance.consumers", 2);
    private static final int DEADLINE_SECONDS = Integer.getInteger("overlap.conformance.deadlineSeconds",
        DEFAULT_DEADLINE_SECONDS);

    /** One lap of a thread; may throw (an assertion) to fail the run. */
    interface Lap {
        void run() throws Exception;
    }

    private record Group(String role, int threads, int quota, IntFunction<Lap> laps) {
    }

    private final String name;
    private final List<Group> groups = new ArrayList<>();
    private final AtomicBoolean stop = new AtomicBoolean();

    /** @param name what the failures are about (the test and its subject) */
    Race(final String name) {
        this.name = name;
    }

    /**
     * Adds {@code threads} threads of one role.
     *
     * @param role    names the threads in failures
     * @param threads how many
     * @param quota   laps each thread must do before the run may stop; 0 for a thread that just keeps running (its
     *                lap must then return once {@link #stopping()})
     * @param laps    makes each thread's lap, given the thread's index in its role (so a lap can keep per-thread
     *                state, such as a producer's next sequence number)
     * @return this
     */
    Race threads(final String role, final int threads, final int quota, final IntFunction<Lap> laps) {
        groups.add(new Group(role, threads, quota, laps));
        return this;
    }

    /** As {@link #threads(String, int, int, IntFunction)}, every thread running the same (stateless) lap. */
    Race threads(final String role, final int threads, final int quota, final Lap lap) {
        return threads(role, threads, quota, i -> lap);
    }

    /**
     * A slow-down inside a lap, where JCTools yields or sleeps for a millisecond to keep a queue mostly empty or
     * mostly full: a short spin that keeps the thread on its core (on a loaded 2-core machine a yield or a sleep costs
     * a time slice per lap, and the lap quotas would take minutes).
     *
     * @param spins how long, in {@link Thread#onSpinWait()} calls
     */
    static void pause(final int spins) {
        for (int i = 0; i < spins; i++) {
            Thread.onSpinWait();
        }
    }

    /** @return true once the run is stopping: loops inside a lap must end then */
    boolean stopping() {
        return stop.get();
    }

    /**
     * Starts every thread, waits until every quota is done (or a lap failed), stops the threads and joins them.
     *
     * @throws AssertionError the first failure of a lap (with its thread's name), or a hang past the deadline
     */
    void run() throws InterruptedException {
        int total = 0;
        int withQuota = 0;
        for (final Group g : groups) {
            total += g.threads();
            withQuota += g.quota() > 0 ? g.threads() : 0;
        }
        final CyclicBarrier start = new CyclicBarrier(total);
        final CountDownLatch quotas = new CountDownLatch(withQuota);
        final AtomicReference<Throwable> failure = new AtomicReference<>();
        final AtomicReference<String> failedThread = new AtomicReference<>();
        final AtomicLongArray laps = new AtomicLongArray(total);
        final List<Thread> threads = new ArrayList<>();
        for (final Group g : groups) {
            for (int i = 0; i < g.threads(); i++) {
                final Lap lap = g.laps().apply(i);
                final int slot = threads.size();
                final Thread t = new Thread(() -> {
                    try {
                        start.await();
                        long done = 0;
                        while (!stop.get()) {
                            lap.run();
                            laps.lazySet(slot, ++done);
                            if (done == g.quota()) {
                                quotas.countDown();
                            }
                        }
                    } catch (final Throwable e) {
                        if (failure.compareAndSet(null, e)) {
                            failedThread.set(Thread.currentThread().getName());
                        }
                        stop.set(true);
                        while (quotas.getCount() > 0) {
                            quotas.countDown();
                        }
                    }
                }, name + " / " + g.role() + " " + i);
                t.setDaemon(true); // a thread stuck in a call must not keep the test JVM alive
                threads.add(t);
            }
        }
        threads.forEach(Thread::start);
        final boolean reached = quotas.await(DEADLINE_SECONDS, TimeUnit.SECONDS);
        stop.set(true);
        final long joinBy = System.nanoTime() + TimeUnit.SECONDS.toNanos(DEADLINE_SECONDS);
        final List<String> stuck = new ArrayList<>();
        for (final Thread t : threads) {
            t.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(joinBy - System.nanoTime())));
            final StackTraceElement[] at = t.getStackTrace();
            if (t.isAlive()) {
                stuck.add(t.getName() + (at.length > 0 ? " at " + at[0] : ""));
            }
        }
        if (failure.get() != null) {
            throw new AssertionError(failedThread.get() + ": " + failure.get().getMessage(), failure.get());
        }
        if (!reached) {
            throw new AssertionError(name + ": the quotas were not reached in " + DEADLINE_SECONDS + " s (a call "
                + "that does not return, or an element that never comes); laps per thread: " + laps(threads, laps));
        }
        if (!stuck.isEmpty()) {
            throw new AssertionError(name + ": threads still inside a call " + DEADLINE_SECONDS + " s after the stop: "
                + stuck);
        }
    }

    private static String laps(final List<Thread> threads, final AtomicLongArray laps) {
        final StringBuilder s = new StringBuilder();
        for (int i = 0; i < threads.size(); i++) {
            s.append(i == 0 ? "" : ", ").append(threads.get(i).getName()).append('=').append(laps.get(i));
        }
        return s.toString();
    }
}
