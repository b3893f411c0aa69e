package dev.overlap.stress.worklist;

import dev.overlap.core.IdleStrategies;
import dev.overlap.core.Mesh;
import dev.overlap.worklist.DistributedWorklist;
import dev.overlap.worklist.KernelMode;
import dev.overlap.worklist.TaskContext;
import dev.overlap.worklist.WorkerShape;
import dev.overlap.worklist.WorklistStats;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * The library's own termination detection against its own <em>staged</em> local pushes: one whole
 * {@link DistributedWorklist} run per jcstress state, on a device with two workers (persistent kernels, one task per
 * pop). The run is a chain: the seed pushes its successor with {@link TaskContext#push}, which stages it in the
 * worker's private array until the fetch ends, and so on for {@value #CHAIN} tasks. At every step the only live task
 * is in a function, in a staging array or in the device's queue, and the other worker is idle, checking termination
 * with nothing else to do (a yielding idle strategy, so it checks as often as it can). The worklist must count a
 * staged task created before it counts the task that pushed it completed; counted the other way round, the created
 * and completed sums balance for a moment with the chain alive, and an idle check that falls in that moment ends the
 * run with the rest of the chain never run (and the successor left queued, to surface in the next run).
 *
 * <p>As in {@link DistributedWorklistRunTest}, the racing threads are the worklist's own (the two device workers:
 * the one running the chain and the idle one checking termination) and the single actor is the host; one worklist per
 * fork runs one job per state. Tasks carry the state's round, so a task left over by an earlier run counts as stale.
 * The window is a few nanoseconds per task, hence a long chain per state: under the CI budget that is millions of
 * windows per run of this test.
 *
 * <p>Results: tasks of the chain that ran exactly once; runs of the chain's tasks counted in all (a task run twice
 * counts twice); stale tasks run plus tasks still queued after {@code run} returned, plus tasks the run's statistics
 * miss or add.
 */
@JCStressTest
@Description("DistributedWorklist.run never ends while a staged local push is alive: every task of the chain runs once")
@Outcome(id = "2048, 2048, 0", expect = ACCEPTABLE, desc = "the whole chain ran, each task once, before run returned")
@Outcome(expect = FORBIDDEN, desc = "premature termination (chain cut short), a task run twice, or a task left queued")
@State
public class WorklistTerminationStress {
    static final int CHAIN = 2048;

    /** The fork's mesh and worklist; never closed (daemon threads die with the fork). */
    private static final class Shared {
        static final Mesh MESH = Mesh.builder().name("jcstress-termination").devices(1).threadsPerDevice(2)
            .idleStrategy(IdleStrategies.parse("yield")).memoryPerDevice(4 << 20).build();
        static final DistributedWorklist WORKLIST = DistributedWorklist.builder(MESH).queueCapacity(64)
            .ringCapacity(4096).build();
        static int rounds;
    }

    @Actor
    public void host(final III_Result r) {
        final DistributedWorklist worklist = Shared.WORKLIST;
        final int base = (++Shared.rounds & 0x7fff) * CHAIN;
        final int[] runs = new int[CHAIN];
        final int[] stale = new int[1];
        worklist.seed(0, base);
        final WorklistStats stats = worklist.run(WorkerShape.THREAD, KernelMode.PERSISTENT,
            (final int task, final TaskContext ctx) -> {
                final int k = task - base;
                if (k < 0 || k >= CHAIN) {
                    stale[0]++;
                    return;
                }
                runs[k]++;
                if (k + 1 < CHAIN) {
                    ctx.push(task + 1);
                }
            });
        int once = 0;
        int total = 0;
        for (final int n : runs) {
            once += n == 1 ? 1 : 0;
            total += n;
        }
        r.r1 = once;
        r.r2 = total;
        r.r3 = stale[0] + (int)worklist.queuedTasks(0) + Math.abs((int)stats.tasks() - total - stale[0]);
    }
}
