package dev.overlap.core;

/**
 * A process of a mesh that spans several processes ({@link WorldConfig}), or of a group of processes on several
 * hosts (the {@code overlap-hosts} module's {@code HostGroup}), died, stopped answering, or left while this process
 * still needed it: every blocking call that waits on other processes (barriers, the join, remote operations and
 * worklist runs over the mesh) throws it instead of waiting forever, within the bound
 * {@link WorldConfig.Builder#peerTimeout} sets. Unchecked, like {@link InterruptedWaitException}.
 *
 * <p>Every surviving process names the same rank: the first process to notice records the failure in the shared
 * control segment (across hosts: reports it to the others) and the others adopt it. After it, the world is broken
 * for good: the mesh can still be closed (and must be), but no collective operation completes again.
 */
public class PeerFailedException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** The rank of the process that failed. */
    private final int rank;

    /**
     * @param rank   the rank that failed
     * @param reason what happened to it (for the message)
     */
    public PeerFailedException(final int rank, final String reason) {
        super("rank " + rank + " failed: " + reason);
        this.rank = rank;
    }

    /**
     * @param cause the failure observed earlier, re-thrown for a later wait with this wait's stack (public so that a
     *              group of processes on several hosts, which records its failures the same way, can do the same)
     */
    public PeerFailedException(final PeerFailedException cause) {
        super(cause.getMessage(), cause);
        this.rank = cause.rank;
    }

    /** @return the rank of the process that failed */
    public int rank() {
        return rank;
    }
}
