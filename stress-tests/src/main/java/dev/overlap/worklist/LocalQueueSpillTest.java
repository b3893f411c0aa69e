package dev.overlap.worklist;

import dev.overlap.core.Device;
import dev.overlap.core.Mesh;
import dev.overlap.queues.Publication;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

import java.util.concurrent.ConcurrentLinkedQueue;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * {@link LocalQueue}, a device's task queue in the distributed worklist, tested directly (hence this package: the
 * class is package-private): a counter ring of capacity 2 plus the overflow list that takes what the full ring
 * refuses (under a lock, with a volatile size that lets pops skip the lock while it is empty). One actor pushes tasks
 * 1 to 6 one by one, so the ring fills and later ones spill; the other pops four times, up to two tasks each time,
 * from the ring and then from the overflow, racing the spills. The arbiter pops what is left. Every task must come out
 * exactly once, whichever way it went.
 *
 * <p>A queue lives in device memory, so states do not build one each: they take one from a pool (built on the fork's
 * own one-device mesh the first time, about as many as jcstress keeps states alive) and the arbiter, having emptied
 * it, gives it back. The rings use {@link Publication#ORDERED}, so an item pushed is at once visible to any pop (a
 * {@code WINDOWED} ring may lag, and the arbiter would call a lagging task lost).
 *
 * <p>Results: tasks that came out exactly once (6); tasks that came out twice or that were never pushed; tasks the
 * popping actor got (any count); pushes that spilled to the overflow (any count).
 */
@JCStressTest
@Description("LocalQueue: tasks pushed past a full ring into the overflow, popped concurrently, come out exactly once")
@Outcome(id = "6, 0, .*", expect = ACCEPTABLE, desc = "every task out exactly once")
@Outcome(expect = FORBIDDEN, desc = "a task lost, popped twice, or a task that was never pushed popped")
@State
public class LocalQueueSpillTest {
    private static final int TASKS = 6;
    private static final int POPS = 4;

    private static final class Shared {
        static final Mesh MESH = Mesh.builder().name("jcstress-localqueue").devices(1).threadsPerDevice(1)
            .memoryPerDevice(32 << 20).build();
        static final Device DEVICE = MESH.device(0);
        static final ConcurrentLinkedQueue<LocalQueue> POOL = new ConcurrentLinkedQueue<>();
    }

    private final LocalQueue queue = take();
    private final long spilledBefore = queue.overflowPushes();
    private final int[] popped = new int[2 * POPS];
    private final int[] priorities = new int[2];
    private final long[] entries = new long[2];
    private int poppedCount;

    private static LocalQueue take() {
        final LocalQueue q = Shared.POOL.poll();
        return q != null ? q : LocalQueue.fifo(Shared.DEVICE, 2, Publication.ORDERED);
    }

    @Actor
    public void pusher() {
        for (int t = 1; t <= TASKS; t++) {
            queue.push(t, 0);
        }
    }

    @Actor
    public void popper() {
        final int[] out = popped;
        final int[] buffer = new int[2];
        int n = 0;
        for (int round = 0; round < POPS; round++) {
            final int got = queue.pop(buffer, priorities, entries, 2);
            for (int i = 0; i < got; i++) {
                out[n++] = buffer[i];
            }
        }
        poppedCount = n;
    }

    @Arbiter
    public void arbiter(final IIII_Result r) {
        final int[] times = new int[TASKS + 1];
        int foreign = 0;
        for (int i = 0; i < poppedCount; i++) {
            final int t = popped[i];
            if (t >= 1 && t <= TASKS) {
                times[t]++;
            } else {
                foreign++;
            }
        }
        final int[] buffer = new int[2];
        int got;
        int guard = 0;
        while ((got = queue.pop(buffer, priorities, entries, 2)) > 0 && guard++ < 4 * TASKS) {
            for (int i = 0; i < got; i++) {
                final int t = buffer[i];
                if (t >= 1 && t <= TASKS) {
                    times[t]++;
                } else {
                    foreign++;
                }
            }
        }
        int once = 0;
        int extra = foreign;
        for (int t = 1; t <= TASKS; t++) {
            once += times[t] == 1 ? 1 : 0;
            extra += Math.max(0, times[t] - 1);
        }
        r.r1 = once;
        r.r2 = extra;
        r.r3 = poppedCount;
        r.r4 = (int)(queue.overflowPushes() - spilledBefore);
        if (queue.size() == 0 && guard < 4 * TASKS) {
            Shared.POOL.offer(queue);
        }
    }
}
