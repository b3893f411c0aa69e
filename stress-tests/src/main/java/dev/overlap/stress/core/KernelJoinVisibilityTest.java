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
 * Proves kernel-completion visibility: everything the blocks of a discrete kernel wrote with <em>plain</em> stores
 * into device memory is visible to the launcher once {@link KernelLaunch#join()} returns, even while another
 * thread submits launches into the same device stream.
 *
 * <p>Two actors each launch a 4-block kernel on the shared device (two workers, so blocks run in parallel and on
 * threads other than the launcher) and join it. Block {@code b} stores this state's tag into its own cell with a
 * plain store; after {@code join()} the launcher counts the cells holding the tag. Cells are not zeroed between
 * states: a cell that still holds a previous state's tag is a stale read. A {@code join()} that returned before
 * the last block finished (for example, completion decided by the worker that <em>claimed</em> the last block rather
 * than the one that finished it), or without a happens-before edge from the blocks, shows up as a count below 4.
 * The arbiter counts again after both joins (must be 8).
 *
 * <p>Result: cells with the tag seen by launcher 1 after its join, by launcher 2, by the arbiter.
 */
@JCStressTest
@Description("Discrete kernel: after join() the launcher sees every block's plain write (two launchers, one stream)")
@Outcome(id = "4, 4, 8", expect = ACCEPTABLE, desc = "each launcher saw all 4 blocks' writes after join()")
@Outcome(expect = FORBIDDEN, desc = "a launcher returned from join() without seeing some block's write")
@State
public class KernelJoinVisibilityTest {
    private static final int BLOCKS = 4;
    private static final int WIDTH = 2 * BLOCKS;

    private static final class Shared {
        static final SlotRing RING = new SlotRing();
        static final IntArray CELLS = StressMesh.device().allocateInts((long)SlotRing.SLOTS * WIDTH);
    }

    private final IntArray cells = Shared.CELLS;
    private final long ticket = Shared.RING.claim();
    private final int base = SlotRing.slot(ticket) * WIDTH;
    private final int tag = SlotRing.tag(ticket);

    private int launchJoinAndCount(final int from) {
        final IntArray c = cells;
        final int t = tag;
        StressMesh.device().launch(BLOCKS, (ctx, block) -> c.set(from + block, t)).join();
        return count(from, BLOCKS);
    }

    private int count(final int from, final int n) {
        int seen = 0;
        for (int i = from; i < from + n; i++) {
            if (cells.get(i) == tag) {
                seen++;
            }
        }
        return seen;
    }

    @Actor
    public void launcher1(final III_Result r) {
        r.r1 = launchJoinAndCount(base);
    }

    @Actor
    public void launcher2(final III_Result r) {
        r.r2 = launchJoinAndCount(base + BLOCKS);
    }

    @Arbiter
    public void arbiter(final III_Result r) {
        Shared.RING.verify(ticket);
        r.r3 = count(base, WIDTH);
    }
}
