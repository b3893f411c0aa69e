package dev.overlap.graph.cli;

import dev.overlap.graph.BuildOptions;
import dev.overlap.graph.CsrGraph;
import dev.overlap.graph.GraphBuilder;
import dev.overlap.graph.Progress;
import dev.overlap.graph.gen.GraphSpec;
import dev.overlap.graph.io.GraphFormat;
import dev.overlap.graph.io.GraphFormatException;
import dev.overlap.graph.io.GraphReader;
import picocli.CommandLine;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Where the graph comes from: {@code --graph FILE} or {@code --generate SPEC} (exactly one), with the cleaning
 * options and the seed. Picocli mixin; one instance per command invocation.
 */
public final class GraphInputOptions {
    /** The exclusive choice of source. */
    static final class Source {
        @Option(names = "--graph", paramLabel = "FILE", description = "load a graph file: .mtx, .el, .wel, .txt (SNAP),"
            + " .gr (DIMACS), .bcsr; gzip accepted")
        Path file;

        @Option(names = "--generate", paramLabel = "SPEC", converter = SpecConverter.class,
            description = "generate kron:SCALE, urand:SCALE (optionally :EDGEFACTOR) or grid:WxH")
        GraphSpec spec;
    }

    /** Parses {@code --generate} values; a bad spec is a usage error naming what is expected. */
    static final class SpecConverter implements CommandLine.ITypeConverter<GraphSpec> {
        @Override
        public GraphSpec convert(final String value) {
            try {
                return GraphSpec.parse(value);
            } catch (final IllegalArgumentException e) {
                throw new CommandLine.TypeConversionException(e.getMessage());
            }
        }
    }

    @ArgGroup(exclusive = true, multiplicity = "1")
    Source source;

    @Option(names = "--format", paramLabel = "FMT", description = "file format when the name does not tell: "
        + "${COMPLETION-CANDIDATES}")
    GraphFormat format;

    @Option(names = "--symmetrize", description = "add the reverse of every edge (loaded graphs)")
    boolean symmetrize;

    @Option(names = "--drop-self-loops", description = "drop edges v -> v (loaded graphs)")
    boolean dropSelfLoops;

    @Option(names = "--drop-duplicates", description = "keep one edge per vertex pair, the lightest (loaded graphs)")
    boolean dropDuplicates;

    @Option(names = "--seed", paramLabel = "S", defaultValue = "1", description = "seed of generators and of the default source "
        + "(default: ${DEFAULT-VALUE})")
    long seed;

    /** A loaded or generated graph, its name and how long it took. */
    static final class Loaded {
        final CsrGraph graph;
        final String name;
        final double millis;

        Loaded(final CsrGraph graph, final String name, final double millis) {
            this.graph = graph;
            this.name = name;
            this.millis = millis;
        }
    }

    /**
     * Loads or generates the graph into {@code destination} ({@link GraphBuilder.Destination}: a device's memory), as
     * {@link #load(boolean, Progress)} loads it onto the heap; the caller checks that it has vertices.
     *
     * @param destination where the graph is built
     * @return the graph and what the report says of its loading
     * @throws IOException with file, line and reason for a bad file
     */
    <G> Into<G> load(final boolean weighted, final Progress progress, final GraphBuilder.Destination<G> destination)
        throws IOException {
        final long start = System.nanoTime();
        final G g;
        if (source.spec != null) {
            final GraphSpec s = source.spec;
            g = GraphBuilder.build(s.edges(seed, weighted, progress), s.vertexCount(), s.options(), false, progress,
                destination);
        } else {
            g = GraphReader.read(source.file, format, new BuildOptions(symmetrize, dropSelfLoops, dropDuplicates),
                weighted, progress, destination);
        }
        return new Into<>(g, name(weighted), (System.nanoTime() - start) / 1e6);
    }

    /** A graph built into a destination, its name and how long it took. */
    record Into<G>(G graph, String name, double millis) {
    }

    /** @return true when the graph is symmetric whatever its file holds (generated, or {@code --symmetrize}) */
    boolean symmetric() {
        return source.spec != null || symmetrize;
    }

    private String name(final boolean weighted) {
        return source.spec != null ? source.spec.toString() + (weighted ? " (weights 1.." + source.spec.maxWeight()
            + ")" : "") + ", seed " + seed : source.file.toString();
    }

    /**
     * @param weighted whether the app reads weights: a generated graph gets random weights, a weighted file keeps
     *                 its own (without, a weighted file is loaded without them: 4 bytes less per edge)
     * @param progress progress reporting
     * @return the graph
     * @throws IOException with file, line and reason for a bad file (one without vertices included)
     */
    Loaded load(final boolean weighted, final Progress progress) throws IOException {
        final long start = System.nanoTime();
        final CsrGraph g;
        final String name = name(weighted);
        if (source.spec != null) {
            g = source.spec.build(seed, weighted, progress);
        } else {
            g = GraphReader.read(source.file, format, new BuildOptions(symmetrize, dropSelfLoops, dropDuplicates),
                weighted, progress);
            if (g.vertexCount() == 0) {
                // a data problem, not a usage one: exit 1 naming the file (an empty file, or comments only)
                throw new GraphFormatException(name, 0, "no vertices: the file holds no edges");
            }
        }
        return new Loaded(g, name, (System.nanoTime() - start) / 1e6);
    }

    /** @return the {@code --graph} file, or null for a generated graph */
    Path file() {
        return source.file;
    }

    /** @return the format names for messages */
    static String formats() {
        final StringBuilder sb = new StringBuilder();
        for (final GraphFormat f : GraphFormat.values()) {
            sb.append(sb.length() == 0 ? "" : ", ").append(f.name().toLowerCase(Locale.ROOT));
        }
        return sb.toString();
    }
}
