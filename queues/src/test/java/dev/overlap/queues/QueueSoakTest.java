package dev.overlap.queues;

import org.junit.jupiter.api.Tag;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.Phaser;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.jctools.queues.MessagePassingQueue.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Soak test of the queues with many more threads than cores: {@value #PRODUCERS} producers and
 * {@value #CONSUMERS} consumers on a small {@link CounterRingQueue} and {@link IntCounterRing} (capacity 64, windows
 * of 8), in both publication modes. Producers mix single offers with batch pushes (ring: greedy batch offer and
 * all-or-nothing {@code offerAll}; queue: {@code fill}, some of them cut short by a supplier that returns null,
 * so the give-back and the skipped slots run under contention); consumers mix single polls with batch pops
 * ({@code drain}, batch {@code poll}) and check that {@code size()} stays in {@code [0, capacity]}.
 *
 * <p>Checked exactly: no element lost, none duplicated, none invented, and per-producer FIFO (every consumer sees
 * each producer's elements in the order they were pushed). The run goes in rounds of {@value #PER_ROUND} elements
 * per producer; after each round (every producer done, every element popped: WINDOWED must then publish
 * everything) the consumers' per-producer bitmaps are merged, so memory stays bounded however long it runs.
 *
 * <p>Duration: a time budget decides how many rounds start (at least one); nothing is asserted about time and
 * nothing waits by sleeping. The default budget is {@value #DEFAULT_SECONDS} s per case (four cases, a few seconds
 * in the normal test run); a long soak on demand: {@code -Doverlap.soak.seconds=600} (seconds per case), e.g.
 * {@code mvn -B -pl queues -am test -Djcstress.skip=true -Djmh.smoke.skip=true -Dtest=QueueSoakTest
 * -Dsurefire.failIfNoSpecifiedTests=false -Doverlap.soak.seconds=600}.
 */
@Tag("slow")
public class QueueSoakTest {
    static final int PRODUCERS = 8;
    static final int CONSUMERS = 8;
    static final int PER_ROUND = 2_000;
    static final String DEFAULT_SECONDS = "0.5";
    /** How long a soak thread may take to end once the soak is over: far more than it needs. */
    private static final long JOIN_BOUND_SECONDS = 30;
    private static final double SECONDS = Double.parseDouble(System.getProperty("overlap.soak.seconds",
        DEFAULT_SECONDS));
    private static final int STALL_SECONDS = 60;
    private static final int CAPACITY = 64;
    private static final int WINDOW = 8;

    /** The operations a soak needs, over either queue; items are {@code producer << 24 | sequence}. */
    interface Target {
        /** Pushes from {@code items[0 .. n)} in order, some way or another; @return how many were pushed (a prefix) */
        int push(int[] items, int n, SplittableRandom random);

        /** Pops some items into {@code out}; @return how many */
        int pop(int[] out, SplittableRandom random);

        int size();
    }

    private static Target queue(final Publication p) {
        final CounterRingQueue<Integer> q = new CounterRingQueue<>(CAPACITY, WINDOW, p);
        return new Target() {
            @Override
            public int push(final int[] items, final int n, final SplittableRandom random) {
                switch (random.nextInt(4)) {
                    case 0:
                        return q.offer(items[0]) ? 1 : 0;
                    case 1: { // a fill the supplier may cut short: those it gave are pushed, the rest not
                        final int failAt = random.nextInt(4) == 0 ? random.nextInt(n + 1) : n + 1;
                        final int[] given = {0};
                        final Supplier<Integer> supplier = () -> given[0] == failAt ? null : items[given[0]++];
                        try {
                            return q.fill(supplier, n);
                        } catch (final NullPointerException cutShort) {
                            return given[0];
                        }
                    }
                    default: {
                        final int[] given = {0};
                        return q.fill(() -> items[given[0]++], n);
                    }
                }
            }

            @Override
            public int pop(final int[] out, final SplittableRandom random) {
                if (random.nextBoolean()) {
                    final Integer e = q.poll();
                    if (e == null) {
                        return 0;
                    }
                    out[0] = e;
                    return 1;
                }
                final int[] k = {0};
                return q.drain(e -> out[k[0]++] = e, 1 + random.nextInt(out.length));
            }

            @Override
            public int size() {
                return q.size();
            }
        };
    }

    private static Target ring(final Publication p) {
        final int bytes = IntCounterRing.requiredBytes(CAPACITY, WINDOW);
        final UnsafeBuffer direct = new UnsafeBuffer(ByteBuffer.allocateDirect(bytes + 128));
        final int skip = (int)(-direct.addressOffset() & 127);
        final IntCounterRing r = new IntCounterRing(new UnsafeBuffer(direct, skip, bytes), CAPACITY, WINDOW, p);
        return new Target() {
            @Override
            public int push(final int[] items, final int n, final SplittableRandom random) {
                switch (random.nextInt(3)) {
                    case 0:
                        return r.offer(items[0]) >= 0 ? 1 : 0;
                    case 1:
                        return Math.max(0, r.offerAll(items, 0, n)); // n, or BACK_PRESSURED: none
                    default:
                        return Math.max(0, r.offer(items, 0, n)); // a count, or BACK_PRESSURED: none
                }
            }

            @Override
            public int pop(final int[] out, final SplittableRandom random) {
                if (random.nextBoolean()) {
                    final int e = r.poll(-1);
                    if (e == -1) {
                        return 0;
                    }
                    out[0] = e;
                    return 1;
                }
                return r.poll(out, 0, 1 + random.nextInt(out.length));
            }

            @Override
            public int size() {
                return r.size();
            }
        };
    }

    enum Case {
        QUEUE_ORDERED, QUEUE_WINDOWED, RING_ORDERED, RING_WINDOWED;

        Target target() {
            final Publication p = name().endsWith("ORDERED") ? Publication.ORDERED : Publication.WINDOWED;
            return name().startsWith("QUEUE") ? queue(p) : ring(p);
        }
    }

    @ParameterizedTest
    @EnumSource(Case.class)
    void manyMoreThreadsThanCoresLoseDuplicateAndReorderNothing(final Case c) throws Exception {
        final Target target = c.target();
        final long budgetNanos = (long)(SECONDS * 1e9);
        final long start = System.nanoTime();
        final AtomicLong popped = new AtomicLong();
        final AtomicReference<Throwable> failure = new AtomicReference<>();
        final BitSet[][] seen = new BitSet[CONSUMERS][PRODUCERS];
        final int[][] last = new int[CONSUMERS][PRODUCERS];
        final long[] problems = new long[CONSUMERS];
        final AtomicBoolean abort = new AtomicBoolean();
        final boolean[] more = {true};
        final long[] goal = {0};
        // every thread and the main thread are parties; a phase is "round starts" or "round ends"; between rounds
        // the main thread checks the round and decides whether another starts (the phaser orders its writes of
        // the fields above before the workers' reads, and theirs before its checks)
        final Phaser rounds = new Phaser(PRODUCERS + CONSUMERS + 1);
        final List<Thread> threads = new ArrayList<>();
        for (int p = 0; p < PRODUCERS; p++) {
            final int producer = p;
            threads.add(worker("soak-producer-" + p, rounds, failure, abort, () -> {
                final SplittableRandom random = new SplittableRandom(31L * producer + c.ordinal());
                final int[] batch = new int[8];
                while (nextRound(rounds, more)) {
                    int next = 0;
                    while (next < PER_ROUND && !abort.get()) {
                        final int n = Math.min(1 + random.nextInt(batch.length), PER_ROUND - next);
                        for (int i = 0; i < n; i++) {
                            batch[i] = producer << 24 | (next + i);
                        }
                        final int pushed = target.push(batch, n, random);
                        if (pushed == 0) {
                            Thread.yield(); // full: let a consumer run (8 + 8 threads on 2 cores)
                        }
                        next += pushed;
                    }
                    rounds.arriveAndAwaitAdvance();
                }
            }));
        }
        for (int k = 0; k < CONSUMERS; k++) {
            final int consumer = k;
            threads.add(worker("soak-consumer-" + k, rounds, failure, abort, () -> {
                final SplittableRandom random = new SplittableRandom(97L * consumer + c.ordinal());
                final int[] out = new int[8];
                while (nextRound(rounds, more)) {
                    while (popped.get() < goal[0] && !abort.get()) {
                        final int n = target.pop(out, random);
                        if (n == 0) {
                            Thread.yield(); // empty: let a producer run
                            continue;
                        }
                        for (int i = 0; i < n; i++) {
                            final int producer = out[i] >>> 24;
                            final int sequence = out[i] & 0xffffff;
                            if (producer >= PRODUCERS || sequence >= PER_ROUND
                                || sequence < last[consumer][producer]) {
                                problems[consumer]++; // invented, or out of producer order
                                continue;
                            }
                            last[consumer][producer] = sequence + 1;
                            seen[consumer][producer].set(sequence);
                        }
                        popped.addAndGet(n);
                        if ((random.nextInt() & 63) == 0) {
                            final int size = target.size();
                            if (size < 0 || size > CAPACITY) {
                                problems[consumer]++;
                            }
                        }
                    }
                    rounds.arriveAndAwaitAdvance();
                }
            }));
        }
        threads.forEach(Thread::start);
        long done = 0;
        boolean clean = false;
        try {
            do {
                for (int k = 0; k < CONSUMERS; k++) {
                    for (int p = 0; p < PRODUCERS; p++) {
                        seen[k][p] = new BitSet(PER_ROUND);
                        last[k][p] = 0;
                    }
                }
                goal[0] += (long)PRODUCERS * PER_ROUND;
                rounds.arriveAndAwaitAdvance(); // the round starts
                awaitRoundEnd(c, rounds, popped, goal[0], target, failure);
                done++;
                checkRound(c, done, seen, problems, popped.get(), goal[0]);
            } while (System.nanoTime() - start < budgetNanos);
            clean = true;
        } finally {
            more[0] = false;
            if (clean) {
                rounds.arriveAndAwaitAdvance(); // at a round's start: the workers see more == false and return
            } else {
                abort.set(true); // stop spinning workers wherever they are
                rounds.forceTermination();
            }
            joinOrReport(threads, clean);
        }
        System.out.printf("soak %s: %d rounds, %d elements through %d producers and %d consumers in %.1f s%n", c,
            done, popped.get(), PRODUCERS, CONSUMERS, (System.nanoTime() - start) / 1e9);
    }

    /**
     * Joins the soak threads. After a failure one of them may be stuck inside the queue (a broken queue can make a
     * strict pop wait forever for an element that was lost): each gets a bound, and after a clean soak one still
     * running fails the test with its stack; after a failure the failure goes up and the stuck daemon is left behind,
     * so a broken queue fails the test instead of hanging it.
     */
    private static void joinOrReport(final List<Thread> threads, final boolean clean) throws InterruptedException {
        for (final Thread t : threads) {
            t.join(TimeUnit.SECONDS.toMillis(JOIN_BOUND_SECONDS));
            if (t.isAlive() && !clean) {
                return; // the soak's own failure is on its way up; a daemon stuck in a broken queue is left behind
            }
            if (t.isAlive()) {
                final AssertionError stuck = new AssertionError(t.getName() + " did not end within "
                    + JOIN_BOUND_SECONDS + " s after the soak " + (clean ? "ended" : "failed") + ": stuck in the queue");
                stuck.setStackTrace(t.getStackTrace());
                throw stuck;
            }
        }
    }

    /** A soak thread: on failure it records the cause and terminates the phaser, so nobody waits for it. */
    private static Thread worker(final String name, final Phaser rounds, final AtomicReference<Throwable> failure,
        final AtomicBoolean abort, final Runnable body) {
        final Thread thread = new Thread(() -> {
            try {
                body.run();
            } catch (final Throwable t) {
                failure.compareAndSet(null, t);
                abort.set(true);
                rounds.forceTermination();
            }
        }, name);
        thread.setDaemon(true);
        return thread;
    }

    /** @return whether another round starts (waits for every party at the round's start) */
    private static boolean nextRound(final Phaser rounds, final boolean[] more) {
        return rounds.arriveAndAwaitAdvance() >= 0 && more[0];
    }

    /**
     * Waits for every producer and consumer to end the round. A hang detector, not a timing check: it fails only
     * when no element at all was popped for {@value #STALL_SECONDS} s while some were still in the queue (an
     * element lost or never published), however slow the machine.
     */
    private static void awaitRoundEnd(final Case c, final Phaser rounds, final AtomicLong popped, final long goal,
        final Target target, final AtomicReference<Throwable> failure) throws InterruptedException {
        final int phase = rounds.arrive();
        long seen = popped.get();
        int stalled = 0;
        for (;;) {
            try {
                rounds.awaitAdvanceInterruptibly(phase, 1, TimeUnit.SECONDS);
                break;
            } catch (final TimeoutException notYet) {
                final long now = popped.get();
                stalled = now == seen ? stalled + 1 : 0;
                seen = now;
                if (stalled >= STALL_SECONDS) {
                    throw new AssertionError(c + ": no element popped for " + STALL_SECONDS + " s with " + (goal - now)
                        + " still to come (lost or never published); size() = " + target.size());
                }
            }
        }
        if (failure.get() != null) {
            throw new AssertionError(c + ": a soak thread failed", failure.get());
        }
    }

    private static void checkRound(final Case c, final long round, final BitSet[][] seen, final long[] problems,
        final long popped, final long pushed) {
        long bad = 0;
        for (final long p : problems) {
            bad += p;
        }
        assertEquals(0, bad, c + " round " + round + ": elements invented, out of producer order, seen twice by "
            + "one consumer, or size() out of range");
        assertEquals(pushed, popped, c + " round " + round + ": popped more than was pushed");
        for (int p = 0; p < PRODUCERS; p++) {
            final BitSet all = new BitSet(PER_ROUND);
            for (int k = 0; k < seen.length; k++) {
                assertTrue(!all.intersects(seen[k][p]), c + " round " + round + ": an element of producer " + p
                    + " popped by two consumers");
                all.or(seen[k][p]);
            }
            assertEquals(PER_ROUND, all.cardinality(), c + " round " + round + ": elements of producer " + p
                + " lost");
        }
    }
}
