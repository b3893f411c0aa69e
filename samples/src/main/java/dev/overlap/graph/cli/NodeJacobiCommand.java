package dev.overlap.graph.cli;

import dev.overlap.core.Mesh;
import dev.overlap.graph.app.AppRunner;
import dev.overlap.graph.jacobi.BandedSystem;
import dev.overlap.graph.jacobi.JacobiSolver;
import dev.overlap.graph.node.NodeJacobi;
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
 * {@code overlap node ... jacobi}: one rank of Jacobi across hosts ({@link NodeJacobi}). Takes the flags of
 * {@code overlap jacobi}; every rank builds the same banded system (the ranks check its size, band and seed, the
 * tolerance, the iteration cap and the device count), solves together, and rank 0 verifies the solution it holds by
 * the host residual, writes {@code --output} and prints the report of {@code overlap jacobi} with the hosts and
 * devices per host; every other rank prints one status line. The vector moves by one-sided puts between hosts, not
 * by PROACT transfers: {@code --transfer profile} and {@code --profile} (which choose a transfer mode) are refused,
 * {@code --transfer MODE}, {@code --chunk-kib} and {@code --transfer-threads} are noted and ignored. A rank that
 * fails ends every other's run with one line naming it (exit 1).
 */
@Command(name = "jacobi", mixinStandardHelpOptions = true, sortOptions = false,
    description = "One rank of Jacobi across hosts (the flags of 'overlap jacobi'); rank 0 verifies and reports.")
public final class NodeJacobiCommand extends JacobiCommand {
    @ParentCommand
    NodeCommand node;

    @Override
    public Integer call() throws IOException {
        final CommandLine cl = spec.commandLine();
        node.validate(cl);
        validate(cl);
        if (transfer.equalsIgnoreCase("profile") || profile != null) {
            throw new CommandLine.ParameterException(cl, "overlap node jacobi moves the vector by one-sided puts "
                + "between hosts: --transfer profile and --profile choose a PROACT transfer mode, which does not "
                + "apply across hosts");
        }
        final HostFile hosts = node.hostFile(cl);
        node.noteIgnored(cl, "jacobi", output.quiet, "the vector moves by one-sided puts between hosts", "--transfer",
            "--chunk-kib", "--transfer-threads");
        final BandedSystem system = new BandedSystem(size, band, seed);
        final int devices = meshOptions.devices;
        final long bytes = NodeJacobi.bytesPerDevice(system, hosts.ranks(), devices);
        if (bytes > AppRunner.MAX_DEVICE_BYTES) {
            throw new IllegalStateException("--size " + size + " needs " + (bytes >> 20) + " MiB per device on "
                + devices + " devices, more than a device holds (2 GiB): use a smaller --size");
        }
        if (node.rank != 0) { // rank 0 alone writes the answer
            return run(cl, hosts, system, bytes, null);
        }
        try (AnswerDestination destination = answers.open(cl, null)) {
            return run(cl, hosts, system, bytes, destination);
        }
    }

    private int run(final CommandLine cl, final HostFile hosts, final BandedSystem system, final long bytes,
        final AnswerDestination destination) throws IOException {
        final int devices = meshOptions.devices;
        final int ranks = hosts.ranks();
        final Mesh.Builder mb = node.mesh(cl, meshOptions, bytes, null);
        try (HostGroup group = node.join(hosts);
             Mesh mesh = mb.build();
             Transport transport = Transport.builder().mesh(mesh).build();
             HostTransport ht = HostTransport.builder(group, transport).build()) {
            group.checkSame("system size", size);
            group.checkSame("half band", band);
            group.checkSame("seed", seed);
            group.checkSame("tolerance", Double.doubleToLongBits(tolerance));
            group.checkSame("max iterations", maxIterations);
            group.checkSame("devices per rank", devices);
            final NodeJacobi jacobi = new NodeJacobi(system, mesh, group, ht);
            node.status(cl, "jacobi", output.quiet, ranks + " running");
            final JacobiSolver.Result r = jacobi.solve(tolerance, maxIterations);
            final long[] work = {r.copiedChunks(), r.copiedBytes()};
            group.allReduceSum(work);
            if (node.rank != 0) {
                node.done(cl, "jacobi", output.quiet, ranks, devices);
                return 0;
            }
            final RunReport.Builder rb = RunReport.builder().mode("bsp").mesh(ranks * devices, meshOptions.threads(),
                "range").extra("hosts", ranks).extra("devicesPerHost", devices);
            return report(cl, rb, system, r.x(), r.iterations(), r.residual(), r.nanos(), work[0], work[1],
                destination, "overlap node jacobi");
        }
    }
}
