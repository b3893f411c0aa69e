package dev.overlap.worklist;

import dev.overlap.core.AlignedHeapBuffer;
import org.agrona.concurrent.AtomicBuffer;

import java.nio.charset.StandardCharsets;

/**
 * One job: the words every worker of a {@link DistributedWorklist} run shares to end the run together: whether it
 * is finished or stopped, the termination checker's guard, the idle-function sweep (open, epoch, base, and each
 * participant's acknowledgement), the discrete rounds' arrivals, and the first failure. In one process they live on
 * the heap; over a mesh across processes they live in a symmetric allocation that every rank maps, so the workers of
 * all ranks see the same words. Each word has the ordering its javadoc states; every word sits on a 128-byte line of
 * its own (acknowledgements on 64-byte lines: each is written once per sweep).
 *
 * <p>Thread- and process-safety: any worker or host thread of any rank; {@link #reset} only by one rank's host between
 * runs, ordered before and after by world barriers (the run's start).
 */
final class WorklistControl {
    private static final int FINISHED = 0;
    private static final int STOP = 128;
    private static final int CHECKING = 256;
    private static final int SWEEP_OPEN = 384;
    private static final int SWEEP_EPOCH = 512;
    private static final int SWEEP_BASE = 640;
    private static final int ARRIVALS = 768;
    private static final int FAILED = 896;
    private static final int FAILED_DEVICE = 1024;
    private static final int FAILED_WORKER = 1028;
    private static final int FAILED_TASK = 1032;
    private static final int FAILED_LENGTH = 1040;
    private static final int FAILED_TEXT = 1044;
    private static final int TEXT_MAX = 400;
    private static final int ACKS = 1536;
    private static final int ACK_STRIDE = 64;

    /** The acknowledgement of a participant that never holds a sweep up (a host, an unused slot). */
    static final long ALWAYS = -1;

    private final AtomicBuffer words;
    private final int participants;

    /** On the heap, for a worklist in one process. */
    WorklistControl(final int participants) {
        this(AlignedHeapBuffer.allocate(bytes(participants)), participants);
    }

    /** Over shared memory (zeroed, {@link #bytes} long, 8-byte aligned). */
    WorklistControl(final AtomicBuffer words, final int participants) {
        words.boundsCheck(0, bytes(participants));
        this.words = words;
        this.participants = participants;
    }

    /** @return bytes the control of {@code participants} participants takes */
    static int bytes(final int participants) {
        return ACKS + participants * ACK_STRIDE;
    }

    /** Clears the run's flags for a new run (the epochs and acknowledgements carry on). */
    void reset() {
        words.putIntVolatile(STOP, 0);
        words.putIntVolatile(SWEEP_OPEN, 0);
        words.putLongVolatile(FAILED, 0);
        words.putIntVolatile(FINISHED, 0);
    }

    /** @return true once the run is finished (volatile: what the finisher did before is visible) */
    boolean finished() {
        return words.getIntVolatile(FINISHED) != 0;
    }

    /** Ends the run for every worker (volatile store). */
    void finish() {
        words.putIntVolatile(FINISHED, 1);
    }

    /** Stops the run early (its leftovers are discarded): the stop, then the finish. */
    void stop() {
        words.putIntVolatile(STOP, 1);
        finish();
    }

    boolean stopRequested() {
        return words.getIntVolatile(STOP) != 0;
    }

    /** @return true if this caller took the termination checker's guard (one checker at a time, never blocking) */
    boolean tryCheck() {
        return words.compareAndSetInt(CHECKING, 0, 1);
    }

    /** Releases the guard (release store: the next checker sees this one's sweep writes). */
    void endCheck() {
        words.putIntRelease(CHECKING, 0);
    }

    boolean sweepOpen() {
        return words.getIntVolatile(SWEEP_OPEN) != 0;
    }

    /** Opens a sweep with base {@code base} (tasks created when it opened) as epoch {@code epoch}: checker only. */
    void openSweep(final long epoch, final long base) {
        words.putLong(SWEEP_BASE, base);
        words.putLongVolatile(SWEEP_EPOCH, epoch);
        words.putIntVolatile(SWEEP_OPEN, 1);
    }

    void closeSweep() {
        words.putIntVolatile(SWEEP_OPEN, 0);
    }

    long sweepEpoch() {
        return words.getLongVolatile(SWEEP_EPOCH);
    }

    /** The discrete rounds' hosts set the epoch of the sweep they run (each rank the same value). */
    void setSweepEpoch(final long epoch) {
        words.putLongVolatile(SWEEP_EPOCH, epoch);
    }

    /** @return the tasks created when the open sweep opened (read by the checker that holds the guard) */
    long sweepBase() {
        return words.getLong(SWEEP_BASE);
    }

    /** @return the epoch of the sweep {@code participant} acknowledged last */
    long acked(final int participant) {
        return words.getLongVolatile(ACKS + participant * ACK_STRIDE);
    }

    /** {@code participant} ran the idle function for sweep {@code epoch} (volatile store, after its pushes). */
    void ack(final int participant, final long epoch) {
        words.putLongVolatile(ACKS + participant * ACK_STRIDE, epoch);
    }

    /** @return true if every participant (of every rank) acknowledged sweep {@code epoch} */
    boolean allAcked(final long epoch) {
        for (int p = 0; p < participants; p++) {
            final long a = acked(p);
            if (a != epoch && a != ALWAYS) {
                return false;
            }
        }
        return true;
    }

    /** A worker arrived at the end of a discrete round. @return arrivals so far (monotonic over every round) */
    long arrive() {
        return words.getAndAddLong(ARRIVALS, 1) + 1;
    }

    long arrivals() {
        return words.getLongVolatile(ARRIVALS);
    }

    /**
     * Records the run's first failure and finishes the run: the first caller wins (CAS from 0 to -1), writes the
     * details, finishes the run, then publishes the rank with a release store, so whoever sees the failed rank sees
     * its details and a finished run; later callers only finish the run.
     */
    void fail(final int rank, final int device, final int worker, final long task, final String text) {
        if (words.compareAndSetLong(FAILED, 0, -1)) {
            words.putInt(FAILED_DEVICE, device);
            words.putInt(FAILED_WORKER, worker);
            words.putLong(FAILED_TASK, task);
            final byte[] b = text.getBytes(StandardCharsets.UTF_8);
            final int n = Math.min(b.length, TEXT_MAX);
            words.putBytes(FAILED_TEXT, b, 0, n);
            words.putInt(FAILED_LENGTH, n);
            finish();
            words.putLongRelease(FAILED, rank + 1L);
        } else {
            finish();
        }
    }

    /** @return the rank whose task failed first, or -1 (also while the record is being written) */
    int failedRank() {
        final long v = words.getLongAcquire(FAILED);
        return v > 0 ? (int)(v - 1) : -1;
    }

    /** @return the recorded failure as seen by another rank (call after {@link #failedRank()} returned a rank) */
    TaskFailedException failure(final int rank) {
        final byte[] b = new byte[Math.min(Math.max(words.getInt(FAILED_LENGTH), 0), TEXT_MAX)];
        words.getBytes(FAILED_TEXT, b);
        return new TaskFailedException(words.getInt(FAILED_DEVICE), words.getInt(FAILED_WORKER),
            words.getLong(FAILED_TASK), new IllegalStateException("on rank " + rank + ": "
            + new String(b, StandardCharsets.UTF_8)));
    }

    int participants() {
        return participants;
    }
}
