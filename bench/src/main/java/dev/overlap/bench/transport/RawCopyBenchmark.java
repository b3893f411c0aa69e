package dev.overlap.bench.transport;

import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;
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
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;

import static dev.overlap.bench.transport.TransportBenchSupport.ITEMS;

/**
 * <b>What is measured:</b> the reference for {@link AggregatorThroughputBenchmark}: a raw off-heap memory copy of the
 * same bytes, one thread, no synchronisation. Each invocation copies 1 MiB (2^18 4-byte items) in chunks of one
 * batch payload ({@code batchBytes - 8}) from a 1 MiB source into a destination of the ring size used for that batch
 * ({@link TransportBenchSupport#ringFor}), advancing cyclically: what the bulk sender does, minus claims, headers, counters
 * and the receiver. {@code UnsafeBuffer.putBytes} (Unsafe.copyMemory).
 *
 * <p><b>Cache residency:</b> the working set (1 MiB source, 256 KiB .. 8 MiB destination) is the transport
 * benchmarks', but one core does everything here, so the source and the destination lines stay in its own caches
 * from one invocation to the next. The transport moves the same bytes between two cores: the sender writes ring
 * lines that the receiver last wrote (Agrona zeroes what it consumes), so every ring line crosses between the cores
 * twice per pass. This reference is the upper bound "one core, one copy", not a cross-core transfer.
 * {@link BulkDeliveryBenchmark} compares delivery into a receiver's memory with a raw copy doing the same work.
 *
 * <p><b>Score:</b> ops/s = items/s equivalent (bytes/s / 4).
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED"})
@State(Scope.Thread)
@Quick(params = "batchBytes=64,4096,1048576", warmupTime = "500ms", time = "500ms")
public class RawCopyBenchmark {
    /** Batch message size in bytes, as in {@link AggregatorThroughputBenchmark}. */
    @Param({"64", "512", "4096", "65536", "1048576"})
    public int batchBytes;

    private UnsafeBuffer source;
    private UnsafeBuffer destination;
    private int chunk;
    private int position;

    @Setup(Level.Trial)
    public void setUp() {
        chunk = TransportBenchSupport.itemsPerBatch(batchBytes) * 4;
        source = new UnsafeBuffer(BufferUtil.allocateDirectAligned(ITEMS * 4, 64));
        for (int i = 0; i < ITEMS * 4; i += 4) {
            source.putInt(i, i);
        }
        destination = new UnsafeBuffer(BufferUtil.allocateDirectAligned(TransportBenchSupport.ringFor(batchBytes), 64));
    }

    /** Copies 1 MiB in batch-payload chunks into a ring-sized destination. */
    @Benchmark
    @OperationsPerInvocation(ITEMS)
    public void copy() {
        final UnsafeBuffer src = source;
        final UnsafeBuffer dst = destination;
        final int c = chunk;
        final int capacity = dst.capacity();
        int at = position;
        for (int copied = 0; copied < ITEMS * 4; copied += c) {
            final int n = Math.min(c, ITEMS * 4 - copied);
            if (at + n > capacity) {
                at = 0;
            }
            dst.putBytes(at, src, copied, n);
            at += n;
        }
        position = at;
    }
}
