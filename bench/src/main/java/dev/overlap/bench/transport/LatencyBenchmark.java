package dev.overlap.bench.transport;

import dev.overlap.bench.transport.TransportBenchSupport.Service;
import dev.overlap.transport.AggregatorConfig;
import dev.overlap.transport.Endpoint;
import dev.overlap.transport.Inbox;
import dev.overlap.transport.IntAggregator;
import dev.overlap.transport.ItemType;
import dev.overlap.transport.Transport;
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
 *       way, the echo written from inside the pong's read handler;</li>
 *   <li>{@link #eager}: eager-mode aggregators both ways (one transport message per item: header, counters,
 *       applied count, drain lock, dispatch to a {@code BatchHandler}), the echo offered from inside the pong's
 *       handler with {@code tryOffer} (what a forwarding handler must use); target: within 1.5x of
 *       {@link #agronaRing};</li>
 *   <li>{@link #batchedWait16}: the ping is a lone item in a 4 KiB batching aggregator that leaves after 16 polls of
 *       the sender's {@code Endpoint.poll()} loop (Atos' WAIT_TIME), the pong is eager: the latency price of batching
 *       when there are not enough items to fill a batch.</li>
 * </ul>
 * Same structure on both sides of the comparison: the echoing side is a background {@link Service} thread whose
 * state is touched by it alone (no cache line written by both threads besides the rings' own); every wait, ours and
 * the peer's, uses {@link TransportBenchSupport#spinThenYield()} (256 spins, then yields); rings of 64 KiB.
 *
 * <p><b>Score: read the median.</b> The mode is {@link Mode#SampleTime}: the figure to report is the median
 * ({@code p0.50}) of the sampled round trips, not the mean JMH prints as the score (the mean is dominated by
 * millisecond scheduling stalls on a shared machine). Medians are bimodal per iteration on a loaded 2-core machine:
 * when the scheduler runs both threads on one core, every hand-over costs the waiter's whole spin phase (256
 * {@code Thread.onSpinWait()}, ~4.9 us on the development machine's AMD EPYC) plus a yield, so a round trip takes
 * ~16 us whatever the transport does; the bare ring and the transport fall into that mode alike. Compare medians of
 * iterations in the same mode (per-iteration medians are in JMH's JSON, {@code rawDataHistogram}), and prefer an
 * idle machine.
 */
@BenchmarkMode(Mode.SampleTime)
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

    /**
     * The pong side of an {@link InboxPair}: its handler echoes each item from inside the handler, as the bare ring's
     * echo does, with the non-blocking {@code tryOffer} that handlers must use. Only the pong thread touches it (after
     * the trial's setup): nothing the ping thread writes shares its cache lines. Should the echo find dev0's ring
     * full (it never does with one item in flight and a 64 KiB ring), the item waits in {@code pending} and the pong
     * loop retries after its next drain.
     */
    static final class Echo {
        IntAggregator out;
        boolean hasPending;
        int pending;

        void echo(final int item) {
            if (hasPending || out.tryOffer(item) < 0) {
                if (hasPending) {
                    throw new IllegalStateException("a second echo while one waits for ring space: more than one "
                        + "item in flight");
                }
                hasPending = true;
                pending = item;
            }
        }

        int retry() {
            if (hasPending && out.tryOffer(pending) >= 0) {
                hasPending = false;
                return 1;
            }
            return 0;
        }
    }

    /** Two devices' inboxes with eager (or batched) aggregators both ways and an echo thread. */
    public abstract static class InboxPair {
        final IdleStrategy idle = TransportBenchSupport.spinThenYield();
        Transport transport;
        Inbox pingInbox;
        Endpoint ping;
        IntAggregator toPong;
        Service pong;
        int replies;
        int reply;

        abstract AggregatorConfig pingConfig();

        @Setup(Level.Trial)
        public void setUp() {
            transport = Transport.builder().devices(2).ringCapacity(RING).maxEndpoints(2).idleStrategy(TransportBenchSupport::spinThenYield).build();
            transport.registerHandler(0, 0, ItemType.INT, (q, s, b, o, c) -> {
                reply = b.getInt(o);
                replies++;
            });
            final Echo echo = new Echo();
            transport.registerHandler(1, 0, ItemType.INT, (q, s, b, o, c) -> echo.echo(b.getInt(o)));
            pingInbox = transport.inbox(0);
            ping = transport.newEndpoint(0);
            toPong = ping.intAggregator(1, 0, pingConfig());
            echo.out = transport.newEndpoint(1).intAggregator(0, 0, AggregatorConfig.eager());
            final Inbox pongInbox = transport.inbox(1);
            pong = new Service("inbox-pong", () -> pongInbox.drain(1) + echo.retry());
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
        s.toPong.offerBlocking(before);
        s.idle.reset();
        while (s.replies == before) {
            s.idle.idle(s.pingInbox.drain(1));
        }
        return s.reply;
    }

    /** Batched ping (flushed by the 16-poll wait rule), eager pong. */
    @Benchmark
    public int batchedWait16(final BatchedPair s) {
        final int before = s.replies;
        s.toPong.offerBlocking(before);
        s.idle.reset();
        while (s.replies == before) {
            s.idle.idle(s.ping.poll());
        }
        return s.reply;
    }
}
