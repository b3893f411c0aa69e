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
 * Two symmetric threads on one queue, each offering then polling (single items through {@code relaxedOffer} and
 * {@code relaxedPoll}, or batches of {@value MpqShapes#BATCH} through {@code fill} and {@code drain}), through
 * the public {@link MessagePassingQueue} API: {@code CounterRingQueue} in each publication mode against JCTools'
 * {@code MpmcArrayQueue} at two capacities (items per microsecond, both threads together). Two busy threads on
 * 2 cores (plus the JVM's own).
 */
@ParamBaseline(param = "impl", value = "jctoolsMpmc", name = "vs JCTools MpmcArrayQueue")
@Quick(params = {"capacity=1024,65536"}, warmupTime = "300ms", iterations = 2, time = "300ms")
@State(Scope.Group)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 3, jvmArgsAppend = {"--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED"})
public class MpqSymmetricBenchmark {
    @Param({"counterRingOrdered", "counterRingWindowed", "jctoolsMpmc"})
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
    @Group("symmetric")
    @GroupThreads(2)
    public Integer offerPoll() {
        queue.relaxedOffer(MpqShapes.ITEM);
        return queue.relaxedPoll();
    }

    @Benchmark
    @Group("symmetricBatch")
    @GroupThreads(2)
    @OperationsPerInvocation(MpqShapes.BATCH)
    public int fillDrain(final Sink sink) {
        queue.fill(supplier, MpqShapes.BATCH);
        return queue.drain(sink.consumer, MpqShapes.BATCH);
    }
}
