package dev.overlap.graph.cli;

import picocli.CommandLine;

/**
 * A command that {@code overlap launch} can run in several processes ({@code bfs}, {@code pr}, {@code sssp},
 * {@code jacobi}): it builds its mesh with the {@link LaunchedWorld} of its environment, and checks its arguments for
 * such a run before any process starts (the launcher calls {@link #checkAcrossProcesses} on the parsed command line,
 * so a wrong argument is one line from the launcher rather than one per rank), and again in each rank.
 */
interface RunsAcrossProcesses {
    /**
     * Checks the parsed arguments as the command's own run would, and that they fit a run of {@code ranks}
     * processes (every process needs a device: {@code --devices} is the total; no option that works in one process
     * only).
     *
     * @param cl    the command's command line, for the usage errors
     * @param ranks processes of the run
     * @throws CommandLine.ParameterException naming the argument
     */
    void checkAcrossProcesses(CommandLine cl, int ranks);
}
