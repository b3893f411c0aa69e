package dev.overlap.graph.cli;

import dev.overlap.graph.CsrGraph;
import dev.overlap.graph.app.AppResult;
import dev.overlap.graph.app.AppSettings;
import dev.overlap.graph.app.GraphAlgorithms;
import dev.overlap.graph.partition.DeviceGraph;
import dev.overlap.graph.ref.Dijkstra;
import dev.overlap.graph.ref.Verification;
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
    @CommandLine.Option(names = "--delta", paramLabel = "D", defaultValue = "0", description = "async priority "
        + "worklist: distance bucket width (delta-stepping); 0 = 2 x mean weight / mean degree (default: ${DEFAULT-VALUE})")
    int delta;

    @Override
    String app() {
        return "sssp";
    }

    @Override
    boolean weighted() {
        return true;
    }

    /** Async FIFO SSSP relaxes vertices again and again out of distance order (40x the ideal work on a grid). */
    @Override
    AppSettings.Queue autoQueue() {
        return AppSettings.Queue.PRIORITY;
    }

    @Override
    void configure(final AppSettings.Builder settings) {
        try {
            settings.delta(delta);
        } catch (final IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--delta: " + e.getMessage());
        }
    }

    @Override
    AppResult run(final GraphAlgorithms algorithms, final DeviceGraph dg, final CsrGraph g, final int src,
        final AppSettings settings) {
        for (long e = 0; e < g.edgeCount(); e++) {
            if (g.weight(e) < 0) {
                throw new IllegalStateException("edge " + e + " has negative weight " + g.weight(e)
                    + ": shortest paths need weights >= 0");
            }
        }
        final AppResult r = algorithms.sssp(dg, src, settings);
        long reached = 0;
        for (final long d : r.distances()) {
            reached += d != Long.MAX_VALUE ? 1 : 0;
        }
        return AppResult.sssp(r.distances(), r.nanos(), r.counts().withIdeal(reached));
    }

    @Override
    Verification verify(final CsrGraph g, final int src, final AppSettings settings, final AppResult result) {
        return Verification.distances(Dijkstra.distances(g, src), result.distances());
    }

    @Override
    long edgesTraversed(final CsrGraph g, final AppResult result) {
        long m = 0;
        final long[] d = result.distances();
        for (int v = 0; v < d.length; v++) {
            if (d[v] != Long.MAX_VALUE) {
                m += g.degree(v);
            }
        }
        return m;
    }

    @Override
    void extras(final RunReport.Builder report, final CsrGraph g, final AppResult result) {
        long max = 0;
        for (final long d : result.distances()) {
            if (d != Long.MAX_VALUE) {
                max = Math.max(max, d);
            }
        }
        report.extra("reached", result.counts().ideal()).extra("maxDistance", max);
    }
}
