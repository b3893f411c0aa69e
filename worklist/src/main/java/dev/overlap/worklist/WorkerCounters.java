package dev.overlap.worklist;

import dev.overlap.core.counters.OverlapCounters;
import org.agrona.concurrent.status.AtomicCounter;

/**
 * One job: a worker's {@link WorklistCounter}s. The worker counts in its {@link TaskContext}'s plain fields (reset per
 * run for {@link WorklistStats}); {@link #publish} stores the totals since the worklist was built (the runs before,
 * plus this run's fields) into the Agrona counters that changed, with release stores, so the hot path stays free of
 * shared writes.
 *
 * <p>Thread-safety: one writer at a time, the worker during a run and the host between runs (the launch and the join
 * order them); any thread or process reads the counters.
 */
final class WorkerCounters {
    private static final int KINDS = WorklistCounter.values().length;

    private final AtomicCounter[] counters;
    /** Totals of the runs before this one, by kind. */
    private final long[] base = new long[KINDS];
    /** The values last published, by kind. */
    private final long[] published = new long[KINDS];

    /**
     * @throws IllegalStateException if the store is full (what was allocated is freed)
     */
    WorkerCounters(final OverlapCounters store, final String prefix, final int device, final int worker) {
        counters = new AtomicCounter[KINDS];
        try {
            for (final WorklistCounter c : WorklistCounter.values()) {
                counters[c.ordinal()] = store.allocate(c.typeId(), prefix + ": " + c.label(), device, worker);
            }
        } catch (final RuntimeException e) {
            free(store);
            throw e;
        }
    }

    /** Publishes the totals that changed (release stores). */
    void publish(final TaskContext c) {
        store(WorklistCounter.TASKS, c.tasks);
        store(WorklistCounter.LOCAL_PUSHES, c.localPushes);
        store(WorklistCounter.REMOTE_PUSHES, c.remotePushes);
        store(WorklistCounter.REMOTE_ATOMICS, c.remoteAtomics);
        store(WorklistCounter.IDLE_POLLS, c.idlePolls);
    }

    private void store(final WorklistCounter kind, final long thisRun) {
        final int k = kind.ordinal();
        final long total = base[k] + thisRun;
        if (total != published[k]) {
            published[k] = total;
            counters[k].setRelease(total);
        }
    }

    /** Publishes, then folds this run into the base: the context's fields are about to be zeroed. Host only. */
    void endRun(final TaskContext c) {
        publish(c);
        System.arraycopy(published, 0, base, 0, KINDS);
    }

    /** @return the published total of {@code kind} */
    long value(final WorklistCounter kind) {
        return published[kind.ordinal()];
    }

    /** Frees the counters (the worklist's close, after the last run). */
    void free(final OverlapCounters store) {
        for (int k = 0; k < KINDS; k++) {
            if (counters[k] != null) {
                store.free(counters[k]);
                counters[k] = null;
            }
        }
    }
}
