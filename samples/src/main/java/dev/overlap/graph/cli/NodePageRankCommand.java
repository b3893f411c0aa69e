package dev.overlap.graph.cli;

import dev.overlap.core.Mesh;
import dev.overlap.graph.CsrGraph;
import dev.overlap.graph.app.AppResult;
import dev.overlap.graph.app.AppSettings;
import dev.overlap.graph.app.WorkCounts;
import dev.overlap.graph.node.NodePageRank;
import dev.overlap.graph.ref.Verification;
import dev.overlap.graph.report.RunReport;
import dev.overlap.hosts.HostFile;
import dev.overlap.hosts.HostGroup;
import dev.overlap.hosts.HostTransport;
import dev.overlap.transport.Transport;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.ParentCommand;

import java.io.IOException;

/**
 * {@code overlap node ... pr}: one rank of the pull PageRank across hosts ({@link NodePageRank}). Takes the flags of
 * {@code overlap pr}; every rank loads or generates the same graph (the ranks check its fingerprint, the device
 * count and the PageRank settings), runs {@code --warmups} and {@code --runs} PageRanks together, and rank 0 gathers
 * the ranks, verifies them against power iteration within the tolerance (or exactly after {@code --iterations}),
 * writes {@code --output} and prints the report of {@code overlap pr} with the hosts and devices per host; every
 * other rank prints one status line. The run is the bulk-synchronous pull ({@code --mode async} is refused;
 * {@code --async-variant}, {@code --partition} and the async knobs are noted and ignored). A rank that fails ends
 * every other's run with one line naming it (exit 1).
 */
@Command(name = "pr", mixinStandardHelpOptions = true, sortOptions = false,
    description = "One rank of the pull PageRank across hosts (the flags of 'overlap pr'); rank 0 verifies and "
        + "reports.")
public final class NodePageRankCommand extends PageRankCommand {
    @ParentCommand
    NodeCommand node;

    @Override
    boolean hasAsyncVariant() {
        return false;
    }

    @Override
    public Integer call() throws IOException {
        final CommandLine cl = spec.commandLine();
        node.validate(cl);
        NodeCommand.requireMode(cl, modeOptions.mode, "bsp", "pr", "the bulk-synchronous pull PageRank");
        final AppSettings settings = validate(cl);
        refuseWarmupTime(cl);
        final HostFile hosts = node.hostFile(cl);
        node.noteIgnored(cl, "pr", output.quiet, "a pull PageRank over id ranges", "--async-variant", "--partition",
            "--queue", "--kernel", "--batch-bytes", "--wait", "--fetch", "--delta");
        return leadWritesAnswer(cl, node.rank == 0, d -> run(cl, hosts, settings, d));
    }

    private int run(final CommandLine cl, final HostFile hosts, final AppSettings settings,
        final AnswerDestination destination) throws IOException {
        final boolean lead = node.rank == 0;
        final GraphInputOptions.Loaded loaded = loadGraph(lead);
        final CsrGraph g = loaded.graph;
        final CsrGraph in = g.transpose();
        final int devices = meshOptions.devices;
        final int ranks = hosts.ranks();
        final long placeStart = System.nanoTime();
        final Mesh.Builder mb = node.mesh(cl, meshOptions, NodePageRank.memoryPerDevice(in, ranks, devices),
            idleStrategy);
        try (HostGroup group = node.join(hosts);
             Mesh mesh = mb.build();
             Transport transport = Transport.builder().mesh(mesh).build();
             HostTransport ht = HostTransport.builder(group, transport).build()) {
            group.checkSame("graph fingerprint", g.fingerprint());
            group.checkSame("devices per rank", devices);
            group.checkSame("damping", Double.doubleToLongBits(settings.damping()));
            group.checkSame("tolerance", Double.doubleToLongBits(settings.tolerance()));
            group.checkSame("iterations", settings.fixedIterations() > 0 ? -settings.fixedIterations()
                : settings.maxIterations());
            final NodePageRank pr = new NodePageRank(g, in, mesh, group, ht);
            final double placeMillis = (System.nanoTime() - placeStart) / 1e6;
            node.status(cl, "pr", output.quiet, ranks + " running");
            final double[] times = new double[runs];
            final AppResult last = timedRuns(() -> pr.run(settings), times);
            final WorkCounts c = last.counts();
            final long[] work = {c.visited(), c.edgesScanned(), c.messages(), c.bytesSent()};
            group.allReduceSum(work);
            final double[] ranksOut = pr.gather();
            if (!lead) {
                node.done(cl, "pr", output.quiet, ranks, devices);
                return 0;
            }
            final AppResult result = AppResult.pageRank(ranksOut, (long)(median(times) * 1e6), new WorkCounts(
                c.iterations(), work[0], work[0], work[1], 0, 0, 0, work[2], work[3]));
            final RunReport.Builder rb = RunReport.builder();
            final Verification v = verifyAcrossHosts(rb, "bsp", loaded, 0, settings, result, ranks, devices,
                placeMillis, times);
            extras(rb, result);
            return report(cl, rb, destination, answer(result, 0), v, "overlap node pr");
        }
    }
}
