package dev.overlap.graph.cli;

import dev.overlap.core.Mesh;
import dev.overlap.graph.CsrGraph;
import dev.overlap.graph.answer.Answer;
import dev.overlap.graph.app.AppResult;
import dev.overlap.graph.app.AppSettings;
import dev.overlap.graph.app.GraphApp;
import dev.overlap.graph.app.WorkCounts;
import dev.overlap.graph.node.NodeBfs;
import dev.overlap.graph.ref.Verification;
import dev.overlap.graph.report.RunReport;
import dev.overlap.hosts.HostFile;
import dev.overlap.hosts.HostGroup;
import dev.overlap.hosts.HostTransport;
import dev.overlap.transport.Transport;
import dev.overlap.worklist.WorklistStats;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

import java.io.IOException;

/**
 * {@code overlap node ... bfs}: one rank of the asynchronous BFS across hosts ({@link NodeBfs}, owner-compute). Takes
 * the flags of {@code overlap bfs}; every rank loads or generates the same graph (the ranks check its fingerprint,
 * the source and the device count), runs {@code --warmups} and {@code --runs} BFS runs together, and rank 0 gathers
 * the depths, verifies them against the sequential BFS, writes {@code --output} and prints the report; every other
 * rank prints one status line. The run is always the async top-down one with a priority worklist ({@code --mode
 * bsp} is refused; {@code --direction}, {@code --queue} and the other async knobs are noted and ignored). A rank that
 * fails ends every other's run with one line naming it (exit 1).
 */
@Command(name = "bfs", mixinStandardHelpOptions = true, sortOptions = false,
    description = "One rank of the async BFS across hosts (the flags of 'overlap bfs'); rank 0 verifies and reports.")
public final class NodeBfsCommand extends GraphAppCommand {
    @ParentCommand
    NodeCommand node;

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
    public Integer call() throws IOException {
        final CommandLine cl = spec.commandLine();
        node.validate(cl);
        BfsCommand.direction(cl, direction);
        NodeCommand.requireMode(cl, modeOptions.mode, "async", "bfs", "the async BFS");
        final AppSettings settings = validate(cl);
        final HostFile hosts = node.hostFile(cl);
        node.noteIgnored(cl, "bfs", output.quiet, "a priority worklist, persistent warp kernels, id ranges", "--queue",
            "--kernel", "--fetch", "--delta", "--partition");
        return leadWritesAnswer(cl, node.rank == 0, d -> run(cl, hosts, settings, d));
    }

    private int run(final CommandLine cl, final HostFile hosts, final AppSettings settings,
        final AnswerDestination destination) throws IOException {
        final boolean lead = node.rank == 0;
        final GraphInputOptions.Loaded loaded = loadGraph(lead);
        final CsrGraph g = loaded.graph;
        final int src = chooseSource(g, cl);
        final int devices = meshOptions.devices;
        final int n = g.vertexCount();
        final int ranks = hosts.ranks();
        final int perDevice = (int)Math.min(1 << 24, Math.max(1 << 12, 2L * n / ((long)ranks * devices) + 1));
        final long memory = 16L * n / ((long)ranks * devices) + 8L * n + (long)perDevice * 16 + (8 << 20);
        final Mesh.Builder mb = node.mesh(cl, meshOptions, memory, idleStrategy);
        final long placeStart = System.nanoTime();
        try (HostGroup group = node.join(hosts);
             Mesh mesh = mb.build();
             Transport transport = Transport.builder().mesh(mesh).build();
             HostTransport ht = HostTransport.builder(group, transport).build();
             NodeBfs bfs = new NodeBfs(g, mesh, transport, group, ht, perDevice)) {
            group.checkSame("graph fingerprint", g.fingerprint());
            group.checkSame("source", src);
            group.checkSame("devices per rank", devices);
            final double placeMillis = (System.nanoTime() - placeStart) / 1e6;
            node.status(cl, "bfs", output.quiet, ranks + " running");
            final double[] times = new double[runs];
            final WorklistStats last = timedRuns(() -> bfs.run(src), times);
            final long[] work = {bfs.expansions(), last.localPushes(), last.remotePushes(), bfs.edgesScanned(),
                last.tasks()};
            group.allReduceSum(work);
            final int[] depths = bfs.gather();
            if (!lead) {
                node.done(cl, "bfs", output.quiet, ranks, devices);
                return 0;
            }
            final long reached = GraphApp.reached(depths);
            final AppResult result = AppResult.bfs(depths, (long)(median(times) * 1e6), new WorkCounts(0, work[0],
                reached, work[3], work[1], work[2], 0, 0, 0));
            int max = 0;
            for (final int d : depths) {
                max = Math.max(max, d);
            }
            final RunReport.Builder rb = RunReport.builder();
            final Verification v = verifyAcrossHosts(rb, "async", loaded, src, settings, result, ranks, devices,
                placeMillis, times);
            rb.extra("source", src).extra("reached", reached).extra("maxDepth", max).extra("direction", "top-down")
                .extra("tasks", work[4]);
            return report(cl, rb, destination, answer(result, src), v, "overlap node bfs");
        }
    }
}
