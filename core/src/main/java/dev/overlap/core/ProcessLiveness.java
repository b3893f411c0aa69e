package dev.overlap.core;

import java.time.Instant;
import java.util.Optional;

/**
 * Whether a process another one recorded (a world's rank, a counters file's owner) still runs: one rule for every
 * file that names its owner by pid. A pid alone can be reused by a later process, so the owner's start time is
 * recorded beside it and must match (within a second: the platform reports start times at clock-tick resolution).
 * Stateless; thread-safe.
 */
public final class ProcessLiveness {
    private ProcessLiveness() {
    }

    /** @return this process's start time, milliseconds since the epoch (0 where the platform does not tell) */
    public static long currentStartMillis() {
        return startMillis(ProcessHandle.current());
    }

    static long startMillis(final ProcessHandle handle) {
        return handle.info().startInstant().map(Instant::toEpochMilli).orElse(0L);
    }

    /**
     * @param pid         the recorded pid
     * @param startMillis the recorded start time (0: unknown, then the pid alone decides)
     * @return true if a process with that pid runs and started at the recorded time (not a reused pid)
     */
    public static boolean isAlive(final long pid, final long startMillis) {
        final Optional<ProcessHandle> h = ProcessHandle.of(pid);
        if (h.isEmpty() || !h.get().isAlive()) {
            return false;
        }
        final long start = startMillis(h.get());
        return startMillis == 0 || start == 0 || Math.abs(start - startMillis) < 1000;
    }
}
