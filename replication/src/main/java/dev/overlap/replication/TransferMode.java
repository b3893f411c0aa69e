package dev.overlap.replication;

/**
 * How a {@link ReplicatedRegion} moves what a device produces to the other devices' replicas (PROACT section III.C
 * and its baselines).
 */
public enum TransferMode {
    /** Every store goes to every replica as it happens: the peer-to-peer store. No tracking, no agents. */
    INLINE,
    /**
     * Blocks write locally; readiness counters set a bit per ready chunk; dedicated transfer threads poll the
     * bitmaps and copy each ready chunk to every peer.
     */
    POLLING,
    /**
     * Blocks write locally; the completion that makes a chunk ready hands its copy to the transfer threads at once
     * (with zero transfer threads, the completing worker copies it itself): the dynamic-kernel-launch analog.
     */
    TRIGGERED,
    /** Blocks write locally; a copy kernel copies the whole slice after the producing kernel: the memcpy baseline. */
    BULK,
    /** No copy at all: the infinite-bandwidth bound used to measure overlap. Replicas are not kept in sync. */
    NONE,
    /** Readiness tracking with no copy: measures the tracking overhead against {@link #NONE}. */
    TRACK_ONLY;

    /** @return true when the mode counts block completions per chunk */
    public boolean tracks() {
        return this == POLLING || this == TRIGGERED || this == TRACK_ONLY;
    }

    /** @return true when the mode leaves every replica identical after {@code awaitTransfers()} */
    public boolean replicates() {
        return this != NONE && this != TRACK_ONLY;
    }
}
