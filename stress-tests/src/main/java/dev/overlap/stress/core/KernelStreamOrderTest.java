package dev.overlap.stress.core;

import dev.overlap.core.Device;
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
 * Proves stream semantics of {@link Device#launch}: launches on one device run one after another in submission
 * order, and a launch sees everything the launches before it wrote (a kernel boundary is a happens-before edge),
 * even when the launches come from two threads at once.
 *
 * <p>One actor launches a 2-block <em>writer</em> kernel (block {@code b} stores this state's tag into {@code x[b]});
 * the other, at the same time, launches a 2-block <em>reader</em> kernel (block {@code b} copies {@code x[b]} into
 * {@code y[b]}); both join, and the reader's launcher counts the tags in {@code y}. Which launch came first is
 * read from {@link KernelLaunch#sequence()}. If the writer was submitted first, the reader must see both writes;
 * if the reader was first, it must see neither. Seeing exactly one means the two kernels overlapped (a worker
 * started the next launch before the previous one had completed on all workers) or a completed write was not
 * visible. The arbiter checks the writer's cells after both joins. Cells are not zeroed between states: an old tag
 * is never this state's tag.
 *
 * <p>The writer's last block lingers a few microseconds before its store, so that the other worker runs out of blocks
 * while it still runs: the window in which a worker that moved on too early would start the reader.
 *
 * <p>Result: 1 if the writer was submitted first (else 0), tags the reader kernel saw, tags in {@code x} at the end.
 */
@JCStressTest
@Description("Device stream order: a reader kernel sees all or none of a concurrently submitted writer kernel's writes")
@Outcome(id = "1, 2, 2", expect = ACCEPTABLE, desc = "writer submitted first: reader ran after it and saw both writes")
@Outcome(id = "0, 0, 2", expect = ACCEPTABLE, desc = "reader submitted first: it ran before the writer and saw nothing")
@Outcome(id = {"0, 1, 2", "1, 1, 2"}, expect = FORBIDDEN, desc = "reader saw one write of two: the kernels overlapped")
@Outcome(id = "1, 0, 2", expect = FORBIDDEN, desc = "reader ran after the writer completed but missed its writes")
@Outcome(id = "0, 2, 2", expect = FORBIDDEN, desc = "reader submitted first but saw the later writer's writes")
@Outcome(expect = FORBIDDEN, desc = "writer's cells not visible after join(), or another impossible combination")
@State
public class KernelStreamOrderTest {
    private static final int BLOCKS = 2;
    private static final int WIDTH = 2 * BLOCKS;
    private static final int LINGER_SPINS = 256;

    private static final class Shared {
        static final SlotRing RING = new SlotRing();
        static final IntArray CELLS = StressMesh.device().allocateInts((long)SlotRing.SLOTS * WIDTH);
    }

    private final IntArray cells = Shared.CELLS;
    private final long ticket = Shared.RING.claim();
    /** x[b] = cells[base + b], y[b] = cells[base + BLOCKS + b]. */
    private final int base = SlotRing.slot(ticket) * WIDTH;
    private final int tag = SlotRing.tag(ticket);
    private long writerSequence;
    private long readerSequence;

    private int count(final int from) {
        int seen = 0;
        for (int i = from; i < from + BLOCKS; i++) {
            if (cells.get(i) == tag) {
                seen++;
            }
        }
        return seen;
    }

    @Actor
    public void writer() {
        final IntArray c = cells;
        final int x = base;
        final int t = tag;
        final KernelLaunch launch = StressMesh.device().launch(BLOCKS, (ctx, block) -> {
            if (block == BLOCKS - 1) {
                lingerInLastBlock();
            }
            c.set(x + block, t);
        });
        writerSequence = launch.sequence();
        launch.join();
    }

    /**
     * Keeps the writer's last block running a little (a few microseconds of spin hints, no sleep and no
     * synchronisation), so that the worker that ran the other block runs out of blocks while this one is still
     * writing: the moment a worker that moved on too early would start the reader. Without it the two one-store
     * blocks finish so close together that the overlap is rarely seen.
     */
    private static void lingerInLastBlock() {
        for (int i = 0; i < LINGER_SPINS; i++) {
            Thread.onSpinWait();
        }
    }

    @Actor
    public void reader(final III_Result r) {
        final IntArray c = cells;
        final int x = base;
        final int y = base + BLOCKS;
        final KernelLaunch launch = StressMesh.device().launch(BLOCKS,
            (ctx, block) -> c.set(y + block, c.get(x + block)));
        readerSequence = launch.sequence();
        launch.join();
        r.r2 = count(y);
    }

    @Arbiter
    public void arbiter(final III_Result r) {
        Shared.RING.verify(ticket);
        r.r1 = writerSequence < readerSequence ? 1 : 0;
        r.r3 = count(base);
    }
}
