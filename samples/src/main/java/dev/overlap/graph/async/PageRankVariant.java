package dev.overlap.graph.async;

import dev.overlap.graph.GraphSummary;
import dev.overlap.graph.app.AppSettings;

import java.util.Locale;

/**
 * Which async PageRank formulation runs: {@link #PUSH} ({@link PushPageRank}, any graph), {@link #PULL}
 * ({@link AsyncPullPageRank}, symmetric graphs only), or {@link #AUTO}, which picks one from the graph's degrees.
 * Why each wins where it does: {@code samples/docs/async-pagerank.md}, "Choosing the variant".
 */
enum PageRankVariant {
    /** Push with residuals; any graph. */
    PUSH,
    /** Pull with block activation; symmetric graphs only. */
    PULL,
    /**
     * Pull on a symmetric graph whose non-isolated vertices have a mean degree of at least {@value #MEAN_DEGREE}
     * or whose largest degree is at least {@value #SKEW} times that mean; push otherwise (meshes, where the
     * uniform warm start is nearly exact and push expands each vertex about once, and directed graphs).
     */
    AUTO;

    /** Degree skew (max / mean) from which {@link #AUTO} pulls: hubs make push hammer a few residuals. */
    static final int SKEW = 16;
    /**
     * Mean degree from which {@link #AUTO} pulls: with many edges per vertex the warm start is off everywhere
     * and push expands every vertex many times, each time scattering to all its edges.
     */
    static final int MEAN_DEGREE = 8;

    /** @return the variant the settings ask for */
    static PageRankVariant of(final AppSettings.PageRankVariant v) {
        switch (v) {
            case PUSH: return PUSH;
            case PULL: return PULL;
            default: return AUTO;
        }
    }

    /**
     * @param graph the graph's summary (its symmetry and degrees)
     * @return {@link #PUSH} or {@link #PULL} for that graph: this one, or the choice of {@link #AUTO}
     */
    PageRankVariant resolve(final GraphSummary graph) {
        return this == AUTO ? auto(graph, null) : this;
    }

    /**
     * @param graph the graph's summary
     * @return the variant {@link #resolve} picks for that graph and why, in words: {@code "pull (symmetric, mean
     *         degree 23.6 of the vertices with edges >= 8)"}; {@code "push (as asked)"} for a named variant
     */
    String describe(final GraphSummary graph) {
        if (this != AUTO) {
            return name().toLowerCase(Locale.ROOT) + " (as asked)";
        }
        final StringBuilder why = new StringBuilder();
        return auto(graph, why).name().toLowerCase(Locale.ROOT) + " (" + why + ")";
    }

    /** The rule of {@link #AUTO}; says why into {@code why} unless it is null. */
    private static PageRankVariant auto(final GraphSummary graph, final StringBuilder why) {
        if (!graph.isSymmetric()) {
            return because(PUSH, why, "a directed graph: pull needs a symmetric one");
        }
        if (graph.verticesWithEdges() == 0) {
            return because(PUSH, why, "no edges");
        }
        final double mean = graph.meanDegreeWithEdges();
        // shown rounded down, so that a mean just below the threshold does not print as the threshold
        final double shown = Math.floor(10 * mean) / 10;
        if (mean >= MEAN_DEGREE) {
            return because(PULL, why, why == null ? null : String.format(Locale.ROOT,
                "symmetric, mean degree %.1f of the vertices with edges >= %d", shown, MEAN_DEGREE));
        }
        if (skewed(graph)) {
            return because(PULL, why, why == null ? null : String.format(Locale.ROOT,
                "symmetric, largest degree %d >= %d x the mean degree %.1f of the vertices with edges",
                graph.maxDegree(), SKEW, shown));
        }
        return because(PUSH, why, why == null ? null : String.format(Locale.ROOT,
            "symmetric, mean degree %.1f of the vertices with edges < %d, largest degree %d < %d x that mean", shown,
            MEAN_DEGREE, graph.maxDegree(), SKEW));
    }

    private static PageRankVariant because(final PageRankVariant v, final StringBuilder why, final String reason) {
        if (why != null) {
            why.append(reason);
        }
        return v;
    }

    /**
     * @return whether the largest degree is at least {@value #SKEW} times the mean of the non-isolated vertices'
     */
    static boolean skewed(final GraphSummary graph) {
        return graph.verticesWithEdges() > 0 && graph.maxDegree() >= SKEW * graph.meanDegreeWithEdges();
    }
}
