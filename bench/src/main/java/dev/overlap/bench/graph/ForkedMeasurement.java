package dev.overlap.bench.graph;

import dev.overlap.graph.app.GraphApp;
import dev.overlap.graph.app.Warmup;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Measures one Overlap mode on one app in a JVM of its own, as JMH forks: the same java, JVM options and class path
 * run {@link GraphComparison} with {@code --child}, which generates the same graph from the same seed (or loads the
 * same file), measures with the parent's warm-ups, runs, mesh and iterations, verifies its answer itself, measures
 * its PageRank error against the parent's converged reference, and replies through {@link ForkProtocol} with its own
 * peak RSS. {@link #idleJvmKib} starts a JVM the same way that does nothing ({@link IdleJvm}), the footprint every
 * forked RSS includes. Without forking, the kernels of the apps measured earlier make the worklist's call sites
 * megamorphic for the later ones. Immutable; thread-safe (each call starts its own process).
 */
final class ForkedMeasurement {
    private final Warmup warmup;
    private final int runs;
    private final long seed;
    private final int devices;
    private final int threads;
    private final double prError;

    /** @param prError the L1 error PageRank runs to a tolerance aim for ({@code --pr-error}) */
    ForkedMeasurement(final Warmup warmup, final int runs, final long seed, final int devices, final int threads,
        final double prError) {
        this.warmup = warmup;
        this.runs = runs;
        this.seed = seed;
        this.devices = devices;
        this.threads = threads;
        this.prError = prError;
    }

    /**
     * @return the java, JVM options and class path of this JVM: how every forked JVM starts (the launcher gives
     *         {@code bench-graphs} the heap flags of {@code overlap bfs|pr|sssp}, so a forked measurement's peak RSS
     *         is a user's run's)
     */
    static List<String> javaCommand() {
        final List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(ManagementFactory.getRuntimeMXBean().getInputArguments());
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path")));
        return cmd;
    }

    /**
     * @param input        the graph as the child gets it: the generator spec, or the file both systems load
     * @param weights      whether the parent generated the graph with weights (they change the edge set)
     * @param prIterations the fixed PageRank iterations of this graph
     * @param prReference  the converged PageRank the child measures its error against, or null
     * @param notes        where the child's notes go
     * @return its row (with the child's peak RSS), or null when the child skipped it (its note is added)
     * @throws IllegalStateException when the child fails
     */
    ComparisonRow measure(final String input, final String name, final GraphApp app, final String mode,
        final boolean weights, final int prIterations, final Path prReference, final Set<String> notes)
        throws IOException {
        final List<String> cmd = javaCommand();
        cmd.addAll(List.of(GraphComparison.class.getName(), "--child", "--quiet", "--graphs", input, "--apps",
            app.id(), "--impls", mode, "--warmups", Integer.toString(warmup.runs()), "--warmup-ms",
            Long.toString(warmup.minMillis()), "--runs", Integer.toString(runs),
            "--seed", Long.toString(seed), "--devices", Integer.toString(devices), "--threads",
            Integer.toString(threads), "--pr-iterations", Integer.toString(prIterations), "--pr-error",
            Double.toString(prError)));
        if (weights) {
            cmd.add("--child-weights");
        }
        if (prReference != null) {
            cmd.addAll(List.of("--pr-reference", prReference.toString()));
        }
        final Process child = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        final List<String> lines = new ArrayList<>();
        try (BufferedReader in = new BufferedReader(new InputStreamReader(child.getInputStream(),
            StandardCharsets.UTF_8))) {
            for (String line; (line = in.readLine()) != null; ) {
                lines.add(line);
            }
        }
        final int exit;
        try {
            exit = child.waitFor();
        } catch (final InterruptedException e) {
            child.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while measuring " + mode + " " + app + " on " + name);
        }
        final ForkProtocol.Reply reply = ForkProtocol.read(lines, name, app);
        notes.addAll(reply.notes);
        if (reply.error != null) {
            throw new IllegalStateException(reply.error + " (in the forked measurement of " + mode + " " + app + " on "
                + name + ")");
        }
        if (reply.row == null && (exit != 0 || reply.notes.isEmpty())) {
            throw new IllegalStateException("the forked measurement of " + mode + " " + app + " on " + name
                + " exited with " + exit + " and no result (its errors are above)");
        }
        return reply.row;
    }

    /**
     * @return the peak RSS in KiB of a JVM started like the forked measurements that does nothing ({@link IdleJvm}),
     *         or {@link PeakRss#UNKNOWN}
     */
    static long idleJvmKib() throws IOException {
        final List<String> cmd = javaCommand();
        cmd.add(IdleJvm.class.getName());
        final Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        long kib = PeakRss.UNKNOWN;
        try (BufferedReader in = new BufferedReader(new InputStreamReader(p.getInputStream(),
            StandardCharsets.UTF_8))) {
            for (String line; (line = in.readLine()) != null; ) {
                final long v = IdleJvm.parse(line);
                kib = v != PeakRss.UNKNOWN ? v : kib;
            }
        }
        try {
            p.waitFor();
        } catch (final InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while measuring an idle JVM");
        }
        return kib;
    }
}
