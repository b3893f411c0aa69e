/**
 * Synthetic graphs, deterministic by seed and generated in parallel: Graph500 Kronecker (R-MAT), uniform random,
 * 2-D grids as the mesh-like case, and road-like graphs (sparse, planar, connected, long diameter);
 * {@link dev.overlap.graph.gen.GraphSpec} parses {@code kron:SCALE}, {@code urand:SCALE}, {@code grid:WxH},
 * {@code road:N}.
 */
package dev.overlap.graph.gen;
