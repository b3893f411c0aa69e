package dev.overlap.queues;

import org.jctools.queues.MessagePassingQueue;
import org.jctools.queues.MpmcArrayQueue;
import org.jctools.util.Pow2;

import java.util.Queue;
import java.util.stream.IntStream;
import java.util.stream.Stream;

/**
 * One queue the conformance tests ({@link QueueSanityConformanceTest}, {@link MpqSanityConformanceTest},
 * {@link MpqWaitingFormsTest}) run against: {@link CounterRingQueue} in one {@link Publication} mode, with the
 * default window size a user gets, or JCTools' {@link MpmcArrayQueue} as the control (every check must hold for
 * it too, or the check is wrong), at one requested capacity. JCTools parameterises its own suites by capacity
 * the same way (a tiny queue, where every call races with "full", and a large one).
 *
 * @param kind      the queue and mode
 * @param requested the capacity asked for at construction
 */
record ConformanceSubject(Kind kind, int requested) {
    /** The element count JCTools' sanity tests offer at most ({@code SIZE}). */
    static final int SIZE = 8192;

    /** The queues under test. */
    enum Kind {
        /** {@link CounterRingQueue} with {@link Publication#ORDERED}. */
        ORDERED,
        /** {@link CounterRingQueue} with {@link Publication#WINDOWED}. */
        WINDOWED,
        /** JCTools' {@link MpmcArrayQueue}: the control. */
        MPMC_ARRAY_QUEUE
    }

    /**
     * Every subject for the single-threaded tests: capacities 1 and 2 (every call meets "full"), 16, one that is
     * not a power of two (100: {@link CounterRingQueue} keeps it, JCTools rounds it up to 128) and {@link #SIZE}.
     * The control starts at 2, {@link MpmcArrayQueue}'s smallest capacity.
     */
    static Stream<ConformanceSubject> all() {
        return subjects(IntStream.of(1, 2, 16, 100, SIZE));
    }

    /**
     * Every subject for the multi-threaded tests: capacities 1 and 2 (a single window with
     * {@link Publication#WINDOWED}, "full" and "empty" at every other call) and {@link #SIZE} (many windows, mostly
     * empty or mostly full as the test makes it). JCTools runs its MPMC suites at 2 and its {@code SIZE}; 16 is
     * left to the single-threaded tests to keep the concurrent ones to seconds on 2 cores.
     */
    static Stream<ConformanceSubject> concurrent() {
        return subjects(IntStream.of(1, 2, SIZE));
    }

    private static Stream<ConformanceSubject> subjects(final IntStream capacities) {
        return capacities.boxed().flatMap(c -> Stream.of(Kind.values())
            .filter(k -> k != Kind.MPMC_ARRAY_QUEUE || c >= 2)
            .map(k -> new ConformanceSubject(k, c)));
    }

    /** @return a new, empty queue of this kind and capacity, seen as a {@link Queue} */
    <T> Queue<T> newQueue() {
        return create();
    }

    /** @return a new, empty queue of this kind and capacity, seen as a {@link MessagePassingQueue} */
    <T> MessagePassingQueue<T> newMpq() {
        return create();
    }

    /** @return a new, empty queue of this kind and capacity, seen as both interfaces */
    <T, Q extends Queue<T> & MessagePassingQueue<T>> Q newQueueAndMpq() {
        return create();
    }

    private <T, Q extends Queue<T> & MessagePassingQueue<T>> Q create() {
        return switch (kind) {
            case ORDERED -> cast(new CounterRingQueue<T>(requested, CounterSequencer.defaultWindowSize(requested),
                Publication.ORDERED));
            case WINDOWED -> cast(new CounterRingQueue<T>(requested, CounterSequencer.defaultWindowSize(requested),
                Publication.WINDOWED));
            case MPMC_ARRAY_QUEUE -> cast(new MpmcArrayQueue<T>(requested));
        };
    }

    @SuppressWarnings("unchecked")
    private static <T, Q extends Queue<T> & MessagePassingQueue<T>> Q cast(final Object queue) {
        return (Q)queue;
    }

    /**
     * The bound the queue must keep: exactly the capacity asked for by {@link CounterRingQueue} (its
     * {@code capacity()} is "the bound given at construction"), the next power of two by the control (JCTools'
     * tests assert {@code Pow2.roundToPowerOfTwo(capacity)}).
     */
    int capacity() {
        return kind == Kind.MPMC_ARRAY_QUEUE ? Pow2.roundToPowerOfTwo(requested) : requested;
    }

    /**
     * Whether {@code relaxedPoll} and {@code relaxedPeek} claim the strict calls' answers: {@link CounterRingQueue}'s
     * javadoc says so for {@link Publication#ORDERED}; with {@link Publication#WINDOWED} they may miss elements of
     * pushes in progress, and JCTools' {@code MpmcArrayQueue} lets them fail spuriously.
     */
    boolean relaxedPopsAreStrict() {
        return kind == Kind.ORDERED;
    }

    @Override
    public String toString() {
        return kind + " capacity " + requested;
    }
}
