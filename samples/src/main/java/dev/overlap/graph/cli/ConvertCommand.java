package dev.overlap.graph.cli;

import dev.overlap.graph.BuildOptions;
import dev.overlap.graph.ConsoleProgress;
import dev.overlap.graph.CsrGraph;
import dev.overlap.graph.Progress;
import dev.overlap.graph.io.BinaryCsr;
import dev.overlap.graph.io.GraphFormat;
import dev.overlap.graph.io.GraphReader;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;

/** {@code overlap convert IN OUT.bcsr}: reads any supported graph file and writes the binary CSR form. */
@Command(name = "convert", mixinStandardHelpOptions = true, sortOptions = false,
    description = "Convert a graph file (.mtx, .el, .wel, .txt, .gr, .bcsr; gzip accepted) to the binary CSR form "
        + "(.bcsr), which loads by memory-mapping.")
public final class ConvertCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Parameters(index = "0", paramLabel = "IN", description = "the graph file to read")
    Path in;

    @Parameters(index = "1", paramLabel = "OUT.bcsr", description = "the binary file to write")
    Path out;

    @Option(names = "--format", paramLabel = "FMT", description = "format of IN when its name does not tell: "
        + "${COMPLETION-CANDIDATES}")
    GraphFormat format;

    @Option(names = "--symmetrize", description = "add the reverse of every edge")
    boolean symmetrize;

    @Option(names = "--drop-self-loops", description = "drop edges v -> v")
    boolean dropSelfLoops;

    @Option(names = "--drop-duplicates", description = "keep one edge per vertex pair, the lightest")
    boolean dropDuplicates;

    @Option(names = {"-q", "--quiet"}, description = "no progress bars")
    boolean quiet;

    @Override
    public Integer call() throws IOException {
        if (!out.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".bcsr")) {
            throw new CommandLine.ParameterException(spec.commandLine(), "OUT must end in .bcsr, was '" + out + "'");
        }
        final Progress progress = ConsoleProgress.forConsole(quiet);
        final long start = System.nanoTime();
        final CsrGraph g = GraphReader.read(in, format, new BuildOptions(symmetrize, dropSelfLoops, dropDuplicates),
            progress);
        final long read = System.nanoTime();
        BinaryCsr.write(g, out, progress);
        final long written = System.nanoTime();
        spec.commandLine().getOut().printf(Locale.ROOT, "%s -> %s: %,d vertices, %,d edges%s%s; read %.0f ms, "
            + "wrote %.0f ms%n", in, out, g.vertexCount(), g.edgeCount(), g.isWeighted() ? ", weighted" : "",
            g.isSymmetric() ? ", symmetric" : "", (read - start) / 1e6, (written - read) / 1e6);
        spec.commandLine().getOut().flush();
        return 0;
    }
}
