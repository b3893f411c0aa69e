package dev.overlap.stress.core;

import dev.overlap.core.ChunkReadyListener;
import dev.overlap.core.ChunkTracker;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

import java.util.concurrent.atomic.AtomicIntegerArray;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Proves the core PROACT promise of {@link ChunkTracker#blockDone}: when several blocks write the same chunks and
 * finish at the same time, each chunk becomes ready <em>exactly once</em>, and the listener that runs for it sees
 * <em>every</em> write of <em>every</em> writer block.
 *
 * <p>Two chunks, two blocks, and both blocks write both chunks (so each chunk has two writers and each block
 * completes two chunks: the two threads can each complete one chunk, or one thread both). Each actor plays one
 * block: it writes its own cell in each chunk with plain stores, then calls {@code blockDone}. The listener counts
 * its calls per chunk (atomically, so a double fire is never hidden; a call labelled with another epoch counts
 * 100) and records which blocks' cells it saw. The tracker is re-armed and reused from state to state
 * ({@link TrackerPool}), so this runs in epochs far above 0.
 * A lost counter update shows up as a chunk that never fires (0), a counter that does not see the other block's
 * bump as a double fire (2), and a bump without release/acquire semantics as a listener that misses the other
 * block's write (mask 1 or 2 instead of 3).
 *
 * <p>Result: fires of chunk 0, fires of chunk 1, mask of writers seen by chunk 0's listener, by chunk 1's listener
 * (bit 0 = block 0's write, bit 1 = block 1's write).
 */
@JCStressTest
@Description("ChunkTracker: two blocks both write two chunks; each chunk fires exactly once and sees both writes")
@Outcome(id = "1, 1, 3, 3", expect = ACCEPTABLE,
    desc = "each chunk fired once and its listener saw both blocks' writes")
@Outcome(id = {"0, .*", ".*, 0, .*"}, expect = FORBIDDEN, desc = "a chunk never became ready: lost counter update")
@Outcome(id = {"2, .*", ".*, 2, .*"}, expect = FORBIDDEN, desc = "a chunk fired twice")
@Outcome(id = {"1, 1, [012], .*", "1, 1, .*, [012]"}, expect = FORBIDDEN,
    desc = "a listener missed a writer block's plain write: no happens-before from blockDone to the listener")
@Outcome(expect = FORBIDDEN, desc = "any other result breaks exactly-once readiness")
@State
@SuppressWarnings("this-escape") // it leases its tracker with itself as the listener; no subclass exists
public class ChunkTrackerSharedChunksTest implements ChunkReadyListener {
    private static final TrackerPool POOL = new TrackerPool(listener -> ChunkTracker.builder()
        .regionBytes(16)
        .chunkBytes(8)
        .gridSize(2)
        .mapping((block, grid, region, sink) -> sink.range(0, region))
        .counterStride(64)
        .onReady(listener)
        .build());

    private final TrackerPool.Lease lease = POOL.lease(this);
    private final ChunkTracker tracker = lease.tracker;
    private final long epoch = tracker.epoch();
    private final AtomicIntegerArray fires = new AtomicIntegerArray(2);
    private final int[] seen = new int[2];
    /** cell[block * 2 + chunk]: what {@code block} wrote into {@code chunk}; plain fields, no ordering of their own. */
    private final int[] cell = new int[4];

    @Override
    public void onChunkReady(final int chunk, final long epoch) {
        fires.getAndAdd(chunk, epoch == this.epoch ? 1 : 100);
        seen[chunk] = (cell[chunk] == 1 ? 1 : 0) | (cell[2 + chunk] == 2 ? 2 : 0);
    }

    @Actor
    public void block0() {
        cell[0] = 1;
        cell[1] = 1;
        tracker.blockDone(0);
    }

    @Actor
    public void block1() {
        cell[2] = 2;
        cell[3] = 2;
        tracker.blockDone(1);
    }

    @Arbiter
    public void arbiter(final IIII_Result r) {
        r.r1 = fires.get(0);
        r.r2 = fires.get(1);
        r.r3 = seen[0];
        r.r4 = seen[1];
        POOL.release(lease);
    }
}
