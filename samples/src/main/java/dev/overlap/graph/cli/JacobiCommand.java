package dev.overlap.graph.cli;

import dev.overlap.core.Mesh;
import dev.overlap.graph.answer.Answer;
import dev.overlap.graph.app.AppRunner;
import dev.overlap.graph.app.WorkCounts;
import dev.overlap.graph.jacobi.BandedSystem;
import dev.overlap.graph.jacobi.JacobiSolver;
import dev.overlap.graph.jacobi.JacobiWorkload;
import dev.overlap.graph.ref.Verification;
import dev.overlap.graph.report.RunReport;
import dev.overlap.replication.TransferConfig;
import dev.overlap.replication.TransferMode;
import dev.overlap.replication.TransferProfile;
import dev.overlap.replication.TransferProfiler;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * {@code overlap jacobi}: Jacobi on a generated banded, diagonally dominant system, the solution vector replicated
 * across devices by a PROACT transfer mode (given, or chosen by the profiler on this workload, or read from a saved
 * profile); verified by recomputing the residual on the host. Across processes ({@code overlap launch}), every rank
 * solves on its own devices with the vector replicated between the processes; rank 0 verifies, reports and writes the
 * answer ({@code --transfer profile} is for one process).
 */
@Command(name = "jacobi", mixinStandardHelpOptions = true, sortOptions = false,
    description = "Jacobi solver on a banded matrix with the solution vector replicated by PROACT transfers; verified "
        + "by the host residual.")
public class JacobiCommand implements Callable<Integer>, RunsAcrossProcesses {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--size", paramLabel = "N", defaultValue = "262144", description = "unknowns (default: ${DEFAULT-VALUE})")
    int size;

    @Option(names = "--band", paramLabel = "K", defaultValue = "4", description = "non-zeros each side of the diagonal (default: "
        + "${DEFAULT-VALUE})")
    int band;

    @Option(names = "--tolerance", paramLabel = "T", defaultValue = "1e-8", description = "relative residual ||b-Ax||/||b|| to reach "
        + "(default: ${DEFAULT-VALUE})")
    double tolerance;

    @Option(names = "--max-iterations", paramLabel = "N", defaultValue = "10000", description = "iteration cap (default: "
        + "${DEFAULT-VALUE})")
    int maxIterations;

    @Option(names = "--transfer", paramLabel = "MODE", defaultValue = "triggered", description = "inline, polling, triggered, bulk, or "
        + "profile (sweep modes x chunk sizes on this workload and use the fastest) (default: ${DEFAULT-VALUE})")
    String transfer;

    @Option(names = "--chunk-kib", paramLabel = "KIB", defaultValue = "64", description = "transfer chunk in KiB (default: "
        + "${DEFAULT-VALUE})")
    int chunkKib;

    @Option(names = "--transfer-threads", paramLabel = "N", defaultValue = "1", description = "transfer threads (default: "
        + "${DEFAULT-VALUE})")
    int transferThreads;

    @Option(names = "--profile", paramLabel = "FILE", description = "with --transfer profile: save the sweep here; "
        + "otherwise: use the choice saved here (falls back to --transfer if missing or for another workload)")
    Path profile;

    @Option(names = "--seed", paramLabel = "S", defaultValue = "1", description = "matrix seed (default: ${DEFAULT-VALUE})")
    long seed;

    @Mixin
    MeshOptions meshOptions;

    @Mixin
    OutputOptions output;

    @Mixin
    AnswerOptions answers;

    @Override
    public Integer call() throws IOException {
        final CommandLine cl = spec.commandLine();
        final LaunchedWorld world = LaunchedWorld.current();
        final TransferConfig given = validate(cl);
        if (world != null) {
            checkAcrossProcesses(cl, world.ranks());
        }
        final int devices = meshOptions.devices;
        final boolean profiling = transfer.equalsIgnoreCase("profile");
        if (profile != null) {
            // checked before the mesh and the sweep: a directory is never a profile, and the sweep's result must
            // have somewhere to go (a missing file to read is fine: the run falls back to --transfer)
            if (Files.isDirectory(profile)) {
                throw new FileSystemException(profile.toString(), null, "is a directory, not a transfer profile");
            }
            final Path dir = profile.toAbsolutePath().getParent();
            if (profiling && (dir == null || !Files.isDirectory(dir))) {
                throw new NoSuchFileException(profile.toString(), null, "no such directory " + dir);
            }
        }
        final BandedSystem system = new BandedSystem(size, band, seed);
        // The profiling workload holds a vector and a band of its own while it runs (freed before the solve).
        final long bytes = JacobiSolver.bytesPerDevice(system, devices) * (profiling ? 2 : 1) + (16L << 20);
        if (bytes > AppRunner.MAX_DEVICE_BYTES) {
            throw new IllegalStateException("--size " + size + " needs " + (bytes >> 20) + " MiB per device on "
                + devices + " devices, more than a device holds (2 GiB): use more --devices or a smaller --size");
        }
        final int threads = meshOptions.threads();
        if (world != null && world.rank() != 0) { // rank 0 alone writes the answer
            return solve(cl, system, given, profiling, bytes, threads, null, world);
        }
        try (AnswerDestination destination = answers.open(cl, null)) {
            return solve(cl, system, given, profiling, bytes, threads, destination, world);
        }
    }

    /**
     * Checks the arguments.
     *
     * @return the transfer configuration {@code --transfer}, {@code --chunk-kib} and {@code --transfer-threads} give
     * @throws CommandLine.ParameterException naming a wrong argument
     */
    TransferConfig validate(final CommandLine cl) {
        meshOptions.validate(cl);
        if (size < 1 || size > Integer.MAX_VALUE / 8) {
            throw new CommandLine.ParameterException(cl, "--size must be in 1.." + Integer.MAX_VALUE / 8 + ", was "
                + size);
        }
        if (band < 0 || band > 1024) {
            throw new CommandLine.ParameterException(cl, "--band must be in 0..1024, was " + band);
        }
        if (!(tolerance > 0)) {
            throw new CommandLine.ParameterException(cl, "--tolerance must be > 0, was " + tolerance);
        }
        if (maxIterations < 1) {
            throw new CommandLine.ParameterException(cl, "--max-iterations must be >= 1, was " + maxIterations);
        }
        if (size < meshOptions.devices) {
            throw new CommandLine.ParameterException(cl, "--size " + size + " is smaller than --devices "
                + meshOptions.devices);
        }
        final boolean profiling = transfer.equalsIgnoreCase("profile");
        try {
            final TransferMode mode = profiling ? TransferMode.TRIGGERED
                : TransferMode.valueOf(transfer.toUpperCase(Locale.ROOT));
            if (!mode.replicates()) {
                throw new IllegalArgumentException("does not replicate");
            }
            return new TransferConfig(mode, chunkKib << 10, mode == TransferMode.POLLING
                ? Math.max(1, transferThreads) : transferThreads);
        } catch (final IllegalArgumentException e) {
            throw new CommandLine.ParameterException(cl, "--transfer must be inline, polling, triggered, bulk or "
                + "profile (and --chunk-kib/--transfer-threads valid), was '" + transfer + "'");
        }
    }

    @Override
    public void checkAcrossProcesses(final CommandLine cl, final int ranks) {
        validate(cl);
        meshOptions.checkAcrossProcesses(cl, ranks);
        if (transfer.equalsIgnoreCase("profile")) {
            throw new CommandLine.ParameterException(cl, "--transfer profile times the mesh of one process: across "
                + "processes give --transfer inline, polling, triggered or bulk (or --profile FILE saved by a run in "
                + "one process)");
        }
    }

    private int solve(final CommandLine cl, final BandedSystem system, final TransferConfig given,
        final boolean profiling, final long bytes, final int threads, final AnswerDestination destination,
        final LaunchedWorld world) throws IOException {
        final int devices = meshOptions.devices;
        final Mesh.Builder mb = Mesh.builder().name("overlap-jacobi").devices(devices).threadsPerDevice(threads)
            .memoryPerDevice(bytes);
        if (world != null) {
            mb.world(world.config("overlap jacobi", cl.getErr(), Runtime.getRuntime()::halt));
        }
        try (Mesh mesh = mb.build()) {
            final long profileStart = System.nanoTime();
            TransferConfig config = given;
            String chosenBy = "--transfer";
            if (profiling) {
                try (JacobiWorkload w = new JacobiWorkload(mesh, system)) {
                    final TransferProfiler profiler = new TransferProfiler()
                        .chunkSizes(TransferProfiler.powersOfFour(16 << 10, 1 << 20)).transferThreads(List.of(0, 1))
                        .repetitions(1, 3);
                    if (!output.quiet) {
                        profiler.progress(line -> {
                            cl.getErr().println("profile " + line);
                            cl.getErr().flush();
                        });
                    }
                    final TransferProfile p = profiler.profile(mesh, w);
                    config = p.choice();
                    chosenBy = "profiler";
                    if (profile != null) {
                        TransferProfileFile.write(p, profile);
                    }
                }
            } else if (profile != null) {
                final String name = "jacobi-n" + size + "-k" + band + "-d" + devices;
                config = TransferProfileFile.load(profile, name, given);
                chosenBy = "profile " + profile;
            }
            final double profileMillis = (System.nanoTime() - profileStart) / 1e6;
            if (world != null) {
                mesh.world().checkSame("the system and the solve's settings", java.util.Objects.hash(size, band, seed,
                    tolerance, maxIterations, config.mode().ordinal(), config.chunkBytes(), config.transferThreads()));
            }
            final JacobiSolver.Result r = JacobiSolver.solve(mesh, system, config, tolerance, maxIterations);
            if (world != null && world.rank() != 0) {
                if (!output.quiet) {
                    cl.getErr().println("overlap jacobi: " + MeshOptions.describeRank(world, devices) + " done");
                    cl.getErr().flush();
                }
                return 0;
            }
            final RunReport.Builder rb = RunReport.builder().mode("proact").mesh(devices, threads, "slices")
                .extra("transfer", config.toString()).extra("chosenBy", chosenBy).extra("profileMs", profileMillis);
            if (world != null) {
                rb.extra("processes", world.ranks());
            }
            return report(cl, rb, system, r.x(), r.iterations(), r.residual(), r.nanos(), r.copiedChunks(),
                r.copiedBytes(), destination, "overlap jacobi");
        }
    }

    /**
     * Rank 0's end of a solve (here and across hosts): verifies {@code x} by the host residual (unless
     * {@code --no-verify}), then {@link AnswerOptions#finish} writes {@code --output}, prints the report and a failed
     * check's line.
     *
     * @param rb          the report so far (mode, mesh and the caller's extras)
     * @param x           the solution
     * @param messages    the copies or puts that moved the vector
     * @param bytes       their bytes
     * @param destination where the answer goes, or null
     * @param command     the command's name for the failure line
     * @return the exit code: 0, or 1 when the check failed
     */
    int report(final CommandLine cl, final RunReport.Builder rb, final BandedSystem system, final double[] x,
        final int iterations, final double residual, final long nanos, final long messages, final long bytes,
        final AnswerDestination destination, final String command) throws IOException {
        final Verification v;
        if (output.noVerify) {
            v = Verification.skipped();
        } else {
            final double host = system.relativeResidual(x);
            final String text = String.format(Locale.ROOT, "host residual %.3g (tolerance %.3g)", host, tolerance);
            v = host < tolerance ? Verification.pass(text) : Verification.fail(text);
        }
        final long nnz = (long)size * (2L * band + 1);
        rb.app("jacobi").graph(system.toString(), size, nnz).times(0, 0, nanos / 1e6)
            .counts(new WorkCounts(iterations, 0, 0, nnz * Math.max(1, iterations), 0, 0, 0, messages, bytes))
            .verification(v).extra("residual", residual);
        return answers.finish(cl, output.json, rb, destination, Answer.solution(x), v, command);
    }
}
