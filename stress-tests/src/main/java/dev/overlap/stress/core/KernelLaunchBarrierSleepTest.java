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
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.locks.LockSupport;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * A worker asleep in a persistent launch's barrier ({@link KernelLaunch#syncWorkers}) is never left asleep. A waiting
 * worker that has waited long enough counts itself as a sleeper and then looks at the round once more before it
 * parks; the last arrival publishes the round and then, when it sees a sleeper, unparks the device's other workers. If
 * either side skipped or reordered its half of that handshake, a worker that parks just as the round completes would
 * sleep until the launch is stopped, and the launch would never end by itself.
 *
 * <p>The handshake is hit as often as the test can make it: a mesh of its own per fork with one device of two workers
 * that park as soon as they wait ({@code parkAfterMicros(0)}: no spinning or yielding first), so every round's first
 * arrival goes to sleep, and the two workers meet at a start line of the test's own before each barrier call
 * ({@link #together}), so that the second arrives while the first is on its way to sleep. The single actor launches a persistent kernel whose two workers
 * pass {@value #ROUNDS} rounds: in each, a worker stores the round's value (from the state's tag) into its own cell
 * with a plain store, waits at the barrier, and reads the other worker's cell, which must hold the same round's value;
 * after the last round worker 0 stops the launch. A launch that has not ended after {@value #TIMEOUT_MS} ms (its rounds
 * take microseconds each, even on a loaded machine) holds a worker that slept through its round: it counts as a lost
 * wake-up, and the actor stops it and unparks its workers ({@link #free}) so that the next state starts on a free
 * device.
 *
 * <p>Results: rounds in which both workers saw the other's value; whether the launch ended in time by itself; cells
 * holding the last round's value when the arbiter looks.
 */
@JCStressTest
@Description("Persistent kernel: a worker asleep in syncWorkers() is woken by the round's last arrival")
@Outcome(id = "4, 1, 2", expect = ACCEPTABLE, desc = "every round passed by both workers, the launch ended by itself")
@Outcome(expect = FORBIDDEN, desc = "a worker slept through its round (lost wake-up), or left the barrier without the "
    + "other's value (-1: a worker never finished its rounds)")
@State
public class KernelLaunchBarrierSleepTest {
    static final long TIMEOUT_MS = 1_000;
    /** Barrier rounds per state. */
    static final int ROUNDS = 4;
    /** Per state: the two workers' cells, then the rounds each saw. */
    private static final int WIDTH = 4;

    private static final class Shared {
        static final Mesh MESH = Mesh.builder().name("jcstress-barrier-sleep").devices(1).threadsPerDevice(2)
            .parkAfterMicros(0).memoryPerDevice(2 << 20).build();
        static final Device DEVICE = MESH.device(0);
        static final SlotRing RING = new SlotRing();
        static final IntArray CELLS = DEVICE.allocateInts((long)SlotRing.SLOTS * WIDTH);
        /** The device's two worker threads, as their kernels find them (the same two for every state). */
        static final AtomicReferenceArray<Thread> WORKERS = new AtomicReferenceArray<>(2);
    }

    private final IntArray cells = Shared.CELLS;
    private final long ticket = Shared.RING.claim();
    private final int base = SlotRing.slot(ticket) * WIDTH;
    /**
     * Round {@code r}'s value is {@code tag + r}: the slot's earlier owners had tickets at least
     * {@link SlotRing#SLOTS} (far more than the rounds) away, so no value of theirs equals one of this state's.
     */
    private final int tag = SlotRing.tag(ticket);

    /** Start lines passed, by both workers together ({@link #together}). */
    private final AtomicInteger line = new AtomicInteger();
    /** Set by the actor when the launch did not end in time: the start lines then let the workers through. */
    private volatile boolean abandoned;

    /**
     * A start line before barrier call {@code k} of the state: the calling worker waits until both workers have
     * reached it, so that they call the barrier at the same moment, and the first arrival's way to sleep overlaps the
     * last arrival's publication of the round as often as the machine allows (without it, the worker the last
     * barrier woke arrives later, and the other has long been asleep). Test code: a counter, polled with a yield
     * between reads.
     *
     * @return false when the actor has given the launch up
     */
    private boolean together(final int k) {
        line.incrementAndGet();
        while (line.get() < 2 * k) {
            if (abandoned) {
                return false;
            }
            Thread.yield(); // three threads (the actor, two workers) on two cores: let the late one run
        }
        return true;
    }

    @Actor
    public void launcher(final III_Result r) {
        final IntArray c = cells;
        final int from = base;
        final int v0 = tag;
        final KernelLaunch launch = Shared.DEVICE.launchPersistent(ctx -> {
            final int w = ctx.workerIndex();
            Shared.WORKERS.lazySet(w, Thread.currentThread());
            if (passed(c.get(from + 2 + w), v0) >= 0) {
                return 0; // this worker has been through its rounds: it polls idly until worker 0 stops the launch
            }
            int seen = 0;
            for (int round = 1; round <= ROUNDS; round++) {
                c.set(from + w, v0 + round);
                if (!together(2 * round - 1) || !ctx.syncWorkers()) {
                    return 0; // stopped by the actor after a lost wake-up
                }
                seen += c.get(from + (1 - w)) == v0 + round ? 1 : 0;
                // nobody writes the next round before both have read this one
                if (!together(2 * round) || !ctx.syncWorkers()) {
                    return 0;
                }
            }
            c.set(from + 2 + w, v0 + seen);
            if (w == 0) {
                ctx.stopLaunch();
            }
            return 1;
        });
        if (launch.join(TIMEOUT_MS, TimeUnit.MILLISECONDS)) {
            r.r2 = 1;
        } else {
            r.r2 = 0;
            abandoned = true;
            free(launch);
        }
        r.r1 = Math.min(passed(c.get(from + 2), v0), passed(c.get(from + 3), v0));
    }

    /**
     * Ends a launch that a worker slept through, so that the next state gets a free device: stops it, and while it has
     * not ended, unparks both workers (the stop wakes the barrier's sleepers only through the handshake under test,
     * which has just failed once; a worker woken here sees the stop and leaves).
     */
    private static void free(final KernelLaunch launch) {
        launch.stop();
        while (!launch.join(TIMEOUT_MS, TimeUnit.MILLISECONDS)) {
            for (int w = 0; w < 2; w++) {
                final Thread t = Shared.WORKERS.get(w);
                if (t != null) {
                    LockSupport.unpark(t);
                }
            }
        }
    }

    /** @return the rounds a worker's result cell says it passed, or -1 when this state's worker never wrote it */
    private static int passed(final int cell, final int tag) {
        final int seen = cell - tag;
        return seen >= 0 && seen <= ROUNDS ? seen : -1;
    }

    @Arbiter
    public void arbiter(final III_Result r) {
        Shared.RING.verify(ticket);
        int last = 0;
        for (int w = 0; w < 2; w++) {
            last += cells.get(base + w) == tag + ROUNDS ? 1 : 0;
        }
        r.r3 = last;
    }
}
