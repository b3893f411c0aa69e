/**
 * The {@code overlap} command (picocli): {@code demo}, {@code bfs}, {@code pr}, {@code sssp}, {@code jacobi},
 * {@code convert}. Exit codes: 0 success, 1 runtime failure (bad file as {@code file:line: reason}, failed
 * verification), 2 wrong arguments (usage with the reason).
 */
package dev.overlap.graph.cli;
