package dev.overlap.graph.cli;

import dev.overlap.graph.answer.Answer;
import dev.overlap.graph.answer.AnswerFormat;
import dev.overlap.graph.ref.Verification;
import dev.overlap.graph.report.RunReport;
import picocli.CommandLine;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where a command writes its answer: {@code --output FILE} ({@code -} for standard output) and
 * {@code --output-format text|binary}. Picocli mixin of {@code bfs}, {@code pr}, {@code sssp} and {@code jacobi};
 * the formats are {@link AnswerFormat}'s, the writing is {@link AnswerDestination}'s.
 *
 * <p>Not thread-safe: filled and used by one command invocation.
 */
public final class AnswerOptions {
    @Option(names = {"-o", "--output"}, paramLabel = "FILE", description = "write the answer to FILE ('-': standard "
        + "output, and the report goes to standard error): in text, a '# overlap answer' header line, then one "
        + "'vertex value' line per vertex, space-separated (awk, gnuplot, numpy.loadtxt, pandas and R read it); "
        + "unreached vertices have -1. Checked before the run, written after it, replaced atomically")
    String output;

    @Option(names = "--output-format", paramLabel = "FMT", defaultValue = "text", description = "text, or binary: "
        + "a 32-byte header, little-endian int32/int64/float64 values, a CRC-32C trailer (see samples/README.md) "
        + "(default: ${DEFAULT-VALUE})")
    AnswerFormat format;

    /** @return true when the answer goes to standard output, so the report must not */
    boolean toStdout() {
        return AnswerDestination.STDOUT.equals(output);
    }

    /**
     * @param cl  the command line, for usage errors
     * @param out where the report goes without {@code --output -}
     * @return where the report goes: standard error when the answer takes standard output
     */
    PrintWriter reportTo(final CommandLine cl, final PrintWriter out) {
        return toStdout() ? cl.getErr() : out;
    }

    /**
     * The end of a lead rank's run (every app's): writes the answer (whether or not the check passed: a wrong answer
     * is worth looking at), prints the report, and says a failed verification in one line.
     *
     * @param cl          the command line, for its streams
     * @param json        {@code --json}: the report as one JSON object
     * @param rb          the report so far
     * @param destination where the answer goes, or null
     * @param answer      the answer
     * @param v           the verification
     * @param command     the command's name for the failure line
     * @return the exit code: 0, or 1 when the verification failed
     * @throws IOException when the answer cannot be written
     */
    int finish(final CommandLine cl, final boolean json, final RunReport.Builder rb,
        final AnswerDestination destination, final Answer answer, final Verification v, final String command)
        throws IOException {
        if (destination != null) {
            destination.write(answer, format);
            rb.extra("output", destination.name() + " (" + format.name().toLowerCase(java.util.Locale.ROOT) + ")");
        }
        final RunReport report = rb.build();
        final PrintWriter out = reportTo(cl, cl.getOut());
        out.print(json ? report.toJson() + System.lineSeparator() : report.toTable());
        out.flush();
        if (!v.passed()) {
            cl.getErr().println(command + ": verification FAILED: " + v.detail());
            cl.getErr().flush();
            return 1;
        }
        return 0;
    }

    /**
     * Checks and opens the destination before any work, so a bad path fails at once.
     *
     * @param cl    the command line, for usage errors
     * @param input the file the command reads, which the answer must not replace, or null
     * @return the destination, or null without {@code --output}
     * @throws IOException naming the path when it cannot be written
     */
    AnswerDestination open(final CommandLine cl, final Path input) throws IOException {
        if (output == null) {
            if (cl.getParseResult().hasMatchedOption("--output-format")) {
                throw new CommandLine.ParameterException(cl, "--output-format needs --output FILE");
            }
            return null;
        }
        if (output.isEmpty()) {
            throw new CommandLine.ParameterException(cl, "--output needs a file name, or '-' for standard output");
        }
        try {
            if (input != null && !toStdout() && Files.exists(Path.of(output)) && Files.exists(input)
                && Files.isSameFile(Path.of(output), input)) {
                throw new CommandLine.ParameterException(cl, "--output " + output + " is the input graph file: the "
                    + "answer would replace it");
            }
            return AnswerDestination.open(output);
        } catch (final java.nio.file.InvalidPathException e) {
            throw new CommandLine.ParameterException(cl, "--output '" + output + "' is not a valid path: "
                + e.getReason());
        }
    }
}
