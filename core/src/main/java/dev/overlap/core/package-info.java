/**
 * Overlap core: a {@link dev.overlap.core.Mesh} of {@link dev.overlap.core.Device devices} (groups of JVM worker
 * threads that act as GPUs), off-heap {@link dev.overlap.core.DeviceMemory device memory} with symmetric
 * allocation and typed views, kernel launches with stream semantics, and per-chunk readiness tracking
 * ({@link dev.overlap.core.ChunkTracker}, the PROACT counters).
 *
 * <p>Device memory rests on Agrona, which needs {@code --add-exports java.base/jdk.internal.misc=ALL-UNNAMED};
 * building a mesh without it fails at once with a message naming the flag.
 */
package dev.overlap.core;
