package dev.overlap.graph.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code overlap} command: entry point of the launcher script at the repository root. Subcommands run the
 * library's workloads on a mesh of JVM devices and print what they measured.
 */
@Command(name = "overlap", mixinStandardHelpOptions = true, version = "overlap 0.1.0",
    description = "Lock-free multi-device communication on JVM threads: readiness tracking, counter-based queues, "
        + "aggregation.",
    subcommands = {DemoCommand.class, CommandLine.HelpCommand.class})
public final class OverlapCommand implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "missing subcommand: try 'overlap demo'");
    }

    /** @param args command-line arguments */
    public static void main(final String[] args) {
        System.exit(commandLine().execute(args));
    }

    /** @return the configured command line (for tests) */
    public static CommandLine commandLine() {
        return new CommandLine(new OverlapCommand());
    }
}
