package dev.overlap.bench.core;

import dev.overlap.core.GlobalAddress;
import dev.overlap.core.Mesh;
import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;
import org.openjdk.jmh.annotations.AuxCounters;
import dev.overlap.bench.report.ComparedTo;
import dev.overlap.bench.report.Family;
import dev.overlap.bench.report.Chart;
import dev.overlap.bench.report.Quick;
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

import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;

/**
 * <b>What is measured:</b> single-threaded bandwidth of Overlap's one-sided bulk operations between device memories,
 * for {@code size} bytes per operation (4 KiB .. 64 MiB):
 * <ul>
 *   <li>{@link #meshCopy}: {@code mesh.copy(dev0+src, dev1+dst, size)}, device memory to device memory;</li>
 *   <li>{@link #meshPut}: {@code mesh.put(dev1+dst, directBuffer, 0, size)}, host direct buffer to device memory;</li>
 *   <li>{@link #meshGet}: {@code mesh.get(dev1+src, directBuffer, 0, size)}, device memory to host direct buffer;</li>
 *   <li>Peer {@link #rawAgronaCopy}: {@code UnsafeBuffer.putBytes} between two plain page-aligned direct buffers of
 *       the same size (the copy Overlap's single-JVM backend is built on, without the mesh's address decoding and
 *       range checks).</li>
 * </ul>
 * Every operation moves the same {@code size} bytes from a buffer of {@code size} bytes to another (same alignment:
 * 4 KiB), so 4 KiB and 64 KiB run in L1/L2, 1 MiB in L2/L3 and 16/64 MiB in DRAM for ours and the peer alike.
 *
 * <p><b>Metrics:</b> the primary score is operations/s; the secondary {@code bytes} metric ({@link AuxCounters},
 * {@code Type.OPERATIONS}) is bytes copied per second: divide by 1e9 for GB/s.
 *
 * <p><b>Target:</b> ours >= 90% of the raw copy's bandwidth from 64 KiB up (at 4 KiB the fixed cost of the global
 * address checks is visible and reported, not targeted).
 *
 * <p><b>Idle strategy:</b> not involved: the copies run on the JMH thread. The mesh's workers (1 per device, default
 * backoff strategy) have no launches and park after 100 us, so they take no CPU from the copy.
 *
 * <p>On a shared machine, add {@code -prof perfnorm:events=task-clock}: {@code size / task-clock} (bytes per CPU
 * second) is less sensitive to time-slicing than ops/s.
 *
 * <p>Mesh memory per device is {@code 2 x 64 MiB} so the source and destination of the largest size fit (two symmetric
 * allocations of {@code size} bytes each).
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED"})
@State(Scope.Benchmark)
@Family("core")
@Chart(title = "Copy throughput vs size", x = "size")
@Chart(title = "Mesh.copy vs raw UnsafeBuffer copy", x = "size", y = "copy vs raw copy")
@Quick(params = {"size=4096,1048576,16777216"}, warmupTime = "300ms", time = "300ms")
public class CopyBandwidthBenchmark {
    private static final int MAX_SIZE = 64 << 20;
    private static final int PAGE = 4096;

    /** Bytes per operation. */
    @Param({"4096", "65536", "1048576", "16777216", "67108864"})
    public int size;

    private Mesh mesh;
    private long dev0Src;
    private long dev1Src;
    private long dev1Dst;
    private ByteBuffer rawSrcBacking;
    private ByteBuffer rawDstBacking;
    private UnsafeBuffer rawSrc;
    private UnsafeBuffer rawDst;

    /** Bytes moved, reported by JMH as a rate (bytes/s) next to ops/s. */
    @AuxCounters(AuxCounters.Type.OPERATIONS)
    @State(Scope.Thread)
    public static class Bytes {
        /** Bytes copied in this iteration. */
        public long bytes;

        @Setup(Level.Iteration)
        public void reset() {
            bytes = 0;
        }
    }

    @Setup(Level.Trial)
    public void setUp() {
        mesh = Mesh.builder().name("copy-bench").devices(2).threadsPerDevice(1).memoryPerDevice(2L * MAX_SIZE).build();
        final long srcOffset = mesh.allocateSymmetric(size, PAGE).offset();
        final long dstOffset = mesh.allocateSymmetric(size, PAGE).offset();
        dev0Src = GlobalAddress.of(0, srcOffset);
        dev1Src = GlobalAddress.of(1, srcOffset);
        dev1Dst = GlobalAddress.of(1, dstOffset);

        rawSrcBacking = BufferUtil.allocateDirectAligned(size, PAGE);
        rawDstBacking = BufferUtil.allocateDirectAligned(size, PAGE);
        rawSrc = new UnsafeBuffer(rawSrcBacking);
        rawDst = new UnsafeBuffer(rawDstBacking);

        // Non-zero, identical contents everywhere a copy reads from.
        for (int i = 0; i < size; i += 8) {
            rawSrc.putLong(i, 0x9E3779B97F4A7C15L * (i + 1));
        }
        mesh.put(dev0Src, rawSrc, 0, size);
        mesh.put(dev1Src, rawSrc, 0, size);
    }

    @Benchmark
    public void rawAgronaCopy(final Bytes counter) {
        rawDst.putBytes(0, rawSrc, 0, size);
        counter.bytes += size;
    }

    @Benchmark
    @ComparedTo(value = "rawAgronaCopy", name = "copy vs raw copy")
    public void meshCopy(final Bytes counter) {
        mesh.copy(dev0Src, dev1Dst, size);
        counter.bytes += size;
    }

    @Benchmark
    @ComparedTo(value = "rawAgronaCopy", name = "put vs raw copy")
    public void meshPut(final Bytes counter) {
        mesh.put(dev1Dst, rawSrc, 0, size);
        counter.bytes += size;
    }

    @Benchmark
    @ComparedTo(value = "rawAgronaCopy", name = "get vs raw copy")
    public void meshGet(final Bytes counter) {
        mesh.get(dev1Src, rawDst, 0, size);
        counter.bytes += size;
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        try {
            // Sanity: the destinations hold the source pattern (at the first, middle and last word).
            for (final int i : new int[] {0, (size / 2) & ~7, size - 8}) {
                final long expected = rawSrc.getLong(i);
                final long dst = mesh.memory(1).buffer().getLong((int)GlobalAddress.offset(dev1Dst) + i);
                final long raw = rawDst.getLong(i);
                if ((dst != 0 && dst != expected) || (raw != 0 && raw != expected)) {
                    throw new IllegalStateException("copy corrupted data at byte " + i);
                }
            }
        } finally {
            mesh.close();
            // allocateDirectAligned returns slices, which BufferUtil.free rejects: drop them for the cleaner instead.
            rawSrc = null;
            rawDst = null;
            rawSrcBacking = null;
            rawDstBacking = null;
        }
    }
}
