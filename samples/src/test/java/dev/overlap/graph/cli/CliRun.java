package dev.overlap.graph.cli;

import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;

/** One run of the configured {@code overlap} command line in this JVM, its exit code and what it printed. */
final class CliRun {
    final int exit;
    final String out;
    final String err;

    CliRun(final String... args) {
        final CommandLine cl = OverlapCommand.commandLine();
        final StringWriter o = new StringWriter();
        final StringWriter e = new StringWriter();
        cl.setOut(new PrintWriter(o));
        cl.setErr(new PrintWriter(e));
        exit = cl.execute(args);
        out = o.toString();
        err = e.toString();
    }
}
