/**
 * Overlap across hosts: a group of processes on several hosts, described by a {@link dev.overlap.hosts.HostFile}
 * (one {@code rank host port} line per process) and joined over Aeron UDP by {@link dev.overlap.hosts.HostGroup}
 * (membership, barriers, reductions, heartbeats and failure detection, failures reported as core's
 * {@link dev.overlap.core.PeerFailedException}). Depends on core and Aeron only (an embedded media driver by
 * default). The transport and the distributed worklist do not run across hosts yet.
 */
package dev.overlap.hosts;
