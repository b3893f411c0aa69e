package dev.overlap.transport;

/**
 * When a small remote operation (a put or get below the rendezvous threshold, or a remote atomic) may bypass the
 * destination's inbox and act directly on the destination's memory, which one JVM (or one host with shared memory)
 * allows. Large puts and gets always take the direct (rendezvous) path. Whatever the policy, operations from one
 * endpoint to one device take effect in issue order: a direct operation first waits until the endpoint's earlier
 * ring messages to that device have been applied.
 */
public enum DirectPolicy {
    /** Small operations always go through the inbox ring, as they would between processes without shared memory. */
    NEVER,
    /**
     * Direct when the endpoint has no unapplied ring message to that device (so no wait is needed to keep order),
     * through the ring otherwise. The fastest choice in one JVM.
     */
    WHEN_ORDERED,
    /** Always direct, waiting for earlier ring messages to that device when there are any. */
    ALWAYS
}
