package dev.overlap.graph.cli;

import dev.overlap.graph.CsrGraph;
import dev.overlap.graph.app.AppResult;
import dev.overlap.graph.app.AppSettings;
import dev.overlap.graph.app.GraphAlgorithms;
import dev.overlap.graph.partition.DeviceGraph;
import dev.overlap.graph.ref.PowerIteration;
import dev.overlap.graph.ref.Verification;
import dev.overlap.graph.report.RunReport;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code overlap pr}: PageRank, damping 0.85 by default, to an L1 tolerance against the exact ranks (or a fixed
 * number of iterations), verified against sequential power iteration.
 */
@Command(name = "pr", mixinStandardHelpOptions = true, sortOptions = false,
    description = "PageRank across the devices (dangling rank spread evenly); verified against power iteration "
        + "within the L1 tolerance.")
public final class PageRankCommand extends GraphAppCommand {
    @Option(names = "--damping", paramLabel = "D", defaultValue = "0.85", description = "damping factor (default: ${DEFAULT-VALUE})")
    double damping;

    @Option(names = "--tolerance", paramLabel = "T", defaultValue = "1e-4", description = "L1 distance to the exact ranks "
        + "(default: ${DEFAULT-VALUE})")
    double tolerance;

    @Option(names = "--max-iterations", paramLabel = "N", defaultValue = "1000", description = "iteration cap (default: "
        + "${DEFAULT-VALUE})")
    int maxIterations;

    @Option(names = "--iterations", paramLabel = "N", description = "run exactly this many iterations instead of iterating to the "
        + "tolerance")
    Integer iterations;

    @Override
    String app() {
        return "pr";
    }

    @Override
    boolean hasSource() {
        return false;
    }

    @Override
    void configure(final AppSettings.Builder settings) {
        if (source != null) {
            throw new CommandLine.ParameterException(spec.commandLine(), "pr ranks every vertex: --source does not "
                + "apply");
        }
        try {
            settings.damping(damping).tolerance(tolerance).maxIterations(maxIterations);
            if (iterations != null) {
                if (iterations < 1) {
                    throw new IllegalArgumentException("--iterations must be >= 1, was " + iterations);
                }
                if (isAsync()) {
                    if (!output.quiet) {
                        spec.commandLine().getErr().println("overlap pr: note: async PageRank has no iterations; it "
                            + "ignores --iterations and runs to --tolerance " + tolerance + " (verified against it)");
                        spec.commandLine().getErr().flush();
                    }
                } else {
                    settings.fixedIterations(iterations);
                }
            }
        } catch (final IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
    }

    private boolean isAsync() {
        return "async".equalsIgnoreCase(modeOptions.mode);
    }

    /** Pull models gather over in-edges (the reverse graph); push models scatter over the graph itself. */
    @Override
    CsrGraph placed(final CsrGraph g, final GraphAlgorithms algorithms) {
        return algorithms.pageRankEdges() == GraphAlgorithms.PageRankEdges.OUT ? g : g.transpose();
    }

    @Override
    AppResult run(final GraphAlgorithms algorithms, final DeviceGraph dg, final CsrGraph g, final int src,
        final AppSettings settings) {
        final int[] outDegrees = new int[g.vertexCount()];
        for (int v = 0; v < outDegrees.length; v++) {
            outDegrees[v] = g.degree(v);
        }
        return algorithms.pageRank(dg, outDegrees, settings);
    }

    @Override
    Verification verify(final CsrGraph g, final int src, final AppSettings settings, final AppResult result) {
        if (settings.fixedIterations() > 0) {
            final PowerIteration.Result ref = PowerIteration.fixed(g, settings.damping(), settings.fixedIterations());
            return Verification.ranks(ref.ranks(), result.ranks(), 1e-9);
        }
        final double refTolerance = settings.tolerance() / 100;
        final PowerIteration.Result ref = PowerIteration.ranks(g, settings.damping(), refTolerance, 100_000);
        return Verification.ranks(ref.ranks(), result.ranks(), settings.tolerance() + refTolerance);
    }

    @Override
    void extras(final RunReport.Builder report, final CsrGraph g, final AppResult result) {
        double max = 0;
        int arg = 0;
        final double[] r = result.ranks();
        for (int v = 0; v < r.length; v++) {
            if (r[v] > max) {
                max = r[v];
                arg = v;
            }
        }
        report.extra("damping", damping).extra("tolerance", tolerance).extra("topVertex", arg).extra("topRank", max);
    }
}
