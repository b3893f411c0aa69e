package dev.overlap.stress.worklist;

import dev.overlap.core.IdleStrategies;
import dev.overlap.core.Mesh;
import dev.overlap.worklist.DistributedWorklist;
import dev.overlap.worklist.KernelMode;
import dev.overlap.worklist.TaskContext;
import dev.overlap.worklist.WorkerShape;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Idle sweeps of the library's {@link DistributedWorklist}: with an idle function, a quiescent moment only opens a
 * sweep, in which every worker runs the idle function once more and acknowledges it (its {@link TaskContext}'s
 * volatile sweep acknowledgement); the run ends only when every worker acknowledged and no task was created since the
 * sweep opened. A worker must acknowledge <em>after</em> its idle function returned and its pushes were published:
 * acknowledged before, the last check can find every worker acknowledged and nothing created while an idle function
 * is still about to push, and the run ends with that task never run.
 *
 * <p>One run per state on the fork's worklist (one device, two workers, persistent kernels), with nothing seeded:
 * the run starts quiescent and opens a sweep at once. Worker 0 pushes one task from its second idle call of the run
 * (most often a sweep's call), after a pause of 50 us that stands for an idle function's scan, so that whatever the
 * other worker does meanwhile has time to happen (the pause yields: two workers and the host's join share two cores,
 * and a spinning pause would keep the other worker off the cores for all of it). The task records that it ran
 * (plain writes; the run's end happens-before {@code run} returns). Sometimes the sweep completes before worker 0
 * makes a second call: then nothing is pushed, which is fine.
 *
 * <p>Results: tasks pushed by the idle function (0 or 1); times the task ran; tasks left queued or stale.
 */
@JCStressTest
@Description("DistributedWorklist idle sweeps: a task pushed by an idle function during a sweep always runs")
@Outcome(id = "1, 1, 0", expect = ACCEPTABLE, desc = "the idle function pushed the task and it ran once")
@Outcome(id = "0, 0, 0", expect = ACCEPTABLE, desc = "the run ended before worker 0's second idle call: no push")
@Outcome(expect = FORBIDDEN, desc = "a task pushed during a sweep never ran (the sweep ended early) or ran twice")
@State
public class WorklistIdleSweepStress {
    private static final long PAUSE_NANOS = 50_000;

    /** The fork's mesh and worklist; never closed (daemon threads die with the fork). */
    private static final class Shared {
        static final Mesh MESH = Mesh.builder().name("jcstress-sweep").devices(1).threadsPerDevice(2)
            .idleStrategy(IdleStrategies.parse("yield")).memoryPerDevice(4 << 20).build();
        static final DistributedWorklist WORKLIST = DistributedWorklist.builder(MESH).queueCapacity(64)
            .ringCapacity(4096).build();
        static int rounds;
    }

    @Actor
    public void host(final III_Result r) {
        final DistributedWorklist worklist = Shared.WORKLIST;
        final int task = ++Shared.rounds & 0x3fff_ffff;
        final int[] idleCalls = new int[2];
        final int[] pushed = new int[1];
        final int[] ran = new int[1];
        final int[] stale = new int[1];
        worklist.run(WorkerShape.THREAD, KernelMode.PERSISTENT, (final int t, final TaskContext ctx) -> {
            if (t == task) {
                ran[0]++;
            } else {
                stale[0]++;
            }
        }, (final TaskContext ctx) -> {
            if (ctx.worker() == 0 && ++idleCalls[0] == 2) {
                final long until = System.nanoTime() + PAUSE_NANOS;
                while (System.nanoTime() - until < 0) {
                    Thread.yield();
                }
                ctx.push(task);
                pushed[0]++;
            }
        });
        r.r1 = pushed[0];
        r.r2 = ran[0];
        r.r3 = stale[0] + (int)worklist.queuedTasks(0);
    }
}
