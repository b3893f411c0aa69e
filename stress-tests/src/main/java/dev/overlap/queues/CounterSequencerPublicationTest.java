package dev.overlap.queues;

import org.agrona.concurrent.UnsafeBuffer;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * {@link CounterSequencer}, the counter algorithm under every queue of {@code dev.overlap.queues}, tested directly
 * (hence this package: the class is package-private). Its one promise to the queues: every position below
 * {@code end} was written, and the write is visible to whoever read {@code end}. Here the slot storage is a plain
 * {@code long[]} owned by the test, as item storage belongs to the caller in the queues: a push reserves positions,
 * writes {@code position + 1} into their slots with plain stores and publishes them; a reader checks the slots of
 * every position in {@code [start, end)}.
 *
 * <p>A ring of capacity 4 (8 slots, windows of 2) is first run through 12 positions, so this round (positions
 * 12..15) reuses slots of the previous lap (a stale slot holds the value of position {@code p - 8}) and its window
 * counters are on their second lap. Thread 1 pushes one position, checks, pushes another, checks; thread 2 pushes
 * two at once and checks. Results: slots seen unwritten or stale below {@code end} by the actors; own pushes not yet
 * visible to their pusher after {@code publish} returned; {@code end - 12} and unwritten slots seen by the arbiter
 * (no push in progress: all 4 published).
 *
 * <p>{@code ORDERED} runs over {@link BufferCells} (the device-memory queues), {@code WINDOWED} over
 * {@link HeapCells} (the {@link CounterRingQueue} facade); both {@link CounterCells} forms, both publication rules.
 */
public class CounterSequencerPublicationTest {
    private static final int CAPACITY = 4;
    private static final int WINDOW = 2;
    private static final long FIRST = 12;

    abstract static class Base {
        final CounterSequencer seq;
        final long[] slots;
        int unwrittenSeen;
        int ownNotVisible;

        Base(final CounterCells cells, final Publication publication) {
            seq = new CounterSequencer(cells, true, CAPACITY, WINDOW, publication);
            slots = new long[(int)seq.slotMask + 1];
            while (seq.reserved() < FIRST) {
                push(2);
                final long s = seq.start();
                if (!seq.casStart(s, seq.endAfterHelping())) {
                    throw new IllegalStateException("warm-up pop failed with no other thread");
                }
            }
        }

        /** Reserves, writes and publishes {@code n} positions, then looks at the published prefix. */
        final void pushAndLook(final int n) {
            final long s = push(n);
            final long e = seq.endAfterHelping();
            if (e < s + n) {
                ownNotVisible++; // forbidden for ORDERED; WINDOWED allows it while another push is in progress
            }
            unwrittenSeen += unwrittenBelow(e);
        }

        private long push(final int n) {
            final long s = seq.tryReserveRing(n);
            if (s == CounterSequencer.FULL) {
                throw new IllegalStateException("ring full: the test pushes no more than its capacity");
            }
            for (long p = s; p < s + n; p++) {
                slots[(int)(p & seq.slotMask)] = p + 1;
            }
            seq.publish(s, n);
            return s;
        }

        /** @return positions in {@code [start, end)} whose slot does not hold their value */
        final int unwrittenBelow(final long end) {
            int bad = 0;
            for (long p = seq.start(); p < end; p++) {
                if (slots[(int)(p & seq.slotMask)] != p + 1) {
                    bad++;
                }
            }
            return bad;
        }

        final void arbiter(final IIII_Result r) {
            final long e = seq.endAfterHelping();
            r.r1 = unwrittenSeen;
            r.r2 = ownNotVisible;
            r.r3 = (int)(e - FIRST);
            r.r4 = unwrittenBelow(e);
        }
    }

    @JCStressTest
    @Description("ORDERED publication (BufferCells): a position below end is always written; own push visible")
    @Outcome(id = "0, 0, 4, 0", expect = ACCEPTABLE, desc = "every published slot written; all 4 published")
    @Outcome(expect = FORBIDDEN, desc = "a slot below end unwritten/stale, a returned push invisible, or lost")
    @State
    public static class Ordered extends Base {
        public Ordered() {
            super(new BufferCells(new UnsafeBuffer(new byte[CounterSequencer.regionBytes(true, CAPACITY, WINDOW, 8)])),
                Publication.ORDERED);
        }

        @Actor
        public void oneThenOne() {
            pushAndLook(1);
            pushAndLook(1);
        }

        @Actor
        public void two() {
            pushAndLook(2);
        }

        @Arbiter
        public void check(final IIII_Result r) {
            arbiter(r);
        }
    }

    @JCStressTest
    @Description("WINDOWED publication (HeapCells): a position below end is always written; all published at rest")
    @Outcome(id = "0, 0, 4, 0", expect = ACCEPTABLE, desc = "every published slot written; all 4 published")
    @Outcome(id = {"0, 1, 4, 0", "0, 2, 4, 0", "0, 3, 4, 0"}, expect = ACCEPTABLE_INTERESTING,
        desc = "a returned push not yet visible while another push of its window was in progress (allowed)")
    @Outcome(expect = FORBIDDEN, desc = "a slot below end unwritten/stale, or items never published")
    @State
    public static class Windowed extends Base {
        public Windowed() {
            super(new HeapCells(CounterSequencer.slotsOffset(
                CounterSequencer.windows(true, CAPACITY, WINDOW))), Publication.WINDOWED);
        }

        @Actor
        public void oneThenOne() {
            pushAndLook(1);
            pushAndLook(1);
        }

        @Actor
        public void two() {
            pushAndLook(2);
        }

        @Arbiter
        public void check(final IIII_Result r) {
            arbiter(r);
        }
    }
}
