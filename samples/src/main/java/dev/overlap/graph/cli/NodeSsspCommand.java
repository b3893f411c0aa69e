package dev.overlap.graph.cli;

import dev.overlap.graph.CsrGraph;
import dev.overlap.graph.answer.Answer;
import dev.overlap.graph.app.AppResult;
import dev.overlap.graph.app.AppSettings;
import dev.overlap.graph.app.GraphApp;
import dev.overlap.graph.app.WorkCounts;
import dev.overlap.graph.async.AsyncAlgorithms;
import dev.overlap.graph.node.NodeBfs;
import dev.overlap.graph.ref.Dijkstra;
import dev.overlap.graph.report.RunReport;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code overlap node ... sssp}: one rank of the asynchronous SSSP across hosts ({@link NodeBfs} on the edge
 * weights: owner-compute pushes of (vertex, distance) over the distributed worklist across hosts, delta-stepping
 * bands), in the flow of {@link NodeTraversalCommand}; rank 0 verifies against Dijkstra. Takes the flags of
 * {@code overlap sssp}: {@code --delta} is the band width (0: Meyer and Sanders' choice, as in {@code --mode async});
 * {@code --mode bsp} is refused; {@code --queue}, {@code --kernel}, {@code --fetch} and {@code --partition} are noted
 * and ignored. Distances travel as {@code int} priorities: a graph whose longest possible distance does not fit one
 * is refused.
 */
@Command(name = "sssp", mixinStandardHelpOptions = true, sortOptions = false,
    description = "One rank of the async SSSP across hosts (the flags of 'overlap sssp'); rank 0 verifies against "
        + "Dijkstra and reports.")
public final class NodeSsspCommand extends NodeTraversalCommand {
    @Option(names = "--delta", paramLabel = "D", defaultValue = "0", description = "distance band width of the "
        + "priority worklist (delta-stepping); 0 = 2 x mean weight / mean degree (default: ${DEFAULT-VALUE})")
    int delta;

    @Override
    GraphApp app() {
        return GraphApp.SSSP;
    }

    @Override
    void configure(final AppSettings.Builder settings) {
        SsspCommand.delta(spec.commandLine(), settings, delta);
    }

    @Override
    Answer answer(final AppResult result, final int source) {
        return Answer.distances(result.distances(), source);
    }

    @Override
    void checkAppFlags(final CommandLine cl) {
        // --delta is checked by configure
    }

    @Override
    String[] ignoredFlags() {
        return new String[] {"--queue", "--kernel", "--fetch", "--partition"};
    }

    @Override
    int delta(final CsrGraph g, final AppSettings settings) {
        return AsyncAlgorithms.ssspDelta(g, settings);
    }

    @Override
    AppResult result(final int[] gathered, final long nanos, final WorkCounts counts) {
        final long[] distances = new long[gathered.length];
        for (int v = 0; v < distances.length; v++) {
            distances[v] = gathered[v] < 0 ? Dijkstra.UNREACHED : gathered[v];
        }
        return AppResult.sssp(distances, nanos, counts);
    }

    @Override
    void appExtras(final RunReport.Builder rb, final AppResult result, final int bandWidth) {
        rb.extra("maxDistance", SsspCommand.maxDistance(result.distances())).extra("delta", bandWidth);
    }
}
