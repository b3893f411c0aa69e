package dev.overlap.bench.queues;

import dev.overlap.bench.report.ParamBaseline;
import dev.overlap.bench.report.Quick;
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
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.BenchmarkParams;

import java.util.Arrays;
import java.util.concurrent.TimeUnit;

/**
 * Steady-state throughput, items per microsecond: every thread pushes then pops on one shared queue, one item at
 * a time ({@link #single}) or in batches of 32 ({@link #batch32}; peers without a batch API loop). Run with
 * {@code -t 1} and {@code -t 2} (4 and 8 oversubscribe a 2-core machine: report them, judge at 1 and 2).
 * {@code agronaManyToOne} has one consumer: run it with {@code -t 1} only.
 */
@ParamBaseline(param = "impl", value = "jctoolsMpmc", name = "vs JCTools MpmcArrayQueue")
@ParamBaseline(param = "impl", value = "jctoolsMpmcFillDrain", benchmarks = "batch32",
    compare = {"counterRing", "counterRingWindowed", "counterRingQueue"}, name = "vs JCTools fill/drain")
@Quick(params = "impl=counterRing,jctoolsMpmc,jctoolsMpmcFillDrain", warmupTime = "500ms", time = "500ms")
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED"})
public class QueueThroughputBenchmark {
    static final int BATCH = 32;

    @Param({"counterRing", "counterRingWindowed", "counterRingQueue", "jctoolsMpmc", "jctoolsMpmcFillDrain",
        "agronaManyToOne", "concurrentLinkedQueue", "arrayBlockingQueue", "casTailArrayQueue"})
    public String impl;

    BenchQueue queue;

    @Setup(Level.Trial)
    public void setUp(final BenchmarkParams params) {
        queue = BenchQueue.create(impl, 4096);
        if (!queue.multiConsumer() && params.getThreads() > 1) {
            throw new IllegalStateException(impl + " has a single consumer: run it with one thread");
        }
    }

    /** Per-thread batch buffers. */
    @State(Scope.Thread)
    public static class Buffers {
        final int[] items = new int[BATCH];
        final int[] out = new int[BATCH];

        @Setup
        public void setUp() {
            Arrays.fill(items, 7);
        }
    }

    @Benchmark
    public int single() {
        queue.push(7);
        return queue.pop();
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public int batch32(final Buffers b) {
        final int pushed = queue.push(b.items, BATCH);
        return pushed + queue.pop(b.out, BATCH);
    }
}
