package dev.overlap.bench.transport;

import dev.overlap.bench.transport.TransportBenchSupport.Service;
import dev.overlap.transport.inbox.AggregatorConfig;
import dev.overlap.transport.inbox.Endpoint;
import dev.overlap.transport.inbox.IntAggregator;
import dev.overlap.transport.inbox.ItemType;
import dev.overlap.transport.inbox.Transport;
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
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;

/**
 * <b>What is measured:</b> round-trip time (ns) of one 4-byte item between two threads, each draining its own inbox;
 * one-way latency is half of it:
 * <ul>
 *   <li>{@link #agronaRing}: the floor: bare Agrona {@code ManyToOneRingBuffer.write} + {@code read}, one ring each
 *       way;</li>
 *   <li>{@link #eager}: eager-mode aggregators both ways (one transport message per item: header, counters,
 *       applied count, dispatch to a {@code BatchHandler}); target: within 1.5x of {@link #agronaRing};</li>
 *   <li>{@link #batchedWait16}: the ping is a lone item in a 4 KiB batching aggregator that leaves after 16 polls of
 *       the sender's {@code Endpoint.poll()} loop (Atos' WAIT_TIME), the pong is eager: the latency price of batching
 *       when there are not enough items to fill a batch.</li>
 * </ul>
 * The echoing side is a background thread; every wait, ours and the peer's, uses
 * {@link TransportBenchSupport#spinThenYield()} (256 spins, then yields); rings of 64 KiB.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED"})
public class LatencyBenchmark {
    static final int RING = 1 << 16;

    /** Two bare Agrona rings and an echo thread. */
    @State(Scope.Benchmark)
    public static class RingPair {
        final IdleStrategy idle = TransportBenchSupport.spinThenYield();
        ManyToOneRingBuffer toPong;
        ManyToOneRingBuffer toPing;
        UnsafeBuffer pingMsg;
        Service pong;
        MessageHandler onReply;
        int reply;

        @Setup(Level.Trial)
        public void setUp() {
            toPong = new ManyToOneRingBuffer(new UnsafeBuffer(BufferUtil.allocateDirectAligned(
                RING + RingBufferDescriptor.TRAILER_LENGTH, 128)));
            toPing = new ManyToOneRingBuffer(new UnsafeBuffer(BufferUtil.allocateDirectAligned(
                RING + RingBufferDescriptor.TRAILER_LENGTH, 128)));
            pingMsg = new UnsafeBuffer(BufferUtil.allocateDirectAligned(64, 64));
            final UnsafeBuffer pongMsg = new UnsafeBuffer(BufferUtil.allocateDirectAligned(64, 64));
            final MessageHandler echo = (type, buffer, index, length) -> {
                pongMsg.putInt(0, buffer.getInt(index));
                while (!toPing.write(1, pongMsg, 0, 4)) {
                    Thread.yield();
                }
            };
            onReply = (type, buffer, index, length) -> reply = buffer.getInt(index);
            pong = new Service("ring-pong", () -> toPong.read(echo, 1));
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            pong.close();
        }
    }

    /** Two devices' inboxes with eager (or batched) aggregators both ways and an echo thread. */
    public abstract static class InboxPair {
        final IdleStrategy idle = TransportBenchSupport.spinThenYield();
        Transport transport;
        Endpoint ping;
        IntAggregator toPong;
        Service pong;
        int replies;
        int reply;
        private int received;
        private int value;

        abstract AggregatorConfig pingConfig();

        @Setup(Level.Trial)
        public void setUp() {
            transport = Transport.builder().devices(2).ringCapacity(RING).maxEndpoints(2).idleStrategy(TransportBenchSupport::spinThenYield).build();
            transport.registerHandler(0, 0, ItemType.INT, (q, s, b, o, c) -> {
                reply = b.getInt(o);
                replies++;
            });
            transport.registerHandler(1, 0, ItemType.INT, (q, s, b, o, c) -> {
                value = b.getInt(o);
                received++;
            });
            ping = transport.newEndpoint(0);
            toPong = ping.intAggregator(1, 0, pingConfig());
            final Endpoint pongEndpoint = transport.newEndpoint(1);
            final IntAggregator toPing = pongEndpoint.intAggregator(0, 0, AggregatorConfig.eager());
            final int[] echoed = {0};
            pong = new Service("inbox-pong", () -> {
                final int work = transport.inbox(1).drain(1);
                if (received != echoed[0]) {
                    echoed[0]++;
                    toPing.offer(value);
                }
                return work;
            });
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            pong.close();
            transport.close();
        }
    }

    /** Eager both ways. */
    @State(Scope.Benchmark)
    public static class EagerPair extends InboxPair {
        @Override
        AggregatorConfig pingConfig() {
            return AggregatorConfig.eager();
        }
    }

    /** Ping batched (4 KiB, 16 polls), pong eager. */
    @State(Scope.Benchmark)
    public static class BatchedPair extends InboxPair {
        @Override
        AggregatorConfig pingConfig() {
            return AggregatorConfig.batched(4096, 16);
        }
    }

    /** Floor: bare Agrona ring round trip. */
    @Benchmark
    public int agronaRing(final RingPair s) {
        s.pingMsg.putInt(0, s.reply + 1);
        while (!s.toPong.write(1, s.pingMsg, 0, 4)) {
            Thread.yield();
        }
        s.idle.reset();
        while (s.toPing.read(s.onReply, 1) == 0) {
            s.idle.idle();
        }
        return s.reply;
    }

    /** Eager transport round trip. */
    @Benchmark
    public int eager(final EagerPair s) {
        final int before = s.replies;
        s.toPong.offer(before);
        s.idle.reset();
        while (s.replies == before) {
            s.idle.idle(s.transport.inbox(0).drain(1));
        }
        return s.reply;
    }

    /** Batched ping (flushed by the 16-poll wait rule), eager pong. */
    @Benchmark
    public int batchedWait16(final BatchedPair s) {
        final int before = s.replies;
        s.toPong.offer(before);
        s.idle.reset();
        while (s.replies == before) {
            s.idle.idle(s.ping.poll());
        }
        return s.reply;
    }
}
