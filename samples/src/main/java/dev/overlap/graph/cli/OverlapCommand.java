package dev.overlap.graph.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code overlap} command: entry point of the launcher script at the repository root. Subcommands run the
 * library's workloads on a mesh of JVM devices and print what they measured.
 *
 * <p>Exit codes: 0 success, 1 a runtime failure reported in one line on standard error, never a stack trace (a
 * malformed graph file as {@code file:line: reason}, a missing, unreadable or directory path named as such, a graph
 * too large for the devices, the heap or direct memory exhausted with the option that raises it, a failed
 * verification; see {@link CliErrors}), 2 wrong arguments (one line naming the bad argument, with a hint: see
 * {@link UsageErrors}).
 *
 * <p>Option values that name a format, mode or kind are case-insensitive ({@code --format EL}, {@code --mode ASYNC}).
 * {@code -V} prints the version of the build ({@link BuildVersion}); {@code --help} also lists the commands the shell
 * launcher runs itself ({@link LauncherCommands}).
 */
@Command(name = "overlap", mixinStandardHelpOptions = true, versionProvider = BuildVersion.class,
    description = "Lock-free multi-device communication on JVM threads: readiness tracking, counter-based queues, "
        + "aggregation.",
    subcommands = {DemoCommand.class, ProactDemoCommand.class, BfsCommand.class, PageRankCommand.class, SsspCommand.class,
        JacobiCommand.class, LaunchCommand.class, NodeCommand.class, ScalingCommand.class, ConvertCommand.class, GenerateCommand.class,
        StatCommand.class, CommandLine.HelpCommand.class})
public final class OverlapCommand implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "missing command, e.g. 'overlap demo'");
    }

    /** Agrona's own bounds-check switch, read once when its buffer classes load. */
    static final String AGRONA_BOUNDS_CHECKS = "agrona.disable.bounds.checks";

    /**
     * Runs the command. Unless the user set {@code -Dagrona.disable.bounds.checks}, the launcher turns Agrona's
     * per-access bounds checks off before any Agrona class loads: every device access of the apps goes through the
     * typed arrays ({@code IntArray}, ...), which check each index themselves, and {@code Mesh.copy}, which checks
     * its ranges, so Agrona's second check only costs time (bench/results/2026-11-22-graph-apps-memory-access.md). Pass
     * {@code -Dagrona.disable.bounds.checks=false} (e.g. in {@code OVERLAP_JAVA_OPTS}) to keep both.
     *
     * @param args command-line arguments
     */
    public static void main(final String[] args) {
        if (System.getProperty(AGRONA_BOUNDS_CHECKS) == null) {
            System.setProperty(AGRONA_BOUNDS_CHECKS, "true");
        }
        System.exit(run(commandLine(), args, System::exit));
    }

    /**
     * Executes the command line with every failure reported in one line (see {@link CliErrors}): the handler of
     * {@link #commandLine()} takes exceptions; this adds the {@code Error}s picocli lets through (an
     * {@link OutOfMemoryError} of the main thread) and throwables that kill other threads.
     *
     * @param cl   the command line
     * @param args its arguments
     * @param exit how a dying thread ends the process
     * @return the exit code
     */
    static int run(final CommandLine cl, final String[] args, final java.util.function.IntConsumer exit) {
        CliErrors.exitOnUncaught(cl.getErr(), () -> commandName(cl), exit);
        try {
            return cl.execute(args);
        } catch (final Throwable t) {
            return CliErrors.report(cl.getErr(), commandName(cl), t);
        }
    }

    /** @return the name of the (sub)command being run, as {@code overlap bfs} */
    static String commandName(final CommandLine cl) {
        CommandLine.ParseResult pr = cl.getParseResult();
        if (pr == null) {
            return cl.getCommandSpec().qualifiedName();
        }
        while (pr.hasSubcommand()) {
            pr = pr.subcommand();
        }
        return pr.commandSpec().qualifiedName();
    }

    /**
     * @return the configured command line (for tests): one-line errors for wrong arguments ({@link UsageErrors}) and
     * runtime failures ({@link CliErrors}), case-insensitive enum values, the build's version on every command, the
     * launcher's commands in the help
     */
    public static CommandLine commandLine() {
        final CommandLine cl = new CommandLine(new OverlapCommand());
        cl.setExecutionExceptionHandler(CliErrors.handler());
        cl.setParameterExceptionHandler(new UsageErrors());
        cl.setCaseInsensitiveEnumValuesAllowed(true);
        for (final CommandLine sub : cl.getSubcommands().values()) {
            sub.getCommandSpec().versionProvider(new BuildVersion());
        }
        // everything after launch's COMMAND is that command's, options included
        cl.getSubcommands().get("launch").setStopAtPositional(true);
        LauncherCommands.addToHelp(cl);
        return cl;
    }
}
