package dev.overlap.graph.cli;

import picocli.CommandLine.Option;

/** Output and checking switches. Picocli mixin. */
public final class OutputOptions {
    @Option(names = {"-q", "--quiet"}, description = "no progress bars or notes on standard error")
    boolean quiet;

    @Option(names = "--json", description = "print the report as one JSON object instead of a table")
    boolean json;

    @Option(names = "--no-verify", description = "skip checking the answer against the sequential reference")
    boolean noVerify;
}
