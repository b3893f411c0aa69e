package dev.overlap.graph.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import dev.overlap.core.IdleStrategies;
import dev.overlap.core.Mesh;
import dev.overlap.hosts.HostFile;
import dev.overlap.hosts.HostGroup;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * {@code overlap node --hosts FILE --rank R APP ...}: one rank of an app across hosts. Every rank is started by hand
 * (or by a job script) on its host with the same host file and app arguments; the ranks join a host group over Aeron
 * UDP ({@code dev.overlap.hosts}), each runs {@code --devices} devices of its own (the global devices are ranks x
 * devices), and rank 0 verifies and prints the report as the app's own command does. Apps: {@code bfs},
 * {@code pr}, {@code sssp}, {@code jacobi}.
 */
@Command(name = "node", mixinStandardHelpOptions = true, sortOptions = false, subcommands = {NodeBfsCommand.class,
    NodePageRankCommand.class, NodeSsspCommand.class, NodeJacobiCommand.class},
    description = "Run one rank of an app across hosts (host file: one 'rank host port' line per rank).")
public final class NodeCommand implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--hosts", paramLabel = "FILE", required = true, description = "the host file: one 'rank host "
        + "port' line per rank, the same on every rank")
    Path hosts;

    @Option(names = "--rank", paramLabel = "R", required = true, description = "this process's rank in the host file")
    int rank;

    @Option(names = "--join-timeout", paramLabel = "SECONDS", defaultValue = "60", description = "how long the ranks "
        + "wait for each other to start (default: ${DEFAULT-VALUE})")
    int joinTimeoutSeconds;

    @Option(names = "--peer-timeout", paramLabel = "MS", defaultValue = "5000", description = "a rank silent this "
        + "long is failed; every other rank then stops naming it (default: ${DEFAULT-VALUE})")
    long peerTimeoutMillis;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "missing app, e.g. 'overlap node --hosts FILE "
            + "--rank 0 bfs --generate kron:16'");
    }

    /** @throws CommandLine.ParameterException for a timeout out of range */
    void validate(final CommandLine cl) {
        if (joinTimeoutSeconds < 1 || joinTimeoutSeconds > 3600) {
            throw new CommandLine.ParameterException(cl, "--join-timeout must be in 1..3600 seconds, was "
                + joinTimeoutSeconds);
        }
        if (peerTimeoutMillis < 100 || peerTimeoutMillis > 600_000) {
            throw new CommandLine.ParameterException(cl, "--peer-timeout must be in 100..600000 ms, was "
                + peerTimeoutMillis);
        }
        if (rank < 0) {
            throw new CommandLine.ParameterException(cl, "--rank must be >= 0, was " + rank);
        }
    }

    /**
     * @return the host file, checked to hold this rank
     * @throws CommandLine.ParameterException naming the file's problem or the missing rank
     */
    HostFile hostFile(final CommandLine cl) {
        final HostFile hostFile;
        try {
            hostFile = HostFile.read(hosts);
        } catch (final IllegalArgumentException e) {
            throw new CommandLine.ParameterException(cl, "--hosts: " + e.getMessage());
        }
        if (rank >= hostFile.ranks()) {
            throw new CommandLine.ParameterException(cl, "--rank " + rank + " is not in " + hosts + " (ranks"
                + " 0.." + (hostFile.ranks() - 1) + ")");
        }
        return hostFile;
    }

    /** @return this rank's member of the group of {@code hostFile}, joined with the timeouts of the flags */
    HostGroup join(final HostFile hostFile) {
        return HostGroup.builder(hostFile, rank).joinTimeout(joinTimeoutSeconds, TimeUnit.SECONDS)
            .peerTimeout(peerTimeoutMillis, TimeUnit.MILLISECONDS).join();
    }

    /**
     * @param idleStrategy the {@code --idle-strategy} value, or null
     * @return a builder of this rank's mesh
     * @throws CommandLine.ParameterException for an unknown idle strategy
     */
    Mesh.Builder mesh(final CommandLine cl, final MeshOptions options, final long memory, final String idleStrategy) {
        final Mesh.Builder mb = Mesh.builder().devices(options.devices).threadsPerDevice(options.threads())
            .memoryPerDevice(memory).name("node-r" + rank);
        if (idleStrategy == null) {
            return mb;
        }
        try {
            return mb.idleStrategy(IdleStrategies.parse(idleStrategy));
        } catch (final IllegalArgumentException e) {
            throw new CommandLine.ParameterException(cl, "--idle-strategy: " + e.getMessage());
        }
    }

    /** Prints a rank's status line ("overlap node APP: rank r of n ..."), unless quiet. */
    void status(final CommandLine cl, final String app, final boolean quiet, final String what) {
        if (!quiet) {
            cl.getErr().println("overlap node " + app + ": rank " + rank + " of " + what);
            cl.getErr().flush();
        }
    }

    /** Rank 0 notes each of {@code flags} the command line gave: it does not apply across hosts ({@code why}). */
    void noteIgnored(final CommandLine cl, final String app, final boolean quiet, final String why,
        final String... flags) {
        if (rank != 0 || quiet) {
            return;
        }
        for (final String ignored : flags) {
            if (cl.getParseResult().hasMatchedOption(ignored)) {
                cl.getErr().println("overlap node " + app + ": note: " + ignored + " does not apply across hosts ("
                    + why + "); ignored");
            }
        }
        cl.getErr().flush();
    }

    /** Prints a rank's last status line: its global devices, done. */
    void done(final CommandLine cl, final String app, final boolean quiet, final int ranks, final int devices) {
        status(cl, app, quiet, ranks + " (devices " + rank * devices + ".." + ((rank + 1) * devices - 1) + ") done");
    }

    /**
     * @throws CommandLine.ParameterException when {@code --mode} was given as other than {@code mode}, the only mode
     *                                        of {@code app} across hosts ({@code what})
     */
    static void requireMode(final CommandLine cl, final String given, final String mode, final String app,
        final String what) {
        if (cl.getParseResult().hasMatchedOption("--mode") && !mode.equalsIgnoreCase(given)) {
            throw new CommandLine.ParameterException(cl, "overlap node " + app + " runs " + what + ": --mode must be "
                + mode + ", was '" + given + "'");
        }
    }
}
