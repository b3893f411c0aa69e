package dev.overlap.graph.gen;

import dev.overlap.graph.BuildOptions;
import dev.overlap.graph.CsrGraph;
import dev.overlap.graph.EdgeStream;
import dev.overlap.graph.GraphBuilder;
import dev.overlap.graph.Progress;

import java.util.Locale;

/**
 * A generated graph named on the command line: {@code kron:SCALE[:EF]}, {@code urand:SCALE[:EF]} (edge factor
 * default 16), {@code grid:WxH} or {@code road:N} ({@link Road}: N vertices, sparse, planar, long diameter).
 * {@link #build} generates the edges and cleans them into an undirected simple {@link CsrGraph} (symmetrized;
 * Kronecker and uniform graphs also lose self-loops and duplicate edges, as in Graph500 and GAP). Weights, when
 * asked for, are uniform in {@code 1..255} (kron, urand; as GAP) or {@code 1..100} (grid, road). Immutable;
 * thread-safe.
 */
public final class GraphSpec {
    private final String text;
    private final EdgeGenerator generator;
    private final int maxWeight;
    private final BuildOptions options;

    private GraphSpec(final String text, final EdgeGenerator generator, final int maxWeight,
        final BuildOptions options) {
        this.text = text;
        this.generator = generator;
        this.maxWeight = maxWeight;
        this.options = options;
    }

    /**
     * @param spec {@code kron:SCALE[:EF]}, {@code urand:SCALE[:EF]}, {@code grid:WxH} or {@code road:N}
     * @return the parsed spec
     * @throws IllegalArgumentException saying what is wrong and what is expected
     */
    public static GraphSpec parse(final String spec) {
        final String s = spec.trim().toLowerCase(Locale.ROOT);
        final String[] p = s.split(":");
        final String expected = "expected kron:SCALE, urand:SCALE (optionally :EDGEFACTOR), grid:WIDTHxHEIGHT or "
            + "road:VERTICES";
        try {
            switch (p[0]) {
                case "kron":
                case "urand": {
                    if (p.length < 2 || p.length > 3) {
                        throw new IllegalArgumentException("bad graph spec '" + spec + "': " + expected);
                    }
                    final int scale = Integer.parseInt(p[1]);
                    final int ef = p.length == 3 ? Integer.parseInt(p[2]) : 16;
                    final EdgeGenerator g = p[0].equals("kron") ? new Kronecker(scale, ef) : new UniformRandom(scale, ef);
                    return new GraphSpec(g.toString(), g, 255, BuildOptions.UNDIRECTED_SIMPLE);
                }
                case "grid": {
                    if (p.length != 2) {
                        throw new IllegalArgumentException("bad graph spec '" + spec + "': " + expected);
                    }
                    final String[] wh = p[1].split("x");
                    if (wh.length != 2) {
                        throw new IllegalArgumentException("bad graph spec '" + spec + "': " + expected);
                    }
                    final Grid g = new Grid(Integer.parseInt(wh[0]), Integer.parseInt(wh[1]));
                    return new GraphSpec(g.toString(), g, 100, new BuildOptions(true, false, false));
                }
                case "road": {
                    if (p.length != 2) {
                        throw new IllegalArgumentException("bad graph spec '" + spec + "': " + expected);
                    }
                    final Road g = new Road(Integer.parseInt(p[1]));
                    return new GraphSpec(g.toString(), g, 100, new BuildOptions(true, false, false));
                }
                default:
                    throw new IllegalArgumentException("unknown generator '" + p[0] + "' in '" + spec + "': " + expected);
            }
        } catch (final NumberFormatException e) {
            throw new IllegalArgumentException("bad number in graph spec '" + spec + "': " + expected);
        }
    }

    /** @return the generator */
    public EdgeGenerator generator() {
        return generator;
    }

    /** @return the largest weight of a weighted build */
    public int maxWeight() {
        return maxWeight;
    }

    /**
     * @param seed     the seed; equal seeds give identical graphs
     * @param weighted whether edges get random weights
     * @param progress progress reporting
     * @return the cleaned, symmetric graph
     */
    public CsrGraph build(final long seed, final boolean weighted, final Progress progress) {
        return GraphBuilder.build(edges(seed, weighted, progress), vertexCount(), options(), false, progress);
    }

    /**
     * @param seed     the seed; equal seeds give identical edges
     * @param weighted whether edges get random weights
     * @param progress progress reporting
     * @return the generator's raw edges, regenerated on each pass (build them with {@link #vertexCount()} and
     *         {@link #options()}, as {@link #build} does, into any {@link GraphBuilder.Destination})
     */
    public EdgeStream edges(final long seed, final boolean weighted, final Progress progress) {
        return generator.stream(seed, weighted ? maxWeight : 0, progress);
    }

    /** @return the vertex count of the generated graph */
    public int vertexCount() {
        return generator.vertexCount();
    }

    /** @return the cleaning steps that make the generated edges the graph {@link #build} returns */
    public BuildOptions options() {
        return options;
    }

    @Override
    public String toString() {
        return text;
    }
}
