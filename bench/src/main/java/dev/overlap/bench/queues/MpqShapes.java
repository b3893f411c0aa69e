package dev.overlap.bench.queues;

import dev.overlap.queues.CounterRingQueue;
import dev.overlap.queues.Publication;
import org.jctools.queues.MessagePassingQueue;
import org.jctools.queues.MpmcArrayQueue;
import org.jctools.queues.MpscArrayQueue;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;

/**
 * The queues the message-passing shape benchmarks compare, all through JCTools' {@link MessagePassingQueue}
 * interface as a user of either library would hold them, and the per-thread counters of the producer/consumer
 * shapes (successful calls only, as JCTools' own throughput benchmarks count them).
 */
public final class MpqShapes {
    /** The element every producer offers (a shared constant: no allocation per item on either side). */
    static final Integer ITEM = 7;
    /** Items per batch in the batch shapes. */
    static final int BATCH = 32;

    private MpqShapes() {
    }

    /**
     * @param impl     {@code counterRingOrdered}, {@code counterRingWindowed}, {@code jctoolsMpmc} or
     *                 {@code jctoolsMpsc} (one consumer thread only)
     * @param capacity the bound
     * @return a new queue
     */
    static MessagePassingQueue<Integer> create(final String impl, final int capacity) {
        switch (impl) {
            case "counterRingOrdered":
                return new CounterRingQueue<>(capacity, 64, Publication.ORDERED);
            case "counterRingWindowed":
                return new CounterRingQueue<>(capacity, 64, Publication.WINDOWED);
            case "jctoolsMpmc":
                return new MpmcArrayQueue<>(capacity);
            case "jctoolsMpsc":
                return new MpscArrayQueue<>(capacity);
            default:
                throw new IllegalArgumentException("unknown impl " + impl);
        }
    }

    /** Successful offers of a producer thread ({@code offered}) and polls of a consumer thread ({@code polled}). */
    @AuxCounters(AuxCounters.Type.OPERATIONS)
    @State(Scope.Thread)
    public static class Counts {
        /** Items this thread offered successfully. */
        public long offered;
        /** Items this thread polled. */
        public long polled;
    }

    /** A drain target that only counts (the items are the shared {@link #ITEM}). */
    static final class CountingConsumer implements MessagePassingQueue.Consumer<Integer> {
        long seen;

        @Override
        public void accept(final Integer e) {
            seen++;
        }
    }
}
