package dev.overlap.bench.core;

import dev.overlap.bench.report.ComparedTo;
import dev.overlap.bench.report.Family;
import dev.overlap.bench.report.Quick;
import dev.overlap.core.IntArray;
import dev.overlap.core.LongArray;
import dev.overlap.core.Mesh;
import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;
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

import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * <b>What is measured:</b> element access through the typed views of device memory ({@link IntArray},
 * {@link LongArray}), the path every kernel that does not capture raw addresses takes: a bounds check that is also
 * the lifetime check (the bound drops to zero when the allocation is freed), then a raw load or store. One operation
 * is one pass over {@code elements} elements:
 * <ul>
 *   <li>{@link #sumInts}: {@code sum += a.get(i)} in index order; {@link #writeInts}: {@code a.set(i, i)};
 *       {@link #randomGetLongs}: {@code sum += a.get(idx[i])} through a random permutation;
 *       {@link #atomicAdds}: {@code a.getAndAdd(i, 1)} over the first 4,096 elements (a lock-prefixed
 *       add per element: the check is noise beside it; measured for the before/after comparison only).</li>
 *   <li>Peers on the same memory shapes, in the same run: a plain Java {@code int[]}/{@code long[]} (the floor:
 *       bounds checks the JIT can hoist, no lifetime) and Agrona's {@link UnsafeBuffer} over a direct buffer (its own
 *       per-access bounds check, no lifetime).</li>
 * </ul>
 * Sizes: 4,096 elements (L1/L2-resident) and 1,048,576 (memory-bound). Single-threaded: nothing here is
 * oversubscribed. Compare only against the peers of the same run.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 2, jvmArgsAppend = {"--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED"})
@State(Scope.Benchmark)
@Family("core")
@Quick(params = "elements=4096", warmupTime = "200ms", iterations = 2, time = "200ms")
public class DeviceArrayAccessBenchmark {
    @Param({"4096", "1048576"})
    public int elements;

    private Mesh mesh;
    private IntArray ints;
    private LongArray longs;
    private int[] javaInts;
    private long[] javaLongs;
    private UnsafeBuffer buffer;
    private int[] permutation;

    @Setup(Level.Trial)
    public void setUp() {
        mesh = Mesh.builder().name("array-bench").devices(1).threadsPerDevice(1)
            .memoryPerDevice((long)elements * 12 + (1 << 20)).build();
        ints = mesh.device(0).allocateInts(elements);
        longs = mesh.device(0).allocateLongs(elements);
        javaInts = new int[elements];
        javaLongs = new long[elements];
        buffer = new UnsafeBuffer(BufferUtil.allocateDirectAligned(elements * 8, 64));
        permutation = new int[elements];
        for (int i = 0; i < elements; i++) {
            permutation[i] = i;
            ints.set(i, i);
            longs.set(i, i);
            javaInts[i] = i;
            javaLongs[i] = i;
            buffer.putLong(i * 8, i);
        }
        final SplittableRandom random = new SplittableRandom(42);
        for (int i = elements - 1; i > 0; i--) {
            final int j = random.nextInt(i + 1);
            final int t = permutation[i];
            permutation[i] = permutation[j];
            permutation[j] = t;
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        mesh.close();
    }

    @Benchmark
    @ComparedTo(value = "sumJavaInts", name = "sum vs int[]")
    @ComparedTo(value = "sumUnsafeBufferInts", name = "sum vs UnsafeBuffer")
    public long sumInts() {
        final IntArray a = ints;
        long sum = 0;
        for (int i = 0, n = elements; i < n; i++) {
            sum += a.get(i);
        }
        return sum;
    }

    @Benchmark
    public long sumJavaInts() {
        final int[] a = javaInts;
        long sum = 0;
        for (int i = 0, n = elements; i < n; i++) {
            sum += a[i];
        }
        return sum;
    }

    @Benchmark
    public long sumUnsafeBufferInts() {
        final UnsafeBuffer b = buffer;
        long sum = 0;
        for (int i = 0, n = elements; i < n; i++) {
            sum += b.getInt(i << 2);
        }
        return sum;
    }

    @Benchmark
    @ComparedTo(value = "writeJavaInts", name = "write vs int[]")
    @ComparedTo(value = "writeUnsafeBufferInts", name = "write vs UnsafeBuffer")
    public IntArray writeInts() {
        final IntArray a = ints;
        for (int i = 0, n = elements; i < n; i++) {
            a.set(i, i);
        }
        return a;
    }

    @Benchmark
    public int[] writeJavaInts() {
        final int[] a = javaInts;
        for (int i = 0, n = elements; i < n; i++) {
            a[i] = i;
        }
        return a;
    }

    @Benchmark
    public UnsafeBuffer writeUnsafeBufferInts() {
        final UnsafeBuffer b = buffer;
        for (int i = 0, n = elements; i < n; i++) {
            b.putInt(i << 2, i);
        }
        return b;
    }

    @Benchmark
    @ComparedTo(value = "randomGetJavaLongs", name = "random get vs long[]")
    public long randomGetLongs() {
        final LongArray a = longs;
        final int[] p = permutation;
        long sum = 0;
        for (int i = 0, n = elements; i < n; i++) {
            sum += a.get(p[i]);
        }
        return sum;
    }

    @Benchmark
    public long randomGetJavaLongs() {
        final long[] a = javaLongs;
        final int[] p = permutation;
        long sum = 0;
        for (int i = 0, n = elements; i < n; i++) {
            sum += a[p[i]];
        }
        return sum;
    }

    @Benchmark
    public IntArray atomicAdds() {
        final IntArray a = ints;
        for (int i = 0, n = Math.min(elements, 4096); i < n; i++) {
            a.getAndAdd(i, 1);
        }
        return a;
    }
}
