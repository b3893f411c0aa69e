package dev.overlap.replication;

import java.util.List;
import java.util.Objects;

/**
 * The profiler's verdict for one workload on one machine: the machine description, the workload name, the chosen
 * {@link TransferConfig} and every measured point. Immutable; thread-safe. Storing it is the application's choice
 * (the samples keep it as a small JSON file, {@code dev.overlap.graph.cli.TransferProfileFile}), so that the library
 * needs no JSON library.
 */
public final class TransferProfile {
    /** One measured point. */
    public static final class Point {
        private final TransferConfig config;
        private final long medianNanos;

        /**
         * @param config the point
         * @param medianNanos its median iteration time, in nanoseconds
         */
        public Point(final TransferConfig config, final long medianNanos) {
            this.config = Objects.requireNonNull(config, "config");
            this.medianNanos = medianNanos;
        }

        /** @return the configuration */
        public TransferConfig config() {
            return config;
        }

        /** @return its median iteration time */
        public long medianNanos() {
            return medianNanos;
        }
    }

    private final String workload;
    private final String machine;
    private final TransferConfig choice;
    private final List<Point> points;

    /**
     * @param workload the workload name
     * @param machine  a description of the machine the points were measured on
     * @param choice   the chosen configuration
     * @param points   every measured point
     */
    public TransferProfile(final String workload, final String machine, final TransferConfig choice,
        final List<Point> points) {
        this.workload = Objects.requireNonNull(workload, "workload");
        this.machine = Objects.requireNonNull(machine, "machine");
        this.choice = Objects.requireNonNull(choice, "choice");
        this.points = List.copyOf(points);
    }

    /** @return cores, memory, JVM and OS of this machine, as profiles record it */
    public static String describeMachine() {
        final Runtime rt = Runtime.getRuntime();
        return rt.availableProcessors() + " cores, " + (rt.maxMemory() >> 20) + " MiB max heap, Java "
            + System.getProperty("java.version") + " (" + System.getProperty("java.vm.name") + "), "
            + System.getProperty("os.name") + " " + System.getProperty("os.arch");
    }

    /** @return the workload name */
    public String workload() {
        return workload;
    }

    /** @return the machine description */
    public String machine() {
        return machine;
    }

    /** @return the chosen configuration */
    public TransferConfig choice() {
        return choice;
    }

    /** @return the measured points, in sweep order */
    public List<Point> points() {
        return points;
    }
}
