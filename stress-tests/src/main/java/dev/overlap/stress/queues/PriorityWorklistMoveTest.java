package dev.overlap.stress.queues;

import dev.overlap.queues.IntPriorityWorklist;
import org.agrona.concurrent.UnsafeBuffer;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Threshold moves of {@link IntPriorityWorklist} racing with pushes and polls: the worklist starts with far items
 * (keys 5 and 7, threshold 1, delta 2): thread 1 pushes a near item (key 0) and a far item (key 9) then polls,
 * thread 2 polls twice, so bands move while pushes land: items 1@0, 6@5, 8@7, 10@9 (item@key).
 * No item may be lost, duplicated or lose its key. Result: (mask of items seen, count, entries whose key changed).
 */
@JCStressTest
@Description("Priority worklist: threshold moves never lose, duplicate or re-key an item")
@Outcome(id = "1346, 4, 0", expect = ACCEPTABLE, desc = "items 1, 6, 8, 10 once each, keys intact")
@Outcome(expect = FORBIDDEN, desc = "lost, duplicated or re-keyed item")
@State
public class PriorityWorklistMoveTest {
    private static final long EMPTY = Long.MIN_VALUE;
    final UnsafeBuffer region = Regions.take(IntPriorityWorklist.requiredBytes(4));
    final IntPriorityWorklist worklist = new IntPriorityWorklist(region, 4, 1, 2);
    long got1 = EMPTY;
    long got2 = EMPTY;

    public PriorityWorklistMoveTest() {
        worklist.push(6, 5);
        worklist.push(8, 7);
    }

    long got3 = EMPTY;

    @Actor
    public void thread1() {
        worklist.push(1, 0);
        worklist.push(10, 9);
        got1 = worklist.poll(EMPTY);
    }

    @Actor
    public void thread2() {
        got2 = worklist.poll(EMPTY);
        got3 = worklist.poll(EMPTY);
    }

    @Arbiter
    public void arbiter(final III_Result r) {
        final Seen seen = new Seen();
        int rekeyed = 0;
        long e = got1;
        for (int round = 0; ; round++) {
            if (round == 1) {
                e = got2;
            } else if (round == 2) {
                e = got3;
            } else if (round >= 3) {
                e = worklist.poll(EMPTY);
                if (e == EMPTY) {
                    break;
                }
            }
            if (e != EMPTY) {
                final int item = IntPriorityWorklist.item(e);
                seen.add(item);
                if (IntPriorityWorklist.key(e) != keyOf(item)) {
                    rekeyed++;
                }
            }
        }
        r.r1 = seen.mask;
        r.r2 = seen.count;
        r.r3 = rekeyed;
        Regions.give(region);
    }

    private static int keyOf(final int item) {
        return item == 1 ? 0 : item - 1;
    }
}
