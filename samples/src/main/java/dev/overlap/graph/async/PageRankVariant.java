package dev.overlap.graph.async;

import dev.overlap.graph.GraphSummary;
import dev.overlap.graph.app.AppSettings;
import dev.overlap.graph.app.AutoMode;

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
        return this == AUTO ? auto(graph).variant() : this;
    }

    /**
     * @param graph the graph's summary
     * @return the variant {@link #resolve} picks for that graph and why, in words: {@code "pull (symmetric, mean
     *         degree 23.6 of the vertices with edges >= 8)"}; {@code "push (as asked)"} for a named variant
     */
    String describe(final GraphSummary graph) {
        final Choice c = this == AUTO ? auto(graph) : new Choice(this, "as asked");
        return c.variant().name().toLowerCase(Locale.ROOT) + " (" + c.why() + ")";
    }

    /** What {@link #AUTO} picks and why. */
    private record Choice(PageRankVariant variant, String why) {
    }

    /** The rule of {@link #AUTO} (once per run, outside its timed part: the words cost nothing that matters). */
    private static Choice auto(final GraphSummary graph) {
        if (!graph.isSymmetric()) {
            return new Choice(PUSH, "a directed graph: pull needs a symmetric one");
        }
        if (graph.verticesWithEdges() == 0) {
            return new Choice(PUSH, "no edges");
        }
        final double mean = graph.meanDegreeWithEdges();
        final String shown = AutoMode.oneDecimal(mean, MEAN_DEGREE);
        if (mean >= MEAN_DEGREE) {
            return new Choice(PULL, "symmetric, mean degree " + shown + " of the vertices with edges >= "
                + MEAN_DEGREE);
        }
        if (skewed(graph)) {
            return new Choice(PULL, "symmetric, largest degree " + graph.maxDegree() + " >= " + SKEW
                + " x the mean degree " + shown + " of the vertices with edges");
        }
        return new Choice(PUSH, "symmetric, mean degree " + shown + " of the vertices with edges < " + MEAN_DEGREE
            + ", largest degree " + graph.maxDegree() + " < " + SKEW + " x that mean");
    }

    /**
     * @return whether the largest degree is at least {@value #SKEW} times the mean of the non-isolated vertices'
     */
    static boolean skewed(final GraphSummary graph) {
        return graph.verticesWithEdges() > 0 && graph.maxDegree() >= SKEW * graph.meanDegreeWithEdges();
    }
}
