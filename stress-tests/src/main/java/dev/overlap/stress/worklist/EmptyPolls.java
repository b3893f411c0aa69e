package dev.overlap.stress.worklist;

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
     * is inside its task meanwhile and polls nothing), for at most {@code boundNanos}: a bound far beyond the
     * microseconds an idle worker takes, so that a worker that stopped polling cannot hang the jcstress run.
     *
     * @return false if the bound passed first (the caller goes on; that state simply did not get its check)
     */
    boolean awaitTwoOthers(final long boundNanos) {
        final long start = count.get();
        final long began = System.nanoTime();
        while (count.get() < start + 2) {
            if (System.nanoTime() - began > boundNanos) {
                return false;
            }
            Thread.onSpinWait();
        }
        return true;
    }
}
