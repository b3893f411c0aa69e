package dev.overlap.stress.proact;

import dev.overlap.core.BlockMapping;
import dev.overlap.core.ChunkTracker;
import dev.overlap.transport.proact.ReadyBitmap;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * The POLLING path of a replicated region: two blocks write the two halves of one chunk with plain stores and
 * report completion to the readiness counter; the completion that makes the chunk ready sets its bit; then each
 * block's thread also acts as a polling agent and copies the chunk if it claims the bit. Whoever copies must see
 * both halves (never a torn chunk, even the half the other thread wrote), the chunk is copied exactly once, and it
 * fires exactly once. Results: copies made, the two halves of the copy, times the chunk fired.
 */
@JCStressTest
@Outcome(id = "1, 11, 22, 1", expect = ACCEPTABLE, desc = "one agent copied the complete chunk")
@Outcome(id = {"1, 0, 22, 1", "1, 11, 0, 1", "1, 0, 0, 1"}, expect = FORBIDDEN,
    desc = "torn chunk: copied before all of its writers' stores were visible")
@Outcome(id = "0, 0, 0, 1", expect = FORBIDDEN, desc = "ready chunk never copied")
@Outcome(expect = FORBIDDEN, desc = "chunk copied or fired zero or two times")
@State
public class PolledChunkNeverTornTest {
    private final long[] data = new long[2];
    private final long[] copy = new long[2];
    private final ReadyBitmap bitmap = new ReadyBitmap(1);
    private int fired;
    private int copies;
    private final ChunkTracker tracker = ChunkTracker.builder().regionBytes(16).chunkBytes(16).gridSize(2)
        .counterStride(8).mapping(BlockMapping.oneToOne(8)).onReady((chunk, epoch) -> {
            fired++;
            bitmap.set(chunk);
        }).build();

    private void pollAndCopy() {
        if (bitmap.claim(0) == 0) {
            copies++;
            copy[0] = data[0];
            copy[1] = data[1];
        }
    }

    @Actor
    public void block0() {
        data[0] = 11;
        tracker.blockDone(0);
        pollAndCopy();
    }

    @Actor
    public void block1() {
        data[1] = 22;
        tracker.blockDone(1);
        pollAndCopy();
    }

    @Arbiter
    public void check(final IIII_Result r) {
        r.r1 = copies;
        r.r2 = (int)copy[0];
        r.r3 = (int)copy[1];
        r.r4 = fired;
        tracker.close();
    }
}
