package dev.overlap.bench.transport;

import dev.overlap.bench.transport.TransportBenchSupport.CountHandler;
import dev.overlap.bench.transport.TransportBenchSupport.Service;
import dev.overlap.transport.AggregatorConfig;
import dev.overlap.transport.BatchHandler;
import dev.overlap.transport.Endpoint;
import dev.overlap.transport.IntAggregator;
import dev.overlap.transport.ItemType;
import dev.overlap.transport.Transport;
import dev.overlap.transport.TransportCounter;
import org.agrona.BufferUtil;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;
import org.jctools.queues.MpscArrayQueue;
import org.jctools.queues.SpscArrayQueue;
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
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;

import static dev.overlap.bench.transport.TransportBenchSupport.ITEMS;

/**
 * <b>What is measured:</b> delivered item throughput (items/s; 4-byte items) from one sender thread to one receiving
 * thread, against the batch size {@code batchBytes} (64 B .. 1 MiB, the x axis of Atos Fig. 4):
 * <ul>
 *   <li>{@link #aggregated}: {@code IntAggregator.offerBlocking(int)} per item into an aggregator of {@code batchBytes}
 *       (size flushes; one {@code tryClaim}/{@code commit} per batch), standalone transport, the receiver's inbox
 *       drained by a busy-spinning thread whose handler takes each batch in place (counts it);</li>
 *   <li>{@link #bulk}: items offered 2^18 at a time from a 1 MiB direct buffer: whole batches are copied from the
 *       source straight into the ring (one copy per batch);</li>
 *   <li>{@link #loopback}, {@link #loopbackBulk}: one thread does both sides (its own inbox is the destination, so a
 *       full ring makes it drain the items itself): the whole CPU cost per delivered item, free of the scheduling
 *       noise of two busy threads on a shared machine;</li>
 *   <li>peer {@link #jctools}: JCTools {@code MpscArrayQueue<int[]>} of item arrays of the same payload size
 *       (boxing-free; arrays recycled through an {@code SpscArrayQueue}, nothing allocated), buffering the same bytes
 *       as the ring; the consumer takes each array and counts it.</li>
 * </ul>
 * References in the same run: {@link RawCopyBenchmark} (a raw off-heap copy of the same bytes into a ring-sized
 * destination, one thread) and {@link PerItemBenchmark} (one ring message per item). Delivery into a receiver's own
 * memory, the ring path against batches delivered by reference and against a raw copy of the same work, is
 * {@link BulkDeliveryBenchmark}.
 *
 * <p><b>Score:</b> ops/s = items/s offered (2^18 items per invocation). The sender blocks on back-pressure, so in
 * steady state offered = delivered (at most one ring of items differs); teardown checks that every item arrived.
 * Ring capacity: {@link TransportBenchSupport#ringFor}. Idle: every waiting thread, ours and the peer's, uses
 * {@link TransportBenchSupport#spinThenYield()} (Agrona backoff: 256 spins, then yields, never parks).
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED"})
@State(Scope.Benchmark)
@Quick(params = "batchBytes=64,4096,1048576", warmupTime = "300ms", iterations = 2, time = "300ms")
public class AggregatorThroughputBenchmark {
    /** Batch message size in bytes (8-byte header included). */
    @Param({"64", "512", "4096", "65536", "1048576"})
    public int batchBytes;

    /** Sender -> dev1 inbox, drained by a busy-spinning thread. */
    public abstract static class Pipe {
        Transport transport;
        IntAggregator aggregator;
        Endpoint endpoint;
        Service drainer;
        UnsafeBuffer source;
        int next;

        abstract BatchHandler handler();

        abstract long delivered();

        @Setup(Level.Trial)
        public void setUp(final AggregatorThroughputBenchmark params) {
            transport = Transport.builder().devices(2).ringCapacity(TransportBenchSupport.ringFor(params.batchBytes))
                .maxEndpoints(2).idleStrategy(TransportBenchSupport::spinThenYield).build();
            transport.registerHandler(1, 0, ItemType.INT, handler());
            endpoint = transport.newEndpoint(0);
            aggregator = endpoint.intAggregator(1, 0, AggregatorConfig.batched(params.batchBytes, Long.MAX_VALUE));
            source = new UnsafeBuffer(BufferUtil.allocateDirectAligned(ITEMS * 4, 64));
            for (int i = 0; i < ITEMS; i++) {
                source.putInt(i * 4, i);
            }
            drainer = new Service("dev1-drainer", transport.inbox(1)::drain);
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            endpoint.quiet();
            drainer.close();
            final long enqueued = endpoint.counter(TransportCounter.ITEMS_ENQUEUED);
            if (delivered() != enqueued) {
                throw new IllegalStateException("lost items: enqueued " + enqueued + ", delivered " + delivered());
            }
            transport.close();
        }
    }

    /** Receiver takes batches in place. */
    @State(Scope.Benchmark)
    public static class CountPipe extends Pipe {
        final CountHandler handler = new CountHandler();

        @Override
        BatchHandler handler() {
            return handler;
        }

        @Override
        long delivered() {
            return handler.items;
        }
    }

    /** One thread: sends to its own device's inbox and drains it whenever the ring is full. */
    @State(Scope.Benchmark)
    public static class Loopback {
        Transport transport;
        IntAggregator aggregator;
        Endpoint endpoint;
        CountHandler handler;
        UnsafeBuffer source;
        int next;

        @Setup(Level.Trial)
        public void setUp(final AggregatorThroughputBenchmark params) {
            source = new UnsafeBuffer(BufferUtil.allocateDirectAligned(ITEMS * 4, 64));
            transport = Transport.builder().devices(1).ringCapacity(TransportBenchSupport.ringFor(params.batchBytes))
                .maxEndpoints(1).idleStrategy(TransportBenchSupport::spinThenYield).build();
            handler = new CountHandler();
            transport.registerHandler(0, 0, ItemType.INT, handler);
            endpoint = transport.newEndpoint(0);
            aggregator = endpoint.intAggregator(0, 0, AggregatorConfig.batched(params.batchBytes, Long.MAX_VALUE));
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            endpoint.quiet();
            if (handler.items != endpoint.counter(TransportCounter.ITEMS_ENQUEUED)) {
                throw new IllegalStateException("lost items");
            }
            transport.close();
        }
    }

    /** JCTools peer: full item arrays through an MPSC queue, recycled through an SPSC queue. */
    @State(Scope.Benchmark)
    public static class JcToolsPipe {
        MpscArrayQueue<int[]> queue;
        SpscArrayQueue<int[]> pool;
        Service consumer;
        final IdleStrategy idle = TransportBenchSupport.spinThenYield();
        int[] current;
        int filled;
        int batchItems;
        long consumed;
        long produced;

        @Setup(Level.Trial)
        public void setUp(final AggregatorThroughputBenchmark params) {
            batchItems = TransportBenchSupport.itemsPerBatch(params.batchBytes);
            final int slots = Math.max(2, TransportBenchSupport.ringFor(params.batchBytes) / params.batchBytes);
            queue = new MpscArrayQueue<>(slots);
            pool = new SpscArrayQueue<>(slots * 2 + 2);
            for (int i = 0; i < slots + 2; i++) {
                pool.offer(new int[batchItems]);
            }
            consumer = new Service("jctools-consumer", () -> {
                final int[] batch = queue.poll();
                if (batch == null) {
                    return 0;
                }
                consumed += batch.length;
                pool.offer(batch);
                return 1;
            });
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            if (current != null && filled > 0) {
                while (!queue.offer(current)) {
                    Thread.yield();
                }
            }
            while (!queue.isEmpty()) {
                Thread.yield();
            }
            consumer.close();
            if (consumed != ((produced + batchItems - 1) / batchItems) * batchItems) {
                throw new IllegalStateException("lost batches: produced " + produced + " items, consumed "
                    + consumed);
            }
        }
    }

    /** Per-item offers through the batching aggregator. */
    @Benchmark
    @OperationsPerInvocation(ITEMS)
    public void aggregated(final CountPipe pipe) {
        final IntAggregator a = pipe.aggregator;
        int v = pipe.next;
        for (int i = 0; i < ITEMS; i++) {
            a.offerBlocking(v++);
        }
        pipe.next = v;
    }

    /** Bulk offers: whole batches copied from the source straight into the ring. */
    @Benchmark
    @OperationsPerInvocation(ITEMS)
    public void bulk(final CountPipe pipe) {
        pipe.aggregator.offerBlocking(pipe.source, 0, ITEMS);
    }

    /** Per-item offers, one thread doing the sending and (on back-pressure) the draining. */
    @Benchmark
    @OperationsPerInvocation(ITEMS)
    public void loopback(final Loopback s) {
        final IntAggregator a = s.aggregator;
        int v = s.next;
        for (int i = 0; i < ITEMS; i++) {
            a.offerBlocking(v++);
        }
        s.next = v;
    }

    /** Bulk offers, one thread doing the sending and (on back-pressure) the draining. */
    @Benchmark
    @OperationsPerInvocation(ITEMS)
    public void loopbackBulk(final Loopback s) {
        s.aggregator.offerBlocking(s.source, 0, ITEMS);
    }

    /** Peer: JCTools MPSC queue of int[] batches. */
    @Benchmark
    @OperationsPerInvocation(ITEMS)
    public void jctools(final JcToolsPipe pipe) {
        int[] cur = pipe.current;
        int n = pipe.filled;
        final int size = pipe.batchItems;
        for (int i = 0; i < ITEMS; i++) {
            if (cur == null && (cur = pipe.pool.poll()) == null) {
                pipe.idle.reset();
                while ((cur = pipe.pool.poll()) == null) {
                    pipe.idle.idle();
                }
            }
            cur[n++] = i;
            if (n == size) {
                if (!pipe.queue.offer(cur)) {
                    pipe.idle.reset();
                    while (!pipe.queue.offer(cur)) {
                        pipe.idle.idle();
                    }
                }
                cur = null;
                n = 0;
            }
        }
        pipe.current = cur;
        pipe.filled = n;
        pipe.produced += ITEMS;
    }
}
