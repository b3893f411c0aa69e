package dev.overlap.graph.app;

/**
 * When a level-synchronous, direction-optimizing BFS changes direction (Beamer, Asanović and Patterson), the one rule
 * of the {@code bsp} and {@code coop} modes, with the thresholds the async mode's switch uses too.
 *
 * <p><b>Top-down to bottom-up</b> when the frontier's edges exceed the unexplored edges / {@value #ALPHA}, unless the
 * frontier is below {@code n / }{@value #BETA} vertices and not growing. That exception is the state in which a
 * bottom-up step hands back to top-down at once: without it, the shrinking tail of a long-diameter BFS (a mesh, whose
 * unexplored edges are few but whose frontiers are tiny) switched at every other level and paid a scan of every vertex
 * each time (a grid's last levels alternated between the directions). A scale-free graph switches while its
 * frontier grows, which the exception leaves alone. Nor does a frontier with fewer than {@code n / }{@value #BETA}
 * edges go bottom-up, growing or not: a bottom-up step reads every vertex's depth, which so few edges read top-down
 * cannot repay (the last levels of a road network, whose frontiers of a few dozen vertices grow as often as they
 * shrink, went bottom-up again and again, each time a scan of every vertex:
 * {@code bench/results/2026-11-30-solo-bfs-direction/}).
 *
 * <p><b>Bottom-up to top-down</b> when the frontier is below {@code n / }{@value #BETA} vertices and shrinking.
 *
 * <p>Stateless; thread-safe. Every rank and worker that decides with the same totals decides the same.
 */
public final class DirectionRule {
    /** Beamer's alpha: a frontier with more than the unexplored edges / alpha goes bottom-up. */
    public static final int ALPHA = 15;
    /** Beamer's beta: a frontier of fewer than n / beta vertices is small. */
    public static final int BETA = 18;

    private DirectionRule() {
    }

    /**
     * Whether a top-down level's frontier could go bottom-up at all, from a bound on its edges: a caller that counts
     * the frontier's edges only for {@link #bottomUp} skips the count when this is false (the answer is top-down).
     *
     * @param vertices  the graph's vertices ({@code n})
     * @param frontier  vertices of the frontier
     * @param maxDegree the graph's largest degree
     * @return false when {@code frontier x maxDegree} edges are fewer than {@code n / }{@value #BETA}
     */
    public static boolean mayGoBottomUp(final long vertices, final long frontier, final int maxDegree) {
        return frontier * maxDegree >= vertices / BETA;
    }

    /**
     * @param bottomUp      whether the level just done was bottom-up
     * @param vertices      the graph's vertices ({@code n})
     * @param frontier      vertices of the next level's frontier
     * @param previous      vertices of the frontier before it
     * @param frontierEdges edges out of the next frontier
     * @param unexplored    edges out of the vertices not yet reached
     * @return whether the next level runs bottom-up
     */
    public static boolean bottomUp(final boolean bottomUp, final long vertices, final long frontier,
        final long previous, final long frontierEdges, final long unexplored) {
        final boolean small = frontier < vertices / BETA;
        if (bottomUp) {
            return !(small && frontier < previous);
        }
        return frontierEdges > unexplored / ALPHA && frontierEdges >= vertices / BETA
            && (!small || frontier > previous);
    }
}
