package dev.overlap.graph.cli;

import picocli.CommandLine;
import picocli.CommandLine.Option;

/** Devices, workers per device and partitioning of the mesh. Picocli mixin. */
public final class MeshOptions {
    /** Vertex assignment: edge-balanced ranges, hash, or edge-balanced ranges renumbered by decreasing degree. */
    enum PartitionKind { range, hash, degree }

    @Option(names = "--devices", paramLabel = "N", defaultValue = "2", description = "devices (default: ${DEFAULT-VALUE})")
    int devices;

    @Option(names = "--threads-per-device", paramLabel = "T",
        description = "worker threads per device (default: cores / devices, at least 1)")
    Integer threadsPerDevice;

    @Option(names = "--partition", paramLabel = "KIND", defaultValue = "range", description = "vertex partitioning: range (edge-balanced id ranges), hash, or degree (edge-balanced ranges, "
        + "vertices renumbered by decreasing degree for cache locality) (default: ${DEFAULT-VALUE})")
    PartitionKind partition;

    /** @return the runner's partitioning for {@code --partition} */
    dev.overlap.graph.app.AppRunner.Partitioning partitioning() {
        switch (partition) {
            case hash:
                return dev.overlap.graph.app.AppRunner.Partitioning.HASH;
            case degree:
                return dev.overlap.graph.app.AppRunner.Partitioning.DEGREE;
            default:
                return dev.overlap.graph.app.AppRunner.Partitioning.RANGE;
        }
    }

    /** @return workers per device */
    int threads() {
        return threadsPerDevice != null ? threadsPerDevice
            : Math.max(1, Runtime.getRuntime().availableProcessors() / devices);
    }

    /**
     * @throws CommandLine.ParameterException when {@code --devices} (the total over the processes) leaves a process
     *                                        of a run of {@code ranks} without a device
     */
    void checkAcrossProcesses(final CommandLine cl, final int ranks) {
        if (devices < ranks) {
            throw new CommandLine.ParameterException(cl, "--devices " + devices + " is fewer than the " + ranks
                + " processes: each process runs at least one device (--devices counts them all)");
        }
    }

    /**
     * @return {@code rank R of N (devices a..b)}: which devices {@code world}'s rank runs among {@code devices} (rank
     *         {@code r} owns {@code [r * devices / ranks, (r + 1) * devices / ranks)}, as {@code WorldConfig} says)
     */
    static String describeRank(final LaunchedWorld world, final int devices) {
        final int r = world.rank();
        final int first = (int)((long)r * devices / world.ranks());
        final int end = (int)((long)(r + 1) * devices / world.ranks());
        return "rank " + r + " of " + world.ranks() + " (" + (end - first == 1 ? "device " + first
            : "devices " + first + ".." + (end - 1)) + ")";
    }

    void validate(final CommandLine cl) {
        if (devices < 1 || devices > 64) {
            throw new CommandLine.ParameterException(cl, "--devices must be in 1..64, was " + devices);
        }
        if (threadsPerDevice != null && (threadsPerDevice < 1 || threadsPerDevice > 1024)) {
            throw new CommandLine.ParameterException(cl, "--threads-per-device must be in 1..1024, was "
                + threadsPerDevice);
        }
    }
}
