package dev.overlap.graph;

/**
 * How {@link GraphBuilder} cleans an edge list: add reverse edges (symmetrize), drop self-loops, drop duplicate
 * edges (keeping the smallest weight). Immutable value; thread-safe.
 */
public final class BuildOptions {
    /** Keep the edges as given. */
    public static final BuildOptions AS_IS = new BuildOptions(false, false, false);
    /** Undirected simple graph: symmetrize, drop self-loops and duplicates (Graph500 / GAP convention). */
    public static final BuildOptions UNDIRECTED_SIMPLE = new BuildOptions(true, true, true);

    private final boolean symmetrize;
    private final boolean dropSelfLoops;
    private final boolean dropDuplicates;

    /**
     * @param symmetrize     add {@code v->u} for every {@code u->v} (a self-loop is not doubled)
     * @param dropSelfLoops  drop edges {@code v->v}
     * @param dropDuplicates keep one edge per {@code (u, v)} pair, with the smallest weight
     */
    public BuildOptions(final boolean symmetrize, final boolean dropSelfLoops, final boolean dropDuplicates) {
        this.symmetrize = symmetrize;
        this.dropSelfLoops = dropSelfLoops;
        this.dropDuplicates = dropDuplicates;
    }

    /** @return whether reverse edges are added */
    public boolean symmetrize() {
        return symmetrize;
    }

    /** @return whether self-loops are dropped */
    public boolean dropSelfLoops() {
        return dropSelfLoops;
    }

    /** @return whether duplicate edges are dropped */
    public boolean dropDuplicates() {
        return dropDuplicates;
    }

    /** @return these options with symmetrize set as given */
    public BuildOptions withSymmetrize(final boolean on) {
        return new BuildOptions(on, dropSelfLoops, dropDuplicates);
    }

    /** @return these options or'ed with {@code other} (each cleaning step on if either asks for it) */
    public BuildOptions or(final BuildOptions other) {
        return new BuildOptions(symmetrize || other.symmetrize, dropSelfLoops || other.dropSelfLoops,
            dropDuplicates || other.dropDuplicates);
    }

    @Override
    public boolean equals(final Object o) {
        return o instanceof BuildOptions && ((BuildOptions)o).symmetrize == symmetrize
            && ((BuildOptions)o).dropSelfLoops == dropSelfLoops && ((BuildOptions)o).dropDuplicates == dropDuplicates;
    }

    @Override
    public int hashCode() {
        return (symmetrize ? 4 : 0) | (dropSelfLoops ? 2 : 0) | (dropDuplicates ? 1 : 0);
    }

    @Override
    public String toString() {
        return "BuildOptions{symmetrize=" + symmetrize + ", dropSelfLoops=" + dropSelfLoops + ", dropDuplicates="
            + dropDuplicates + "}";
    }
}
