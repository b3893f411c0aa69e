package dev.overlap.bench.core;

import dev.overlap.core.BlockMapping;
import dev.overlap.core.ChunkReadyListener;
import dev.overlap.core.ChunkTracker;
import dev.overlap.core.Device;
import dev.overlap.core.Kernel;
import dev.overlap.core.LongArray;
import dev.overlap.core.Mesh;
import dev.overlap.core.WorkerContext;
import dev.overlap.bench.report.ComparedTo;
import dev.overlap.bench.report.RatioStyle;
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

import java.util.concurrent.TimeUnit;

/**
 * <b>What is measured:</b> the cost of PROACT readiness tracking ({@link ChunkTracker}) on a producer kernel. One
 * device with 2 workers runs a discrete kernel that writes a 64 MiB region of {@code long}s in 1024 blocks of
 * 64 KiB (8192 longs) each; element {@code i} gets {@code splitmix64(salt + i)} (the SplitMix64 finalizer: three
 * xor-shifts and two 64-bit multiplies per element, so the kernel is not purely memory bound), written with the
 * plain {@link LongArray#set} accessor; {@code salt} changes every operation.
 * <ul>
 *   <li>Baseline {@link #untracked}: {@code launch(1024, kernel).join()}.</li>
 *   <li>{@link #tracked}: {@code launch(1024, tracker.track(kernel)).join(); tracker.rearm()} with chunks of
 *       {@code chunkBytes} = 4 KiB (16 chunks per block: 16 atomics per block), 64 KiB (one chunk per block) and
 *       1 MiB (16 blocks per chunk, contended counters), mapping {@link BlockMapping#oneToOne} of 64 KiB, counters
 *       on their own cache lines (default stride). The ready listener records the epoch per chunk in a plain
 *       {@code long[]} (a "set a bit" listener; checked in {@code @TearDown}).</li>
 * </ul>
 * One operation = one full kernel iteration (launch + join, + rearm when tracked); score in ms/op.
 *
 * <p><b>Target:</b> {@code tracked} at 64 KiB chunks within 10% of {@code untracked} (overhead under 10%).
 *
 * <p><b>Idle strategy:</b> the {@link Mesh} default; on 2 cores with 2 workers + the launching thread that is
 * {@code BackoffIdleStrategy(8 spins, 8 yields, park 1 us .. 100 us)}, park-until-woken after 100 us. The launching
 * thread waits in {@code join()} (brief spin, yields, then park), so during the kernel the 2 workers own both cores.
 *
 * <p><b>On a shared machine</b> the wall-clock score swings by tens of percent between forks, more than the effect
 * measured here. Add {@code -prof perfnorm:events=task-clock} (a software counter, available in VMs without hardware
 * counters): the CPU milliseconds per operation it reports barely move with load and are the better basis for the
 * tracked/untracked ratio there.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED"})
@State(Scope.Benchmark)
@Family("core")
@Chart(title = "Tracking overhead vs chunk size", x = "chunkBytes", y = "tracking overhead")
@Quick(warmupTime = "500ms", time = "1s")
public class TrackingOverheadBenchmark {
    static final int REGION_BYTES = 64 << 20;
    static final int BLOCK_BYTES = 64 << 10;
    static final int LONGS_PER_BLOCK = BLOCK_BYTES / Long.BYTES;
    static final int GRID = REGION_BYTES / BLOCK_BYTES;
    static final int THREADS = 2;

    Mesh mesh;
    Device device;
    LongArray region;
    WriteKernel kernel;

    /** The producer: block {@code b} writes longs {@code [b*8192, (b+1)*8192)}. */
    static final class WriteKernel implements Kernel {
        private final LongArray out;
        /** Set by the launching thread before each launch (the launch orders it before the blocks). */
        long salt;

        WriteKernel(final LongArray out) {
            this.out = out;
        }

        @Override
        public void run(final WorkerContext ctx, final int block) {
            final LongArray a = out;
            final long s = salt;
            for (int i = block * LONGS_PER_BLOCK, end = i + LONGS_PER_BLOCK; i < end; i++) {
                a.set(i, mix(s + i));
            }
        }

        /** SplitMix64 finalizer. */
        static long mix(long z) {
            z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
            z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
            return z ^ (z >>> 31);
        }
    }

    @Setup(Level.Trial)
    public void setUp() {
        mesh = Mesh.builder().name("tracking-bench").devices(1).threadsPerDevice(THREADS).memoryPerDevice(REGION_BYTES)
            .build();
        device = mesh.device(0);
        region = mesh.allocateLongs(REGION_BYTES / Long.BYTES).on(0);
        kernel = new WriteKernel(region);
    }

    @Benchmark
    public void untracked() {
        kernel.salt++;
        device.launch(GRID, kernel).join();
    }

    @Benchmark
    @ComparedTo(value = "untracked", name = "tracking overhead", style = RatioStyle.OVERHEAD)
    public void tracked(final Tracking t) {
        kernel.salt++;
        device.launch(GRID, t.trackedKernel).join();
        t.tracker.rearm();
    }

    /** The tracker for one chunk size, wrapping the benchmark's kernel. */
    @State(Scope.Benchmark)
    public static class Tracking {
        /** Chunk size of the tracked region. */
        @Param({"4096", "65536", "1048576"})
        public int chunkBytes;

        ChunkTracker tracker;
        Kernel trackedKernel;
        /** readyEpoch[c]: last epoch chunk c became ready in (written by the listener on a worker). */
        long[] readyEpoch;

        @Setup(Level.Trial)
        public void setUp(final TrackingOverheadBenchmark bench) {
            final long[] ready = new long[(REGION_BYTES + chunkBytes - 1) / chunkBytes];
            java.util.Arrays.fill(ready, -1);
            readyEpoch = ready;
            final ChunkReadyListener listener = (chunk, epoch) -> ready[chunk] = epoch;
            tracker = ChunkTracker.builder()
                .regionBytes(REGION_BYTES)
                .chunkBytes(chunkBytes)
                .gridSize(GRID)
                .mapping(BlockMapping.oneToOne(BLOCK_BYTES))
                .onReady(listener)
                .build();
            trackedKernel = tracker.track(bench.kernel);
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            try {
                final long lastEpoch = tracker.epoch() - 1;
                if (lastEpoch < 0) {
                    throw new IllegalStateException("tracked benchmark ran no iteration");
                }
                for (int c = 0; c < readyEpoch.length; c++) {
                    if (readyEpoch[c] != lastEpoch) {
                        throw new IllegalStateException("chunk " + c + " last ready in epoch " + readyEpoch[c]
                            + ", expected " + lastEpoch);
                    }
                }
            } finally {
                tracker.close();
            }
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        try {
            // Sanity: the region holds the last iteration's values.
            final long s = kernel.salt;
            for (final int i : new int[] {0, region.length() / 2, region.length() - 1}) {
                if (region.get(i) != WriteKernel.mix(s + i)) {
                    throw new IllegalStateException("element " + i + " is " + region.get(i) + ", expected "
                        + WriteKernel.mix(s + i));
                }
            }
        } finally {
            mesh.close();
        }
    }
}
