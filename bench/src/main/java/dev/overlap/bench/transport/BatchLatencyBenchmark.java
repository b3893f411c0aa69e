package dev.overlap.bench.transport;

import dev.overlap.bench.transport.TransportBenchSupport.Service;
import dev.overlap.transport.AggregatorConfig;
import dev.overlap.transport.Endpoint;
import dev.overlap.transport.IntAggregator;
import dev.overlap.transport.ItemType;
import dev.overlap.transport.Transport;
import dev.overlap.bench.report.Quick;
import org.agrona.concurrent.IdleStrategy;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;

/**
 * <b>What is measured:</b> the latency side of Atos Fig. 4 on this machine: the time (us) for a sender to offer one
 * full batch of {@code batchBytes} (4-byte items offered one by one, the last one triggering the size flush) and get
 * a one-item eager acknowledgement back from the receiving thread once its handler has read the whole batch. With
 * {@link AggregatorThroughputBenchmark} (throughput vs the same batch sizes) it shows the trade-off: larger batches
 * cost latency, buy bandwidth. Every wait uses {@link TransportBenchSupport#spinThenYield()}; ring
 * {@link TransportBenchSupport#ringFor}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED"})
@State(Scope.Benchmark)
@Quick(warmupTime = "500ms", time = "500ms")
public class BatchLatencyBenchmark {
    /** Batch message size in bytes (8-byte header included). */
    @Param({"64", "1024", "16384", "262144", "1048576"})
    public int batchBytes;

    private final IdleStrategy idle = TransportBenchSupport.spinThenYield();
    private Transport transport;
    private IntAggregator toReceiver;
    private int batchItems;
    private Service receiver;
    private int acks;
    private int batchesSeen;
    private long itemSum;

    @Setup(Level.Trial)
    public void setUp() {
        batchItems = TransportBenchSupport.itemsPerBatch(batchBytes);
        transport = Transport.builder().devices(2).ringCapacity(TransportBenchSupport.ringFor(batchBytes))
            .maxEndpoints(2).idleStrategy(TransportBenchSupport::spinThenYield).build();
        transport.registerHandler(0, 0, ItemType.INT, (q, s, b, o, c) -> acks++);
        transport.registerHandler(1, 0, ItemType.INT, (q, s, b, o, c) -> {
            long sum = 0;
            for (int i = 0; i < c; i++) {
                sum += b.getInt(o + 4 * i);
            }
            itemSum += sum;
            batchesSeen++;
        });
        final Endpoint sender = transport.newEndpoint(0);
        toReceiver = sender.intAggregator(1, 0, AggregatorConfig.batched(batchBytes, Long.MAX_VALUE));
        final IntAggregator ack = transport.newEndpoint(1).intAggregator(0, 0, AggregatorConfig.eager());
        final int[] acked = {0};
        receiver = new Service("receiver", () -> {
            final int work = transport.inbox(1).drain(1);
            if (batchesSeen != acked[0]) {
                acked[0]++;
                ack.offerBlocking(1);
            }
            return work;
        });
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        receiver.close();
        transport.close();
    }

    /** One full batch there, one ack back. */
    @Benchmark
    public int batchRoundTrip() {
        final IntAggregator a = toReceiver;
        final int before = acks;
        for (int i = 0; i < batchItems; i++) {
            a.offerBlocking(i);
        }
        idle.reset();
        while (acks == before) {
            idle.idle(transport.inbox(0).drain(1));
        }
        return acks;
    }
}
