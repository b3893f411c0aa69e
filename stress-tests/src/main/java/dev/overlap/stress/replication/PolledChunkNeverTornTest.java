package dev.overlap.stress.replication;

import dev.overlap.core.BlockMapping;
import dev.overlap.core.ChunkTracker;
import dev.overlap.replication.ReadyBitmap;
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
 * report completion to the {@link ChunkTracker}; the completion that makes the chunk ready fires the listener, which
 * sets its bit in a {@link ReadyBitmap}; then each block's thread also acts as a polling agent and copies the chunk if
 * it claims the bit. Whoever copies must see both halves (never a torn chunk, even the half the other thread wrote),
 * the chunk is copied exactly once, and it fires exactly once.
 *
 * <p>Every count is kept per actor, each written by one thread only, and summed by the arbiter: a plain {@code ++}
 * shared by both actors could lose one of two increments and make a chunk fired (or copied) twice read as once. The
 * listener runs on whichever actor's completion it was; it tells them apart by comparing the current thread with the
 * thread block 1 recorded before its completion (a thread always sees its own write, so the test never races on it).
 * Each actor also copies into its own array, so two copies cannot tear each other.
 *
 * <p>Results: copies made, the two halves of the copy, times the chunk fired.
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
    private final long[] copy0 = new long[2];
    private final long[] copy1 = new long[2];
    private final ReadyBitmap bitmap = new ReadyBitmap(1);
    /** Written by block 1's thread before its completion; read by the listener only to recognise that thread. */
    private Thread block1Thread;
    private int fired0;
    private int fired1;
    private int copies0;
    private int copies1;
    private final ChunkTracker tracker = ChunkTracker.builder().regionBytes(16).chunkBytes(16).gridSize(2)
        .counterStride(8).mapping(BlockMapping.oneToOne(8)).onReady((chunk, epoch) -> {
            if (Thread.currentThread() == block1Thread) {
                fired1++;
            } else {
                fired0++;
            }
            bitmap.set(chunk);
        }).build();

    @Actor
    public void block0() {
        data[0] = 11;
        tracker.blockDone(0);
        if (bitmap.claim(0) == 0) {
            copies0++;
            copy0[0] = data[0];
            copy0[1] = data[1];
        }
    }

    @Actor
    public void block1() {
        block1Thread = Thread.currentThread();
        data[1] = 22;
        tracker.blockDone(1);
        if (bitmap.claim(0) == 0) {
            copies1++;
            copy1[0] = data[0];
            copy1[1] = data[1];
        }
    }

    @Arbiter
    public void check(final IIII_Result r) {
        final long[] copy = copies0 > 0 ? copy0 : copy1;
        r.r1 = copies0 + copies1;
        r.r2 = (int)copy[0];
        r.r3 = (int)copy[1];
        r.r4 = fired0 + fired1;
        tracker.close();
    }
}
