package dev.overlap.graph.async;

import dev.overlap.graph.GraphSummary;
import dev.overlap.graph.app.AppSettings;

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
        if (this != AUTO) {
            return this;
        }
        if (!graph.isSymmetric() || graph.verticesWithEdges() == 0) {
            return PUSH;
        }
        return graph.meanDegreeWithEdges() >= MEAN_DEGREE || skewed(graph) ? PULL : PUSH;
    }

    /**
     * @return whether the largest degree is at least {@value #SKEW} times the mean of the non-isolated vertices'
     */
    static boolean skewed(final GraphSummary graph) {
        return graph.verticesWithEdges() > 0 && graph.maxDegree() >= SKEW * graph.meanDegreeWithEdges();
    }
}
