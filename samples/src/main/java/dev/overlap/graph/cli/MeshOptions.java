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
