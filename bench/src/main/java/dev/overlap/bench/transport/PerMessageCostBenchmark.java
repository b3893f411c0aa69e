package dev.overlap.bench.transport;

import dev.overlap.bench.report.Quick;
import dev.overlap.transport.AggregatorConfig;
import dev.overlap.transport.IntAggregator;
import dev.overlap.transport.Inbox;
import dev.overlap.transport.ItemType;
import dev.overlap.transport.Transport;
import org.agrona.BufferUtil;
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
 * <b>What is measured:</b> the CPU cost (ns) of one single-item message, sent and applied on one thread (no cache
 * line crosses cores), so it isolates the transport's per-message overhead from scheduling noise:
 * <ul>
 *   <li>{@link #eager}: an eager-mode {@code IntAggregator.offerBlocking} to the thread's own inbox, then
 *       {@code Inbox.drain()} (drain lock, dispatch to a {@code BatchHandler}, counters, applied count);</li>
 *   <li>peer {@link #agronaRing}: bare {@code ManyToOneRingBuffer.write} of the 4-byte item, then {@code read}.</li>
 * </ul>
 * 64 messages per invocation, written then read. Complements the round-trip {@link LatencyBenchmark}, which needs two
 * spinning threads and an idle machine.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED"})
@Quick(warmupTime = "500ms", time = "500ms")
public class PerMessageCostBenchmark {
    static final int BURST = 64;

    /** A one-device transport whose endpoint sends to itself. */
    @State(Scope.Thread)
    public static class Own {
        Transport transport;
        IntAggregator aggregator;
        Inbox inbox;
        long sum;

        @Setup(Level.Trial)
        public void setUp() {
            transport = Transport.builder().devices(1).ringCapacity(1 << 16).maxEndpoints(1).build();
            transport.registerHandler(0, 0, ItemType.INT, (q, s, b, o, c) -> sum += b.getInt(o));
            aggregator = transport.newEndpoint(0).intAggregator(0, 0, AggregatorConfig.eager());
            inbox = transport.inbox(0);
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            transport.close();
        }
    }

    /** A bare Agrona ring. */
    @State(Scope.Thread)
    public static class Ring {
        ManyToOneRingBuffer ring;
        UnsafeBuffer item;
        MessageHandler handler;
        long sum;

        @Setup(Level.Trial)
        public void setUp() {
            ring = new ManyToOneRingBuffer(new UnsafeBuffer(BufferUtil.allocateDirectAligned(
                (1 << 16) + RingBufferDescriptor.TRAILER_LENGTH, 128)));
            item = new UnsafeBuffer(BufferUtil.allocateDirectAligned(64, 64));
            handler = (type, buffer, index, length) -> sum += buffer.getInt(index);
        }
    }

    @Benchmark
    @OperationsPerInvocation(BURST)
    public long eager(final Own s) {
        for (int i = 0; i < BURST; i++) {
            s.aggregator.offerBlocking(i);
        }
        s.inbox.drain();
        return s.sum;
    }

    @Benchmark
    @OperationsPerInvocation(BURST)
    public long agronaRing(final Ring s) {
        for (int i = 0; i < BURST; i++) {
            s.item.putInt(0, i);
            s.ring.write(1, s.item, 0, 4);
        }
        s.ring.read(s.handler, BURST);
        return s.sum;
    }
}
