/**
 * Bulk-synchronous baselines on the mesh: level-synchronous (direction-optimizing) BFS, delta-stepping SSSP and
 * pull PageRank. Each superstep is one kernel launch per device followed by a host barrier; vertices move between
 * devices through batched one-sided puts into per-device frontiers, and discovery uses atomics on the owner's
 * memory.
 */
package dev.overlap.graph.bsp;
