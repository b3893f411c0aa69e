package dev.overlap.graph.cli;

import dev.overlap.graph.CsrGraph;
import dev.overlap.graph.app.AppResult;
import dev.overlap.graph.app.AppSettings;
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
        switch (direction) {
            case "top-down":
                settings.direction(AppSettings.Direction.TOP_DOWN);
                break;
            case "optimizing":
                settings.direction(AppSettings.Direction.OPTIMIZING);
                break;
            default:
                throw new picocli.CommandLine.ParameterException(spec.commandLine(), "--direction must be top-down or "
                    + "optimizing, was '" + direction + "'");
        }
    }

    @Override
    void extras(final RunReport.Builder report, final CsrGraph g, final AppResult result) {
        int max = 0;
        for (final int d : result.depths()) {
            max = Math.max(max, d);
        }
        report.extra("reached", GraphApp.reached(result.depths())).extra("maxDepth", max).extra("direction", direction);
    }
}
