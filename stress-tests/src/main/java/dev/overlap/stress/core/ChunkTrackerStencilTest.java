package dev.overlap.stress.core;

import dev.overlap.core.BlockMapping;
import dev.overlap.core.ChunkReadyListener;
import dev.overlap.core.ChunkTracker;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIIIIIII_Result;

import java.util.concurrent.atomic.AtomicIntegerArray;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Proves exactly-once readiness and full visibility for an overlapping (stencil) mapping, where chunks have
 * different numbers of writers and every block completes several chunks.
 *
 * <p>Region of 4 chunks of 8 bytes, 4 blocks, {@link BlockMapping#stencil stencil(8, halo 8)}: block {@code b}
 * writes chunks {@code b-1, b, b+1} (clipped), so the writers are chunk 0: {0,1}, chunk 1: {0,1,2},
 * chunk 2: {1,2,3}, chunk 3: {2,3}. The two actors play two workers that got blocks dynamically: one runs blocks
 * 0 then 2, the other blocks 3 then 1 (so either thread can be the last writer of chunks 1 and 2). Each block
 * writes its own cell in every chunk it covers with plain stores, then calls {@code blockDone}. The listener counts
 * fires per chunk atomically and records, as a bit mask over blocks, which writer cells it saw. Counters are packed
 * densely ({@code counterStride(8)}), so neighbouring chunks' counters share a cache line. A fire labelled with
 * another epoch counts 100. The tracker is re-armed and reused from state to state ({@link TrackerPool}).
 *
 * <p>Result: fires of chunks 0..3, then the masks seen by the listener of chunks 0..3. Correct is
 * {@code 1, 1, 1, 1, 3, 7, 14, 12} (0b0011, 0b0111, 0b1110, 0b1100). A chunk counted with the wrong number of
 * writers fires early (a mask missing a block that had not run yet) or never (0); a racy counter fires twice or
 * never; missing release/acquire shows as a mask without a block that did finish.
 */
@JCStressTest
@Description("ChunkTracker stencil mapping (writers 2,3,3,2): every chunk fires once and sees all its writers")
@Outcome(id = "1, 1, 1, 1, 3, 7, 14, 12", expect = ACCEPTABLE,
    desc = "every chunk fired once, after all its writer blocks, and saw all their writes")
@Outcome(expect = FORBIDDEN,
    desc = "a chunk fired 0 or 2 times, fired before all its writers completed, or missed a writer's write")
@State
@SuppressWarnings("this-escape") // it leases its tracker with itself as the listener; no subclass exists
public class ChunkTrackerStencilTest implements ChunkReadyListener {
    private static final int CHUNKS = 4;

    private static final TrackerPool POOL = new TrackerPool(listener -> ChunkTracker.builder()
        .regionBytes(CHUNKS * 8)
        .chunkBytes(8)
        .gridSize(4)
        .mapping(BlockMapping.stencil(8, 8))
        .counterStride(8)
        .onReady(listener)
        .build());

    private final TrackerPool.Lease lease = POOL.lease(this);
    private final ChunkTracker tracker = lease.tracker;
    private final long epoch = tracker.epoch();
    private final AtomicIntegerArray fires = new AtomicIntegerArray(CHUNKS);
    private final int[] seen = new int[CHUNKS];
    /** cell[block * CHUNKS + chunk] = 1 once {@code block} has written its part of {@code chunk}. */
    private final int[] cell = new int[4 * CHUNKS];

    @Override
    public void onChunkReady(final int chunk, final long epoch) {
        fires.getAndAdd(chunk, epoch == this.epoch ? 1 : 100);
        int mask = 0;
        for (int b = 0; b < 4; b++) {
            if (cell[b * CHUNKS + chunk] == 1) {
                mask |= 1 << b;
            }
        }
        seen[chunk] = mask;
    }

    private void runBlock(final int block) {
        for (int c = Math.max(0, block - 1); c <= Math.min(CHUNKS - 1, block + 1); c++) {
            cell[block * CHUNKS + c] = 1;
        }
        tracker.blockDone(block);
    }

    @Actor
    public void worker0() {
        runBlock(0);
        runBlock(2);
    }

    @Actor
    public void worker1() {
        runBlock(3);
        runBlock(1);
    }

    @Arbiter
    public void arbiter(final IIIIIIII_Result r) {
        r.r1 = fires.get(0);
        r.r2 = fires.get(1);
        r.r3 = fires.get(2);
        r.r4 = fires.get(3);
        r.r5 = seen[0];
        r.r6 = seen[1];
        r.r7 = seen[2];
        r.r8 = seen[3];
        POOL.release(lease);
    }
}
