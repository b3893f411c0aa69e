package dev.overlap.graph.async;

import org.agrona.concurrent.AtomicBuffer;

import java.lang.invoke.VarHandle;

/**
 * The per-block state word of {@link AsyncPullPageRank}: the protocol that queues a block of vertices at most once,
 * never lets two workers run it at once, and never loses an activation. One job: the transitions; the caller owns
 * the words (one per cache line, in the block owner's memory) and pushes the block when told to.
 *
 * <pre>
 *   IDLE --activate--> QUEUED --beginRun--> RUNNING --endRun--> IDLE
 *                                            |    ^
 *                                   activate |    | (never)
 *                                            v
 *                                          DIRTY --endRun--> QUEUED (the runner pushes it again)
 * </pre>
 *
 * <p><b>No lost activation</b> (a Dekker pair): the runner stores {@code RUNNING} and then fences before it reads
 * any input; an announcer writes its new value, fences ({@link #announceFence()}), then reads the state. So either
 * the runner reads the new value, or the announcer sees {@code RUNNING} (and marks the block dirty: it runs again),
 * {@code IDLE} (it queues the block), or {@code QUEUED}/{@code DIRTY} (a run that starts, or restarts, after the
 * fence is still to come). jcstress {@code BlockStatesActivationTest} checks exactly this.
 *
 * <p>Thread-safety: any thread may {@link #activate}; only the worker that popped the block calls
 * {@link #beginRun}/{@link #endRun} for it (the worklist hands a queued block to one worker). All transitions are
 * volatile stores or CASes on the word.
 */
final class BlockStates {
    static final int IDLE = 0;
    static final int QUEUED = 1;
    static final int RUNNING = 2;
    static final int DIRTY = 3;

    /** {@link #activate} result: nothing to do (the block is queued or dirty already). */
    static final int NOTHING = 0;
    /** {@link #activate} result: the running block was marked dirty; its runner queues it again. */
    static final int MARKED = 1;
    /** {@link #activate} result: the idle block is now queued; the caller must push it. */
    static final int PUSH = 2;

    private BlockStates() {
    }

    /** The runner starts a popped (queued) block: it must read its inputs only after this returns. */
    static void beginRun(final AtomicBuffer states, final int index) {
        states.putIntVolatile(index, RUNNING);
        // the inputs are plain loads: order them after the store for every JVM/CPU, not only x86's volatile store
        VarHandle.fullFence();
    }

    /**
     * The runner is done (its outputs written).
     *
     * @return true if the block was activated while running: it is queued again and the caller must push it
     */
    static boolean endRun(final AtomicBuffer states, final int index) {
        if (states.compareAndSetInt(index, RUNNING, IDLE)) {
            return false;
        }
        // DIRTY: only this runner leaves it, so no CAS is needed
        states.putIntOrdered(index, QUEUED);
        return true;
    }

    /** An announcer calls this after writing its new values and before {@link #activate} for the blocks it feeds. */
    static void announceFence() {
        VarHandle.fullFence();
    }

    /**
     * Makes the block run (again) after the caller's announced values.
     *
     * @return {@link #PUSH} (the caller pushes the block), {@link #MARKED} or {@link #NOTHING}
     */
    static int activate(final AtomicBuffer states, final int index) {
        for (;;) {
            final int s = states.getIntVolatile(index);
            if (s == QUEUED || s == DIRTY) {
                return NOTHING;
            }
            if (s == IDLE) {
                if (states.compareAndSetInt(index, IDLE, QUEUED)) {
                    return PUSH;
                }
            } else if (states.compareAndSetInt(index, RUNNING, DIRTY)) {
                return MARKED;
            }
        }
    }
}
