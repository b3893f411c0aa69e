/**
 * Replicated regions after PROACT: one replica per device, readiness tracked per chunk
 * ({@link dev.overlap.core.ChunkTracker}), and each ready chunk transferred to the other replicas while the
 * computation goes on.
 *
 * <ul>
 *   <li>{@link dev.overlap.replication.ReplicatedRegion}: the region, its per-iteration protocol (launch on each
 *       producing device, then {@code awaitTransfers}) and its lifetime.</li>
 *   <li>{@link dev.overlap.replication.TransferMode}: how a ready chunk travels (inline stores, polling agents,
 *       triggered copies, a bulk copy after the kernel, or no copy for measuring).</li>
 *   <li>{@link dev.overlap.replication.TransferProfiler}: measures modes, chunk sizes and transfer threads on the
 *       real workload ({@link dev.overlap.replication.TransferWorkload}) and returns a
 *       {@link dev.overlap.replication.TransferProfile} whose choice later runs use.</li>
 * </ul>
 *
 * <p>Every JVM that uses this package needs {@code --add-exports java.base/jdk.internal.misc=ALL-UNNAMED} (Agrona).
 */
package dev.overlap.replication;
