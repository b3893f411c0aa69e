package dev.overlap.graph.cli;

import dev.overlap.graph.app.AppResult;
import dev.overlap.graph.GraphSummary;
import dev.overlap.graph.app.AppSettings;
import dev.overlap.graph.async.AsyncAlgorithms;
import dev.overlap.graph.app.AutoMode;
import dev.overlap.graph.answer.Answer;
import dev.overlap.graph.app.GraphApp;
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
public class PageRankCommand extends GraphAppCommand {
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

    @Option(names = "--sweep", paramLabel = "S", defaultValue = "auto", description = "solo and coop PageRank: "
        + "jacobi (every row from the last iteration's ranks: power iteration step for step), gauss-seidel (rows "
        + "updated in place, as the GAP suite's: fewer sweeps to the same tolerance; runs to --tolerance only, "
        + "verified against the converged ranks) or auto (gauss-seidel to a tolerance on graphs of mean degree 8 or "
        + "more, jacobi otherwise; the report's sweepChoice says which ran) (default: ${DEFAULT-VALUE})")
    String sweep;

    @Option(names = "--async-variant", paramLabel = "V", defaultValue = "auto", description = "async PageRank: push "
        + "(residuals, Atos), pull (Gauss-Seidel with block activation; symmetric graphs) or auto (pull on skewed or "
        + "dense symmetric graphs; the report's variantChoice says which ran) (default: ${DEFAULT-VALUE})")
    String asyncVariant;

    @Override
    GraphApp app() {
        return GraphApp.PAGERANK;
    }

    @Override
    void configure(final AppSettings.Builder settings) {
        if (source != null) {
            throw new CommandLine.ParameterException(spec.commandLine(), "pr ranks every vertex: --source does not "
                + "apply");
        }
        try {
            final AppSettings.PageRankSweep pageRankSweep = sweep(sweep);
            settings.damping(damping).tolerance(tolerance).maxIterations(maxIterations)
                .pageRankVariant(variant(asyncVariant)).pageRankSweep(pageRankSweep);
            final String mode = modeOptions.mode == null ? AutoMode.MODE
                : modeOptions.mode.toLowerCase(java.util.Locale.ROOT);
            final boolean inPlace = pageRankSweep == AppSettings.PageRankSweep.GAUSS_SEIDEL;
            if (inPlace && (mode.equals("bsp") || mode.equals("async"))) {
                throw new IllegalArgumentException("--sweep gauss-seidel runs in --mode solo or coop, not " + mode);
            }
            if (inPlace && iterations != null) {
                throw new IllegalArgumentException("--sweep gauss-seidel runs to --tolerance: --iterations does not "
                    + "apply (its answer after a fixed number of sweeps depends on the workers' interleaving)");
            }
            if (iterations != null) {
                if (iterations < 1) {
                    throw new IllegalArgumentException("--iterations must be >= 1, was " + iterations);
                }
                if ("async".equalsIgnoreCase(modeOptions.mode)) {
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

    private static AppSettings.PageRankSweep sweep(final String s) {
        switch (s.toLowerCase(java.util.Locale.ROOT)) {
            case "jacobi": return AppSettings.PageRankSweep.JACOBI;
            case "gauss-seidel": return AppSettings.PageRankSweep.GAUSS_SEIDEL;
            case "auto": return AppSettings.PageRankSweep.AUTO;
            default: throw new IllegalArgumentException("--sweep must be auto, jacobi or gauss-seidel, was '" + s
                + "'");
        }
    }

    private static AppSettings.PageRankVariant variant(final String v) {
        switch (v.toLowerCase(java.util.Locale.ROOT)) {
            case "push": return AppSettings.PageRankVariant.PUSH;
            case "pull": return AppSettings.PageRankVariant.PULL;
            case "auto": return AppSettings.PageRankVariant.AUTO;
            default: throw new IllegalArgumentException("--async-variant must be push, pull or auto, was '" + v + "'");
        }
    }

    @Override
    Answer answer(final AppResult result, final int source) {
        return Answer.ranks(result.ranks());
    }

    @Override
    void extras(final RunReport.Builder report, final AppResult result) {
        double max = 0;
        int arg = 0;
        final double[] r = result.ranks();
        for (int v = 0; v < r.length; v++) {
            if (r[v] > max) {
                max = r[v];
                arg = v;
            }
        }
        report.extra("damping", damping).extra("tolerance", tolerance).extra("sweep",
            sweep.toLowerCase(java.util.Locale.ROOT));
        if (hasAsyncVariant()) {
            report.extra("asyncVariant", asyncVariant.toLowerCase(java.util.Locale.ROOT));
        }
        report.extra("topVertex", arg).extra("topRank", max);
    }

    @Override
    void choices(final RunReport.Builder report, final GraphSummary graph, final String mode,
        final AppSettings settings) {
        if ("async".equals(mode)) {
            report.extra("variantChoice", AsyncAlgorithms.pageRankVariantChoice(graph, settings));
        } else if ("solo".equals(mode) || "coop".equals(mode)) {
            report.extra("sweepChoice", settings.pageRankSweep().choice(settings.fixedIterations(),
                graph.vertexCount(), graph.edgeCount()));
        }
    }

    /** @return whether the run has an async variant to report ({@code overlap node pr} has none) */
    boolean hasAsyncVariant() {
        return true;
    }
}
