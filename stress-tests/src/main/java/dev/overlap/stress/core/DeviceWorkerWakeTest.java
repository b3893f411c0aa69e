package dev.overlap.stress.core;

import dev.overlap.core.Device;
import dev.overlap.core.IntArray;
import dev.overlap.core.KernelLaunch;
import dev.overlap.core.Mesh;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

import java.util.concurrent.TimeUnit;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * A launch submitted while a device's worker is going to sleep is never lost. The device's worker threads
 * ({@code DeviceWorker}) follow the launch stream and, when it is empty, publish that they park and then look at the
 * stream once more before parking; {@link Device#launch} links the launch into the stream and then wakes every worker
 * it sees parked. If either side skipped or reordered its half of that handshake, a launch linked between the
 * worker's last look and its park would never run: nobody would wake the worker until the next launch.
 *
 * <p>The handshake is hit as often as the test can make it: a mesh of its own per fork with one device of <em>one</em>
 * worker (a second worker would run the launch and hide a lost wake-up) that parks as soon as it finds the stream
 * empty ({@code parkAfterMicros(0)}: no spinning or yielding first). The single actor launches {@value #LAUNCHES}
 * one-block kernels in a row; each block stores the state's tag into its own cell (a {@link SlotRing} slot), and the
 * actor submits the next launch as soon as it sees that store, while the worker is completing the launch and on its
 * way to park. A launch whose block has not run after {@value #TIMEOUT_MS} ms (a one-block kernel takes microseconds,
 * even on a loaded machine) counts as lost and ends the state; the next state's launch wakes the worker again, so one
 * loss does not spoil the states after it. The actor finally joins the last launch (stream order: the others
 * completed before it), and the arbiter counts the cells again.
 *
 * <p>Results: launches whose block ran in time; whether the join of the last one returned in time; cells holding the
 * tag when the arbiter looks.
 */
@JCStressTest
@Description("Device workers: a launch submitted while the worker is parking is never lost")
@Outcome(id = "4, 1, 4", expect = ACCEPTABLE, desc = "every launch ran, the last join returned, all stores visible")
@Outcome(expect = FORBIDDEN, desc = "a launch lost (the worker slept past a launch linked as it parked), or a store "
    + "not visible after the join")
@State
public class DeviceWorkerWakeTest {
    static final long TIMEOUT_MS = 1_000;
    /** Launches per state. */
    static final int LAUNCHES = 4;

    private static final class Shared {
        static final Mesh MESH = Mesh.builder().name("jcstress-wake").devices(1).threadsPerDevice(1)
            .parkAfterMicros(0).memoryPerDevice(2 << 20).build();
        static final Device DEVICE = MESH.device(0);
        static final SlotRing RING = new SlotRing();
        static final IntArray CELLS = DEVICE.allocateInts((long)SlotRing.SLOTS * LAUNCHES);
    }

    private final IntArray cells = Shared.CELLS;
    private final long ticket = Shared.RING.claim();
    private final int base = SlotRing.slot(ticket) * LAUNCHES;
    private final int tag = SlotRing.tag(ticket);

    @Actor
    public void launcher(final III_Result r) {
        final IntArray c = cells;
        final int t = tag;
        int ran = 0;
        KernelLaunch launch = null;
        for (int i = 0; i < LAUNCHES; i++) {
            final int cell = base + i;
            launch = Shared.DEVICE.launch(1, (ctx, block) -> c.set(cell, t));
            final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(TIMEOUT_MS);
            while (c.getVolatile(cell) != t) {
                if (System.nanoTime() - deadline > 0) {
                    // lost: report it and leave the state (the next state's launch wakes the worker again)
                    r.r1 = ran;
                    r.r2 = 0;
                    return;
                }
                Thread.onSpinWait();
            }
            ran++;
        }
        r.r1 = ran;
        r.r2 = launch.join(TIMEOUT_MS, TimeUnit.MILLISECONDS) ? 1 : 0;
    }

    @Arbiter
    public void arbiter(final III_Result r) {
        Shared.RING.verify(ticket);
        int seen = 0;
        for (int i = 0; i < LAUNCHES; i++) {
            seen += cells.get(base + i) == tag ? 1 : 0;
        }
        r.r3 = seen;
    }
}
