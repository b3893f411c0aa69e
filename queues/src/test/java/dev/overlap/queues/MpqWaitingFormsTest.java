package dev.overlap.queues;

import org.jctools.queues.MessagePassingQueue;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import static dev.overlap.queues.Race.CONSUMERS;
import static dev.overlap.queues.Race.LAPS;
import static dev.overlap.queues.Race.PRODUCERS;
import static dev.overlap.queues.Race.SHORT_PAUSE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The waiting forms of {@link MessagePassingQueue}, {@code drain(consumer, wait, exit)} and
 * {@code fill(supplier, wait, exit)}, against every {@link ConformanceSubject}. JCTools' suite only runs them (in
 * {@link MpqSanityConformanceTest}'s happens-before tests and as one of its push forms); these check the contract of
 * {@link MessagePassingQueue}'s javadoc, a loop that asks {@code exit} whether to go on, takes or pushes, and when
 * there is nothing to take or no room calls {@code idleCounter = wait.idle(idleCounter)}, the count starting again
 * at 0 after progress. {@link CounterRingQueue} asks {@code exit} once per batch rather than per element (its
 * javadoc); every check here holds for both.
 *
 * <ul>
 * <li>{@code wait} is called only when there is nothing to do (the queue empty for a drain, full for a fill), with
 * the count its previous call returned, from 0 again after progress;</li>
 * <li>{@code exit} is asked before any work, and once it says stop the call returns: no element taken or asked
 * for, no wait, no second question;</li>
 * <li>concurrently, waiting fills and drains move every element once, each producer's in order.</li>
 * </ul>
 * Single-threaded, with no push in progress, {@link Publication#WINDOWED}'s drain sees everything, so no check is
 * adapted per mode.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
public class MpqWaitingFormsTest {
    private static final String ALL = "dev.overlap.queues.ConformanceSubject#all";
    private static final String CONCURRENT = "dev.overlap.queues.ConformanceSubject#concurrent";
    /** The idle counts expected: a wait (0) during which elements arrive, progress, then three waits. */
    private static final List<Integer> IDLE_COUNTS = List.of(0, 0, 1, 2);

    @ParameterizedTest(name = "{0}")
    @MethodSource(ALL)
    void waitingDrainTakesEverythingAndWaitsOnlyWhenEmpty(final ConformanceSubject s) {
        final MessagePassingQueue<Integer> q = s.newMpq();
        final int capacity = q.capacity();
        final int late = Math.min(capacity, 3);
        final int[] next = {0};
        assertEquals(capacity, q.fill(() -> next[0]++));
        final List<Integer> taken = new ArrayList<>();
        final List<Integer> waits = new ArrayList<>();
        final CheckedExit exit = new CheckedExit(() -> waits.size() < IDLE_COUNTS.size());
        q.drain(e -> {
            exit.assertRunning("took an element");
            taken.add(e);
        }, idle -> {
            exit.waiting();
            waits.add(idle);
            assertEquals(0, q.size(), "waited with elements to take");
            if (waits.size() == 1) { // a producer comes while the drain idles: progress again
                for (int i = 0; i < late; i++) {
                    assertTrue(q.offer(next[0]++));
                }
            }
            return idle + 1;
        }, exit);
        final List<Integer> expected = new ArrayList<>();
        for (int i = 0; i < capacity + late; i++) {
            expected.add(i);
        }
        assertEquals(expected, taken, "every element, in FIFO order");
        assertEquals(IDLE_COUNTS, waits, "idle counts: the strategy's own answers, from 0 again after progress");
        assertTrue(exit.stopped());
        assertTrue(q.isEmpty());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource(ALL)
    void waitingFillFillsToCapacityAndWaitsOnlyWhenFull(final ConformanceSubject s) {
        final MessagePassingQueue<Integer> q = s.newMpq();
        final int capacity = q.capacity();
        final int late = Math.min(capacity, 3);
        final int[] supplied = {0};
        final List<Integer> waits = new ArrayList<>();
        final CheckedExit exit = new CheckedExit(() -> waits.size() < IDLE_COUNTS.size());
        q.fill(() -> {
            exit.assertRunning("asked for an element");
            return supplied[0]++;
        }, idle -> {
            exit.waiting();
            waits.add(idle);
            assertEquals(capacity, q.size(), "waited with room to fill");
            if (waits.size() == 1) { // a consumer comes while the fill idles: progress again
                for (int i = 0; i < late; i++) {
                    assertEquals(i, q.poll());
                }
            }
            return idle + 1;
        }, exit);
        assertEquals(capacity + late, supplied[0], "asked for exactly the elements that fit");
        assertEquals(IDLE_COUNTS, waits, "idle counts: the strategy's own answers, from 0 again after progress");
        assertTrue(exit.stopped());
        for (int i = late; i < capacity + late; i++) {
            assertEquals(i, q.poll(), "every element supplied, in order");
        }
        assertTrue(q.isEmpty());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource(ALL)
    void waitingFormsAskTheExitConditionBeforeAnyWork(final ConformanceSubject s) {
        final MessagePassingQueue<Integer> q = s.newMpq();
        assertTrue(q.offer(7));
        q.drain(e -> {
            throw new AssertionError("took " + e + " although the exit condition said stop");
        }, idle -> {
            throw new AssertionError("waited although the exit condition said stop");
        }, new CheckedExit(() -> false));
        assertEquals(1, q.size());
        assertEquals(7, q.poll());
        q.fill(() -> {
            throw new AssertionError("asked for an element although the exit condition said stop");
        }, idle -> {
            throw new AssertionError("waited although the exit condition said stop");
        }, new CheckedExit(() -> false));
        assertTrue(q.isEmpty());
    }

    /**
     * Twice {@link Race#LAPS} elements per producer through waiting fills and waiting
     * drains: every element taken exactly once, each consumer seeing each producer's elements in order. The drains
     * stop once every producer is done and every element supplied was taken (with {@link Publication#WINDOWED}
     * everything is published once no push is in progress).
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource(CONCURRENT)
    void waitingFillsAndDrainsMoveEveryElementOnceInProducerOrder(final ConformanceSubject s) throws Exception {
        final MessagePassingQueue<Integer> q = s.newMpq();
        final int perProducer = 2 * LAPS;
        final AtomicLong supplied = new AtomicLong();
        final AtomicLong consumed = new AtomicLong();
        final AtomicInteger producersDone = new AtomicInteger();
        final int[] suppliedBy = new int[PRODUCERS];
        final BitSet[][] seen = new BitSet[CONSUMERS][PRODUCERS];
        final Race race = new Race("waitingFillsAndDrainsMoveEveryElementOnceInProducerOrder " + s);
        race.threads("producer", PRODUCERS, 1, p -> {
            final int[] next = {0};
            final boolean[] done = {false};
            return () -> {
                if (done[0]) {
                    Thread.yield(); // nothing left to do: give the core to the consumers
                    return;
                }
                final CheckedExit exit = new CheckedExit(() -> next[0] < perProducer && !race.stopping());
                q.fill(() -> {
                    exit.assertRunning("asked for an element");
                    supplied.incrementAndGet();
                    return p << 24 | next[0]++;
                }, idle -> {
                    exit.waiting();
                    Race.pause(SHORT_PAUSE);
                    return idle + 1;
                }, exit);
                done[0] = true;
                suppliedBy[p] = next[0];
                producersDone.incrementAndGet();
            };
        });
        race.threads("consumer", CONSUMERS, 1, c -> {
            final int[] last = SequencedProducer.noneSeen(PRODUCERS);
            for (int p = 0; p < PRODUCERS; p++) {
                seen[c][p] = new BitSet();
            }
            final boolean[] done = {false};
            return () -> {
                if (done[0]) {
                    Thread.yield();
                    return;
                }
                final CheckedExit exit = new CheckedExit(() -> !race.stopping()
                    && (producersDone.get() < PRODUCERS || consumed.get() < supplied.get()));
                q.drain(e -> {
                    exit.assertRunning("took an element");
                    SequencedProducer.checkOrder(e, last, false, "drained");
                    seen[c][e >>> 24].set(e & 0xffffff);
                    consumed.incrementAndGet();
                }, idle -> {
                    exit.waiting();
                    Race.pause(SHORT_PAUSE);
                    return idle + 1;
                }, exit);
                done[0] = true;
            };
        });
        race.run();
        for (int p = 0; p < PRODUCERS; p++) {
            assertTrue(suppliedBy[p] >= perProducer);
            final BitSet all = new BitSet();
            for (int c = 0; c < CONSUMERS; c++) {
                assertFalse(all.intersects(seen[c][p]), "an element of producer " + p + " taken by two consumers");
                all.or(seen[c][p]);
            }
            assertEquals(suppliedBy[p], all.cardinality(), "elements of producer " + p + " lost");
            assertEquals(suppliedBy[p], all.nextClearBit(0), "elements of producer " + p + " lost");
        }
        assertEquals(supplied.get(), consumed.get());
        assertTrue(q.isEmpty());
    }
}
