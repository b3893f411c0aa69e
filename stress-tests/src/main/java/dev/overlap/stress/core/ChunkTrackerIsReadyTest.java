package dev.overlap.stress.core;

import dev.overlap.core.ChunkReadyListener;
import dev.overlap.core.ChunkTracker;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIIII_Result;

import java.util.concurrent.atomic.AtomicInteger;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Proves the polling side of readiness (PROACT's {@code POLLING} transfer threads): a thread that is not a writer
 * and sees {@link ChunkTracker#isReady(int)} true must also see every write of every writer block, and
 * {@link ChunkTracker#readyChunks()} never runs ahead of {@code isReady}.
 *
 * <p>One chunk with two writer blocks. The writer actor runs block 0 (writes {@code x}, {@code blockDone(0)}) and
 * then block 1 (writes {@code y}, {@code blockDone(1)}), with plain stores for the data. The poller actor reads
 * {@code readyChunks()}, then {@code isReady(0)}, then {@code x} and {@code y} with plain loads. This is message
 * passing through the tracker: if {@code isReady} were a plain read, or the counter bumps had no release semantics,
 * the poller could see the chunk ready with stale data. The arbiter also counts listener calls (must be 1; a call
 * labelled with another epoch counts 100). The tracker is re-armed and reused from state to state
 * ({@link TrackerPool}), so the poller also checks {@code isReady} against a moving epoch target.
 *
 * <p>Result: {@code readyChunks()}, {@code isReady(0)} (0/1), {@code x}, {@code y} as seen by the poller; fires.
 */
@JCStressTest
@Description("ChunkTracker.isReady/readyChunks seen by a non-writer poller: ready implies all writes visible")
@Outcome(id = "0, 0, [01], [01], 1", expect = ACCEPTABLE,
    desc = "poller ran before the chunk was ready (data may be partial)")
@Outcome(id = "0, 1, 1, 1, 1", expect = ACCEPTABLE,
    desc = "chunk ready, ready count not bumped yet at the first read; all data")
@Outcome(id = "1, 1, 1, 1, 1", expect = ACCEPTABLE, desc = "chunk ready and counted; all data visible")
@Outcome(id = {"[01], 1, 0, .*", "[01], 1, 1, 0, .*"}, expect = FORBIDDEN,
    desc = "isReady true but a writer's data was stale: no acquire/release")
@Outcome(id = "1, 0, .*", expect = FORBIDDEN, desc = "readyChunks counted the chunk before isReady saw it")
@Outcome(expect = FORBIDDEN, desc = "listener fired 0 or 2 times, or another impossible combination")
@State
@SuppressWarnings("this-escape") // it leases its tracker with itself as the listener; no subclass exists
public class ChunkTrackerIsReadyTest implements ChunkReadyListener {
    private static final TrackerPool POOL = new TrackerPool(listener -> ChunkTracker.builder()
        .regionBytes(8)
        .chunkBytes(8)
        .gridSize(2)
        .mapping((block, grid, region, sink) -> sink.range(0, region))
        .onReady(listener)
        .build());

    private final TrackerPool.Lease lease = POOL.lease(this);
    private final ChunkTracker tracker = lease.tracker;
    private final long epoch = tracker.epoch();
    private final AtomicInteger fires = new AtomicInteger();
    private int x;
    private int y;

    @Override
    public void onChunkReady(final int chunk, final long epoch) {
        fires.addAndGet(epoch == this.epoch ? 1 : 100);
    }

    @Actor
    public void writer() {
        x = 1;
        tracker.blockDone(0);
        y = 1;
        tracker.blockDone(1);
    }

    @Actor
    public void poller(final IIIII_Result r) {
        r.r1 = tracker.readyChunks();
        r.r2 = tracker.isReady(0) ? 1 : 0;
        r.r3 = x;
        r.r4 = y;
    }

    @Arbiter
    public void arbiter(final IIIII_Result r) {
        r.r5 = fires.get();
        POOL.release(lease);
    }
}
