package dev.overlap.graph.app;

/**
 * What a run did, for reports: supersteps or iterations, vertices visited against the ideal (each reached vertex
 * once; Atos Table III's normalized workload is their ratio), edges scanned, pushes that stayed on a device or went
 * to another, remote atomics, and batched messages with their payload bytes. Immutable value; thread-safe.
 */
public final class WorkCounts {
    private final long iterations;
    private final long visited;
    private final long ideal;
    private final long edgesScanned;
    private final long localPushes;
    private final long remotePushes;
    private final long remoteAtomics;
    private final long messages;
    private final long bytesSent;

    /**
     * @param iterations    supersteps (BSP) or iterations
     * @param visited       vertex expansions done
     * @param ideal         expansions an ideal traversal needs (vertices reached)
     * @param edgesScanned  edges looked at
     * @param localPushes   work items pushed to the pushing device's own worklist/frontier
     * @param remotePushes  work items pushed to another device
     * @param remoteAtomics atomic operations on another device's memory
     * @param messages      batched transfers to other devices
     * @param bytesSent     payload bytes of those transfers
     */
    public WorkCounts(final long iterations, final long visited, final long ideal, final long edgesScanned,
        final long localPushes, final long remotePushes, final long remoteAtomics, final long messages,
        final long bytesSent) {
        this.iterations = iterations;
        this.visited = visited;
        this.ideal = ideal;
        this.edgesScanned = edgesScanned;
        this.localPushes = localPushes;
        this.remotePushes = remotePushes;
        this.remoteAtomics = remoteAtomics;
        this.messages = messages;
        this.bytesSent = bytesSent;
    }

    /** @return supersteps or iterations */
    public long iterations() {
        return iterations;
    }

    /** @return vertex expansions done */
    public long visited() {
        return visited;
    }

    /** @return expansions of an ideal traversal */
    public long ideal() {
        return ideal;
    }

    /** @return visited / ideal (1.0 = no redundant work) */
    public double normalizedWork() {
        return ideal == 0 ? 1.0 : (double)visited / ideal;
    }

    /** @return edges scanned */
    public long edgesScanned() {
        return edgesScanned;
    }

    /** @return pushes to the own device */
    public long localPushes() {
        return localPushes;
    }

    /** @return pushes to other devices */
    public long remotePushes() {
        return remotePushes;
    }

    /** @return atomics on other devices' memory */
    public long remoteAtomics() {
        return remoteAtomics;
    }

    /** @return batched transfers to other devices */
    public long messages() {
        return messages;
    }

    /** @return payload bytes sent to other devices */
    public long bytesSent() {
        return bytesSent;
    }

    /** @return a copy with {@code ideal} replaced */
    public WorkCounts withIdeal(final long newIdeal) {
        return new WorkCounts(iterations, visited, newIdeal, edgesScanned, localPushes, remotePushes, remoteAtomics,
            messages, bytesSent);
    }
}
