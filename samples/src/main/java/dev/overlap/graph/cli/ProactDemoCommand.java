package dev.overlap.graph.cli;

import dev.overlap.core.BlockMapping;
import dev.overlap.core.Kernel;
import dev.overlap.core.LongArray;
import dev.overlap.core.Mesh;
import dev.overlap.replication.ReplicatedRegion;
import dev.overlap.replication.TransferMode;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.util.Arrays;
import java.util.concurrent.Callable;

/**
 * {@code overlap proact-demo}: every device computes its slice of a {@link ReplicatedRegion} and every other device
 * must end up with the whole region. Runs the PROACT transfer modes on the same kernel — no copy (the bound), bulk copy
 * after the kernel, polling transfer agents, triggered transfers — verifies every replica after every iteration,
 * and prints the times and the share of the copy time hidden under computation.
 *
 * <p>Not thread-safe: picocli fills and runs one instance per invocation, in one thread.
 */
@Command(name = "proact-demo", mixinStandardHelpOptions = true,
    description = "Replicate a computed region across devices: bulk copy vs PROACT per-chunk transfers.")
public final class ProactDemoCommand implements Callable<Integer> {
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
        try (Mesh mesh = builder.build()) {
            out.printf("overlap proact-demo: %s%n  region %d MiB replicated on %d devices, slice %d MiB each, chunks of %d KiB,"
                + " %d blocks of %d KiB per device, %d compute rounds per element%n%n", mesh, regionMib, devices,
                sliceLongs >> 17, chunkKib, blocks, BLOCK_LONGS / 128, work);
            out.printf("%-44s %12s %12s%n", "transfer mode", "median ms", "min ms");
            final long[] medians = new long[MODES.length];
            for (int m = 0; m < MODES.length; m++) {
                final long[] times = run(mesh, MODES[m], regionLongs, blocks);
                Arrays.sort(times);
                medians[m] = times[times.length / 2];
                out.printf("%-44s %12.2f %12.2f%n", describe(MODES[m]), medians[m] / 1e6, times[0] / 1e6);
                out.flush();
            }
            final double none = medians[0];
            final double bulk = medians[1];
            final double best = Math.min(medians[2], medians[3]);
            out.printf("%nbest decoupled mode vs bulk: %.2fx; ", bulk / best);
            if (bulk > none) {
                out.printf("copy time hidden under compute: %.0f%%%n",
                    Math.max(0, Math.min(1, (bulk - best) / (bulk - none))) * 100);
            } else {
                out.printf("copy time too small to measure here (bulk was not slower than compute only)%n");
            }
            out.printf("every replica verified identical to the expected values after every iteration%n");
            out.flush();
        }
        return 0;
    }

    private static final TransferMode[] MODES = {TransferMode.NONE, TransferMode.BULK, TransferMode.POLLING,
        TransferMode.TRIGGERED};

    private static String describe(final TransferMode mode) {
        switch (mode) {
            case NONE:
                return "NONE (compute only: the bound)";
            case BULK:
                return "BULK (compute, then a copy kernel)";
            case POLLING:
                return "POLLING (1 transfer thread polls ready bits)";
            default:
                return "TRIGGERED (chunk readiness starts its copy)";
        }
    }

    /** Runs one warm-up and {@code iterations} timed iterations in {@code mode}; verifies every replica. */
    private long[] run(final Mesh mesh, final TransferMode mode, final long regionLongs, final int blocks) {
        final long[] times = new long[iterations];
        try (ReplicatedRegion region = ReplicatedRegion.builder(mesh).elements(regionLongs).mode(mode)
            .chunkBytes((long)chunkKib << 10).transferThreads(mode == TransferMode.POLLING ? 1 : 0).gridSize(blocks)
            .mapping(BlockMapping.oneToOne(BLOCK_LONGS * 8L)).build()) {
            for (int it = -1; it < iterations; it++) {
                final int seed = it + 2;
                final long start = System.nanoTime();
                for (int d = 0; d < devices; d++) {
                    region.launch(d, compute(region, d, seed));
                }
                region.awaitTransfers();
                if (it >= 0) {
                    times[it] = System.nanoTime() - start;
                }
                if (mode.replicates()) {
                    verify(region, regionLongs, seed);
                }
            }
        }
        return times;
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

    private Kernel compute(final ReplicatedRegion region, final int device, final int seed) {
        final int rounds = work;
        final int sliceStart = (int)region.sliceStart(device);
        return (ctx, block) -> {
            final int from = sliceStart + block * BLOCK_LONGS;
            for (int i = from, end = from + BLOCK_LONGS; i < end; i++) {
                region.putLong(device, i, value(i, seed, rounds));
            }
        };
    }

    private void verify(final ReplicatedRegion region, final long regionLongs, final int seed) {
        for (int d = 0; d < devices; d++) {
            final LongArray replica = region.replica(d);
            for (int i = 0; i < regionLongs; i++) {
                if (replica.get(i) != value(i, seed, work)) {
                    throw new IllegalStateException(region.mode() + ": replica on dev" + d + " differs at element " + i);
                }
            }
        }
    }
}
