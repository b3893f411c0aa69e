package dev.overlap.stress.queues;

import dev.overlap.queues.LongPriorityWorklist;
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
 * Threshold moves of {@link LongPriorityWorklist} racing with pushes and polls (the {@code long} twin of
 * {@link PriorityWorklistMoveTest}; here each entry is two longs, key then item, pushed all-or-nothing and popped
 * two at a time, so a move or a racing pop must never split one). The worklist starts with far items (keys 5 and 7,
 * threshold 1, delta 2): thread 1 pushes a near item (key 0) and a far item (key 9) then polls, thread 2 polls twice,
 * so bands move while pushes land: items 1@0, 6@5, 8@7, 10@9 (item@key), each item carrying a mark in its upper
 * 32 bits. A split entry makes the worklist throw (an ERROR outcome). Result: (mask of items seen, count, entries
 * whose key or upper half changed).
 */
@JCStressTest
@Description("long priority worklist: threshold moves never lose, duplicate, split or re-key an entry")
@Outcome(id = "1346, 4, 0", expect = ACCEPTABLE, desc = "items 1, 6, 8, 10 once each, keys and upper halves intact")
@Outcome(expect = FORBIDDEN, desc = "lost, duplicated, re-keyed or corrupted entry")
@State
public class LongPriorityWorklistMoveTest {
    private static final long MARK = 0x5A5AL << 32;

    final UnsafeBuffer region = Regions.take(LongPriorityWorklist.requiredBytes(4));
    final LongPriorityWorklist worklist = new LongPriorityWorklist(region, 4, 1, 2);
    final long[] got1 = new long[2];
    final long[] got2 = new long[2];
    final long[] got3 = new long[2];
    boolean has1;
    boolean has2;
    boolean has3;

    public LongPriorityWorklistMoveTest() {
        worklist.push(MARK | 6, 5);
        worklist.push(MARK | 8, 7);
    }

    @Actor
    public void thread1() {
        worklist.push(MARK | 1, 0);
        worklist.push(MARK | 10, 9);
        has1 = worklist.poll(got1);
    }

    @Actor
    public void thread2() {
        has2 = worklist.poll(got2);
        has3 = worklist.poll(got3);
    }

    @Arbiter
    public void arbiter(final III_Result r) {
        final Seen seen = new Seen();
        int rekeyed = 0;
        final long[] rest = new long[2];
        for (int round = 0; ; round++) {
            final long[] e;
            if (round == 0) {
                e = has1 ? got1 : null;
            } else if (round == 1) {
                e = has2 ? got2 : null;
            } else if (round == 2) {
                e = has3 ? got3 : null;
            } else if (worklist.poll(rest)) {
                e = rest;
            } else {
                break;
            }
            if (e != null) {
                final long key = e[0];
                final long item = e[1];
                final int id = (int)item;
                seen.add(id);
                if ((item & ~0xFFFF_FFFFL) != MARK || key != keyOf(id)) {
                    rekeyed++;
                }
            }
        }
        r.r1 = seen.mask;
        r.r2 = seen.count;
        r.r3 = rekeyed;
        Regions.give(region);
    }

    private static long keyOf(final int item) {
        return item == 1 ? 0 : item - 1;
    }
}
