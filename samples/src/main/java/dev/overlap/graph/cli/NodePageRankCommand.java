package dev.overlap.graph.cli;

import dev.overlap.core.Mesh;
import dev.overlap.graph.ConsoleProgress;
import dev.overlap.graph.CsrGraph;
import dev.overlap.graph.app.AppResult;
import dev.overlap.graph.app.AppSettings;
import dev.overlap.graph.app.GraphApp;
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
import java.util.Arrays;

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
        if (cl.getParseResult().hasMatchedOption("--mode") && !"bsp".equalsIgnoreCase(modeOptions.mode)) {
            throw new CommandLine.ParameterException(cl, "overlap node pr runs the bulk-synchronous pull PageRank: "
                + "--mode must be bsp, was '" + modeOptions.mode + "'");
        }
        final AppSettings settings = validate(cl);
        final HostFile hosts = node.hostFile(cl);
        final boolean lead = node.rank == 0;
        if (lead && !output.quiet) {
            for (final String ignored : new String[] {"--async-variant", "--partition", "--queue", "--kernel",
                "--batch-bytes", "--wait", "--fetch", "--delta"}) {
                if (cl.getParseResult().hasMatchedOption(ignored)) {
                    cl.getErr().println("overlap node pr: note: " + ignored + " does not apply across hosts (a pull "
                        + "PageRank over id ranges); ignored");
                }
            }
            cl.getErr().flush();
        }
        if (!lead) {
            return run(cl, hosts, settings, null);
        }
        try (AnswerDestination destination = answers.open(cl, input.file())) {
            return run(cl, hosts, settings, destination);
        }
    }

    private int run(final CommandLine cl, final HostFile hosts, final AppSettings settings,
        final AnswerDestination destination) throws IOException {
        final boolean lead = node.rank == 0;
        final GraphInputOptions.Loaded loaded = input.load(false, ConsoleProgress.forConsole(output.quiet || !lead));
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
            for (int i = 0; i < warmups; i++) {
                pr.run(settings);
            }
            final double[] times = new double[runs];
            AppResult last = null;
            for (int i = 0; i < runs; i++) {
                final long t0 = System.nanoTime();
                last = pr.run(settings);
                times[i] = (System.nanoTime() - t0) / 1e6;
            }
            final WorkCounts c = last.counts();
            final long[] work = {c.visited(), c.edgesScanned(), c.messages(), c.bytesSent()};
            group.allReduceSum(work);
            final double[] ranksOut = pr.gather();
            if (!lead) {
                node.status(cl, "pr", output.quiet, ranks + " (devices " + node.rank * devices + ".."
                    + ((node.rank + 1) * devices - 1) + ") done");
                return 0;
            }
            final double[] sorted = times.clone();
            Arrays.sort(sorted);
            final double median = sorted[sorted.length / 2];
            final AppResult result = AppResult.pageRank(ranksOut, (long)(median * 1e6), new WorkCounts(
                c.iterations(), work[0], work[0], work[1], 0, 0, 0, work[2], work[3]));
            final long refStart = System.nanoTime();
            final Verification v = output.noVerify ? Verification.skipped()
                : GraphApp.PAGERANK.expected(g, 0, settings, null).check(result);
            final double referenceMillis = (System.nanoTime() - refStart) / 1e6;
            final RunReport.Builder rb = RunReport.builder().app(GraphApp.PAGERANK.id()).mode("bsp")
                .graph(loaded.name, g.vertexCount(), g.edgeCount())
                .mesh(ranks * devices, meshOptions.threads(), "range")
                .times(loaded.millis, placeMillis, median)
                .edgesTraversed(0).counts(result.counts()).verification(v)
                .extra("hosts", ranks).extra("devicesPerHost", devices);
            if (!output.noVerify) {
                rb.extra("referenceMs", Math.round(referenceMillis * 1000) / 1000.0);
            }
            rb.extra("warmups", warmups);
            runTimes(rb, runs, times, sorted[0], sorted[sorted.length - 1]);
            extras(rb, g, result);
            return report(cl, rb, destination, answer(result, 0), v, "overlap node pr");
        }
    }
}
