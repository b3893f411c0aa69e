/**
 * Synthetic graphs, deterministic by seed and generated in parallel: Graph500 Kronecker (R-MAT), uniform random,
 * and 2-D grids as the mesh-like (road-like) case; {@link dev.overlap.graph.gen.GraphSpec} parses
 * {@code kron:SCALE}, {@code urand:SCALE}, {@code grid:WxH}.
 */
package dev.overlap.graph.gen;
