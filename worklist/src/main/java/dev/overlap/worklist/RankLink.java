package dev.overlap.worklist;

import java.util.concurrent.TimeUnit;

/**
 * What a {@link DistributedWorklist} needs to span ranks whose processes share no memory (processes on several
 * hosts): a sender per worker for batches of tasks to another rank's device, and the ranks' collectives for the
 * worklist's global termination. Every rank runs its own mesh, transport and worklist over its own devices (the same
 * number on every rank); a device of another rank is addressed by its rank and its device id there
 * ({@link TaskContext#pushToRank}).
 *
 * <p>The worklist module defines this interface and does not implement it, so that it depends on no network
 * library: {@code overlap-hosts} implements it over its host group and host transport (Aeron), and a test may wrap
 * an implementation to force an interleaving.
 *
 * <p><b>Contract.</b> A batch sent with {@link RankSender#send} is handed on the destination rank to the handler
 * that rank's worklist registered for the queue (its local queue takes the tasks), exactly once; batches of one
 * sender to one destination arrive in order. {@link #allReduceSum} and {@link #barrier} are collectives: every
 * rank calls them in the same order. A collective that timed out stays pending and the next call completes it with
 * the values given first (the HostGroup's rule). Once a rank failed, every wait throws an exception naming it.
 *
 * <p>Thread-safety: {@link #sender} may be called from any worker (each gets its own); the collectives from one host
 * thread per rank at a time.
 */
public interface RankLink {
    /** @return this process's rank, 0..ranks - 1 */
    int rank();

    /** @return the ranks the worklist spans, at least 1 */
    int ranks();

    /** @return devices of every rank's mesh (the same on every rank) */
    int devicesPerRank();

    /**
     * A new sender for one worker thread (called once per worker, at its first run).
     *
     * @param homeDevice the worker's device: its inbox is drained while the sender waits
     * @return a sender confined to the calling worker
     */
    RankSender sender(int homeDevice);

    /**
     * Element-wise sum over every rank, in place; waits at most {@code timeout}.
     *
     * @param values this rank's values; replaced by the sums if the reduction completed
     * @param timeout the longest wait
     * @param unit its unit
     * @return true if it completed; false if it timed out (pending: call again with the same array)
     */
    boolean allReduceSum(long[] values, long timeout, TimeUnit unit);

    /** Waits until every rank called it (interruptible). */
    void barrier();

    /** Throws the exception naming a failed rank, if any rank failed; otherwise returns. */
    void checkPeers();

    /**
     * A worker's sending context: batches of tasks to another rank's device.
     *
     * <p>Thread-safety: confined to its worker (ownership may move to the host by joining the worker's launch).
     */
    interface RankSender {
        /**
         * @param itemBytes 4 ({@code int} tasks) or 8 ({@code long} entries of a priority worklist)
         * @return the most items one batch may carry
         */
        int maxBatchItems(int itemBytes);

        /**
         * Sends {@code count} items as one batch to queue {@code queueId} of {@code device} on rank {@code rank},
         * waiting on back-pressure (draining the home device's inbox meanwhile); {@code items} may be reused on
         * return.
         *
         * @param rank the destination rank, not this one
         * @param device a device of that rank
         * @param queueId the worklist's queue id
         * @param itemBytes 4 or 8
         * @param items the items in native byte order, from byte 0
         * @param count items, 1..{@link #maxBatchItems}
         */
        void send(int rank, int device, int queueId, int itemBytes, org.agrona.DirectBuffer items, int count);

        /** Waits until everything this sender sent has been applied at its destinations. */
        void quiet();
    }
}
