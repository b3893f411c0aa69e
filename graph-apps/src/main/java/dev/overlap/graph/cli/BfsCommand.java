package dev.overlap.graph.cli;

import dev.overlap.graph.CsrGraph;
import dev.overlap.graph.app.AppResult;
import dev.overlap.graph.app.AppSettings;
import dev.overlap.graph.app.GraphAlgorithms;
import dev.overlap.graph.partition.DeviceGraph;
import dev.overlap.graph.ref.SequentialBfs;
import dev.overlap.graph.ref.Verification;
import dev.overlap.graph.report.RunReport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code overlap bfs}: breadth-first search depths from a source, verified against a sequential BFS. */
@Command(name = "bfs", mixinStandardHelpOptions = true, sortOptions = false,
    description = "Breadth-first search from a source across the devices; verified against a sequential BFS.")
public final class BfsCommand extends GraphAppCommand {
    @Option(names = "--direction", paramLabel = "DIR", defaultValue = "optimizing", description = "BSP BFS: top-down or optimizing "
        + "(Beamer's direction switching on symmetric graphs) (default: ${DEFAULT-VALUE})")
    String direction;

    @Override
    String app() {
        return "bfs";
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
    AppResult run(final GraphAlgorithms algorithms, final DeviceGraph dg, final CsrGraph g, final int src,
        final AppSettings settings) {
        final AppResult r = algorithms.bfs(dg, src, settings);
        return AppResult.bfs(r.depths(), r.nanos(), r.counts().withIdeal(reached(r.depths())));
    }

    @Override
    Verification verify(final CsrGraph g, final int src, final AppSettings settings, final AppResult result) {
        return Verification.depths(SequentialBfs.depths(g, src), result.depths());
    }

    @Override
    long edgesTraversed(final CsrGraph g, final AppResult result) {
        return edgesOfReached(g, result.depths());
    }

    @Override
    void extras(final RunReport.Builder report, final CsrGraph g, final AppResult result) {
        int max = 0;
        for (final int d : result.depths()) {
            max = Math.max(max, d);
        }
        report.extra("reached", reached(result.depths())).extra("maxDepth", max).extra("direction", direction);
    }
}
