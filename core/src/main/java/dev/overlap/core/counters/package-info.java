/**
 * Overlap's counters as Agrona counters: {@link dev.overlap.core.counters.OverlapCounters} allocates them (labels,
 * {@link dev.overlap.core.counters.CounterTypes type ids}, a key naming device and endpoint or worker) from an Agrona
 * {@code CountersManager} that is private and in memory, the user's own, or in the process's
 * {@link dev.overlap.core.counters.CountersFile counters file}, which another process reads with
 * {@link dev.overlap.core.counters.CountersFileReader} (as {@code AeronStat} reads Aeron's CnC file).
 */
package dev.overlap.core.counters;
