package dev.overlap.queues;

import org.jctools.queues.QueueProgressIndicators;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.Iterator;
import java.util.Queue;
import java.util.concurrent.TimeUnit;

import static dev.overlap.queues.ConformanceSubject.SIZE;
import static dev.overlap.queues.Race.CONSUMERS;
import static dev.overlap.queues.Race.LAPS;
import static dev.overlap.queues.Race.LONG_PAUSE;
import static dev.overlap.queues.Race.PRODUCERS;
import static dev.overlap.queues.Race.SHORT_PAUSE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * JCTools' own {@link java.util.Queue} conformance checks ({@code QueueSanityTest}, run by JCTools against
 * {@code MpmcArrayQueue} as {@code QueueSanityTestMpmcArray}, whose {@code testOfferPollSemantics}, once
 * {@code MpmcArrayQueueSanityTest}'s, is here too), re-written for JUnit 5 and run against every
 * {@link ConformanceSubject}: {@link CounterRingQueue} in both publication modes and, as the control, JCTools'
 * {@code MpmcArrayQueue}. Every check is JCTools' check, on the strict calls ({@code offer}, {@code poll},
 * {@code peek}), which {@link CounterRingQueue} claims linearizable in both modes, so none is adapted per mode.
 *
 * <p>How the port differs in form: JCTools runs each concurrent test for a fixed time with a sleep; here a
 * {@link Race} runs until every thread has done its quota of laps (no sleep, no clock; a deadline only turns a
 * hang into a failure), and a lap fails at the first wrong observation with a message saying what it saw. JCTools
 * slows producers or consumers down with a yield or a 1 ms sleep to keep a queue mostly empty or mostly full; here
 * a short or a long spin ({@link Race#pause(int)}). JCTools' {@code @After} (clear, then empty and zero size) ends
 * every test that uses the queue afterwards ({@link #assertClearEmpties}), after the threads stopped. Capacities
 * per {@link ConformanceSubject#concurrent()} and {@link ConformanceSubject#all()}; JCTools' element count
 * {@link ConformanceSubject#SIZE}. {@code MpqSanityTest}'s {@code testSizeLtZero} and {@code testSizeGtCapacity}
 * make the same calls as the two here and are not repeated in {@link MpqSanityConformanceTest}.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
@Tag("slow")
public class QueueSanityConformanceTest {
    private static final String ALL = "dev.overlap.queues.ConformanceSubject#all";
    private static final String CONCURRENT = "dev.overlap.queues.ConformanceSubject#concurrent";

    /** An element whose field is written by its producer with a plain store, after construction. */
    static final class Val {
        int value;

        Val(final int value) {
            this.value = value;
        }
    }

    static void assertEmpty(final Queue<?> q) {
        assertTrue(q.isEmpty(), "isEmpty()");
        assertEquals(0, q.size(), "size()");
    }

    /** JCTools' {@code @After}: clear empties the queue, which then takes its whole capacity again. */
    static void assertClearEmpties(final Queue<Integer> q, final ConformanceSubject s) {
        q.clear();
        assertEmpty(q);
        assertNull(q.poll());
        for (int i = 0; i < s.capacity(); i++) {
            assertTrue(q.offer(i), "after clear, room for the whole capacity");
        }
        assertFalse(q.offer(-1));
        q.clear();
        assertEmpty(q);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource(ALL)
    void toStringWorks(final ConformanceSubject s) {
        final Queue<Integer> q = s.newQueue();
        assertNotNull(q.toString());
        q.offer(1);
        assertNotNull(q.toString());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource(ALL)
    void sanity(final ConformanceSubject s) {
        final Queue<Integer> q = s.newQueue();
        for (int i = 0; i < SIZE; i++) {
            assertNull(q.poll());
            assertEmpty(q);
        }
        int size = 0;
        while (size < SIZE && q.offer(size)) {
            size++;
        }
        assertEquals(Math.min(SIZE, s.capacity()), size, "offers succeed exactly up to the capacity");
        assertEquals(size, q.size());
        int i = 0;
        Integer head;
        while ((head = q.peek()) != null) {
            final Integer e = q.poll();
            assertEquals(head, e, "poll returns what peek saw");
            assertEquals(i++, e, "FIFO");
            assertEquals(size - i, q.size());
        }
        assertEquals(size, i);
        assertNull(q.poll());
        assertEmpty(q);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource(ALL)
    void sizeIsTheNumberOfOffers(final ConformanceSubject s) {
        final Queue<Integer> q = s.newQueue();
        int offered = 0;
        while (offered < SIZE && q.offer(offered)) {
            offered++;
            assertEquals(offered, q.size());
            assertFalse(q.isEmpty());
        }
        assertEquals(Math.min(SIZE, s.capacity()), offered);
        assertClearEmpties(q, s);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource(ALL)
    void whenFirstInThenFirstOut(final ConformanceSubject s) {
        final Queue<Integer> q = s.newQueue();
        for (int i = 0; i < SIZE && q.offer(i); i++) {
            assertTrue(i < s.capacity());
        }
        final int size = q.size();
        int i = 0;
        Integer head;
        while ((head = q.peek()) != null) {
            final Integer e = q.poll();
            assertSame(head, e);
            assertEquals(size - (i + 1), q.size());
            assertEquals(i, e);
            i++;
        }
        assertEquals(size, i);
    }

    /** JCTools' {@code test_FIFO_PRODUCER_Ordering}: what comes out sums to what went in. */
    @ParameterizedTest(name = "{0}")
    @MethodSource(ALL)
    void everythingOfferedIsPolledOnce(final ConformanceSubject s) {
        final Queue<Integer> q = s.newQueue();
        for (int i = 0; i < SIZE && q.offer(i); i++) {
            assertTrue(i < s.capacity());
        }
        int size = q.size();
        long sum = (size - 1L) * size / 2;
        Integer e;
        while ((e = q.poll()) != null) {
            assertEquals(--size, q.size());
            sum -= e;
        }
        assertEquals(0, sum);
        assertEquals(0, size);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource(ALL)
    void offerNullThrowsNullPointerException(final ConformanceSubject s) {
        final Queue<Integer> q = s.newQueue();
        assertThrows(NullPointerException.class, () -> q.offer(null));
        assertEmpty(q);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource(ALL)
    void offerThenPollReturnsTheSameInstanceAndLeavesTheQueueEmpty(final ConformanceSubject s) {
        final Queue<Integer> q = s.newQueue();
        assertEmpty(q);
        final Integer e = 1876876; // not a cached box
        assertTrue(q.offer(e));
        assertFalse(q.isEmpty());
        assertEquals(1, q.size());
        assertSame(e, q.poll());
        assertEmpty(q);
    }

    /**
     * JCTools' {@code testPowerOf2Capacity}: exactly the capacity fits. JCTools rounds capacities up to a power of
     * two; {@link CounterRingQueue} keeps the capacity given ({@link ConformanceSubject#capacity()}), so with 100
     * it is 100 offers, not 128. A refused offer leaves the queue as it was.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource(ALL)
    void exactlyTheCapacityFits(final ConformanceSubject s) {
        final Queue<Integer> q = s.newQueue();
        final int n = s.capacity();
        for (int i = 0; i < n; i++) {
            assertTrue(q.offer(i), "failed to insert " + i);
        }
        assertFalse(q.offer(n));
        assertEquals(n, q.size());
        assertEquals(0, q.peek());
        assertEquals(0, q.poll());
        assertTrue(q.offer(n), "one polled, one fits");
        assertFalse(q.offer(n + 1));
        assertClearEmpties(q, s);
    }

    /**
     * JCTools' {@code testQueueProgressIndicators} (equal indices when empty, the producer index one ahead after an
     * offer, equal again after the poll), and then the same relation, {@code producer - consumer == size}, around
     * the ring three times with the queue filled to the capacity and emptied again.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource(ALL)
    void progressIndicatorsCountOffersAndPolls(final ConformanceSubject s) {
        final Queue<Integer> q = s.newQueue();
        final QueueProgressIndicators indices = (QueueProgressIndicators)q;
        assertEquals(indices.currentConsumerIndex(), indices.currentProducerIndex(), "empty: equal indices");
        q.offer(1);
        assertEquals(indices.currentConsumerIndex() + 1, indices.currentProducerIndex(),
            "one element: the producer index one ahead of the consumer index");
        q.poll();
        assertEquals(indices.currentConsumerIndex(), indices.currentProducerIndex(), "empty again: equal indices");
        final int n = Math.min(s.capacity(), 1024);
        for (int lap = 0; lap < 3; lap++) {
            final long consumer = indices.currentConsumerIndex();
            for (int i = 1; i <= n; i++) {
                q.offer(i);
                assertEquals(consumer + i, indices.currentProducerIndex(), "one offer, one position");
                assertEquals(consumer, indices.currentConsumerIndex(), "offers do not move the consumer index");
            }
            final long producer = indices.currentProducerIndex();
            for (int i = 1; i <= n; i++) {
                q.poll();
                assertEquals(consumer + i, indices.currentConsumerIndex(), "one poll, one position");
                assertEquals(producer, indices.currentProducerIndex(), "polls do not move the producer index");
            }
        }
    }

    /** JCTools' {@code testIterator}: the elements in FIFO order, and again after a poll and an offer. */
    @ParameterizedTest(name = "{0}")
    @MethodSource(ALL)
    void iteratorReturnsTheElementsInOrder(final ConformanceSubject s) {
        final Queue<Integer> q = s.newQueue();
        final int n = s.capacity();
        for (int i = 0; i < n; i++) {
            q.offer(i);
        }
        Iterator<Integer> it = q.iterator();
        for (int i = 0; i < n; i++) {
            assertEquals(i, it.next());
        }
        assertFalse(it.hasNext());
        q.poll();
        q.offer(n);
        it = q.iterator();
        for (int i = 1; i <= n; i++) {
            assertEquals(i, it.next());
        }
        assertFalse(it.hasNext());
    }

    /**
     * JCTools' {@code testIteratorHasNextConcurrentModification}: an iterator may skip elements polled meanwhile,
     * but a {@code hasNext()} that said true keeps its word even if the element is polled before {@code next()}.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource(ALL)
    void iteratorHasNextKeepsItsWordWhenElementsArePolled(final ConformanceSubject s) {
        assumeTrue(s.capacity() >= 2);
        final Queue<Integer> q = s.newQueue();
        q.offer(0);
        q.offer(1);
        final Iterator<Integer> it = q.iterator();
        assertTrue(it.hasNext());
        q.poll();
        q.poll();
        assertTrue(q.isEmpty());
        assertTrue(it.hasNext());
        assertEquals(0, it.next());
        assertFalse(it.hasNext());
    }

    /** JCTools' {@code testHappensBeforePoll}: a polled element is seen with the writes made before its offer. */
    @ParameterizedTest(name = "{0}")
    @MethodSource(CONCURRENT)
    void happensBeforePoll(final ConformanceSubject s) throws Exception {
        happensBefore(s, false);
    }

    /**
     * JCTools' {@code testHappensBeforePeek}: a peeked element is seen with the writes made before its offer, and
     * the only consumer's next poll returns that very element.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource(CONCURRENT)
    void happensBeforePeek(final ConformanceSubject s) throws Exception {
        happensBefore(s, true);
    }

    private static void happensBefore(final ConformanceSubject s, final boolean peek) throws Exception {
        final Queue<Val> q = s.newQueue();
        final Race race = new Race((peek ? "happensBeforePeek " : "happensBeforePoll ") + s);
        race.threads("producer", PRODUCERS, LAPS / 10, () -> {
            for (int i = 1; i <= 10; i++) {
                q.offer(new Val(i));
            }
            Race.pause(SHORT_PAUSE); // keeps the queue mostly empty: the consumer meets elements just written
        });
        race.threads("consumer", 1, 4 * LAPS, () -> {
            final Val v = peek ? q.peek() : q.poll();
            if (v != null) {
                assertNotEquals(0, v.value, "an element seen without the write made before its offer");
                if (peek) {
                    assertSame(v, q.poll(), "the only consumer peeked one element and polled another");
                }
            }
        });
        race.run();
        q.clear();
        assertEmpty(q);
    }

    /**
     * JCTools' {@code testSize}: threads that each offer one element and then poll one never make {@code size()}
     * negative or larger than the number of threads (nor the capacity). JCTools' threads poll even after a refused
     * offer (its {@code if (q.offer(1));} has an empty body); here a thread polls only after its offer succeeded, so
     * that it never waits for an element nobody will add: the run ends on lap quotas, not on a timer.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource(CONCURRENT)
    void sizeStaysWithinTheThreadsAndTheCapacity(final ConformanceSubject s) throws Exception {
        final Queue<Integer> q = s.newQueue();
        final int workers = PRODUCERS + CONSUMERS;
        final Race race = new Race("sizeStaysWithinTheThreadsAndTheCapacity " + s);
        race.threads("offer-then-poll", workers, LAPS, () -> {
            if (q.offer(1)) {
                while (q.poll() == null && !race.stopping()) {
                    Thread.onSpinWait();
                }
            }
        });
        final int max = Math.min(workers, s.capacity());
        race.threads("observer", 1, 4 * LAPS, () -> {
            final int size = q.size();
            assertTrue(size >= 0 && size <= max, "size() " + size + " outside [0, " + max + "]");
        });
        race.run();
        assertClearEmpties(q, s);
    }

    /** JCTools' {@code testSizeContendedFull}: producers keep the queue full; {@code size()} never exceeds capacity. */
    @ParameterizedTest(name = "{0}")
    @MethodSource(CONCURRENT)
    void sizeNeverExceedsTheCapacityWhenContendedFull(final ConformanceSubject s) throws Exception {
        final Queue<Integer> q = s.newQueue();
        final int capacity = s.capacity();
        final Race race = new Race("sizeNeverExceedsTheCapacityWhenContendedFull " + s);
        race.threads("producer", PRODUCERS, LAPS, () -> q.offer(1));
        race.threads("consumer", CONSUMERS, LAPS, () -> {
            q.poll();
            Race.pause(LONG_PAUSE); // a slow consumer: the queue stays mostly full
        });
        race.threads("observer", 1, 4 * LAPS, () -> {
            final int size = q.size();
            assertTrue(size >= 0 && size <= capacity, "size() " + size + " outside [0, " + capacity + "]");
        });
        race.run();
        assertClearEmpties(q, s);
    }

    /** JCTools' {@code testPeekAfterIsEmpty1..3} and {@code testPollAfterIsEmpty1..3} ({@link EmptinessCheck}). */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("dev.overlap.queues.EmptinessCheck#concurrentCases")
    void theOnlyConsumerFindsWhatIsEmptyAndSizeReport(final ConformanceSubject s, final EmptinessCheck check)
        throws Exception {
        isEmptyInvariant(check.name(), s, check);
    }

    /** Producers offering (slowly: the queue stays mostly empty) against one consumer running {@code lap}. */
    private static void isEmptyInvariant(final String test, final ConformanceSubject s, final EmptinessCheck lap)
        throws Exception {
        final Queue<Integer> q = s.newQueue();
        final Race race = new Race(test + " " + s);
        race.threads("producer", PRODUCERS, LAPS, () -> {
            q.offer(1);
            Race.pause(SHORT_PAUSE);
        });
        race.threads("consumer", 1, 4 * LAPS, () -> lap.lap(q));
        race.run();
        assertClearEmpties(q, s);
    }

    /**
     * JCTools' {@code testPollOrderContendedFull}: producers keep a queue full, slow consumers check that each
     * producer's elements come out in the order they went in (an element is {@code producer << 24 | sequence}).
     * JCTools' check allows a repeated sequence number; every number is offered once, so here it must increase.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource(CONCURRENT)
    void pollOrderPerProducerWhenContendedFull(final ConformanceSubject s) throws Exception {
        final Queue<Integer> q = s.newQueue();
        final Race race = new Race("pollOrderPerProducerWhenContendedFull " + s);
        race.threads("producer", PRODUCERS, LAPS, SequencedProducer.offering(q::offer));
        race.threads("consumer", CONSUMERS, LAPS, i -> {
            final int[] last = SequencedProducer.noneSeen(PRODUCERS);
            return () -> {
                Race.pause(LONG_PAUSE); // a slow consumer: the queue stays mostly full
                final Integer e = q.poll();
                if (e != null) {
                    SequencedProducer.checkOrder(e, last, false, "polled");
                }
            };
        });
        race.run();
        assertClearEmpties(q, s);
    }

    /**
     * JCTools' {@code testPeekOrderContendedFull}: as {@link #pollOrderPerProducerWhenContendedFull}, with an
     * observer that only peeks; it may see an element twice, never an older one after a newer one.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource(CONCURRENT)
    void peekOrderPerProducerWhenContendedFull(final ConformanceSubject s) throws Exception {
        final Queue<Integer> q = s.newQueue();
        final Race race = new Race("peekOrderPerProducerWhenContendedFull " + s);
        race.threads("producer", PRODUCERS, LAPS, SequencedProducer.offering(q::offer));
        race.threads("consumer", CONSUMERS, LAPS, () -> {
            q.poll();
            Race.pause(LONG_PAUSE);
        });
        race.threads("observer", 1, 4 * LAPS, i -> {
            final int[] last = SequencedProducer.noneSeen(PRODUCERS);
            return () -> {
                final Integer e = q.peek();
                if (e != null) {
                    SequencedProducer.checkOrder(e, last, true, "peeked");
                }
            };
        });
        race.run();
        assertClearEmpties(q, s);
    }

    /** JCTools' {@code testSizeLtZero}: producers, consumers and an observer never see a negative size. */
    @ParameterizedTest(name = "{0}")
    @MethodSource(CONCURRENT)
    void sizeIsNeverNegative(final ConformanceSubject s) throws Exception {
        final Queue<Integer> q = s.newQueue();
        final Race race = new Race("sizeIsNeverNegative " + s);
        race.threads("producer", PRODUCERS, LAPS, () -> {
            assertSizeAtLeastZero(q, "producer");
            q.offer(1);
            Race.pause(LONG_PAUSE);
        });
        race.threads("consumer", CONSUMERS, LAPS, () -> {
            q.poll();
            assertSizeAtLeastZero(q, "consumer");
        });
        race.threads("observer", 1, LAPS, () -> {
            assertSizeAtLeastZero(q, "observer");
            Race.pause(LONG_PAUSE);
        });
        race.run();
        assertClearEmpties(q, s);
    }

    private static void assertSizeAtLeastZero(final Queue<Integer> q, final String who) {
        final int size = q.size();
        assertTrue(size >= 0, who + " saw size() " + size);
    }

    /** JCTools' {@code testSizeGtCapacity}: producers, consumers and an observer never see a size above capacity. */
    @ParameterizedTest(name = "{0}")
    @MethodSource(CONCURRENT)
    void sizeNeverExceedsTheCapacity(final ConformanceSubject s) throws Exception {
        final Queue<Integer> q = s.newQueue();
        final int capacity = s.capacity();
        final Race race = new Race("sizeNeverExceedsTheCapacity " + s);
        race.threads("producer", PRODUCERS, LAPS, () -> {
            q.offer(1);
            assertSizeAtMost(q, capacity, "producer");
        });
        race.threads("consumer", CONSUMERS, LAPS, () -> {
            assertSizeAtMost(q, capacity, "consumer");
            q.poll();
            Race.pause(LONG_PAUSE);
        });
        race.threads("observer", 1, LAPS, () -> {
            assertSizeAtMost(q, capacity, "observer");
            Race.pause(LONG_PAUSE);
        });
        race.run();
        assertClearEmpties(q, s);
    }

    private static void assertSizeAtMost(final Queue<Integer> q, final int capacity, final String who) {
        final int size = q.size();
        assertTrue(size <= capacity, who + " saw size() " + size + " above the capacity " + capacity);
    }

    /**
     * {@code QueueSanityTestMpmcArray.testOfferPollSemantics}: a full queue with two free slots, and two threads that
     * each offer one element and then poll one: no offer finds the queue full (at most two elements are added), no
     * poll finds it empty (it holds at least the poller's own element or one that replaced it).
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource(CONCURRENT)
    void offerThenPollNeverFailsWithAFreeSlotPerThread(final ConformanceSubject s) throws Exception {
        assumeTrue(s.capacity() >= 2, "two threads need two free slots");
        final Queue<Integer> q = s.newQueue();
        while (q.offer(1)) {
            assertTrue(q.size() <= s.capacity());
        }
        q.poll();
        q.poll();
        final Race race = new Race("offerThenPollNeverFailsWithAFreeSlotPerThread " + s);
        race.threads("offer-then-poll", 2, 4 * LAPS, () -> {
            assertTrue(q.offer(1), "offer found the queue full with a free slot per thread");
            assertNotNull(q.poll(), "poll found the queue empty after this thread's own offer");
        });
        race.run();
        assertEquals(s.capacity() - 2, q.size());
        assertClearEmpties(q, s);
    }
}
