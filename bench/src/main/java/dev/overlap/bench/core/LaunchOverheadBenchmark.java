package dev.overlap.bench.core;

import dev.overlap.core.Device;
import dev.overlap.core.IdleStrategies;
import dev.overlap.core.Kernel;
import dev.overlap.core.KernelLaunch;
import dev.overlap.core.Mesh;
import dev.overlap.bench.report.ComparedTo;
import dev.overlap.bench.report.Family;
import dev.overlap.bench.report.BusyThreads;
import dev.overlap.bench.report.Quick;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * <b>What is measured:</b> the fixed cost of running a discrete batch of {@code tasks} empty work items on a pool of
 * {@code threads} workers and waiting for all of them, from the submitting (JMH) thread: submit, hand-out,
 * completion detection, wake-up of the waiter. Nothing is computed, so the score is pure overhead.
 * <ul>
 *   <li>{@link #overlapLaunchJoin}: {@code device.launch(tasks, EMPTY).join()} on a one-device {@link Mesh} with
 *       {@code threads} workers (one kernel launch with {@code gridSize = tasks} empty blocks).</li>
 *   <li>Peer {@link #forkJoinInvokeAll}: {@code new ForkJoinPool(threads).invokeAll(callables)} with {@code tasks}
 *       empty {@link Callable}s.</li>
 *   <li>Peer {@link #threadPoolInvokeAll}: a fixed {@link ThreadPoolExecutor} of {@code threads} threads,
 *       {@code invokeAll(callables)}.</li>
 * </ul>
 * The callable list and the kernel are built once; the peers' {@code invokeAll} allocates one future per task,
 * which is their real cost and stays in. Our launch allocates one {@link KernelLaunch} per launch (also kept).
 * The peers' result lists are returned to JMH (implicit Blackhole) and checked in {@code @TearDown}.
 *
 * <p><b>Target:</b> Overlap no slower than the faster of the two peers, for every {@code threads} x {@code tasks}.
 *
 * <p><b>Idle strategy:</b> the {@link Mesh} default: {@code IdleStrategies.defaultFor(devices * threads + 1)}, which on
 * this 2-core machine is {@code BackoffIdleStrategy(8 spins, 8 yields, park 1 us .. 100 us)}, and a worker that has
 * idled for 100 us ({@code parkAfterMicros}, default) parks until the launcher unparks it. The launching thread's
 * {@code join()} spins 256x {@code onSpinWait}, yields 16x, then parks until the completing worker unparks it. The
 * JDK pools park idle workers on their queues (their only strategy).
 *
 * With {@code threads = 1} the default counts 2 busy threads on 2 cores, which {@code defaultFor} treats as
 * oversubscribed (it tests {@code busyThreads < cores}), hence the short 8/8 window in both cases.
 *
 * <p><b>Exploration parameters</b> (one value each in CI, so they add no smoke combinations): {@code idle} and
 * {@code parkAfterMicros} select the workers' idle strategy; {@code gapTokens} adds host work between batches (to
 * every variant, with {@link #hostGapOnly} as its baseline) so that workers are found backing off or parked instead
 * of spinning. With {@code gapTokens = 0} the launcher relaunches at once, the best case for a spinning worker.
 *
 * <p><b>Reading the results:</b> the Overlap score is bimodal per fork: when launcher and worker stay inside each
 * other's spin windows a round trip costs well under a microsecond; once one of them parks, every round trip pays a
 * thread wake-up (about what the peers pay on every call). Hence 3 forks by default; use {@code -bm sample} to see the
 * distribution. On 2 cores, {@code threads = 2} plus the submitting thread is 3 runnable threads: it measures the
 * scheduler as much as the pool. Compare only against the peers in the same run.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 3, jvmArgsAppend = {"--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED"})
@State(Scope.Benchmark)
@Family("core")
@BusyThreads("threads + 1")
@Quick(params = {"tasks=2,64"}, warmupTime = "200ms", time = "200ms")
public class LaunchOverheadBenchmark {
    /** An empty kernel: the launch is pure overhead. */
    private static final Kernel EMPTY = (ctx, block) -> {
    };

    /** An empty task for the peers. */
    private static final Callable<Object> NOTHING = () -> null;

    /** Worker threads of the device and of each peer pool. */
    @Param({"1", "2"})
    public int threads;

    /** Blocks per launch (= callables per invokeAll). */
    @Param({"2", "64"})
    public int tasks;

    /**
     * Idle strategy of the device's workers: {@code default} (the Mesh default, the only value CI runs) or any name
     * {@code IdleStrategies.parse} accepts (Agrona's aliases {@code spin}, {@code yield}, {@code backoff},
     * {@code sleep-ns}, ..., or a class name), for exploring with {@code -p idle=yield}.
     */
    @Param({"default"})
    public String idle;

    /** Microseconds an idle worker uses its idle strategy before parking until woken (Mesh default: 100). */
    @Param({"100"})
    public long parkAfterMicros;

    /**
     * Host-side work between two batches, in {@link Blackhole#consumeCPU} tokens (0 in CI). A gap lets idle workers
     * reach the deeper stages of their idle strategy, so a non-zero value measures launch latency to a worker that
     * is backing off or parked rather than spinning. The same gap is added to every variant; subtract the
     * {@code hostGapOnly} score to get the launch cost.
     */
    @Param({"0"})
    public int gapTokens;

    private Mesh mesh;
    private Device device;
    private ForkJoinPool forkJoin;
    private ExecutorService threadPool;
    private List<Callable<Object>> callables;
    private KernelLaunch lastLaunch;
    private List<Future<Object>> lastForkJoin;
    private List<Future<Object>> lastThreadPool;

    @Setup(Level.Trial)
    public void setUp() {
        final Mesh.Builder builder = Mesh.builder().name("launch-bench").devices(1).threadsPerDevice(threads)
            .memoryPerDevice(4096).parkAfterMicros(parkAfterMicros);
        if (!"default".equals(idle)) {
            builder.idleStrategy(IdleStrategies.parse(idle));
        }
        mesh = builder.build();
        device = mesh.device(0);
        forkJoin = new ForkJoinPool(threads);
        threadPool = new ThreadPoolExecutor(threads, threads, 0L, TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>());
        final List<Callable<Object>> list = new ArrayList<>(tasks);
        for (int i = 0; i < tasks; i++) {
            list.add(NOTHING);
        }
        callables = Collections.unmodifiableList(list);
    }

    @Benchmark
    @ComparedTo(value = "forkJoinInvokeAll", name = "vs ForkJoinPool.invokeAll")
    @ComparedTo(value = "threadPoolInvokeAll", name = "vs ThreadPoolExecutor.invokeAll")
    public KernelLaunch overlapLaunchJoin() {
        gap();
        final KernelLaunch launch = device.launch(tasks, EMPTY);
        launch.join();
        lastLaunch = launch;
        return launch;
    }

    @Benchmark
    public List<Future<Object>> forkJoinInvokeAll() {
        gap();
        final List<Future<Object>> futures = forkJoin.invokeAll(callables);
        lastForkJoin = futures;
        return futures;
    }

    @Benchmark
    public List<Future<Object>> threadPoolInvokeAll() throws InterruptedException {
        gap();
        final List<Future<Object>> futures = threadPool.invokeAll(callables);
        lastThreadPool = futures;
        return futures;
    }

    /** Baseline for {@code gapTokens > 0}: the host-side gap alone (a constant-time no-op when the gap is 0). */
    @Benchmark
    public void hostGapOnly() {
        gap();
    }

    private void gap() {
        if (gapTokens > 0) {
            Blackhole.consumeCPU(gapTokens);
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() throws InterruptedException, ExecutionException {
        try {
            // Sanity: whatever ran last really completed every task.
            if (lastLaunch != null && (!lastLaunch.isDone() || lastLaunch.isFailed() || lastLaunch.gridSize() != tasks)) {
                throw new IllegalStateException("launch did not complete cleanly: " + lastLaunch);
            }
            checkAllDone(lastForkJoin);
            checkAllDone(lastThreadPool);
        } finally {
            forkJoin.shutdownNow();
            threadPool.shutdownNow();
            mesh.close();
            forkJoin.awaitTermination(10, TimeUnit.SECONDS);
            threadPool.awaitTermination(10, TimeUnit.SECONDS);
        }
    }

    private void checkAllDone(final List<Future<Object>> futures) throws InterruptedException, ExecutionException {
        if (futures == null) {
            return;
        }
        if (futures.size() != tasks) {
            throw new IllegalStateException("invokeAll returned " + futures.size() + " futures, expected " + tasks);
        }
        for (final Future<Object> f : futures) {
            if (!f.isDone()) {
                throw new IllegalStateException("invokeAll returned with a task not done");
            }
            f.get();
        }
    }
}
