package dev.overlap.queues;

/**
 * How a push makes its items poppable (its <em>publication</em>). Every counter queue in this package takes one;
 * it is fixed for the life of the queue (both rules share the counters, so they must not be mixed).
 *
 * <p>Both rules reserve slots with one atomic per batch and never flag slots; they differ in who moves the
 * published prefix {@code end} and when a push may return.
 */
public enum Publication {
    /**
     * Linearizable (the default). A push returns only once its items are poppable: after writing its slots it
     * waits until {@code end} reaches its reservation (every earlier reservation published), then moves {@code end}
     * past its own items with one release store. Costs one atomic per push batch, no window counters.
     *
     * <p>Progress: a push may wait for pushes that reserved before it (as JCTools' MPMC {@code poll} waits for a
     * slow producer); pops never wait. Waiting spins, then yields. The wait is nanoseconds while every pushing
     * thread has a core, but a push that reserved and was then preempted holds back every later push for a time
     * slice: with more runnable threads than cores (4 or 8 threads on 2 cores, or a loaded machine) throughput
     * drops sharply (measured in {@code QueueThroughputBenchmark}); prefer {@link #WINDOWED} there.
     */
    ORDERED,

    /**
     * The Atos rule (Listing 6) made to progress under sustained pushing; lock-free, and not linearizable. A push
     * counts its items into per-window completion counters ({@code endCount} split into windows) and returns at
     * once; {@code end} advances over a window when its count is full, and over the tail of a partly filled window
     * when every slot reserved in it so far is written (Listing 6's quiescent rule {@code endCount == endMax}).
     * Pushers and poppers both advance {@code end}.
     *
     * <p>Guarantee: nothing is lost, duplicated or invented; items are popped in reservation order (so FIFO per
     * producer); a completed push's items may stay invisible while a push that reserved before it, or in the same
     * window, is still writing — at most until that window fills — and, whenever no push is in progress, every
     * pushed item is poppable.
     */
    WINDOWED
}
