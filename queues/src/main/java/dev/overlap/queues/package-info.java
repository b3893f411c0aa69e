/**
 * Counter-based queues after Atos (section III.A.2, Listing 6): slots reserved with one atomic per batch, published
 * through padded counters instead of per-slot flags, popped with one CAS per batch.
 *
 * <ul>
 * <li>{@link dev.overlap.queues.IntCounterQueue}: the Atos one-shot block in device memory (capacity bounds all
 * pushes until {@code reset()}; reservation is one {@code getAndAdd}).</li>
 * <li>{@link dev.overlap.queues.IntCounterRing} / {@link dev.overlap.queues.LongCounterRing}: the ring form, bounded
 * memory for unbounded pushing, full = back-pressure. One source: the build generates {@code LongCounterRing} from
 * {@code IntCounterRing}.</li>
 * <li>{@link dev.overlap.queues.CounterRingQueue}: a {@link java.util.Queue} of objects on the same algorithm, with
 * batch {@code drain}/{@code fill}; on-heap, needs no JVM flag.</li>
 * <li>{@link dev.overlap.queues.IntPriorityWorklist}: the Atos near/far priority worklist ({@code int} items with
 * {@code int} keys, each pair one {@code long} entry in {@code LongCounterRing}s).</li>
 * </ul>
 *
 * <p>Every queue takes a {@link dev.overlap.queues.Publication} rule: {@code ORDERED} (default, linearizable, a push
 * may wait for earlier pushes; a drop-in for a linearizable bounded MPMC queue such as JCTools'
 * {@code MpmcArrayQueue}) or {@code WINDOWED} (Listing 6 with per-window completion counters, lock-free, not
 * linearizable: an item may stay invisible while a push that reserved before it, or in its window, is still
 * writing; a relaxed MPMC queue, as JCTools' {@code relaxedOffer}/{@code relaxedPoll}). Device-memory structures hold offsets only
 * (no Java references) in an Agrona {@code AtomicBuffer} region, so they can later live in memory shared between
 * processes; Agrona needs {@code --add-exports java.base/jdk.internal.misc=ALL-UNNAMED}.
 */
package dev.overlap.queues;
