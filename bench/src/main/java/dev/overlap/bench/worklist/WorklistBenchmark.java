package dev.overlap.bench.worklist;

import dev.overlap.bench.report.BusyThreads;
import dev.overlap.bench.report.ComparedTo;
import dev.overlap.bench.report.Quick;
import dev.overlap.bench.report.RatioStyle;
import dev.overlap.core.Mesh;
import dev.overlap.worklist.DistributedWorklist;
import dev.overlap.worklist.KernelMode;
import dev.overlap.worklist.TaskFunction;
import dev.overlap.worklist.WorkerShape;
import dev.overlap.worklist.WorklistStats;
import dev.overlap.transport.AggregatorConfig;
import org.jctools.queues.MpmcArrayQueue;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;

/**
 * <b>What is measured:</b> tasks/s through the distributed worklist (Atos {@code DistributedQueues}) with a trivial
 * task function, and the framework's cost per task against a hand-written loop. Work: {@value #CHAINS} chains of
 * {@value #HOPS} tasks; a task with hops left pushes the next one ({@value #TASKS} tasks per invocation; the score is
 * tasks/s). Persistent kernels, {@link WorkerShape#WARP} unless {@code shape} says otherwise.
 * <ul>
 *   <li>{@link #remote}: 2 devices x 1 worker; every task is pushed to the other device through the worker's
 *       aggregator of {@code batchTasks} tasks per message ({@code 0}: eager, one message per task) — the Atos Fig. 4
 *       trade-off for tasks;</li>
 *   <li>{@link #local}: the same 2 devices, every task pushed to the worker's own device (the reference for
 *       {@link #remote}: target remote at batch >= 256 within 2x of local);</li>
 *   <li>{@link #framework}: 1 device x 1 worker, local pushes — per-task cost of the framework (queue pop and push,
 *       termination counting, worker loop);</li>
 *   <li>{@link #jctoolsLoop}: the same chains as a plain single-threaded loop over a JCTools {@code MpmcArrayQueue}
 *       of pre-boxed {@code Integer}s (nothing allocated), running until the queue is empty: the floor a JVM user
 *       would hand-write (target: framework within 1.5x of its time per task).</li>
 * </ul>
 * The mesh's workers plus the host thread (which waits in {@code join}: spins briefly, then yields and parks) are 3
 * threads for {@link #remote}/{@link #local} on 2 cores; 2 of them are busy.
 */
@BusyThreads("2")
@Quick(params = {"batchTasks=0,256,4096", "shape=warp"}, warmupIterations = 1, iterations = 3, time = "500ms",
    warmupTime = "500ms")
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED"})
public class WorklistBenchmark {
    static final int CHAINS = 1024;
    static final int HOPS = 64;
    static final int TASKS = CHAINS * HOPS;
    private static final int HOP = 1 << 20;

    static WorkerShape shape(final String name) {
        switch (name) {
            case "thread":
                return WorkerShape.THREAD;
            case "warp":
                return WorkerShape.WARP;
            default:
                throw new IllegalArgumentException("shape must be thread or warp, was " + name);
        }
    }

    /** Two devices of one worker each. */
    public abstract static class TwoDevices {
        Mesh mesh;
        DistributedWorklist worklist;

        void open(final AggregatorConfig remote) {
            mesh = Mesh.builder().devices(2).threadsPerDevice(1).memoryPerDevice(64 << 20).name("wl-bench").build();
            worklist = DistributedWorklist.builder(mesh).queueCapacity(1 << 18).ringCapacity(1 << 20).remote(remote)
                .build();
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            worklist.close();
            mesh.close();
        }
    }

    /** Two devices pushing every task to each other. */
    @State(Scope.Benchmark)
    public static class Remote extends TwoDevices {
        /** Tasks per remote message; 0 = eager. */
        @Param({"0", "16", "64", "256", "1024", "4096"})
        public int batchTasks;

        final TaskFunction toOther = (t, ctx) -> {
            if (t >= HOP) {
                ctx.pushTo(1 - ctx.device(), t - HOP);
            }
        };

        @Setup(Level.Trial)
        public void setUp() {
            open(batchTasks == 0 ? AggregatorConfig.eager() : AggregatorConfig.batched(8 + 4 * batchTasks, 64));
        }
    }

    /** Two devices pushing every task to themselves. */
    @State(Scope.Benchmark)
    public static class Local extends TwoDevices {
        final TaskFunction toSelf = (t, ctx) -> {
            if (t >= HOP) {
                ctx.push(t - HOP);
            }
        };

        @Setup(Level.Trial)
        public void setUp() {
            open(AggregatorConfig.batched(16 << 10, 64));
        }
    }

    /** One device of one worker. */
    @State(Scope.Benchmark)
    public static class OneDevice {
        /** Worker shape: {@code thread} (1 task per pop) or {@code warp} (32). */
        @Param({"thread", "warp"})
        public String shape;

        Mesh mesh;
        DistributedWorklist worklist;
        WorkerShape workerShape;
        final TaskFunction toSelf = (t, ctx) -> {
            if (t >= HOP) {
                ctx.push(t - HOP);
            }
        };

        @Setup(Level.Trial)
        public void setUp() {
            workerShape = shape(shape);
            mesh = Mesh.builder().devices(1).threadsPerDevice(1).memoryPerDevice(64 << 20).name("wl-bench1").build();
            worklist = DistributedWorklist.builder(mesh).queueCapacity(1 << 18).ringCapacity(1 << 16).build();
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            worklist.close();
            mesh.close();
        }
    }

    /** The hand-written peer: a JCTools MPMC queue of pre-boxed task values. */
    @State(Scope.Benchmark)
    public static class Jctools {
        final MpmcArrayQueue<Integer> queue = new MpmcArrayQueue<>(1 << 18);
        final Integer[] boxes = new Integer[TASKS];

        @Setup(Level.Trial)
        public void setUp() {
            for (int h = 0; h < HOPS; h++) {
                for (int c = 0; c < CHAINS; c++) {
                    boxes[h * CHAINS + c] = h * HOP + c;
                }
            }
        }

        Integer box(final int task) {
            return boxes[(task >>> 20) * CHAINS + (task & (HOP - 1))];
        }
    }

    private static void seed(final DistributedWorklist wl, final int devices) {
        for (int c = 0; c < CHAINS; c++) {
            wl.seed(c % devices, (HOPS - 1) * HOP + c);
        }
    }

    private static long check(final WorklistStats stats) {
        if (stats.tasks() != TASKS) {
            throw new IllegalStateException("ran " + stats.tasks() + " tasks, expected " + TASKS + ": " + stats);
        }
        return stats.messagesSent();
    }

    @Benchmark
    @OperationsPerInvocation(TASKS)
    @ComparedTo(value = "local", name = "remote vs local", style = RatioStyle.SPEEDUP)
    public long remote(final Remote s) {
        seed(s.worklist, 2);
        return check(s.worklist.run(WorkerShape.WARP, KernelMode.PERSISTENT, s.toOther));
    }

    @Benchmark
    @OperationsPerInvocation(TASKS)
    public long local(final Local s) {
        seed(s.worklist, 2);
        return check(s.worklist.run(WorkerShape.WARP, KernelMode.PERSISTENT, s.toSelf));
    }

    @Benchmark
    @OperationsPerInvocation(TASKS)
    @ComparedTo(value = "jctoolsLoop", name = "framework vs JCTools loop", style = RatioStyle.SPEEDUP)
    public long framework(final OneDevice s) {
        seed(s.worklist, 1);
        return check(s.worklist.run(s.workerShape, KernelMode.PERSISTENT, s.toSelf));
    }

    @Benchmark
    @OperationsPerInvocation(TASKS)
    public long jctoolsLoop(final Jctools s) {
        final MpmcArrayQueue<Integer> q = s.queue;
        for (int c = 0; c < CHAINS; c++) {
            q.offer(s.box((HOPS - 1) * HOP + c));
        }
        long ran = 0;
        Integer x;
        while ((x = q.poll()) != null) {
            final int t = x;
            ran++;
            if (t >= HOP) {
                q.offer(s.box(t - HOP));
            }
        }
        if (ran != TASKS) {
            throw new IllegalStateException("ran " + ran + " tasks, expected " + TASKS);
        }
        return ran;
    }
}
