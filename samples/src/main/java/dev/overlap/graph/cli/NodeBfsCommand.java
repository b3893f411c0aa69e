package dev.overlap.graph.cli;

import dev.overlap.graph.CsrGraph;
import dev.overlap.graph.answer.Answer;
import dev.overlap.graph.app.AppResult;
import dev.overlap.graph.app.AppSettings;
import dev.overlap.graph.app.GraphApp;
import dev.overlap.graph.app.WorkCounts;
import dev.overlap.graph.node.NodeBfs;
import dev.overlap.graph.report.RunReport;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code overlap node ... bfs}: one rank of the asynchronous BFS across hosts ({@link NodeBfs}, owner-compute), in
 * the flow of {@link NodeTraversalCommand}. Takes the flags of {@code overlap bfs}: the run is always the async
 * top-down one with a priority worklist ({@code --mode bsp} is refused; {@code --direction optimizing} runs
 * top-down; {@code --queue}, {@code --kernel}, {@code --fetch}, {@code --delta} and {@code --partition} are noted
 * and ignored).
 */
@Command(name = "bfs", mixinStandardHelpOptions = true, sortOptions = false,
    description = "One rank of the async BFS across hosts (the flags of 'overlap bfs'); rank 0 verifies and reports.")
public final class NodeBfsCommand extends NodeTraversalCommand {
    @Option(names = "--direction", paramLabel = "DIR", defaultValue = "top-down", description = "top-down (the only "
        + "direction across hosts; optimizing is accepted and runs top-down) (default: ${DEFAULT-VALUE})")
    String direction;

    @Override
    GraphApp app() {
        return GraphApp.BFS;
    }

    @Override
    Answer answer(final AppResult result, final int source) {
        return Answer.depths(result.depths(), source);
    }

    @Override
    void checkAppFlags(final CommandLine cl) {
        BfsCommand.direction(cl, direction);
    }

    @Override
    String[] ignoredFlags() {
        return new String[] {"--queue", "--kernel", "--fetch", "--delta", "--partition"};
    }

    @Override
    int delta(final CsrGraph g, final AppSettings settings) {
        return 0;
    }

    @Override
    AppResult result(final int[] gathered, final long nanos, final WorkCounts counts) {
        return AppResult.bfs(gathered, nanos, counts);
    }

    @Override
    void appExtras(final RunReport.Builder rb, final AppResult result, final int delta) {
        int max = 0;
        for (final int d : result.depths()) {
            max = Math.max(max, d);
        }
        rb.extra("maxDepth", max).extra("direction", "top-down");
    }
}
