package dev.overlap.graph.cli;

import dev.overlap.graph.app.AppResult;
import dev.overlap.graph.app.AppSettings;
import dev.overlap.graph.answer.Answer;
import dev.overlap.graph.app.GraphApp;
import dev.overlap.graph.report.RunReport;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code overlap sssp}: single-source shortest paths, verified against Dijkstra. Generated graphs get random
 * weights; unweighted files use weight 1.
 */
@Command(name = "sssp", mixinStandardHelpOptions = true, sortOptions = false,
    description = "Single-source shortest paths across the devices; verified against Dijkstra. Generated graphs get "
        + "random weights (1..255 kron/urand, 1..100 grid); unweighted files use weight 1.")
public final class SsspCommand extends GraphAppCommand {
    @CommandLine.Option(names = "--delta", paramLabel = "D", defaultValue = "0", description = "distance bucket "
        + "width of delta-stepping (async's priority worklist; solo, coop and bsp round it down to a power of two); "
        + "0 = 2 x mean weight / mean degree (default: ${DEFAULT-VALUE})")
    int delta;

    @Override
    void configure(final AppSettings.Builder settings) {
        delta(spec.commandLine(), settings, delta);
    }

    /**
     * Sets {@code --delta}.
     *
     * @throws CommandLine.ParameterException naming it when out of range
     */
    static void delta(final CommandLine cl, final AppSettings.Builder settings, final int delta) {
        try {
            settings.delta(delta);
        } catch (final IllegalArgumentException e) {
            throw new CommandLine.ParameterException(cl, "--delta: " + e.getMessage());
        }
    }

    @Override
    GraphApp app() {
        return GraphApp.SSSP;
    }

    @Override
    Answer answer(final AppResult result, final int source) {
        return Answer.distances(result.distances(), source);
    }

    @Override
    void extras(final RunReport.Builder report, final AppResult result) {
        report.extra("reached", result.counts().ideal()).extra("maxDistance", maxDistance(result.distances()));
    }

    /** @return the largest distance of a reached vertex (0 if none) */
    static long maxDistance(final long[] distances) {
        long max = 0;
        for (final long d : distances) {
            if (d != Long.MAX_VALUE) {
                max = Math.max(max, d);
            }
        }
        return max;
    }
}
