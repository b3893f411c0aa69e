package dev.overlap.graph.cli;

import dev.overlap.graph.app.AppResult;
import dev.overlap.graph.app.AppSettings;
import dev.overlap.graph.answer.Answer;
import dev.overlap.graph.app.GraphApp;
import dev.overlap.graph.report.RunReport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code overlap bfs}: breadth-first search depths from a source, verified against a sequential BFS. */
@Command(name = "bfs", mixinStandardHelpOptions = true, sortOptions = false,
    description = "Breadth-first search from a source across the devices; verified against a sequential BFS.")
public final class BfsCommand extends GraphAppCommand {
    @Option(names = "--direction", paramLabel = "DIR", defaultValue = "optimizing", description = "top-down or optimizing "
        + "(Beamer's direction switching on symmetric graphs: BSP levels, or the async hybrid of async top-down, bottom-up "
        + "steps and async top-down again) (default: ${DEFAULT-VALUE})")
    String direction;

    @Override
    GraphApp app() {
        return GraphApp.BFS;
    }

    @Override
    void configure(final AppSettings.Builder settings) {
        settings.direction(direction(spec.commandLine(), direction));
    }

    /**
     * @param cl   the command line, for the usage error
     * @param text a {@code --direction} value: {@code top-down} or {@code optimizing}, in any case
     * @return the direction
     */
    static AppSettings.Direction direction(final picocli.CommandLine cl, final String text) {
        switch (text.toLowerCase(java.util.Locale.ROOT)) {
            case "top-down":
                return AppSettings.Direction.TOP_DOWN;
            case "optimizing":
                return AppSettings.Direction.OPTIMIZING;
            default:
                throw new picocli.CommandLine.ParameterException(cl, "--direction must be top-down or optimizing, "
                    + "was '" + text + "'");
        }
    }

    @Override
    Answer answer(final AppResult result, final int source) {
        return Answer.depths(result.depths(), source);
    }

    @Override
    void extras(final RunReport.Builder report, final AppResult result) {
        int max = 0;
        for (final int d : result.depths()) {
            max = Math.max(max, d);
        }
        report.extra("reached", GraphApp.reached(result.depths())).extra("maxDepth", max).extra("direction", direction.toLowerCase(java.util.Locale.ROOT));
    }
}
