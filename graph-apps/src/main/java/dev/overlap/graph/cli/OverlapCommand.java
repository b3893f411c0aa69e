package dev.overlap.graph.cli;

import dev.overlap.graph.io.GraphFormatException;
import picocli.CommandLine;
import picocli.CommandLine.Command;

import java.io.IOException;

/**
 * The {@code overlap} command: entry point of the launcher script at the repository root. Subcommands run the
 * library's workloads on a mesh of JVM devices and print what they measured.
 *
 * <p>Exit codes: 0 success, 1 a runtime failure reported in one line on standard error (a malformed graph file as
 * {@code file:line: reason}, an unreadable file, a graph too large for the devices, a failed verification), 2 wrong
 * arguments (picocli's message and the usage).
 */
@Command(name = "overlap", mixinStandardHelpOptions = true, version = "overlap 0.1.0",
    description = "Lock-free multi-device communication on JVM threads: readiness tracking, counter-based queues, "
        + "aggregation.",
    subcommands = {DemoCommand.class, ProactDemoCommand.class, BfsCommand.class, PageRankCommand.class, SsspCommand.class,
        JacobiCommand.class, ScalingCommand.class, ConvertCommand.class, GenerateCommand.class, CommandLine.HelpCommand.class})
public final class OverlapCommand implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "missing subcommand: try 'overlap demo'");
    }

    /** Agrona's own bounds-check switch, read once when its buffer classes load. */
    static final String AGRONA_BOUNDS_CHECKS = "agrona.disable.bounds.checks";

    /**
     * Runs the command. Unless the user set {@code -Dagrona.disable.bounds.checks}, the launcher turns Agrona's
     * per-access bounds checks off before any Agrona class loads: every device access of the apps goes through the
     * typed arrays ({@code IntArray}, ...), which check each index themselves, and {@code Mesh.copy}, which checks
     * its ranges, so Agrona's second check only costs time (about 2x on the PageRank inner loop here). Pass
     * {@code -Dagrona.disable.bounds.checks=false} (e.g. in {@code OVERLAP_JAVA_OPTS}) to keep both.
     *
     * @param args command-line arguments
     */
    public static void main(final String[] args) {
        if (System.getProperty(AGRONA_BOUNDS_CHECKS) == null) {
            System.setProperty(AGRONA_BOUNDS_CHECKS, "true");
        }
        System.exit(commandLine().execute(args));
    }

    /** @return the configured command line (for tests) */
    public static CommandLine commandLine() {
        final CommandLine cl = new CommandLine(new OverlapCommand());
        cl.setExecutionExceptionHandler((ex, commandLine, parseResult) -> {
            if (ex instanceof GraphFormatException || ex instanceof IOException || ex instanceof IllegalStateException) {
                final String what = ex instanceof GraphFormatException || ex instanceof IllegalStateException
                    ? ex.getMessage() : ex.toString();
                commandLine.getErr().println("overlap " + commandLine.getCommandName() + ": " + what);
                commandLine.getErr().flush();
                return 1;
            }
            throw ex;
        });
        return cl;
    }
}
