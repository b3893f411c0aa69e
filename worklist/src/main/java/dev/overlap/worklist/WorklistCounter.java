package dev.overlap.worklist;

import dev.overlap.core.counters.CounterTypes;

/**
 * The distributed worklist's counters, one Agrona counter per worker and kind in the worklist's transport's counters
 * store ({@code Transport.counters()}: the mesh's, so the process's counters file when the mesh publishes one),
 * labelled {@code <mesh> worklist dev<d> worker <w>: <label>}, with type id {@link #typeId()} and a key naming the
 * device and the worker index. Each counts since the worklist was built, over every run; a run's own figures are in
 * {@link WorklistStats}. The worker publishes them with release stores at its endpoint polls (every
 * {@value DistributedWorklist#POLL_EVERY} tasks while busy, at every idle poll, at the end of a discrete round) and the
 * host once more when the run ends; the worklist's close frees them.
 */
public enum WorklistCounter {
    /** Tasks run. */
    TASKS("tasks run"),
    /** Tasks pushed to the worker's own device. */
    LOCAL_PUSHES("local pushes"),
    /** Tasks pushed to another device. */
    REMOTE_PUSHES("remote pushes"),
    /** One-sided remote atomics issued through the task context. */
    REMOTE_ATOMICS("remote atomics"),
    /** Polls that found no task. */
    IDLE_POLLS("idle polls");

    private final String label;

    WorklistCounter(final String label) {
        this.label = label;
    }

    /** @return a short human-readable label */
    public String label() {
        return label;
    }

    /** @return its Agrona type id, {@code CounterTypes.WORKLIST + ordinal()} (see {@link CounterTypes}) */
    public int typeId() {
        return CounterTypes.WORKLIST + ordinal();
    }
}
