package dev.overlap.worklist;

import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.YieldingIdleStrategy;

import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * Counts the polls of a mesh's persistent kernels that found nothing to do, through the mesh's idle strategy (a
 * device worker calls {@link IdleStrategy#idle(int)} with the poll's work count after every poll). A worklist worker's
 * poll that finds no task and no message returns 0 only after its termination check (unless the run has already
 * ended), so a count that moved by two while a task ran proves that another worker ran at least one whole check
 * while that task was running. The workers yield between polls, so an idle worker checks as often as it can.
 */
final class EmptyPolls {
    private final AtomicLong count = new AtomicLong();

    /** @return the idle strategies for {@code Mesh.Builder.idleStrategy}: yielding, and counting empty polls */
    Supplier<IdleStrategy> idleStrategy() {
        return () -> new IdleStrategy() {
            private final IdleStrategy delegate = new YieldingIdleStrategy();

            @Override
            public void idle(final int workCount) {
                if (workCount == 0) {
                    count.incrementAndGet();
                }
                delegate.idle(workCount);
            }

            @Override
            public void idle() {
                delegate.idle();
            }

            @Override
            public void reset() {
                delegate.reset();
            }
        };
    }

    /**
     * Called by a task: waits until other workers finished two empty polls after this call began (the calling worker
     * is inside its task meanwhile and polls nothing). Never returns if no other worker polls: bound it with the
     * test's timeout; an interrupt (the mesh's close interrupts blocked kernels) ends it with an exception.
     */
    void awaitTwoOthers() {
        final long start = count.get();
        while (count.get() < start + 2) {
            if (Thread.currentThread().isInterrupted()) {
                throw new IllegalStateException("interrupted while waiting for another worker's empty polls");
            }
            Thread.onSpinWait();
        }
    }
}
