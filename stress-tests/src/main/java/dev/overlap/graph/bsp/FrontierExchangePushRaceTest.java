package dev.overlap.graph.bsp;

import dev.overlap.core.Mesh;
import dev.overlap.graph.CsrGraph;
import dev.overlap.graph.app.WorkerCounters;
import dev.overlap.graph.partition.Partition;
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
 * The BSP apps' {@link FrontierExchange} (in this package because it is package-private): two workers of different
 * devices push into both devices' next frontiers at once, as the blocks of one superstep do. Each push stages an
 * entry; a full staging buffer (2 entries here) and {@code flush} send it as one message: a {@code getAndAdd} on the
 * destination's counter reserves slots, then one bulk copy writes them. Worker A (device 0) pushes 2 entries to
 * device 0 (a full buffer: sent), 1 to device 1 and flushes; worker B (device 1) pushes 2 to device 1, 2 to device 0
 * and 1 more to device 1, then flushes. The arbiter is the host after the superstep: {@code advance()} makes next
 * current; each device must hold its 4 entries exactly once (no slot reserved twice, none left unwritten).
 *
 * <p>Entries are {@code round * 8 + i}, the round counting the supersteps of the exchange: a state cannot allocate
 * device memory (jcstress makes thousands), so exchanges are pooled and reused superstep after superstep, as an app
 * reuses one, and a slot that was reserved but not written still holds an entry of an earlier round.
 *
 * <p>Results: per device, the entries of this round in its frontier as a bit mask (15 = entries 0..3) and its size.
 */
@JCStressTest
@Description("FrontierExchange: racing pushes from two devices land in each next frontier exactly once")
@Outcome(id = "15, 4, 15, 4", expect = ACCEPTABLE, desc = "both frontiers hold their 4 entries, once each")
@Outcome(expect = FORBIDDEN, desc = "an entry lost, duplicated, unwritten (stale) or a wrong frontier size")
@State
public class FrontierExchangePushRaceTest {
    private static final int STAGE = 2;

    /** One mesh per fork (2 devices, one worker row each) and a pool of exchanges over it. */
    private static final class Shared {
        static final Mesh MESH = Mesh.builder().name("jcstress-bsp").devices(2).threadsPerDevice(1)
            .memoryPerDevice(16 << 20).build();
        /** 8 vertices, no edges: devices own 4 each. */
        static final Partition PARTITION =
            Partition.byEdges(CsrGraph.wrap(new long[9], new int[0], null, true), 2);
        static final ConcurrentLinkedQueue<Pooled> POOL = new ConcurrentLinkedQueue<>();
    }

    private static final class Pooled {
        final FrontierExchange fx = new FrontierExchange(Shared.MESH, Shared.PARTITION, STAGE);
        int round;
    }

    private final Pooled pooled;
    private final FrontierExchange fx;
    private final int base;
    private final WorkerCounters counters = new WorkerCounters(2, 1);

    public FrontierExchangePushRaceTest() {
        final Pooled p = Shared.POOL.poll();
        pooled = p != null ? p : new Pooled();
        pooled.round++;
        fx = pooled.fx;
        base = pooled.round * 8;
    }

    @Actor
    public void workerOfDevice0() {
        fx.push(0, 0, 0, base, counters);
        fx.push(0, 0, 0, base + 1, counters);
        fx.push(0, 0, 1, base, counters);
        fx.flush(0, 0, counters);
    }

    @Actor
    public void workerOfDevice1() {
        fx.push(1, 0, 1, base + 1, counters);
        fx.push(1, 0, 1, base + 2, counters);
        fx.push(1, 0, 0, base + 2, counters);
        fx.push(1, 0, 0, base + 3, counters);
        fx.push(1, 0, 1, base + 3, counters);
        fx.flush(1, 0, counters);
    }

    @Arbiter
    public void host(final IIII_Result r) {
        fx.advance();
        r.r1 = entries(0);
        r.r2 = fx.size(0);
        r.r3 = entries(1);
        r.r4 = fx.size(1);
        Shared.POOL.offer(pooled);
    }

    /** @return a bit per entry of this round in device {@code d}'s frontier; 16 flags an entry of another round */
    private int entries(final int d) {
        int mask = 0;
        for (int i = 0; i < Math.min(fx.size(d), 4); i++) {
            final int e = fx.current(d).get(i) - base;
            mask |= e >= 0 && e < 4 ? 1 << e : 16;
        }
        return mask;
    }
}
