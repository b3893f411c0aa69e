package dev.overlap.graph.cli;

import dev.overlap.core.BlockMapping;
import dev.overlap.core.ChunkTracker;
import dev.overlap.core.Kernel;
import dev.overlap.core.KernelLaunch;
import dev.overlap.core.LongArray;
import dev.overlap.core.Mesh;
import dev.overlap.core.SymmetricArray;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.util.Arrays;
import java.util.concurrent.Callable;

/**
 * {@code overlap demo}: every device computes its slice of a replicated region and every other device must end up
 * with the whole region. Compares the bulk-synchronous way (compute, then a copy kernel) with PROACT-style
 * triggered transfers (the block completion that makes a chunk ready copies it to the peers at once), verifies
 * that every replica is identical to the expected values, and prints the times and the share of the copy time
 * hidden under computation.
 */
@Command(name = "demo", mixinStandardHelpOptions = true,
    description = "Replicate a computed region across devices: bulk copy vs per-chunk triggered transfers.")
public final class DemoCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--devices", defaultValue = "2", description = "devices (default: ${DEFAULT-VALUE})")
    int devices;

    @Option(names = "--threads-per-device", description = "worker threads per device (default: cores / devices)")
    Integer threadsPerDevice;

    @Option(names = "--region-mib", defaultValue = "32", description = "replicated region size in MiB (default: "
        + "${DEFAULT-VALUE})")
    int regionMib;

    @Option(names = "--chunk-kib", defaultValue = "256", description = "transfer chunk size in KiB (default: "
        + "${DEFAULT-VALUE})")
    int chunkKib;

    @Option(names = "--iterations", defaultValue = "7", description = "timed iterations per mode (default: "
        + "${DEFAULT-VALUE})")
    int iterations;

    @Option(names = "--work", defaultValue = "24", description = "compute rounds per element (default: "
        + "${DEFAULT-VALUE})")
    int work;

    private static final int BLOCK_LONGS = 8192;

    @Override
    public Integer call() {
        validate();
        final long regionLongs = (long)regionMib << 17;
        final int sliceLongs = (int)(regionLongs / devices);
        final int blocks = sliceLongs / BLOCK_LONGS;
        final PrintWriter out = spec.commandLine().getOut();
        final Mesh.Builder builder = Mesh.builder().devices(devices).memoryPerDevice(regionLongs * 8 + (1 << 20));
        if (threadsPerDevice != null) {
            builder.threadsPerDevice(threadsPerDevice);
        }
        try (Mesh mesh = builder.build();
            SymmetricArray<LongArray> region = mesh.allocateLongs(regionLongs)) {
            out.printf("overlap demo: %s%n  region %d MiB replicated on %d devices, slice %d MiB each, chunks of %d KiB,"
                + " %d blocks of %d KiB per device, %d compute rounds per element%n%n", mesh, regionMib, devices,
                sliceLongs >> 17, chunkKib, blocks, BLOCK_LONGS / 128, work);
            final ChunkTracker[] trackers = new ChunkTracker[devices];
            for (int d = 0; d < devices; d++) {
                final int device = d;
                trackers[d] = ChunkTracker.builder().regionBytes((long)sliceLongs * 8).chunkBytes((long)chunkKib << 10)
                    .gridSize(blocks).mapping(BlockMapping.oneToOne(BLOCK_LONGS * 8L))
                    .onReady((chunk, epoch) -> pushChunk(mesh, region, trackers[device], device, sliceLongs, chunk))
                    .build();
            }
            try {
                final long[] none = new long[iterations];
                final long[] bulk = new long[iterations];
                final long[] triggered = new long[iterations];
                for (int it = -1; it < iterations; it++) {
                    final int seed = it + 2;
                    final long t0 = System.nanoTime();
                    runComputeOnly(mesh, region, sliceLongs, blocks, seed);
                    final long t1 = System.nanoTime();
                    runBulk(mesh, region, sliceLongs, blocks, seed);
                    final long t2 = System.nanoTime();
                    verify(region, regionLongs, sliceLongs, seed, "bulk");
                    region.on(0).clear();
                    final long t3 = System.nanoTime();
                    runTriggered(mesh, region, trackers, sliceLongs, blocks, seed);
                    final long t4 = System.nanoTime();
                    verify(region, regionLongs, sliceLongs, seed, "triggered");
                    if (it >= 0) {
                        none[it] = t1 - t0;
                        bulk[it] = t2 - t1;
                        triggered[it] = t4 - t3;
                    }
                }
                report(out, none, bulk, triggered, trackers[0].chunkCount() * devices);
            } finally {
                for (final ChunkTracker t : trackers) {
                    if (t != null) {
                        t.close();
                    }
                }
            }
        }
        return 0;
    }

    private void validate() {
        final CommandLine cl = spec.commandLine();
        if (devices < 1 || devices > 64) {
            throw new CommandLine.ParameterException(cl, "--devices must be in 1..64, was " + devices);
        }
        if (regionMib < 1 || regionMib > 512) {
            throw new CommandLine.ParameterException(cl, "--region-mib must be in 1..512, was " + regionMib);
        }
        if (((long)regionMib << 17) % ((long)devices * BLOCK_LONGS) != 0) {
            throw new CommandLine.ParameterException(cl, "--region-mib " + regionMib + " does not split into "
                + devices + " slices of whole 64 KiB blocks");
        }
        if (chunkKib < 1 || chunkKib > (regionMib << 10)) {
            throw new CommandLine.ParameterException(cl, "--chunk-kib must be in 1.." + (regionMib << 10) + ", was "
                + chunkKib);
        }
        if (iterations < 1 || iterations > 1000) {
            throw new CommandLine.ParameterException(cl, "--iterations must be in 1..1000, was " + iterations);
        }
        if (work < 0 || work > 10_000) {
            throw new CommandLine.ParameterException(cl, "--work must be in 0..10000, was " + work);
        }
        if (threadsPerDevice != null && (threadsPerDevice < 1 || threadsPerDevice > 1024)) {
            throw new CommandLine.ParameterException(cl, "--threads-per-device must be in 1..1024, was "
                + threadsPerDevice);
        }
    }

    /** The value of element {@code i} in iteration {@code seed}: {@code work} rounds of a multiply-xorshift mix. */
    static long value(final long i, final int seed, final int work) {
        long x = i * 0x9E3779B97F4A7C15L + seed;
        for (int r = 0; r < work; r++) {
            x ^= x >>> 29;
            x *= 0xBF58476D1CE4E5B9L;
        }
        return x;
    }

    private Kernel compute(final LongArray replica, final int sliceStart, final int seed) {
        final int rounds = work;
        return (ctx, block) -> {
            final int from = sliceStart + block * BLOCK_LONGS;
            for (int i = from, end = from + BLOCK_LONGS; i < end; i++) {
                replica.set(i, value(i, seed, rounds));
            }
        };
    }

    private void runComputeOnly(final Mesh mesh, final SymmetricArray<LongArray> region, final int sliceLongs,
        final int blocks, final int seed) {
        final KernelLaunch[] launches = new KernelLaunch[devices];
        for (int d = 0; d < devices; d++) {
            launches[d] = mesh.device(d).launch(blocks, compute(region.on(d), d * sliceLongs, seed));
        }
        joinAll(launches);
    }

    private void runBulk(final Mesh mesh, final SymmetricArray<LongArray> region, final int sliceLongs,
        final int blocks, final int seed) {
        final KernelLaunch[] launches = new KernelLaunch[devices];
        for (int d = 0; d < devices; d++) {
            final int device = d;
            mesh.device(d).launch(blocks, compute(region.on(d), d * sliceLongs, seed));
            // The cudaMemcpy baseline: a copy kernel that starts when the compute kernel has completed.
            launches[d] = mesh.device(d).launch(blocks, (ctx, block) -> {
                final int at = device * sliceLongs + block * BLOCK_LONGS;
                for (int peer = 0; peer < devices; peer++) {
                    if (peer != device) {
                        mesh.copy(region.on(device), at, region.on(peer), at, BLOCK_LONGS);
                    }
                }
            });
        }
        joinAll(launches);
    }

    private void runTriggered(final Mesh mesh, final SymmetricArray<LongArray> region, final ChunkTracker[] trackers,
        final int sliceLongs, final int blocks, final int seed) {
        final KernelLaunch[] launches = new KernelLaunch[devices];
        for (int d = 0; d < devices; d++) {
            launches[d] = mesh.device(d).launch(blocks, trackers[d].track(compute(region.on(d), d * sliceLongs, seed)));
        }
        joinAll(launches);
        for (final ChunkTracker t : trackers) {
            t.rearm();
        }
    }

    private void pushChunk(final Mesh mesh, final SymmetricArray<LongArray> region, final ChunkTracker tracker,
        final int device, final int sliceLongs, final int chunk) {
        final int at = device * sliceLongs + (int)(tracker.chunkOffset(chunk) / 8);
        final int count = (int)(tracker.chunkLength(chunk) / 8);
        for (int peer = 0; peer < devices; peer++) {
            if (peer != device) {
                mesh.copy(region.on(device), at, region.on(peer), at, count);
            }
        }
    }

    private static void joinAll(final KernelLaunch[] launches) {
        for (final KernelLaunch l : launches) {
            l.join();
        }
    }

    private void verify(final SymmetricArray<LongArray> region, final long regionLongs, final int sliceLongs,
        final int seed, final String mode) {
        for (int d = 0; d < devices; d++) {
            final LongArray replica = region.on(d);
            for (int i = 0; i < regionLongs; i++) {
                if (replica.get(i) != value(i, seed, work)) {
                    throw new IllegalStateException(mode + ": replica on dev" + d + " differs at element " + i
                        + " (slice of dev" + (i / sliceLongs) + ")");
                }
            }
        }
    }

    private void report(final PrintWriter out, final long[] none, final long[] bulk, final long[] triggered,
        final int chunks) {
        final double n = median(none);
        final double b = median(bulk);
        final double t = median(triggered);
        out.printf("%-34s %12s %12s%n", "mode", "median ms", "min ms");
        out.printf("%-34s %12.2f %12.2f%n", "compute only (no copy: the bound)", n / 1e6, min(none) / 1e6);
        out.printf("%-34s %12.2f %12.2f%n", "bulk: compute, then copy kernel", b / 1e6, min(bulk) / 1e6);
        out.printf("%-34s %12.2f %12.2f%n", "triggered per-chunk transfers", t / 1e6, min(triggered) / 1e6);
        final double copy = b - n;
        final double hidden = copy <= 0 ? 0 : Math.max(0, Math.min(1, (b - t) / copy));
        out.printf("%nspeedup of triggered over bulk: %.2fx; copy time hidden under compute: %.0f%%%n", b / t,
            hidden * 100);
        out.printf("every replica verified identical after every iteration (%d chunks fired per iteration)%n", chunks);
        out.flush();
    }

    private static double median(final long[] values) {
        final long[] s = values.clone();
        Arrays.sort(s);
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2.0;
    }

    private static long min(final long[] values) {
        return Arrays.stream(values).min().orElse(0);
    }
}
