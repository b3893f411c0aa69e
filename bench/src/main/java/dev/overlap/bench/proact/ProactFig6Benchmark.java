package dev.overlap.bench.proact;

import dev.overlap.core.BlockMapping;
import dev.overlap.core.KernelLaunch;
import dev.overlap.core.LongArray;
import dev.overlap.core.Mesh;
import dev.overlap.core.SymmetricArray;
import dev.overlap.bench.report.BusyThreads;
import dev.overlap.bench.report.Chart;
import dev.overlap.bench.report.Family;
import dev.overlap.bench.report.ParamBaseline;
import dev.overlap.bench.report.Quick;
import dev.overlap.bench.report.RatioStyle;
import dev.overlap.replication.ReplicatedRegion;
import dev.overlap.replication.TransferMode;
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

import java.util.Arrays;
import java.util.concurrent.TimeUnit;

/**
 * <b>PROACT Fig. 6 on JVM threads.</b> A synthetic kernel on device 0 produces a region of {@code regionMiB} MiB
 * (256 by default: what the paper used, and what 2 replicas of this machine's 24 GiB hold comfortably) that device
 * 1 needs in full. One operation is one iteration: the producing kernel plus the transfer, until device 1's
 * replica is complete ({@code awaitTransfers}). Score: ms per iteration; the speedup of a mode over BULK is
 * BULK's score over its score, at the same chunk size.
 *
 * <ul>
 *   <li>{@code BULK}: compute, then a copy kernel on the same device (the cudaMemcpy baseline; both use the
 *       device's 2 workers, so the copy cannot overlap anything);</li>
 *   <li>{@code POLLING}: one transfer thread polls the ready bitmap (3 busy threads on 2 cores: oversubscribed);</li>
 *   <li>{@code TRIGGERED}: one transfer thread, woken by each chunk's readiness (oversubscribed likewise);</li>
 *   <li>{@code TRIGGERED_INLINE}: no transfer thread: the worker whose block completes a chunk copies it, so the
 *       copy interleaves with the other worker's compute on the same 2 cores BULK uses;</li>
 *   <li>{@code NONE}: compute only, the infinite-bandwidth bound; {@code TRACK_ONLY}: tracking, no copy, for the
 *       tracking overhead ({@code TRACK_ONLY / NONE - 1}).</li>
 * </ul>
 *
 * <p>The compute is tuned in {@code @Setup} so that computing the region takes as long as one bulk copy of it
 * (PROACT's set-up for Fig. 6): it measures the copy kernel and a calibration run of the compute kernel and scales
 * the rounds per element. Small chunks show the initiation-bound region (per-chunk costs dominate), middle sizes
 * the bandwidth-bound region, and huge chunks the tail-bound region (the last chunk's copy cannot overlap).
 * Idle strategy: the mesh default (backoff: spin, yield, park 1..100 us); transfer threads likewise.
 *
 * <p>Report ({@code ./overlap bench}): speedup of each transfer mode (and of the NONE bound) over BULK at the same
 * chunk size, tracking overhead TRACK_ONLY vs NONE; POLLING and TRIGGERED keep 3 threads busy (2 workers + the
 * transfer thread). {@code --quick} uses a 64 MiB region and 4 chunk sizes (about 2 minutes on 2 cores).
 */
@Family("proact")
@ParamBaseline(param = "mode", value = "BULK", compare = {"POLLING", "TRIGGERED", "TRIGGERED_INLINE", "NONE"},
    name = "speedup vs BULK")
@ParamBaseline(param = "mode", value = "NONE", compare = "TRACK_ONLY", name = "tracking overhead",
    style = RatioStyle.OVERHEAD)
@Chart(title = "Speedup over BULK vs chunk size", x = "chunkBytes", y = "speedup vs BULK")
@Chart(title = "Time per iteration vs chunk size", x = "chunkBytes")
@BusyThreads(value = "3", when = "mode=POLLING|TRIGGERED")
@BusyThreads("2")
@Quick(params = {"regionMiB=64", "chunkBytes=4096,65536,1048576,16777216"}, warmupTime = "500ms", time = "500ms",
    setupSeconds = 1.5)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED", "-Xmx2g",
    "-XX:MaxDirectMemorySize=4g"})
@State(Scope.Benchmark)
public class ProactFig6Benchmark {
    static final int BLOCK_LONGS = 8192;

    @Param({"256"})
    public int regionMiB;

    @Param({"BULK", "NONE", "TRACK_ONLY", "POLLING", "TRIGGERED", "TRIGGERED_INLINE"})
    public String mode;

    @Param({"4096", "65536", "1048576", "16777216", "268435456"})
    public int chunkBytes;

    /**
     * Compute work in quarter mixing rounds per element; {@code auto} calibrates it in each fork. Pass a fixed
     * value (from an {@code auto} run's {@code [fig6]} line) to compare modes with exactly the same kernel.
     */
    @Param({"auto"})
    public String work;

    private Mesh mesh;
    private ReplicatedRegion region;
    /** Compute work in quarter rounds per element (quantised finely so calibration can match the copy time). */
    private int quarterRounds;
    private int iteration;

    @Setup(Level.Trial)
    public void setUp() {
        final long elements = (long)regionMiB << 17;
        mesh = Mesh.builder().devices(2).threadsPerDevice(2).memoryPerDevice(elements * 8 + (4 << 20)).build();
        quarterRounds = work.equals("auto") ? calibrate(elements) : Integer.parseInt(work);
        final boolean inline = mode.equals("TRIGGERED_INLINE");
        final TransferMode transferMode = TransferMode.valueOf(inline ? "TRIGGERED" : mode);
        region = ReplicatedRegion.builder(mesh).elements(elements).mode(transferMode)
            .chunkBytes(Math.min(chunkBytes, elements * 8)).transferThreads(inline ? 0 : 1)
            .gridSize((int)(elements / BLOCK_LONGS)).mapping(BlockMapping.oneToOne(BLOCK_LONGS * 8L)).producers(0)
            .build();
    }

    /** @return compute rounds per element that make computing the region take as long as one bulk copy */
    private int calibrate(final long elements) {
        try (SymmetricArray<LongArray> scratch = mesh.allocateLongs(elements)) {
            final LongArray src = scratch.on(0);
            final LongArray dst = scratch.on(1);
            final int grid = (int)(elements / BLOCK_LONGS);
            final long copy = median(() -> mesh.device(0).launch(grid, (ctx, block) ->
                mesh.copy(src, block * BLOCK_LONGS, dst, block * BLOCK_LONGS, BLOCK_LONGS)));
            final int probe = 32;
            final long compute = median(() -> mesh.device(0).launch(grid, (ctx, block) -> {
                for (int i = block * BLOCK_LONGS, end = i + BLOCK_LONGS; i < end; i++) {
                    src.set(i, value(i, 1, probe));
                }
            }));
            final int tuned = (int)Math.max(1, Math.round(probe * (double)copy / compute));
            System.out.printf("%n[fig6] region %d MiB: bulk copy %.1f ms, compute %.1f ms at %d quarter rounds -> %d"
                + " quarter rounds per element%n", regionMiB, copy / 1e6, compute / 1e6, probe, tuned);
            return tuned;
        }
    }

    private interface Launcher {
        KernelLaunch launch();
    }

    private static long median(final Launcher launcher) {
        final long[] t = new long[5];
        for (int i = 0; i < t.length; i++) {
            final long start = System.nanoTime();
            launcher.launch().join();
            t[i] = System.nanoTime() - start;
        }
        Arrays.sort(t);
        return t[t.length / 2];
    }

    /** Element {@code i}'s value: {@code quarterRounds / 4} mixing rounds, one more for a share of the elements. */
    static long value(final long i, final int seed, final int quarterRounds) {
        long x = i * 0x9E3779B97F4A7C15L + seed;
        final int rounds = (quarterRounds >> 2) + ((i & 3) < (quarterRounds & 3) ? 1 : 0);
        for (int r = 0; r < rounds; r++) {
            x ^= x >>> 31;
            x *= 0xBF58476D1CE4E5B9L;
        }
        return x;
    }

    @Benchmark
    public long iteration() {
        final int seed = ++iteration;
        final int n = quarterRounds;
        final ReplicatedRegion r = region;
        r.launch(0, (ctx, block) -> {
            for (int i = block * BLOCK_LONGS, end = i + BLOCK_LONGS; i < end; i++) {
                r.putLong(0, i, value(i, seed, n));
            }
        });
        r.awaitTransfers();
        return r.getLong(1, r.gridSize() * BLOCK_LONGS - 1);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        if (region.mode().replicates()) {
            final long last = (long)regionMiB << 17;
            for (int i = 0; i < last; i += 4099) {
                if (region.getLong(1, i) != value(i, iteration, quarterRounds)) {
                    throw new IllegalStateException(mode + ": replica on dev1 differs at element " + i);
                }
            }
        }
        region.close();
        mesh.close();
    }
}
