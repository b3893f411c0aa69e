package dev.overlap.stress.core;

import dev.overlap.core.ChunkReadyListener;
import dev.overlap.core.ChunkTracker;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIIIIII_Result;

import java.util.concurrent.atomic.AtomicIntegerArray;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Proves that the O(1) {@link ChunkTracker#rearm()} (counters count up, the epoch moves the targets) gives a second
 * iteration the same exactly-once, see-everything readiness as the first, and that re-arming really makes every
 * chunk not-ready again without touching the counters.
 *
 * <p>Two chunks with different writer counts: block 0 writes chunks 0 and 1, block 1 writes chunk 1 only (chunk 0
 * has one writer, chunk 1 has two). The state is pre-armed: its constructor runs one whole epoch, call it epoch 0
 * (data {@code 1}, both blocks done, both chunks fire in epoch 0), and calls {@code rearm()}. The actors then race
 * epoch 1: each writes {@code 2} into its data cell and calls {@code blockDone}. The listener counts fires per
 * (epoch, chunk) atomically and records the data it saw in epoch 1. The arbiter checks {@code readyChunks()}, then
 * re-arms to epoch 2 and checks that nothing is ready any more. (Epochs are relative: the tracker is reused from
 * state to state through {@link TrackerPool}, so its absolute epoch keeps growing.)
 *
 * <p>Result: epoch-1 fires of chunk 0, of chunk 1; data seen by chunk 0's epoch-1 listener (block 0's cell, must be
 * 2); data seen by chunk 1's epoch-1 listener (10 x block 0's cell + block 1's cell, must be 22); total epoch-0
 * fires plus 10 per fire labelled with a later epoch (2: the constructor's two, none later); {@code readyChunks()}
 * at the end of epoch 1 (2); ready chunks after the re-arm to epoch 2, counting {@code readyChunks()} plus each
 * {@code isReady(c)} that is still true (0, or -1 if epoch 1 never completed). Wrong epoch targets fire a chunk
 * early (stale data 1) or not at all; a stale epoch read labels an epoch-1 fire as epoch 0.
 */
@JCStressTest
@Description("ChunkTracker re-armed to epoch 1: each chunk fires once in epoch 1 with epoch-1 data; rearm() clears "
    + "readiness")
@Outcome(id = "1, 1, 2, 22, 2, 2, 0", expect = ACCEPTABLE,
    desc = "each chunk fired once in epoch 1 after its writers, saw their epoch-1 data; re-arming cleared readiness")
@Outcome(id = "1, 1, [01], .*", expect = FORBIDDEN, desc = "chunk 0's listener saw block 0's epoch-0 data")
@Outcome(id = "1, 1, 2, (1|2|11|12|21), .*", expect = FORBIDDEN,
    desc = "chunk 1's listener missed epoch-1 data of a writer")
@Outcome(expect = FORBIDDEN, desc = "a chunk fired 0 or 2 times in epoch 1, fired under the wrong epoch, or re-arming "
    + "did not clear readiness")
@State
@SuppressWarnings("this-escape") // it leases its tracker with itself as the listener; no subclass exists
public class ChunkTrackerRearmTest implements ChunkReadyListener {
    private static final TrackerPool POOL = new TrackerPool(listener -> ChunkTracker.builder()
        .regionBytes(16)
        .chunkBytes(8)
        .gridSize(2)
        .mapping((block, grid, region, sink) -> sink.range(block == 0 ? 0 : 8, region))
        .onReady(listener)
        .build());

    private final TrackerPool.Lease lease = POOL.lease(this);
    private final ChunkTracker tracker = lease.tracker;
    /** The epoch the constructor runs completely; the actors race the next one. */
    private final long firstEpoch = tracker.epoch();
    /** fires[(epoch - firstEpoch) * 2 + chunk] for the two epochs; index 4 counts fires in any other epoch. */
    private final AtomicIntegerArray fires = new AtomicIntegerArray(5);
    private final int[] seen = new int[2];
    private int data0;
    private int data1;

    public ChunkTrackerRearmTest() {
        data0 = 1;
        tracker.blockDone(0);
        data1 = 1;
        tracker.blockDone(1);
        tracker.rearm();
    }

    @Override
    public void onChunkReady(final int chunk, final long epoch) {
        final long relative = epoch - firstEpoch;
        fires.getAndIncrement(relative == 0 || relative == 1 ? (int)relative * 2 + chunk : 4);
        if (relative == 1) {
            seen[chunk] = chunk == 0 ? data0 : data0 * 10 + data1;
        }
    }

    @Actor
    public void block0() {
        data0 = 2;
        tracker.blockDone(0);
    }

    @Actor
    public void block1() {
        data1 = 2;
        tracker.blockDone(1);
    }

    @Arbiter
    public void arbiter(final IIIIIII_Result r) {
        r.r1 = fires.get(2);
        r.r2 = fires.get(3);
        r.r3 = seen[0];
        r.r4 = seen[1];
        r.r5 = fires.get(0) + fires.get(1) + 10 * fires.get(4);
        r.r6 = tracker.readyChunks();
        if (tracker.allReady()) {
            tracker.rearm();
            r.r7 = tracker.readyChunks() + (tracker.isReady(0) ? 1 : 0) + (tracker.isReady(1) ? 1 : 0);
        } else {
            r.r7 = -1;
        }
        POOL.release(lease);
    }
}
