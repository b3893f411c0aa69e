package dev.overlap.bench.transport;

import dev.overlap.bench.report.Quick;
import dev.overlap.bench.transport.TransportBenchSupport.Service;
import dev.overlap.bench.transport.TransportBenchSupport.QueueHandler;
import dev.overlap.transport.AggregatorConfig;
import dev.overlap.transport.Endpoint;
import dev.overlap.transport.IntAggregator;
import dev.overlap.transport.ItemType;
import dev.overlap.transport.Transport;
import dev.overlap.transport.TransportCounter;
import org.agrona.BufferUtil;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.MessageHandler;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.ManyToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;

/**
 * <b>What is measured:</b> item throughput (items/s) with one ring message per item, no aggregation, the baseline
 * that {@link AggregatorThroughputBenchmark} must beat by 10x at batches of 4 KiB and more:
 * <ul>
 *   <li>{@link #eagerAggregator}: {@code IntAggregator.offerBlocking} in eager mode (each item its own 12-byte message with
 *       the transport's header and counters), same pipeline as the aggregated benchmark;</li>
 *   <li>{@link #agronaRing}: a bare Agrona {@code ManyToOneRingBuffer.write} of each 4-byte item, read by a
 *       busy-spinning thread (what the transport's per-item path rests on).</li>
 * </ul>
 * 2^14 items per invocation; ring capacity 256 KiB; every wait uses {@link TransportBenchSupport#spinThenYield()}.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED"})
@Quick(warmupTime = "500ms", time = "500ms")
public class PerItemBenchmark {
    static final int ITEMS = 1 << 14;
    static final int RING = 1 << 18;

    /** Eager aggregator pipeline. */
    @State(Scope.Benchmark)
    public static class Eager {
        Transport transport;
        Endpoint endpoint;
        IntAggregator aggregator;
        QueueHandler handler;
        Service drainer;

        @Setup(Level.Trial)
        public void setUp() {
            transport = Transport.builder().devices(2).ringCapacity(RING).maxEndpoints(2).idleStrategy(TransportBenchSupport::spinThenYield).build();
            handler = new QueueHandler();
            transport.registerHandler(1, 0, ItemType.INT, handler);
            endpoint = transport.newEndpoint(0);
            aggregator = endpoint.intAggregator(1, 0, AggregatorConfig.eager());
            drainer = new Service("dev1-drainer", transport.inbox(1)::drain);
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            endpoint.quiet();
            drainer.close();
            if (handler.items != endpoint.counter(TransportCounter.ITEMS_ENQUEUED)) {
                throw new IllegalStateException("lost items");
            }
            transport.close();
        }
    }

    /** Bare Agrona ring with a reading thread. */
    @State(Scope.Benchmark)
    public static class Ring {
        final IdleStrategy idle = TransportBenchSupport.spinThenYield();
        ManyToOneRingBuffer ring;
        UnsafeBuffer item;
        Service reader;
        long read;
        long sum;
        long written;

        @Setup(Level.Trial)
        public void setUp() {
            ring = new ManyToOneRingBuffer(new UnsafeBuffer(BufferUtil.allocateDirectAligned(
                RING + RingBufferDescriptor.TRAILER_LENGTH, 128)));
            item = new UnsafeBuffer(BufferUtil.allocateDirectAligned(64, 64));
            final MessageHandler handler = (type, buffer, index, length) -> {
                sum += buffer.getInt(index);
                read++;
            };
            reader = new Service("ring-reader", () -> ring.read(handler, 256));
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            while (ring.size() > 0) {
                Thread.yield();
            }
            reader.close();
            if (read != written) {
                throw new IllegalStateException("lost messages: " + written + " written, " + read + " read");
            }
        }
    }

    /** One transport message per item. */
    @Benchmark
    @OperationsPerInvocation(ITEMS)
    public void eagerAggregator(final Eager s) {
        final IntAggregator a = s.aggregator;
        for (int i = 0; i < ITEMS; i++) {
            a.offerBlocking(i);
        }
    }

    /** One bare Agrona ring message per item. */
    @Benchmark
    @OperationsPerInvocation(ITEMS)
    public void agronaRing(final Ring s) {
        final ManyToOneRingBuffer ring = s.ring;
        final UnsafeBuffer item = s.item;
        for (int i = 0; i < ITEMS; i++) {
            item.putInt(0, i);
            if (!ring.write(1, item, 0, 4)) {
                s.idle.reset();
                while (!ring.write(1, item, 0, 4)) {
                    s.idle.idle();
                }
            }
        }
        s.written += ITEMS;
    }
}
