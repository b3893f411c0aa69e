package dev.overlap.graph.cli;

import dev.overlap.graph.ConsoleProgress;
import dev.overlap.graph.CsrGraph;
import dev.overlap.graph.Progress;
import dev.overlap.graph.gen.GraphSpec;
import dev.overlap.graph.io.BinaryCsr;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;

/** {@code overlap generate SPEC OUT.bcsr}: generates a graph once and saves it in the binary CSR form. */
@Command(name = "generate", mixinStandardHelpOptions = true, sortOptions = false,
    description = "Generate kron:SCALE, urand:SCALE or grid:WxH and write it as binary CSR (.bcsr) for fast reuse.")
public final class GenerateCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Parameters(index = "0", paramLabel = "SPEC", converter = GraphInputOptions.SpecConverter.class,
        description = "kron:SCALE[:EF], urand:SCALE[:EF] or grid:WxH")
    GraphSpec graph;

    @Parameters(index = "1", paramLabel = "OUT.bcsr", description = "the binary file to write")
    Path out;

    @Option(names = "--weights", description = "give edges random weights (as sssp does)")
    boolean weights;

    @Option(names = "--seed", paramLabel = "S", defaultValue = "1", description = "seed (default: ${DEFAULT-VALUE})")
    long seed;

    @Option(names = {"-q", "--quiet"}, description = "no progress bars")
    boolean quiet;

    @Override
    public Integer call() throws IOException {
        if (!out.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".bcsr")) {
            throw new CommandLine.ParameterException(spec.commandLine(), "OUT must end in .bcsr, was '" + out + "'");
        }
        final Progress progress = ConsoleProgress.forConsole(quiet);
        final long start = System.nanoTime();
        final CsrGraph g = graph.build(seed, weights, progress);
        final long built = System.nanoTime();
        BinaryCsr.write(g, out, progress);
        final long written = System.nanoTime();
        spec.commandLine().getOut().printf(Locale.ROOT, "%s seed %d -> %s: %,d vertices, %,d edges%s; generated %.0f ms,"
            + " wrote %.0f ms%n", graph, seed, out, g.vertexCount(), g.edgeCount(), g.isWeighted() ? ", weighted" : "",
            (built - start) / 1e6, (written - built) / 1e6);
        spec.commandLine().getOut().flush();
        return 0;
    }
}
