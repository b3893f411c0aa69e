/**
 * The {@code overlap} command (picocli): {@code demo} (every app, verified, one comparison table),
 * {@code proact-demo}, {@code bfs}, {@code pr}, {@code sssp}, {@code jacobi}, {@code scaling} (strong-scaling sweep
 * with CSV and SVG), {@code convert}, {@code generate}. Exit codes: 0 success, 1 runtime failure (bad file as
 * {@code file:line: reason}, failed verification), 2 wrong arguments (usage with the reason).
 */
package dev.overlap.graph.cli;
