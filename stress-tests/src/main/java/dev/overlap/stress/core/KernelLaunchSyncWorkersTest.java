package dev.overlap.stress.core;

import dev.overlap.core.IntArray;
import dev.overlap.core.KernelLaunch;
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
 * Proves the barrier of a persistent launch's workers ({@link KernelLaunch#syncWorkers}): a worker returns from a
 * round only after every worker of the device arrived, and sees every write the others made before arriving.
 *
 * <p>Two actors each launch a persistent kernel on the shared device (two workers). Worker {@code w} stores this
 * state's tag into its own cell with a plain store, waits at the barrier, then reads the other worker's cell and
 * records in a cell of its own whether it saw the tag; then it stops the launch. After {@code join()} the launcher
 * counts the workers that saw the other's tag. Cells are not zeroed between states: a cell that still holds a
 * previous state's tag is a stale read. A barrier that lets a worker through before the other arrived (or without
 * a happens-before edge from the other's arrival) shows up as a count below 2.
 *
 * <p>Result: workers that saw the other's write in launcher 1's launch, in launcher 2's, and the arbiter's count of
 * both (must be 4).
 */
@JCStressTest
@Description("Persistent kernel: after syncWorkers() each worker sees the other's plain write (two launches)")
@Outcome(id = "2, 2, 4", expect = ACCEPTABLE, desc = "in each launch both workers saw the other's write")
@Outcome(expect = FORBIDDEN, desc = "a worker left the barrier without seeing the other's write")
@State
public class KernelLaunchSyncWorkersTest {
    /** Per launch: the two workers' cells, then what each saw. */
    private static final int PER_LAUNCH = 4;
    private static final int WIDTH = 2 * PER_LAUNCH;

    private static final class Shared {
        static final SlotRing RING = new SlotRing();
        static final IntArray CELLS = StressMesh.device().allocateInts((long)SlotRing.SLOTS * WIDTH);
    }

    private final IntArray cells = Shared.CELLS;
    private final long ticket = Shared.RING.claim();
    private final int base = SlotRing.slot(ticket) * WIDTH;
    private final int tag = SlotRing.tag(ticket);

    private int launchAndCount(final int from) {
        final IntArray c = cells;
        final int t = tag;
        StressMesh.device().launchPersistent(ctx -> {
            final int w = ctx.workerIndex();
            c.set(from + w, t);
            final boolean passed = ctx.syncWorkers();
            c.set(from + 2 + w, passed && c.get(from + (1 - w)) == t ? t : 0);
            ctx.stopLaunch();
            return 1;
        }).join();
        return (c.get(from + 2) == t ? 1 : 0) + (c.get(from + 3) == t ? 1 : 0);
    }

    @Actor
    public void launcher1(final III_Result r) {
        r.r1 = launchAndCount(base);
    }

    @Actor
    public void launcher2(final III_Result r) {
        r.r2 = launchAndCount(base + PER_LAUNCH);
    }

    @Arbiter
    public void arbiter(final III_Result r) {
        Shared.RING.verify(ticket);
        int seen = 0;
        for (int i = 0; i < 2; i++) {
            seen += cells.get(base + 2 + i) == tag ? 1 : 0;
            seen += cells.get(base + PER_LAUNCH + 2 + i) == tag ? 1 : 0;
        }
        r.r3 = seen;
    }
}
