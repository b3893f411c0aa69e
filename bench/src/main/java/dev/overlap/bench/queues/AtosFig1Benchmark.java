package dev.overlap.bench.queues;

import dev.overlap.bench.report.ParamBaseline;
import dev.overlap.bench.report.Quick;
import dev.overlap.bench.report.RatioStyle;
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
 * Atos Fig. 1 on JVM threads: {@code n} threads ({@code -t 1, 2, 4, 8}) on one shared queue each (1) push 10 items,
 * (2) pop 10 items, (3) push 10 then pop 10, {@value #ROUNDS} rounds per single shot; the score is the time per
 * round (ns). Each shot starts from an empty queue (pop: prefilled with every item the threads will pop), so the
 * one-shot Atos block ({@code counterBlock}, reset between shots) runs exactly as in the paper.
 * {@code counterBlock}/{@code counterRing}/{@code counterRingQueue}/{@code jctoolsMpmcFillDrain} push and pop the
 * 10 items as one batch (the warp-sized worker); {@code counterBlockSingle} does 10 single operations (the
 * thread-sized worker); the {@code ...Windowed} variants use {@link dev.overlap.queues.Publication#WINDOWED}
 * (Listing 6 with windows, lock-free); other peers loop. {@code agronaManyToOne}: pop experiments with {@code -t 1} only.
 */
@ParamBaseline(param = "impl", value = "counterBlock", name = "time vs Atos block (warp)", style = RatioStyle.OVERHEAD)
@Quick(params = "impl=counterBlock,jctoolsMpmcFillDrain,casTailArrayQueue",
    warmupIterations = 30, iterations = 30)
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 100)
@Measurement(iterations = 100)
@Fork(value = 1, jvmArgsAppend = {"--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED"})
public class AtosFig1Benchmark {
    static final int ROUNDS = 1000;
    static final int ITEMS = 10;
    static final int CAPACITY = 8 * ROUNDS * ITEMS + 1024;

    @Param({"counterBlock", "counterBlockWindowed", "counterBlockSingle", "counterRing", "counterRingWindowed",
        "counterRingQueue", "jctoolsMpmc",
        "jctoolsMpmcFillDrain", "agronaManyToOne", "concurrentLinkedQueue", "arrayBlockingQueue", "casTailArrayQueue"})
    public String impl;

    BenchQueue queue;
    int threads;

    @Setup(Level.Trial)
    public void setUp(final BenchmarkParams params) {
        threads = params.getThreads();
        if (threads * ROUNDS * ITEMS > CAPACITY - 1024) {
            throw new IllegalArgumentException("at most 8 threads");
        }
        queue = BenchQueue.create(impl, CAPACITY);
    }

    /** Per-thread buffers. */
    @State(Scope.Thread)
    public static class Buffers {
        final int[] items = new int[ITEMS];
        final int[] out = new int[ITEMS];

        @Setup
        public void setUp() {
            Arrays.fill(items, 7);
        }
    }

    /** Empty queue for the push experiments. */
    @State(Scope.Benchmark)
    public static class Empty {
        @Setup(Level.Iteration)
        public void reset(final AtosFig1Benchmark b) {
            b.queue.reset();
        }
    }

    /** Queue holding every item the pop experiment will take. */
    @State(Scope.Benchmark)
    public static class Prefilled {
        @Setup(Level.Iteration)
        public void fill(final AtosFig1Benchmark b, final BenchmarkParams params) {
            if (!b.queue.multiConsumer() && params.getThreads() > 1) {
                throw new IllegalStateException(b.impl + " has a single consumer: run pop experiments with -t 1");
            }
            b.queue.reset();
            final int[] items = new int[ITEMS];
            Arrays.fill(items, 7);
            for (int i = 0; i < b.threads * ROUNDS; i++) {
                if (b.queue.push(items, ITEMS) != ITEMS) {
                    throw new IllegalStateException("prefill did not fit");
                }
            }
        }
    }

    @Benchmark
    @OperationsPerInvocation(ROUNDS)
    public int push10(final Empty empty, final Buffers b) {
        int pushed = 0;
        for (int r = 0; r < ROUNDS; r++) {
            pushed += queue.push(b.items, ITEMS);
        }
        return pushed;
    }

    @Benchmark
    @OperationsPerInvocation(ROUNDS)
    public int pop10(final Prefilled full, final Buffers b) {
        int popped = 0;
        for (int r = 0; r < ROUNDS; r++) {
            popped += queue.pop(b.out, ITEMS);
        }
        return popped;
    }

    @Benchmark
    @OperationsPerInvocation(ROUNDS)
    public int push10ThenPop10(final Empty empty, final Buffers b, final BenchmarkParams params) {
        if (!queue.multiConsumer() && params.getThreads() > 1) {
            throw new IllegalStateException(impl + " has a single consumer: run with -t 1");
        }
        int moved = 0;
        for (int r = 0; r < ROUNDS; r++) {
            moved += queue.push(b.items, ITEMS);
            moved += queue.pop(b.out, ITEMS);
        }
        return moved;
    }
}
