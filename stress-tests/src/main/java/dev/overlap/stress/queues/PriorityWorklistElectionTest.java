package dev.overlap.stress.queues;

import dev.overlap.queues.IntPriorityWorklist;
import org.agrona.concurrent.UnsafeBuffer;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * The mover election of {@link IntPriorityWorklist}, raced {@value #BANDS} times per state: far starts with
 * {@value #BANDS} bands of two entries (keys 0, 1, 2, ...) and {@value #BALLAST} entries of key {@value #BALLAST_KEY},
 * near empty, threshold 0, delta 1; both actors poll until the worklist answers empty. Each band holds one entry per
 * poller, so both drain near at about the same moment and both race to become the mover of the next band, every
 * band. Exactly one may win each time (a CAS on the move sequence); the ballast keeps more than
 * {@link IntPriorityWorklist#MOVE_BATCH} entries in far during every move, so a pass takes at least two batches into
 * the mover's scratch array, and a second mover running at the same time (an election that lets both through) would
 * take batches into the same array: entries lost and duplicated, and the threshold raised twice for one band.
 *
 * <p>Why this shape: {@link PriorityWorklistMoveTest} races moves against pushes, with one or two elections per state
 * and far small enough to be taken in one batch, so two movers at once were rare and, when they happened, changed
 * nothing it could see. The election itself is also model-checked, deterministically, by the queues module's
 * {@code IntPriorityWorklistLincheckTest}.
 *
 * <p>Results: items polled exactly once (by the actors, then by the arbiter's drain of anything an early "empty"
 * left behind); entries polled in all; entries with a wrong key or an item that was never pushed; the final
 * threshold, which is {@value #FINAL_THRESHOLD} when every election raised it once: {@value #BANDS} raises of 1, one
 * raise that moved nothing and so jumped to the ballast's key, and the raise that moved the ballast.
 */
@JCStressTest
@Description("Priority worklist: one mover per drained band; both pollers race for it at every band")
@Outcome(id = "112, 112, 0, 1001", expect = ACCEPTABLE, desc = "every entry once, keys intact, one raise per band")
@Outcome(expect = FORBIDDEN, desc = "two movers at once: entries lost, duplicated, re-keyed, or the threshold raised twice")
@State
public class PriorityWorklistElectionTest {
    static final int BANDS = 24;
    static final int BALLAST = 64;
    static final int BALLAST_KEY = 1000;
    static final int FINAL_THRESHOLD = BALLAST_KEY + 1;
    private static final int ITEMS = 2 * BANDS + BALLAST;
    private static final int CAPACITY = 128;
    private static final long EMPTY = Long.MIN_VALUE;

    final UnsafeBuffer region = Regions.take(IntPriorityWorklist.requiredBytes(CAPACITY));
    final IntPriorityWorklist worklist = new IntPriorityWorklist(region, CAPACITY, 0, 1);
    /** Per actor: how often it polled each item; index {@value #ITEMS} counts entries that are no pushed item. */
    final int[] polled1 = new int[ITEMS + 1];
    final int[] polled2 = new int[ITEMS + 1];
    int rekeyed1;
    int rekeyed2;

    public PriorityWorklistElectionTest() {
        // ballast first, then the bands in reverse: far's order must not make the passes trivially ordered
        for (int i = 0; i < BALLAST; i++) {
            worklist.push(2 * BANDS + i, BALLAST_KEY);
        }
        for (int band = BANDS - 1; band >= 0; band--) {
            worklist.push(2 * band, band);
            worklist.push(2 * band + 1, band);
        }
    }

    @Actor
    public void poller1() {
        rekeyed1 = drain(polled1);
    }

    @Actor
    public void poller2() {
        rekeyed2 = drain(polled2);
    }

    /** Polls until the worklist answers empty; counts each entry's item and returns how many had a wrong key. */
    private int drain(final int[] polled) {
        int rekeyed = 0;
        long e;
        while ((e = worklist.poll(EMPTY)) != EMPTY) {
            final int item = IntPriorityWorklist.item(e);
            final boolean pushed = item >= 0 && item < ITEMS;
            polled[pushed ? item : ITEMS]++;
            if (pushed && IntPriorityWorklist.key(e) != keyOf(item)) {
                rekeyed++;
            }
        }
        return rekeyed;
    }

    private static int keyOf(final int item) {
        return item < 2 * BANDS ? item / 2 : BALLAST_KEY;
    }

    @Arbiter
    public void arbiter(final IIII_Result r) {
        final int[] leftover = new int[ITEMS + 1];
        final int rekeyed = rekeyed1 + rekeyed2 + drain(leftover);
        int once = 0;
        int total = 0;
        for (int i = 0; i <= ITEMS; i++) {
            final int n = polled1[i] + polled2[i] + leftover[i];
            if (i < ITEMS && n == 1) {
                once++;
            }
            total += n;
        }
        r.r1 = once;
        r.r2 = total;
        r.r3 = rekeyed + polled1[ITEMS] + polled2[ITEMS] + leftover[ITEMS];
        r.r4 = (int)worklist.threshold();
        Regions.give(region);
    }
}
