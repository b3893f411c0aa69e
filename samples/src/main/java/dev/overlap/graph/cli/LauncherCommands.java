package dev.overlap.graph.cli;

import picocli.CommandLine;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The commands the {@code ./overlap} shell launcher runs itself, before the jar starts: {@code bench} (the JMH suite
 * and its report, from the bench module's jar) and {@code bench-graphs} (the graph comparison in the bench module's own
 * jar). They are not picocli subcommands (the launcher hands their arguments to other programs), but
 * {@code overlap --help} lists them beside the others, and naming one to the jar directly says where it lives.
 *
 * <p>Stateless; thread-safe.
 */
final class LauncherCommands {
    private static final Map<String, String> COMMANDS = new LinkedHashMap<>();

    static {
        COMMANDS.put("bench", "The JMH suite and its report, with peers and a baseline (--quick, --full, "
            + "--include REGEX, --baseline FILE, report); run by the ./overlap launcher script.");
        COMMANDS.put("bench-graphs", "BFS, PageRank and SSSP in each mode against plain Java and JGraphT on kron and "
            + "grid graphs, every answer verified (bench module); run by the ./overlap launcher script.");
    }

    private LauncherCommands() {
    }

    /** @return true when the launcher, not the jar, runs {@code name} */
    static boolean isLauncherCommand(final String name) {
        return COMMANDS.containsKey(name);
    }

    /**
     * Lists the launcher's commands in {@code cl}'s help, in the command list just before {@code help}, in the same
     * columns as the others.
     *
     * @param cl the top-level command line
     */
    static void addToHelp(final CommandLine cl) {
        cl.getHelpSectionMap().put(CommandLine.Model.UsageMessageSpec.SECTION_KEY_COMMAND_LIST, help -> {
            final Map<String, CommandLine.Help> all = new LinkedHashMap<>();
            for (final Map.Entry<String, CommandLine.Help> e : help.subcommands().entrySet()) {
                if (e.getKey().equals("help")) {
                    addLauncherCommands(all, help);
                }
                all.put(e.getKey(), e.getValue());
            }
            addLauncherCommands(all, help);
            return help.commandList(all);
        });
    }

    private static void addLauncherCommands(final Map<String, CommandLine.Help> all, final CommandLine.Help help) {
        for (final Map.Entry<String, String> c : COMMANDS.entrySet()) {
            if (!all.containsKey(c.getKey())) {
                final CommandLine.Model.CommandSpec spec = CommandLine.Model.CommandSpec.create().name(c.getKey());
                spec.usageMessage().description(c.getValue());
                all.put(c.getKey(), new CommandLine.Help(spec, help.colorScheme()));
            }
        }
    }
}
