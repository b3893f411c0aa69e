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
import org.openjdk.jcstress.infra.results.IIII_Result;

import java.util.concurrent.atomic.AtomicInteger;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * A whole {@link DistributedWorklist} run per jcstress state (2 devices of one worker, persistent kernels, batched
 * remote pushes): tasks 0 and 1 are seeded on devices 0 and 1, and task {@code k} pushes task {@code k + 2} to the
 * other device (see {@link #owner}), up to tasks 6 and 7, so every task but the seeds travels through an aggregator
 * and an inbox, and the two chains race each other through both devices. Whichever of tasks 6 and 7 ends its chain
 * second is then the run's only live task: before it pushes the last task, {@value #LAST}, to the other device, it
 * waits until that device's worker, idle, has finished two polls that found nothing ({@link EmptyPolls}), so at least
 * one whole termination check falls while the task runs. Each task records its run in a plain {@code int[]} of the
 * state. When {@code run} returns, the host must see every task run exactly once, on its own device: termination
 * detected early leaves a task unrun (or running), and a task applied twice counts twice; the plain writes also check
 * that everything a run did happens-before {@code run} returns.
 *
 * <p>Why the wait: a worklist that counted a task completed when it took it, before running it (mutant
 * {@code mutants/worklist-complete-before-run.patch}), balances its counts for as long as the task runs; with tasks
 * of a few nanoseconds and an idle worker that backs off, an idle check rarely fell inside one, and this test (without
 * the wait) passed the mutant. With it, the check inside the last task sees the balance in every state, the run ends,
 * and task {@value #LAST} never runs.
 *
 * <p>As in {@code ReplicatedRegionTransferTest}, the racing threads are the worklist's own (device workers,
 * aggregators, inboxes, the idle worker's termination check) and the single actor is the host: a state cannot build a
 * mesh, so one worklist per fork runs one job per state, as an application reuses it run after run. Tasks carry the
 * state's round number so that a late task of an earlier run counts as stale, not as one of this run.
 *
 * <p>Results: tasks run exactly once on their device (less stale tasks run), runs recorded, tasks counted by the
 * run's statistics, and whether the last task's wait for the idle worker ran out (after 1 s, far beyond the
 * microseconds it takes: a state where it ran out went on without its check).
 */
@JCStressTest
@Description("DistributedWorklist.run returns only after every task ran exactly once, on its owner device")
@Outcome(id = "9, 9, 9, 0", expect = ACCEPTABLE, desc = "all 9 tasks ran once each, on their devices, before run returned")
@Outcome(id = "9, 9, 9, 1", expect = ACCEPTABLE_INTERESTING,
    desc = "all 9 tasks ran once each, but the idle worker did not poll twice within 1 s while the last task waited")
@Outcome(expect = FORBIDDEN, desc = "a task lost, run twice, run on another device, stale, or run after run returned")
@State
public class DistributedWorklistRunTest {
    /** Tasks 0..7 make the two chains; task 8 is pushed by whichever of 6 and 7 ends its chain second. */
    private static final int LAST = 8;
    private static final int TASKS = LAST + 1;
    private static final long HOLD_BOUND_NANOS = 1_000_000_000L;

    /** The fork's mesh and worklist; never closed (daemon threads die with the fork). */
    private static final class Shared {
        static final EmptyPolls POLLS = new EmptyPolls();
        static final Mesh MESH = Mesh.builder().name("jcstress-worklist").devices(2).threadsPerDevice(1)
            .idleStrategy(POLLS.idleStrategy()).memoryPerDevice(4 << 20).build();
        static final DistributedWorklist WORKLIST = DistributedWorklist.builder(MESH).queueCapacity(64)
            .ringCapacity(4096).remote(AggregatorConfig.batched(64, 8)).build();
        static int rounds;
    }

    @Actor
    public void host(final IIII_Result r) {
        final DistributedWorklist worklist = Shared.WORKLIST;
        final int base = (++Shared.rounds & 0xffff) * 16;
        final int[] runs = new int[TASKS];
        final int[] wrongDevice = new int[1];
        final int[] stale = new int[1];
        final int[] lastDevice = {-1};
        final int[] holdRanOut = new int[1];
        final AtomicInteger chainsEnded = new AtomicInteger();
        worklist.seed(0, base);
        worklist.seed(1, base + 1);
        final WorklistStats stats = worklist.run(WorkerShape.THREAD, KernelMode.PERSISTENT, (task, ctx) -> {
            final int k = task - base;
            if (k < 0 || k >= TASKS) {
                stale[0]++;
                return;
            }
            runs[k]++;
            if (ctx.device() != (k == LAST ? lastDevice[0] : owner(k))) {
                wrongDevice[0]++;
            }
            if (k + 2 < LAST) {
                ctx.pushTo(owner(k + 2), task + 2);
            } else if (k < LAST && chainsEnded.incrementAndGet() == 2) {
                if (!Shared.POLLS.awaitTwoOthers(HOLD_BOUND_NANOS)) {
                    holdRanOut[0] = 1;
                }
                lastDevice[0] = 1 - ctx.device();
                ctx.pushTo(lastDevice[0], base + LAST);
            }
        });
        int once = 0;
        int total = 0;
        for (final int n : runs) {
            once += n == 1 ? 1 : 0;
            total += n;
        }
        r.r1 = once - wrongDevice[0] - stale[0];
        r.r2 = total;
        r.r3 = (int)stats.tasks();
        r.r4 = holdRanOut[0];
    }

    /** Device of task {@code k}: 0, 1, 1, 0, 0, 1, 1, 0, so each task's child (k + 2) lives on the other device. */
    static int owner(final int k) {
        return (k + (k >> 1)) & 1;
    }
}
