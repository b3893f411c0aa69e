/**
 * Jacobi on a generated banded system with the solution vector replicated across devices by PROACT transfer modes
 * ({@link dev.overlap.replication.ReplicatedRegion}), and the workload adapter that lets the PROACT profiler
 * choose the mode.
 */
package dev.overlap.graph.jacobi;
