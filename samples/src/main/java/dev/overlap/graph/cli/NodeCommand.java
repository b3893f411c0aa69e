package dev.overlap.graph.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Path;

/**
 * {@code overlap node --hosts FILE --rank R APP ...}: one rank of an app across hosts. Every rank is started by hand
 * (or by a job script) on its host with the same host file and app arguments; the ranks join a host group over Aeron
 * UDP ({@code dev.overlap.hosts}), each runs {@code --devices} devices of its own (the global devices are ranks x
 * devices), and rank 0 verifies and prints the report as the app's own command does. Apps: {@code bfs}.
 */
@Command(name = "node", mixinStandardHelpOptions = true, sortOptions = false, subcommands = {NodeBfsCommand.class},
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
}
