package dev.overlap.graph.cli;

import picocli.CommandLine;

import java.io.PrintWriter;
import java.util.List;

/**
 * How wrong arguments are reported: one line on standard error naming the command, the bad argument and a hint,
 * {@code overlap bfs: unknown option '--bogus' (try 'overlap bfs --help')}, and exit code 2; never picocli's whole
 * usage, which buries the reason under a screen of options. Runtime failures are {@link CliErrors}' business.
 *
 * <p>Used by the {@code overlap} command, and by {@code overlap bench-graphs} and {@code overlap bench}, which the
 * launcher runs from the benchmark jar. Stateless; thread-safe.
 */
public final class UsageErrors implements CommandLine.IParameterExceptionHandler {
    /** At most this many of picocli's suggestions are named. */
    private static final int SUGGESTIONS = 3;

    @Override
    public int handleParseException(final CommandLine.ParameterException ex, final String[] args) {
        final CommandLine cl = ex.getCommandLine();
        final PrintWriter err = cl.getErr();
        err.println(line(ex));
        err.flush();
        return cl.getCommandSpec().exitCodeOnInvalidInput();
    }

    /**
     * @param ex a usage error
     * @return its one line: {@code <command>: <reason> (try '<command> --help')}
     */
    static String line(final CommandLine.ParameterException ex) {
        final String name = ex.getCommandLine().getCommandSpec().qualifiedName();
        final String launcher = launcherCommand(ex);
        if (launcher != null) {
            return name + ": '" + launcher + "' is run by the ./overlap launcher script, not by the jar (try './overlap "
                + launcher + " --help')";
        }
        return name + ": " + reason(ex) + " (try '" + name + " --help')";
    }

    /** @return the launcher's command that {@code ex} did not find among the subcommands, or null */
    private static String launcherCommand(final CommandLine.ParameterException ex) {
        if (ex instanceof CommandLine.UnmatchedArgumentException
            && !ex.getCommandLine().getSubcommands().isEmpty()) {
            final List<String> unmatched = ((CommandLine.UnmatchedArgumentException)ex).getUnmatched();
            if (!unmatched.isEmpty() && LauncherCommands.isLauncherCommand(unmatched.get(0))) {
                return unmatched.get(0);
            }
        }
        return null;
    }

    private static String reason(final CommandLine.ParameterException ex) {
        if (!(ex instanceof CommandLine.UnmatchedArgumentException)) {
            return message(ex);
        }
        final CommandLine.UnmatchedArgumentException u = (CommandLine.UnmatchedArgumentException)ex;
        final List<String> unmatched = u.getUnmatched();
        if (unmatched.isEmpty()) {
            return message(ex);
        }
        final String first = unmatched.get(0);
        final String reason;
        if (!ex.getCommandLine().getSubcommands().isEmpty() && !first.startsWith("-")) {
            reason = "unknown command '" + first + "'";
        } else if (u.isUnknownOption()) {
            reason = "unknown option '" + first + "'";
        } else {
            reason = unmatched.size() == 1 ? "unexpected argument '" + first + "'"
                : "unexpected arguments '" + String.join("' '", unmatched) + "'";
        }
        final List<String> suggestions = u.getSuggestions();
        if (suggestions.isEmpty()) {
            return reason;
        }
        final StringBuilder sb = new StringBuilder(reason).append(", did you mean ");
        for (int i = 0; i < Math.min(SUGGESTIONS, suggestions.size()); i++) {
            sb.append(i == 0 ? "" : " or ").append('\'').append(suggestions.get(i)).append('\'');
        }
        return sb.append('?').toString();
    }

    /** @return picocli's message on one line, without its "Error: " prefix and final full stop */
    private static String message(final CommandLine.ParameterException ex) {
        String m = CliErrors.oneLine(String.valueOf(ex.getMessage()));
        if (m.regionMatches(true, 0, "error: ", 0, 7)) {
            m = m.substring(7);
        }
        if (m.endsWith(".")) {
            m = m.substring(0, m.length() - 1);
        }
        return lowerFirst(m);
    }

    private static String lowerFirst(final String s) {
        return s.isEmpty() || s.length() > 1 && Character.isUpperCase(s.charAt(1)) ? s
            : Character.toLowerCase(s.charAt(0)) + s.substring(1);
    }
}
