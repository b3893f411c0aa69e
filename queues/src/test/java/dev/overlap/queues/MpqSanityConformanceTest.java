package dev.overlap.queues;

import dev.overlap.queues.QueueSanityConformanceTest.Val;
import org.jctools.queues.MessagePassingQueue;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static dev.overlap.queues.ConformanceSubject.SIZE;
import static dev.overlap.queues.Race.CONSUMERS;
import static dev.overlap.queues.Race.LAPS;
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
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * JCTools' own {@link MessagePassingQueue} conformance checks ({@code MpqSanityTest}, run by JCTools against
 * {@code MpmcArrayQueue} as {@code MpqSanityTestMpmcArray}), re-written for JUnit 5 and run against every
 * {@link ConformanceSubject}: {@link CounterRingQueue} in both publication modes and JCTools' {@code MpmcArrayQueue}
 * as the control. The relaxed calls, {@code fill} and {@code drain} with and without limits, the waiting forms in
 * use, the argument conventions, and {@code isEmpty()}/{@code size()} against strict pops while producers use every
 * push form. The waiting forms' own contract (when they wait, when they stop) is {@link MpqWaitingFormsTest}.
 *
 * <p>Per mode. Single-threaded, the relaxed calls must answer exactly (no push is in progress, so even
 * {@link Publication#WINDOWED} has published everything), so those checks are JCTools' unchanged. Concurrently,
 * JCTools' checks only use the relaxed calls where a spurious "empty" or "full" cannot fail them (a relaxed peek
 * then a relaxed poll by the only consumer; a relaxed poll retried until it finds the thread's element); the strict
 * {@code poll}/{@code peek} that follow {@code isEmpty()} and {@code size()} are linearizable in both modes. Where a
 * check would need a relaxed call to see an element at once, it asks that only of {@link Publication#ORDERED},
 * whose javadoc makes {@code relaxedPoll}/{@code relaxedPeek} the strict calls
 * ({@link ConformanceSubject#relaxedPopsAreStrict()}), and says so at the check.
 *
 * <p>The port's form (lap quotas instead of a timer, spins instead of yields and sleeps) is described in
 * {@link QueueSanityConformanceTest}; JCTools' {@code @After} (clear, then empty and zero size) ends every
 * concurrent test here.
 * JCTools' {@code testHappensBefore} means to check that the only consumer's relaxed poll after a relaxed peek
 * returns the peeked element, but its loop {@code continue}s before the poll whenever the peek saw a proper value;
 * here the poll is checked. {@code testSizeLtZero} and {@code testSizeGtCapacity} are in
 * {@link QueueSanityConformanceTest} (the same calls).
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
@Tag("slow")
public class MpqSanityConformanceTest {
    private static final String ALL = "dev.overlap.queues.ConformanceSubject#all";
    private static final String CONCURRENT = "dev.overlap.queues.ConformanceSubject#concurrent";
    private static final Integer DUMMY = 1;

    private static void assertEmpty(final MessagePassingQueue<?> q) {
        assertTrue(q.isEmpty(), "isEmpty()");
        assertEquals(0, q.size(), "size()");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource(ALL)
    void relaxedOfferNullThrowsNullPointerException(final ConformanceSubject s) {
        final MessagePassingQueue<Integer> q = s.newMpq();
        assertThrows(NullPointerException.class, () -> q.relaxedOffer(null));
        assertEmpty(q);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource(ALL)
    void capacityIsTheBound(final ConformanceSubject s) {
        assertEquals(s.capacity(), s.newMpq().capacity());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource(ALL)
    void fillWithoutLimitFillsToCapacity(final ConformanceSubject s) {
        final MessagePassingQueue<Integer> q = s.newMpq();
        assertEquals(s.capacity(), q.fill(() -> DUMMY));
        assertEquals(q.capacity(), q.size());
        assertEquals(0, q.fill(() -> fail("asked for an element with the queue full")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource(ALL)
    void fillInBatchesOf16FillsToCapacity(final ConformanceSubject s) {
        final MessagePassingQueue<Integer> q = s.newMpq();
        int filled = 0;
        for (int i = 0; i < SIZE && filled < q.capacity(); i++) {
            final int n = q.fill(() -> DUMMY, 16);
            assertEquals(Math.min(16, q.capacity() - filled), n, "a fill takes what fits, up to its limit");
            filled += n;
            assertEquals(filled, q.size());
        }
        assertEquals(q.capacity(), q.size());
    }

    /** JCTools' {@code fillNullSupplier}, {@code fillNullSupplierLimit}, {@code fillNegativeLimit}, and the three
     * {@code fill...WaiterExit} tests: {@link IllegalArgumentException}, nothing pushed. */
    @ParameterizedTest(name = "{0}")
    @MethodSource(ALL)
    void fillArgumentsAreChecked(final ConformanceSubject s) {
        final MessagePassingQueue<Integer> q = s.newMpq();
        assertThrows(IllegalArgumentException.class, () -> q.fill(null));
        assertThrows(IllegalArgumentException.class, () -> q.fill(null, 10));
        assertThrows(IllegalArgumentException.class, () -> q.fill(() -> DUMMY, -1));
        assertThrows(IllegalArgumentException.class, () -> q.fill(null, idle -> idle + 1, () -> true));
        assertThrows(IllegalArgumentException.class, () -> q.fill(() -> DUMMY, null, () -> true));
        assertThrows(IllegalArgumentException.class, () -> q.fill(() -> DUMMY, idle -> idle + 1, null));
        assertEmpty(q);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource(ALL)
    void fillOfZeroAsksForNothing(final ConformanceSubject s) {
        final MessagePassingQueue<Integer> q = s.newMpq();
        assertEquals(0, q.fill(() -> fail("asked for an element by a fill of 0"), 0));
        assertEmpty(q);
    }

    /** JCTools' {@code drainNullConsumer}, {@code drainNullConsumerLimit}, {@code drainNegativeLimit}, and the three
     * {@code drain...WaiterExit} tests: {@link IllegalArgumentException}, nothing taken. */
    @ParameterizedTest(name = "{0}")
    @MethodSource(ALL)
    void drainArgumentsAreChecked(final ConformanceSubject s) {
        final MessagePassingQueue<Integer> q = s.newMpq();
        assertTrue(q.offer(DUMMY));
        assertThrows(IllegalArgumentException.class, () -> q.drain(null));
        assertThrows(IllegalArgumentException.class, () -> q.drain(null, 10));
        assertThrows(IllegalArgumentException.class, () -> q.drain(e -> { }, -1));
        assertThrows(IllegalArgumentException.class, () -> q.drain(null, idle -> idle + 1, () -> true));
        assertThrows(IllegalArgumentException.class, () -> q.drain(e -> fail("took " + e), null, () -> true));
        assertThrows(IllegalArgumentException.class, () -> q.drain(e -> fail("took " + e), idle -> idle + 1, null));
        assertEquals(1, q.size(), "no argument check took the element");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource(ALL)
    void drainOfZeroTakesNothing(final ConformanceSubject s) {
        final MessagePassingQueue<Integer> q = s.newMpq();
        q.offer(DUMMY);
        assertEquals(0, q.drain(e -> fail("took " + e + " in a drain of 0"), 0));
        assertEquals(1, q.size());
    }

    /** JCTools' {@code sanity}, through the relaxed calls. */
    @ParameterizedTest(name = "{0}")
    @MethodSource(ALL)
    void relaxedSanity(final ConformanceSubject s) {
        final MessagePassingQueue<Integer> q = s.newMpq();
        for (int i = 0; i < SIZE; i++) {
            assertNull(q.relaxedPoll());
            assertEmpty(q);
        }
        int size = 0;
        while (size < SIZE && q.relaxedOffer(size)) {
            size++;
        }
        assertEquals(Math.min(SIZE, s.capacity()), size, "relaxed offers succeed up to the capacity (one thread)");
        assertEquals(size, q.size());
        int i = 0;
        Integer head;
        while ((head = q.relaxedPeek()) != null) {
            final Integer e = q.relaxedPoll();
            assertEquals(head, e, "relaxedPoll returns what relaxedPeek saw");
            assertEquals(size - (i + 1), q.size());
            assertEquals(i++, e, "FIFO");
        }
        assertEquals(size, i);
    }

    /** JCTools' {@code sanityDrainBatch}: a fill of {@code SIZE}, drained in FIFO order by {@code drain(c)} calls. */
    @ParameterizedTest(name = "{0}")
    @MethodSource(ALL)
    void drainTakesInFifoOrderWhatFillPushed(final ConformanceSubject s) {
        final MessagePassingQueue<Integer> q = s.newMpq();
        assertEquals(0, q.drain(e -> fail("took " + e + " from an empty queue"), SIZE));
        assertEmpty(q);
        final int[] next = {0};
        final int filled = q.fill(() -> next[0]++, SIZE);
        assertEquals(Math.min(SIZE, s.capacity()), filled, "a fill on an empty queue takes what fits");
        assertEquals(filled, next[0], "the supplier was asked once per element pushed");
        assertEquals(filled, q.size());
        final int[] expected = {0};
        int taken = 0;
        int n;
        do {
            n = q.drain(e -> assertEquals(expected[0]++, e, "FIFO"));
            taken += n;
        } while (n != 0);
        assertEquals(filled, taken);
        assertEmpty(q);
    }

    /** JCTools' {@code testSizeIsTheNumberOfOffers} (relaxed offers): the count, and then exactly the capacity. */
    @ParameterizedTest(name = "{0}")
    @MethodSource(ALL)
    void sizeIsTheNumberOfRelaxedOffers(final ConformanceSubject s) {
        final MessagePassingQueue<Integer> q = s.newMpq();
        int offered = 0;
        while (offered < SIZE && q.relaxedOffer(offered)) {
            offered++;
            assertFalse(q.isEmpty());
            assertEquals(offered, q.size());
        }
        assertEquals(Math.min(SIZE, s.capacity()), offered);
    }

    /** JCTools' {@code supplyMessageUntilFull}: fills of what is left; once full the supplier is not asked again. */
    @ParameterizedTest(name = "{0}")
    @MethodSource(ALL)
    void supplyMessagesUntilFull(final ConformanceSubject s) {
        final MessagePassingQueue<Integer> q = s.newMpq();
        final int[] supplied = {0};
        final MessagePassingQueue.Supplier<Integer> messages = () -> supplied[0]++;
        final int capacity = q.capacity();
        int filled = 0;
        while (filled < capacity) {
            filled += q.fill(messages, capacity - filled);
        }
        assertEquals(capacity, supplied[0]);
        assertEquals(0, q.fill(messages, 1));
        assertEquals(capacity, supplied[0], "a fill of a full queue asked for an element");
    }

    /** JCTools' {@code whenFirstInThenFirstOut}, through the relaxed calls. */
    @ParameterizedTest(name = "{0}")
    @MethodSource(ALL)
    void relaxedFirstInFirstOut(final ConformanceSubject s) {
        final MessagePassingQueue<Integer> q = s.newMpq();
        for (int i = 0; i < SIZE && q.relaxedOffer(i); i++) {
            assertTrue(i < s.capacity());
        }
        final int size = q.size();
        int i = 0;
        Integer head;
        while ((head = q.relaxedPeek()) != null) {
            final Integer e = q.relaxedPoll();
            assertSame(head, e);
            assertEquals(size - (i + 1), q.size());
            assertEquals(i++, e);
        }
        assertEquals(size, i);
    }

    /** JCTools' {@code test_FIFO_PRODUCER_Ordering}, through the relaxed calls: the sum of what comes out. */
    @ParameterizedTest(name = "{0}")
    @MethodSource(ALL)
    void everythingRelaxedOfferedIsRelaxedPolledOnce(final ConformanceSubject s) {
        final MessagePassingQueue<Integer> q = s.newMpq();
        for (int i = 0; i < SIZE && q.relaxedOffer(i); i++) {
            assertTrue(i < s.capacity());
        }
        int size = q.size();
        long sum = (size - 1L) * size / 2;
        Integer e;
        while ((e = q.relaxedPoll()) != null) {
            assertEquals(--size, q.size());
            sum -= e;
        }
        assertEquals(0, sum);
        assertEquals(0, size);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource(ALL)
    void relaxedOfferThenRelaxedPollReturnsTheSameInstance(final ConformanceSubject s) {
        final MessagePassingQueue<Integer> q = s.newMpq();
        assertEmpty(q);
        final Integer e = 1876876;
        assertTrue(q.relaxedOffer(e));
        assertFalse(q.isEmpty());
        assertEquals(1, q.size());
        assertSame(e, q.relaxedPoll());
        assertEmpty(q);
    }

    /** JCTools' {@code testPowerOf2Capacity} through relaxed offers (the capacity: see {@link ConformanceSubject}). */
    @ParameterizedTest(name = "{0}")
    @MethodSource(ALL)
    void exactlyTheCapacityFitsByRelaxedOffers(final ConformanceSubject s) {
        final MessagePassingQueue<Integer> q = s.newMpq();
        for (int i = 0; i < s.capacity(); i++) {
            assertTrue(q.relaxedOffer(i), "failed to insert " + i);
        }
        assertFalse(q.relaxedOffer(s.capacity()));
        assertEquals(s.capacity(), q.size());
    }

    /**
     * Limits, beyond JCTools' 0 and "all": fills and drains of 1, 3 and 7 take {@code min(limit, what fits)} and
     * {@code min(limit, what is there)}, in FIFO order, around the ring twice.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource(ALL)
    void fillAndDrainTakeUpToTheirLimit(final ConformanceSubject s) {
        final MessagePassingQueue<Integer> q = s.newMpq();
        final int capacity = q.capacity();
        final int[] next = {0};
        final int[] expected = {0};
        for (final int limit : new int[] {1, 3, 7, 1, 3, 7}) {
            int size = 0;
            while (size < capacity) {
                final int n = q.fill(() -> next[0]++, limit);
                assertEquals(Math.min(limit, capacity - size), n);
                size += n;
                assertEquals(size, q.size());
            }
            assertEquals(0, q.fill(() -> fail("asked for an element with the queue full"), limit));
            while (size > 0) {
                final int n = q.drain(e -> assertEquals(expected[0]++, e, "FIFO"), limit);
                assertEquals(Math.min(limit, size), n);
                size -= n;
                assertEquals(size, q.size());
            }
            assertEquals(0, q.drain(e -> fail("took " + e + " from an empty queue"), limit));
            assertEquals(next[0], expected[0]);
        }
    }

    /**
     * {@code drain(c)} is "like a loop of {@code relaxedPoll} until it finds nothing" ({@link MessagePassingQueue}):
     * elements its consumer adds meanwhile (the consumer may push into the queue) are taken by the same call, after
     * the ones that were there.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource(ALL)
    void drainWithoutLimitAlsoTakesWhatItsConsumerAdds(final ConformanceSubject s) {
        final MessagePassingQueue<Integer> q = s.newMpq();
        final int capacity = q.capacity();
        final int extra = Math.min(capacity, 5);
        final int[] next = {0};
        assertEquals(capacity, q.fill(() -> next[0]++, capacity));
        final List<Integer> taken = new ArrayList<>();
        final int n = q.drain(e -> {
            taken.add(e);
            if (e < extra) {
                assertTrue(q.relaxedOffer(SIZE + e), "room was made by the drain");
            }
        });
        final List<Integer> expected = new ArrayList<>();
        for (int i = 0; i < capacity; i++) {
            expected.add(i);
        }
        for (int i = 0; i < extra; i++) {
            expected.add(SIZE + i);
        }
        assertEquals(expected, taken);
        assertEquals(capacity + extra, n);
        assertEmpty(q);
    }

    /**
     * JCTools' {@code testHappensBefore}: producers relax-offer elements whose field they wrote before; the only
     * consumer relax-peeks one, sees the write, and its relaxed poll returns that very element (JCTools means to
     * check this but its loop skips the poll; see the class comment). A relaxed poll may miss elements that are not
     * yet published, never one its own thread just peeked: with nobody else popping, the peeked element stays the
     * oldest published one, in every mode.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource(CONCURRENT)
    void happensBeforeRelaxedPeekAndPoll(final ConformanceSubject s) throws Exception {
        final MessagePassingQueue<Val> q = s.newMpq();
        final Race race = new Race("happensBeforeRelaxedPeekAndPoll " + s);
        race.threads("producer", PRODUCERS, LAPS / 10, tenValuesByRelaxedOffer(q));
        race.threads("consumer", 1, 4 * LAPS, peekThenPoll(q));
        race.run();
        q.clear();
        assertEmpty(q);
    }

    private static Race.Lap tenValuesByRelaxedOffer(final MessagePassingQueue<Val> q) {
        return () -> {
            for (int i = 1; i <= 10; i++) {
                q.relaxedOffer(new Val(i));
            }
            Race.pause(SHORT_PAUSE); // keeps the queue mostly empty: the consumer meets elements just written
        };
    }

    private static Race.Lap peekThenPoll(final MessagePassingQueue<Val> q) {
        return () -> {
            final Val peeked = q.relaxedPeek();
            if (peeked != null) {
                assertNotEquals(0, peeked.value, "an element seen without the write made before its push");
                assertSame(peeked, q.relaxedPoll(), "the only consumer relax-peeked one element and relax-polled "
                    + "another (or none)");
            }
        };
    }

    /** A consumer lap: one waiting drain that returns once it took 10 elements (or the race stops). */
    private static Race.Lap waitingDrainOfTen(final MessagePassingQueue<Val> q, final Race race) {
        return () -> {
            final int[] taken = {0};
            final CheckedExit exit = new CheckedExit(() -> taken[0] < 10 && !race.stopping());
            q.drain(v -> {
                exit.assertRunning("took an element");
                assertNotNull(v);
                assertNotEquals(0, v.value, "an element seen without the write made before its push");
                taken[0]++;
            }, idle -> {
                exit.waiting();
                return idle;
            }, exit);
        };
    }

    /** A producer lap: one waiting fill of values 1..10 (in turn), which returns after 4 checks of its exit. */
    private static Race.Lap waitingFillOfFourBatches(final MessagePassingQueue<Val> q, final Race race) {
        final int[] counter = {0};
        return () -> {
            final int[] checks = {0};
            final CheckedExit exit = new CheckedExit(() -> {
                Race.pause(SHORT_PAUSE); // JCTools' slow-down: the queue stays mostly empty
                return checks[0]++ < 4 && !race.stopping();
            });
            q.fill(() -> {
                exit.assertRunning("asked for an element");
                return new Val(1 + counter[0]++ % 10);
            }, idle -> {
                exit.waiting();
                return idle;
            }, exit);
        };
    }

    /** JCTools' {@code testHappensBeforePerpetualDrain}: relaxed offers, waiting drains. */
    @ParameterizedTest(name = "{0}")
    @MethodSource(CONCURRENT)
    void happensBeforeWaitingDrain(final ConformanceSubject s) throws Exception {
        final MessagePassingQueue<Val> q = s.newMpq();
        final Race race = new Race("happensBeforeWaitingDrain " + s);
        race.threads("producer", PRODUCERS, LAPS / 10, tenValuesByRelaxedOffer(q));
        race.threads("consumer", 1, LAPS / 10, waitingDrainOfTen(q, race));
        race.run();
        q.clear();
        assertEmpty(q);
    }

    /** JCTools' {@code testHappensBeforePerpetualFill}: waiting fills, relaxed peeks and polls. */
    @ParameterizedTest(name = "{0}")
    @MethodSource(CONCURRENT)
    void happensBeforeWaitingFill(final ConformanceSubject s) throws Exception {
        final MessagePassingQueue<Val> q = s.newMpq();
        final Race race = new Race("happensBeforeWaitingFill " + s);
        race.threads("producer", PRODUCERS, LAPS / 4, i -> waitingFillOfFourBatches(q, race));
        race.threads("consumer", 1, 4 * LAPS, peekThenPoll(q));
        race.run();
        q.clear();
        assertEmpty(q);
    }

    /** JCTools' {@code testHappensBeforePerpetualFillDrain}: waiting fills, waiting drains. */
    @ParameterizedTest(name = "{0}")
    @MethodSource(CONCURRENT)
    void happensBeforeWaitingFillAndDrain(final ConformanceSubject s) throws Exception {
        final MessagePassingQueue<Val> q = s.newMpq();
        final Race race = new Race("happensBeforeWaitingFillAndDrain " + s);
        race.threads("producer", PRODUCERS, LAPS / 4, i -> waitingFillOfFourBatches(q, race));
        race.threads("consumer", 1, LAPS / 10, waitingDrainOfTen(q, race));
        race.run();
        q.clear();
        assertEmpty(q);
    }

    /**
     * JCTools' {@code testRelaxedOfferPollObservedSize}: threads that each relax-offer one element and then
     * relax-poll until they get one never make {@code size()} negative or larger than the number of threads. The
     * retried relaxed poll always ends: each thread waiting in it has an element of its own in the queue (or one
     * that replaced it), which a relaxed poll finds once its push is published.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource(CONCURRENT)
    void relaxedOfferPollObservedSize(final ConformanceSubject s) throws Exception {
        final MessagePassingQueue<Integer> q = s.newMpq();
        final int workers = PRODUCERS + CONSUMERS;
        final Race race = new Race("relaxedOfferPollObservedSize " + s);
        race.threads("offer-then-poll", workers, LAPS, () -> {
            if (q.relaxedOffer(1)) {
                while (q.relaxedPoll() == null && !race.stopping()) {
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
        q.clear();
        assertEmpty(q);
    }

    /**
     * {@code QueueSanityTestMpmcArray.testOfferPollSemantics} through the relaxed calls: a full queue with two free
     * slots, two threads that each relax-offer and then relax-poll. {@link Publication#ORDERED} claims that its relaxed
     * poll is the strict one, so there it must find an element at once; the control and {@link Publication#WINDOWED}
     * may answer "empty" spuriously (a push in progress), so there it is retried until it finds one, which must
     * happen. A relaxed offer may answer "full" spuriously in every mode ({@link CounterRingQueue}'s javadoc), so it
     * is retried too, and must succeed.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource(CONCURRENT)
    void relaxedOfferThenPollWithAFreeSlotPerThread(final ConformanceSubject s) throws Exception {
        assumeTrue(s.capacity() >= 2, "two threads need two free slots");
        final MessagePassingQueue<Integer> q = s.newMpq();
        assertEquals(s.capacity(), q.fill(() -> DUMMY));
        q.poll();
        q.poll();
        final Race race = new Race("relaxedOfferThenPollWithAFreeSlotPerThread " + s);
        final AtomicInteger leftByTheStop = new AtomicInteger();
        race.threads("offer-then-poll", 2, 4 * LAPS, () -> {
            while (!q.relaxedOffer(1)) {
                if (race.stopping()) {
                    return;
                }
            }
            if (s.relaxedPopsAreStrict()) {
                assertNotNull(q.relaxedPoll(), "relaxedPoll (the strict poll with ORDERED) found the queue empty "
                    + "after this thread's own offer");
                return;
            }
            while (q.relaxedPoll() == null) {
                if (race.stopping()) {
                    leftByTheStop.incrementAndGet(); // the stop came while this thread retried
                    return;
                }
                Thread.onSpinWait();
            }
        });
        race.run();
        assertEquals(s.capacity() - 2 + leftByTheStop.get(), q.size(), "every thread took as many as it added");
    }

    /**
     * JCTools' {@code testPeekAfterIsEmpty1..3} and {@code testPollAfterIsEmpty1..3} ({@link EmptinessCheck}),
     * against every push form (JCTools' {@code testIsEmptyInvariant}).
     */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("dev.overlap.queues.EmptinessCheck#concurrentCases")
    void theOnlyConsumerFindsWhatIsEmptyAndSizeReport(final ConformanceSubject s, final EmptinessCheck check)
        throws Exception {
        isEmptyInvariant(check.name(), s, check);
    }

    /** The push forms JCTools' {@code testIsEmptyInvariant} runs its producers with, one after the other. */
    enum Push {
        RELAXED_OFFER, FILL_WITHOUT_LIMIT, FILL_OF_ONE, WAITING_FILL, FILL_OF_AN_EIGHTH;

        Race.Lap lap(final MessagePassingQueue<Integer> q, final Race race) {
            return switch (this) {
                case RELAXED_OFFER -> () -> {
                    q.relaxedOffer(DUMMY);
                    Race.pause(SHORT_PAUSE);
                };
                case FILL_WITHOUT_LIMIT -> () -> {
                    q.fill(() -> DUMMY);
                    Race.pause(SHORT_PAUSE);
                };
                case FILL_OF_ONE -> () -> {
                    q.fill(() -> DUMMY, 1);
                    Race.pause(SHORT_PAUSE);
                };
                case WAITING_FILL -> () -> {
                    final int[] checks = {0};
                    final CheckedExit exit = new CheckedExit(() -> checks[0]++ < 4 && !race.stopping());
                    q.fill(() -> {
                        exit.assertRunning("asked for an element");
                        return DUMMY;
                    }, idle -> {
                        exit.waiting();
                        Race.pause(SHORT_PAUSE);
                        return idle + 1;
                    }, exit);
                };
                case FILL_OF_AN_EIGHTH -> {
                    final int limit = Math.max(q.capacity() / 8, 2);
                    yield () -> {
                        q.fill(() -> DUMMY, limit);
                        Race.pause(SHORT_PAUSE);
                    };
                }
            };
        }
    }

    /**
     * Producers pushing (slowly: the queue stays mostly empty) against one consumer running {@code lap}, once per
     * push form, on the same queue, which must clear to empty after each (JCTools skips the fill of an eighth at
     * capacity 1).
     */
    private static void isEmptyInvariant(final String test, final ConformanceSubject s, final EmptinessCheck lap)
        throws Exception {
        isEmptyInvariant(test, s, lap, s.newQueueAndMpq());
    }

    /** The same queue seen as a {@link MessagePassingQueue} by the producers and a {@link Queue} by the consumer. */
    private static <Q extends Queue<Integer> & MessagePassingQueue<Integer>> void isEmptyInvariant(final String test,
        final ConformanceSubject s, final EmptinessCheck lap, final Q q) throws Exception {
        for (final Push push : Push.values()) {
            if (push == Push.FILL_OF_AN_EIGHTH && q.capacity() == 1) {
                continue;
            }
            final Race race = new Race(test + " " + s + " " + push);
            race.threads("producer", PRODUCERS, push == Push.WAITING_FILL ? LAPS / 4 : LAPS, i -> push.lap(q, race));
            race.threads("consumer", 1, 4 * LAPS, () -> lap.lap(q));
            race.run();
            q.clear();
            assertEmpty(q);
        }
    }

    /**
     * JCTools' {@code testPeekEqualsPoll}: the only consumer's poll returns what its peek just saw. Elements are
     * {@code producer << 24 | sequence} (JCTools offers the same sequence numbers from every producer, so an equal
     * element from another producer would pass its check).
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource(CONCURRENT)
    void pollReturnsWhatPeekSaw(final ConformanceSubject s) throws Exception {
        final MessagePassingQueue<Integer> q = s.newMpq();
        final Race race = new Race("pollReturnsWhatPeekSaw " + s);
        race.threads("producer", PRODUCERS, LAPS, i -> {
            final Race.Lap offer = SequencedProducer.offering(q::offer).apply(i);
            return () -> {
                offer.run();
                Race.pause(SHORT_PAUSE);
            };
        });
        race.threads("consumer", 1, 4 * LAPS, () -> {
            final Integer peeked = q.peek();
            if (peeked != null) {
                assertEquals(peeked, q.poll(), "the only consumer peeked one element and polled another");
            }
        });
        race.run();
        q.clear();
        assertEmpty(q);
    }
}
