/**
 * Multi-device graphs: {@link dev.overlap.graph.partition.Partition} (edge-balanced ranges or hash, both as
 * contiguous internal id ranges) and {@link dev.overlap.graph.partition.DeviceGraph} (per-device CSR slices in
 * device memory).
 */
package dev.overlap.graph.partition;
