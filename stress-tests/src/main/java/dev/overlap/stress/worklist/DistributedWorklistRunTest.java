package dev.overlap.stress.worklist;

import dev.overlap.core.Mesh;
import dev.overlap.worklist.DistributedWorklist;
import dev.overlap.worklist.KernelMode;
import dev.overlap.worklist.WorkerShape;
import dev.overlap.worklist.WorklistStats;
import dev.overlap.transport.AggregatorConfig;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * A whole {@link DistributedWorklist} run per jcstress state (2 devices of one worker, persistent kernels, batched
 * remote pushes): tasks 0 and 1 are seeded on devices 0 and 1, and task {@code k} pushes task {@code k + 2} to the
 * other device (see {@link #owner}), up to task 7, so every task but the seeds travels through an aggregator and an
 * inbox. Each task records its run in a plain {@code int[]} of the state. When {@code run} returns, the host must see
 * every task run exactly once, on its own device: termination detected early leaves a task unrun (or running), and
 * a task applied twice counts twice; the plain writes also check that everything a run did happens-before
 * {@code run} returns.
 *
 * <p>As in {@code ReplicatedRegionTransferTest}, the racing threads are the worklist's own (device workers,
 * aggregators, inboxes, the idle worker's termination check) and the single actor is the host: a state cannot build a
 * mesh, so one worklist per fork runs one job per state, as an application reuses it run after run. Tasks carry the
 * state's round number so a late task of an earlier run cannot pass for one of this run.
 *
 * <p>Results: tasks run exactly once on their device, runs recorded, tasks counted by the run's statistics.
 */
@JCStressTest
@Description("DistributedWorklist.run returns only after every task ran exactly once, on its owner device")
@Outcome(id = "8, 8, 8", expect = ACCEPTABLE, desc = "all 8 tasks ran once each, on their devices, before run returned")
@Outcome(expect = FORBIDDEN, desc = "a task lost, run twice, run on another device, or run after run returned")
@State
public class DistributedWorklistRunTest {
    private static final int TASKS = 8;

    /** The fork's mesh and worklist; never closed (daemon threads die with the fork). */
    private static final class Shared {
        static final Mesh MESH = Mesh.builder().name("jcstress-worklist").devices(2).threadsPerDevice(1)
            .memoryPerDevice(4 << 20).build();
        static final DistributedWorklist WORKLIST = DistributedWorklist.builder(MESH).queueCapacity(64)
            .ringCapacity(4096).remote(AggregatorConfig.batched(64, 8)).build();
        static int rounds;
    }

    @Actor
    public void host(final III_Result r) {
        final DistributedWorklist worklist = Shared.WORKLIST;
        final int base = ++Shared.rounds * 16;
        final int[] runs = new int[TASKS];
        final int[] wrongDevice = new int[1];
        worklist.seed(0, base);
        worklist.seed(1, base + 1);
        final WorklistStats stats = worklist.run(WorkerShape.THREAD, KernelMode.PERSISTENT, (task, ctx) -> {
            final int k = task - base;
            if (k < 0 || k >= TASKS) {
                throw new IllegalStateException("task " + task + " of another run in round " + base / 16);
            }
            runs[k]++;
            if (ctx.device() != owner(k)) {
                wrongDevice[0]++;
            }
            if (k + 2 < TASKS) {
                ctx.pushTo(owner(k + 2), task + 2);
            }
        });
        int once = 0;
        int total = 0;
        for (final int n : runs) {
            once += n == 1 ? 1 : 0;
            total += n;
        }
        r.r1 = once - wrongDevice[0];
        r.r2 = total;
        r.r3 = (int)stats.tasks();
    }

    /** Device of task {@code k}: 0, 1, 1, 0, 0, 1, 1, 0, so each task's child (k + 2) lives on the other device. */
    static int owner(final int k) {
        return (k + (k >> 1)) & 1;
    }
}
