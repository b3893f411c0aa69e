/**
 * The {@code overlap} command (picocli): {@code demo} (every app, verified, one comparison table),
 * {@code proact-demo}, {@code bfs}, {@code pr}, {@code sssp}, {@code jacobi} (the last four write their answers
 * with {@code --output}), {@code launch} (one of those four in several processes, one mesh across them:
 * {@link dev.overlap.graph.cli.LaunchCommand}), {@code scaling} (strong-scaling sweep with CSV and SVG), {@code convert},
 * {@code generate}.
 * Exit codes: 0 success, 1 runtime failure in one line, never a stack trace (bad file as {@code file:line: reason}, a
 * path named with what is wrong with it, heap or direct memory exhausted with the option that raises it, failed
 * verification: {@link dev.overlap.graph.cli.CliErrors}), 2 wrong arguments, also in one line, with a hint
 * ({@code UsageErrors}).
 */
package dev.overlap.graph.cli;
