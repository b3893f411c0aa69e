package dev.overlap.bench.queues;

import dev.overlap.bench.report.ParamBaseline;
import dev.overlap.bench.report.Quick;
import org.jctools.queues.MessagePassingQueue;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Group;
import org.openjdk.jmh.annotations.GroupThreads;
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

import java.util.concurrent.TimeUnit;

/**
 * The shapes users run, through the public {@link MessagePassingQueue} API, {@code CounterRingQueue} in each
 * publication mode against JCTools' {@code MpmcArrayQueue} and {@code MpscArrayQueue} at two capacities (items
 * per microsecond):
 * <ul>
 *   <li>{@code oneThread}: one thread, {@code relaxedOffer} then {@code relaxedPoll} (the score is items moved);</li>
 *   <li>{@code oneThreadBatch}: one thread, {@code fill} then {@code drain} of {@value MpqShapes#BATCH} items;</li>
 *   <li>{@code spsc}: one producer thread ({@code relaxedOffer}) and one consumer thread ({@code relaxedPoll}); a
 *       failed call is retried by the next invocation and not counted: the {@code polled} metric is the items
 *       that went through (the primary score also counts failed calls and means little);</li>
 *   <li>{@code spscBatch}: the same with {@code fill} and {@code drain} of up to {@value MpqShapes#BATCH}
 *       items, {@code polled} counting items.</li>
 * </ul>
 * Two busy threads on 2 cores for the {@code spsc} shapes (plus the JVM's own); the symmetric shapes are
 * {@link MpqSymmetricBenchmark}.
 */
@ParamBaseline(param = "impl", value = "jctoolsMpmc", name = "vs JCTools MpmcArrayQueue",
    benchmarks = {"oneThread", "oneThreadBatch"})
@ParamBaseline(param = "impl", value = "jctoolsMpsc", name = "vs JCTools MpscArrayQueue",
    benchmarks = {"oneThread", "oneThreadBatch"}, compare = {"counterRingOrdered", "counterRingWindowed"})
@ParamBaseline(param = "impl", value = "jctoolsMpmc", name = "vs JCTools MpmcArrayQueue, items polled",
    benchmarks = {"spsc", "spscBatch"}, metric = "polled")
@ParamBaseline(param = "impl", value = "jctoolsMpsc", name = "vs JCTools MpscArrayQueue, items polled",
    benchmarks = {"spsc", "spscBatch"}, compare = {"counterRingOrdered", "counterRingWindowed"}, metric = "polled")
@Quick(params = {"impl=counterRingOrdered,counterRingWindowed,jctoolsMpmc", "capacity=1024,65536"},
    warmupTime = "300ms", iterations = 2, time = "300ms")
@State(Scope.Group)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 3, jvmArgsAppend = {"--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED"})
public class MpqShapesBenchmark {
    @Param({"counterRingOrdered", "counterRingWindowed", "jctoolsMpmc", "jctoolsMpsc"})
    public String impl;

    @Param({"1024", "65536"})
    public int capacity;

    MessagePassingQueue<Integer> queue;
    private final MessagePassingQueue.Supplier<Integer> supplier = () -> MpqShapes.ITEM;

    @Setup(Level.Trial)
    public void setUp() {
        queue = MpqShapes.create(impl, capacity);
    }

    /** A thread's drain target. */
    @State(Scope.Thread)
    public static class Sink {
        final MpqShapes.CountingConsumer consumer = new MpqShapes.CountingConsumer();
    }

    @Benchmark
    @Group("oneThread")
    @GroupThreads(1)
    public Integer offerPoll() {
        queue.relaxedOffer(MpqShapes.ITEM);
        return queue.relaxedPoll();
    }

    @Benchmark
    @Group("oneThreadBatch")
    @GroupThreads(1)
    @OperationsPerInvocation(MpqShapes.BATCH)
    public int fillDrain(final Sink sink) {
        queue.fill(supplier, MpqShapes.BATCH);
        return queue.drain(sink.consumer, MpqShapes.BATCH);
    }

    @Benchmark
    @Group("spsc")
    @GroupThreads(1)
    public void offer(final MpqShapes.Counts counts) {
        if (queue.relaxedOffer(MpqShapes.ITEM)) {
            counts.offered++;
        }
    }

    @Benchmark
    @Group("spsc")
    @GroupThreads(1)
    public Integer poll(final MpqShapes.Counts counts) {
        final Integer e = queue.relaxedPoll();
        if (e != null) {
            counts.polled++;
        }
        return e;
    }

    @Benchmark
    @Group("spscBatch")
    @GroupThreads(1)
    public void fill(final MpqShapes.Counts counts) {
        counts.offered += queue.fill(supplier, MpqShapes.BATCH);
    }

    @Benchmark
    @Group("spscBatch")
    @GroupThreads(1)
    public void drain(final MpqShapes.Counts counts, final Sink sink) {
        counts.polled += queue.drain(sink.consumer, MpqShapes.BATCH);
    }
}
