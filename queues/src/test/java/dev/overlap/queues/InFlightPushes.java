package dev.overlap.queues;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Counts pushes in progress in a Lincheck test of a {@link Publication#WINDOWED} queue, so that a pop may accept
 * "empty" only when no push was in progress during its whole attempt: the exact relaxation that mode allows.
 */
final class InFlightPushes {
    private final AtomicLong started = new AtomicLong();
    private final AtomicLong ended = new AtomicLong();

    void begin() {
        started.incrementAndGet();
    }

    void end() {
        ended.incrementAndGet();
    }

    /** @return the number of pushes started, or -1 when a push is in progress now */
    long quietSnapshot() {
        final long e = ended.get();
        final long s = started.get();
        return s == e ? s : -1;
    }

    /** @return true when no push was in progress since {@code snapshot} was taken quiet */
    boolean stayedQuiet(final long snapshot) {
        return snapshot >= 0 && started.get() == snapshot;
    }
}
