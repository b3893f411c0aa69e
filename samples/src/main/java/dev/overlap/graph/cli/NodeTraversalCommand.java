package dev.overlap.graph.cli;

import dev.overlap.core.Mesh;
import dev.overlap.graph.CsrGraph;
import dev.overlap.graph.app.AppResult;
import dev.overlap.graph.app.AppSettings;
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
import picocli.CommandLine.ParentCommand;

import java.io.IOException;

/**
 * The flow of {@code overlap node ... bfs|sssp} ({@link NodeBfs}: owner-compute over the distributed worklist
 * across hosts): every rank loads or generates the same graph (the ranks check its fingerprint, the source and the
 * device count), runs {@code --warmups} and {@code --runs} runs together, and rank 0 gathers the depths or
 * distances, verifies them against the sequential reference, writes {@code --output} and prints the report; every
 * other rank prints one status line. Always the async mode ({@code --mode bsp} is refused). A rank that fails ends
 * every other's run with one line naming it (exit 1).
 */
abstract class NodeTraversalCommand extends GraphAppCommand {
    /** Inbox ring bytes of every rank's transport (the transport's default, stated so the mesh is sized for it). */
    private static final int RING_BYTES = 1 << 20;

    @ParentCommand
    NodeCommand node;

    /** Checks the app's own flags; throws ParameterException. */
    abstract void checkAppFlags(CommandLine cl);

    /** @return the flags of the app's one-JVM command that do not apply across hosts */
    abstract String[] ignoredFlags();

    /** @return 0 for BFS, the priority band width for SSSP */
    abstract int delta(CsrGraph g, AppSettings settings);

    /**
     * @param gathered the depths or distances rank 0 gathered ({@code -1}: not reached)
     * @return the app's result of them
     */
    abstract AppResult result(int[] gathered, long nanos, WorkCounts counts);

    /** Adds the app's report fields. */
    abstract void appExtras(RunReport.Builder rb, AppResult result, int delta);

    @Override
    public Integer call() throws IOException {
        final CommandLine cl = spec.commandLine();
        final String id = app().id();
        node.validate(cl);
        checkAppFlags(cl);
        NodeCommand.requireMode(cl, modeOptions.mode, "async", id, "the async " + app());
        final AppSettings settings = validate(cl);
        refuseWarmupTime(cl);
        final HostFile hosts = node.hostFile(cl);
        node.noteIgnored(cl, id, output.quiet, "a priority worklist, persistent warp kernels, id ranges",
            ignoredFlags());
        return leadWritesAnswer(cl, node.rank == 0, d -> run(cl, hosts, settings, d));
    }

    private int run(final CommandLine cl, final HostFile hosts, final AppSettings settings,
        final AnswerDestination destination) throws IOException {
        final String id = app().id();
        final boolean lead = node.rank == 0;
        final GraphInputOptions.Loaded loaded = loadGraph(lead);
        final CsrGraph g = loaded.graph;
        final int src = chooseSource(g, cl);
        final int devices = meshOptions.devices;
        final int n = g.vertexCount();
        final int ranks = hosts.ranks();
        final int delta = delta(g, settings);
        final int perDevice = (int)Math.min(1 << 24, Math.max(1 << 12, 2L * n / ((long)ranks * devices) + 1));
        final long memory = NodeBfs.bytesPerDevice(n, ranks, devices, perDevice, RING_BYTES,
            devices * meshOptions.threads());
        final Mesh.Builder mb = node.mesh(cl, meshOptions, memory, idleStrategy);
        final long placeStart = System.nanoTime();
        try (HostGroup group = node.join(hosts);
             Mesh mesh = mb.build();
             Transport transport = Transport.builder().mesh(mesh).ringCapacity(RING_BYTES).build();
             HostTransport ht = HostTransport.builder(group, transport).build();
             NodeBfs bfs = new NodeBfs(g, mesh, transport, group, ht, perDevice, delta)) {
            group.checkSame("graph fingerprint", g.fingerprint());
            group.checkSame("source", src);
            group.checkSame("devices per rank", devices);
            group.checkSame("delta", delta);
            final double placeMillis = (System.nanoTime() - placeStart) / 1e6;
            node.status(cl, id, output.quiet, ranks + " running");
            final double[] times = new double[runs];
            final WorklistStats last = timedRuns(() -> bfs.run(src), times);
            final long[] work = {bfs.expansions(), last.localPushes(), last.remotePushes(), bfs.edgesScanned(),
                last.tasks()};
            group.allReduceSum(work);
            final int[] gathered = bfs.gather();
            if (!lead) {
                node.done(cl, id, output.quiet, ranks, devices);
                return 0;
            }
            long reached = 0;
            for (final int d : gathered) {
                reached += d >= 0 ? 1 : 0;
            }
            final AppResult result = result(gathered, (long)(median(times) * 1e6), new WorkCounts(0, work[0],
                reached, work[3], work[1], work[2], 0, 0, 0));
            final RunReport.Builder rb = RunReport.builder();
            final Verification v = verifyAcrossHosts(rb, "async", loaded, src, settings, result, ranks, devices,
                placeMillis, times);
            rb.extra("source", src).extra("reached", reached);
            appExtras(rb, result, delta);
            rb.extra("tasks", work[4]);
            return report(cl, rb, destination, answer(result, src), v, "overlap node " + id);
        }
    }
}
