package dev.overlap.queues;

/**
 * How a push makes its items poppable (its <em>publication</em>). Every counter queue in this package takes one;
 * it is fixed for the life of the queue (both rules share the counters, so they must not be mixed).
 *
 * <p>Both rules reserve slots with one atomic per batch and never flag slots; they differ in who moves the
 * published prefix {@code end}, when a push may return, and so in what a pop may miss. In both, nothing is lost,
 * duplicated or invented, items are popped in the order their pushes reserved positions (so FIFO per producer), and
 * everything a thread did before pushing an item happens-before everything the thread that pops it does after.
 * {@code size()} is a snapshot in both (the items published and not popped at one instant of the call).
 *
 * <table>
 * <caption>What each rule is a drop-in for</caption>
 * <tr><th scope="col">rule</th><th scope="col">{@link #ORDERED}</th><th scope="col">{@link #WINDOWED}</th></tr>
 * <tr><td>contract</td><td>linearizable bounded FIFO</td><td>relaxed bounded FIFO, publication lag bounded by the
 * pushes of one window</td></tr>
 * <tr><td>{@code CounterRingQueue} is a drop-in for</td><td>JCTools' {@code MpmcArrayQueue}, every
 * {@code MessagePassingQueue} call (its {@code relaxed*} calls are the strict ones); a bounded
 * {@code ConcurrentLinkedQueue}</td><td>JCTools' {@code MpmcArrayQueue}, every {@code MessagePassingQueue} call:
 * {@code poll}/{@code peek} wait for a push in progress at the head, as {@code MpmcArrayQueue}'s do, while
 * {@code relaxedPoll}/{@code relaxedPeek}/{@code drain} answer with the lag below</td></tr>
 * <tr><td>the primitive rings and blocks are</td><td>linearizable bounded FIFOs</td><td>relaxed bounded FIFOs
 * (their pops are the relaxed ones, with the lag below)</td></tr>
 * <tr><td>a push waits</td><td>for pushes that reserved before it</td><td>never</td></tr>
 * <tr><td>a pop waits</td><td>never</td><td>{@code CounterRingQueue}'s strict {@code poll}/{@code peek}: while
 * the oldest reserved position's window has a push writing; every other pop: never</td></tr>
 * <tr><td>"full" counts</td><td>published, unpopped items (waits out reservations in progress)</td><td>reserved,
 * unpopped positions (pushes in progress included)</td></tr>
 * </table>
 */
public enum Publication {
    /**
     * Linearizable (the default): {@code offer}, {@code poll}, {@code peek}, {@code offerAll} (all or nothing) and
     * their "full" and "empty" answers take effect at one instant inside the call, in an order that respects
     * real time, as on a bounded FIFO queue (Lincheck model checking and stress). So one thread's
     * offer-then-poll always finds an element, its own or an older one. A batch pop ({@code drain},
     * {@code poll(dst, off, max)}) takes the oldest {@code min(max, n)} items atomically, {@code n} being the
     * items published when it read {@code end}; a greedy batch push ({@code fill}, {@code offer(src, off, len)})
     * counts as that many single pushes.
     *
     * <p>How: a push returns only once its items are poppable. After writing its slots it waits until
     * {@code end} reaches its reservation (every earlier reservation published), then moves {@code end} past its
     * own items with one release store. Costs one atomic per push batch, no window counters.
     *
     * <p>Progress: a push may wait for pushes that reserved before it (as JCTools' MPMC {@code poll} waits for a
     * slow producer); pops never wait. Waiting spins, then yields. The wait is nanoseconds while every pushing
     * thread has a core, but a push that reserved and was then preempted holds back every later push for a time
     * slice: with more runnable threads than cores (4 or 8 threads on 2 cores, or a loaded machine) throughput
     * drops sharply (measured in {@code QueueThroughputBenchmark}); prefer {@link #WINDOWED} there, if its
     * relaxation is acceptable.
     */
    ORDERED,

    /**
     * Relaxed, lock-free, not linearizable: the Atos rule (Listing 6) made to progress under sustained pushing. A
     * push counts its items into per-window completion counters ({@code endCount} split into windows of
     * {@code windowSize} positions) and returns at once; {@code end} advances over a window when its count is
     * full, and over the tail of a partly filled window when every position reserved in it so far is written
     * (Listing 6's quiescent rule {@code endCount == endMax}). Pushers and poppers both advance {@code end}.
     *
     * <p>Guarantee. Nothing is lost, duplicated or invented; items are popped in reservation order (FIFO per
     * producer). The relaxation is a bounded publication lag: an item whose push has returned may still be
     * invisible, but only while a push that reserved a position before it, or a position in the same window, is
     * still writing; it becomes poppable as soon as those pushes have written (nothing else is waited for). So:
     * <ul>
     * <li>A relaxed pop answers "empty" only if, at one instant of the call, the queue was empty, or the
     * window of its oldest item held a position (that item's or a later one) reserved by a push still writing.
     * Whenever no push is in progress, every pushed item is poppable.</li>
     * <li>With a relaxed pop (every pop of the primitive rings and blocks; {@code CounterRingQueue}'s
     * {@code relaxedPoll}, {@code relaxedPeek} and {@code drain}), one thread's {@code offer} then pop can miss its
     * own element (and every older one) while another thread's push that reserved before it, or in its window, is
     * still writing: "empty" is then a hint to retry or to check termination by other means (the distributed
     * worklist counts tasks, not empty polls). {@code CounterRingQueue}'s strict {@code poll} and {@code peek}
     * wait instead, which makes them linearizable.</li>
     * <li>A batch pop takes a prefix of the items published when it read {@code end}, which may lag the written
     * items in the same way, and also while another thread is between two steps of moving {@code end}.</li>
     * <li>"Full" counts reserved positions, including pushes in progress; it is exact at one instant.</li>
     * </ul>
     * Checked by Lincheck against a model of exactly this lag ({@code WindowedQueueModel} in the tests: a push is
     * a reservation followed by one write per window it touches) and by jcstress.
     */
    WINDOWED
}
