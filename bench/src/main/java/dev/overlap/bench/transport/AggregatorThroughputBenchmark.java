package dev.overlap.bench.transport;

import dev.overlap.bench.transport.TransportBenchSupport.Service;
import dev.overlap.bench.transport.TransportBenchSupport.SumHandler;
import dev.overlap.transport.inbox.AggregatorConfig;
import dev.overlap.transport.inbox.Endpoint;
import dev.overlap.transport.inbox.IntAggregator;
import dev.overlap.transport.inbox.ItemType;
import dev.overlap.transport.inbox.Transport;
import dev.overlap.transport.inbox.TransportCounter;
import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;
import org.jctools.queues.MpscArrayQueue;
import org.jctools.queues.SpscArrayQueue;
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
 *   <li>{@link #aggregated}: {@code IntAggregator.offer(int)} per item into an aggregator of {@code batchBytes}
 *       (size flushes; one {@code tryClaim}/{@code commit} per batch) in a standalone transport, the receiver's
 *       inbox drained by a busy-spinning thread whose handler reads every item;</li>
 *   <li>{@link #bulk}: the same, but items are offered {@link #ITEMS 2^18} at a time from a direct buffer, so whole
 *       batches are copied from the source straight into the ring;</li>
 *   <li>{@link #loopback}: one thread does both sides: the sender's inbox is the destination, so a full ring makes
 *       the sender drain (and read) the items itself; the score is the whole CPU cost per delivered item, free of the
 *       scheduling noise of two busy threads on a shared machine;</li>
 *   <li>peer {@link #jctools}: JCTools {@code MpscArrayQueue<int[]>} of item arrays of the same payload size
 *       (boxing-free; arrays recycled through an {@code SpscArrayQueue} so nothing is allocated), buffering the same
 *       bytes as the ring, the consumer reading every item.</li>
 * </ul>
 * Compare with {@link RawCopyBenchmark} (a raw off-heap copy of the same bytes) and {@link PerItemBenchmark} (one
 * ring message per item) in the same run.
 *
 * <p><b>Score:</b> ops/s = items/s offered (2^18 items per invocation). The sender blocks on back-pressure, so in
 * steady state offered = delivered (at most one ring of items differs); teardown checks that every item arrived.
 * Ring capacity: max(256 KiB, 8 x batchBytes). Idle: the receiving thread busy-spins ({@code Thread.onSpinWait});
 * the sender's back-pressure wait uses the transport's default backoff strategy.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED"})
@State(Scope.Benchmark)
public class AggregatorThroughputBenchmark {
    /** Batch message size in bytes (8-byte header included). */
    @Param({"64", "256", "1024", "4096", "16384", "65536", "1048576"})
    public int batchBytes;

    /** Sender -> inbox pipeline with a draining thread. */
    @State(Scope.Benchmark)
    public static class Pipe {
        Transport transport;
        IntAggregator aggregator;
        Endpoint endpoint;
        SumHandler handler;
        Service drainer;
        UnsafeBuffer source;
        int next;

        @Setup(Level.Trial)
        public void setUp(final AggregatorThroughputBenchmark params) {
            transport = Transport.builder().devices(2).ringCapacity(TransportBenchSupport.ringFor(params.batchBytes))
                .maxEndpoints(2).build();
            handler = new SumHandler();
            transport.registerHandler(1, 0, ItemType.INT, handler);
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
            if (handler.items != enqueued) {
                throw new IllegalStateException("lost items: enqueued " + enqueued + ", delivered " + handler.items);
            }
            transport.close();
        }
    }

    /** One thread: sends to its own device's inbox and drains it whenever the ring is full. */
    @State(Scope.Benchmark)
    public static class Loopback {
        Transport transport;
        IntAggregator aggregator;
        Endpoint endpoint;
        SumHandler handler;
        int next;

        @Setup(Level.Trial)
        public void setUp(final AggregatorThroughputBenchmark params) {
            transport = Transport.builder().devices(1).ringCapacity(TransportBenchSupport.ringFor(params.batchBytes))
                .maxEndpoints(1).build();
            handler = new SumHandler();
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
        int[] current;
        int filled;
        int batchItems;
        long consumed;
        long sum;
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
                long s = 0;
                for (final int item : batch) {
                    s += item;
                }
                sum += s;
                consumed += batch.length;
                pool.offer(batch);
                return 1;
            });
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            if (current != null && filled > 0) {
                while (!queue.offer(current)) {
                    Thread.onSpinWait();
                }
            }
            while (!queue.isEmpty()) {
                Thread.onSpinWait();
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
    public void aggregated(final Pipe pipe) {
        final IntAggregator a = pipe.aggregator;
        int v = pipe.next;
        for (int i = 0; i < ITEMS; i++) {
            a.offer(v++);
        }
        pipe.next = v;
    }

    /** Bulk offers: whole batches copied from the source straight into the ring. */
    @Benchmark
    @OperationsPerInvocation(ITEMS)
    public void bulk(final Pipe pipe) {
        pipe.aggregator.offer(pipe.source, 0, ITEMS);
    }

    /** Per-item offers, one thread doing the sending and (on back-pressure) the draining. */
    @Benchmark
    @OperationsPerInvocation(ITEMS)
    public void loopback(final Loopback s) {
        final IntAggregator a = s.aggregator;
        int v = s.next;
        for (int i = 0; i < ITEMS; i++) {
            a.offer(v++);
        }
        s.next = v;
    }

    /** Peer: JCTools MPSC queue of int[] batches. */
    @Benchmark
    @OperationsPerInvocation(ITEMS)
    public void jctools(final JcToolsPipe pipe) {
        int[] cur = pipe.current;
        int n = pipe.filled;
        final int size = pipe.batchItems;
        for (int i = 0; i < ITEMS; i++) {
            if (cur == null) {
                while ((cur = pipe.pool.poll()) == null) {
                    Thread.onSpinWait();
                }
            }
            cur[n++] = i;
            if (n == size) {
                while (!pipe.queue.offer(cur)) {
                    Thread.onSpinWait();
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
