package dev.overlap.worklist;

import java.util.Arrays;

/**
 * What one {@link DistributedWorklist#run} did, per device and in total. An immutable value object (arrays are
 * copied in and out); safe to share between threads.
 */
public final class WorklistStats {
    private final long[] tasks;
    private final long[] localPushes;
    private final long[] remotePushes;
    private final long[] remoteAtomics;
    private final long[] messagesSent;
    private final long[] bytesSent;
    private final long[] idlePolls;
    private final long[] overflowPushes;
    private final long rounds;
    private final long idleSweeps;
    private final long elapsedNanos;
    private final boolean stopped;

    WorklistStats(final long[] tasks, final long[] localPushes, final long[] remotePushes, final long[] remoteAtomics,
        final long[] messagesSent, final long[] bytesSent, final long[] idlePolls, final long[] overflowPushes,
        final long rounds, final long idleSweeps, final long elapsedNanos, final boolean stopped) {
        this.tasks = tasks.clone();
        this.localPushes = localPushes.clone();
        this.remotePushes = remotePushes.clone();
        this.remoteAtomics = remoteAtomics.clone();
        this.messagesSent = messagesSent.clone();
        this.bytesSent = bytesSent.clone();
        this.idlePolls = idlePolls.clone();
        this.overflowPushes = overflowPushes.clone();
        this.rounds = rounds;
        this.idleSweeps = idleSweeps;
        this.elapsedNanos = elapsedNanos;
        this.stopped = stopped;
    }

    /** @return number of devices */
    public int devices() {
        return tasks.length;
    }

    /** @return tasks executed per device */
    public long[] tasksPerDevice() {
        return tasks.clone();
    }

    /**
     * @param device a device of the mesh, 0..device count - 1
     * @return tasks executed on {@code device}
     */
    public long tasks(final int device) {
        return tasks[device];
    }

    /** @return tasks executed in total */
    public long tasks() {
        return sum(tasks);
    }

    /** @return tasks pushed to the pusher's own device, in total (seeds not included) */
    public long localPushes() {
        return sum(localPushes);
    }

    /** @return tasks pushed to another device, in total */
    public long remotePushes() {
        return sum(remotePushes);
    }

    /**
     * @param device a device of the mesh, 0..device count - 1
     * @return local pushes by workers of {@code device}
     */
    public long localPushes(final int device) {
        return localPushes[device];
    }

    /**
     * @param device a device of the mesh, 0..device count - 1
     * @return remote pushes by workers of {@code device}
     */
    public long remotePushes(final int device) {
        return remotePushes[device];
    }

    /** @return one-sided remote atomics issued through task contexts, in total */
    public long remoteAtomics() {
        return sum(remoteAtomics);
    }

    /** @return ring messages the workers sent (task batches and ring-routed remote operations), in total */
    public long messagesSent() {
        return sum(messagesSent);
    }

    /** @return payload bytes of those messages, in total */
    public long bytesSent() {
        return sum(bytesSent);
    }

    /**
     * @param device a device of the mesh, 0..device count - 1
     * @return messages sent by workers of {@code device}
     */
    public long messagesSent(final int device) {
        return messagesSent[device];
    }

    /** @return worker polls that found no task, in total */
    public long idlePolls() {
        return sum(idlePolls);
    }

    /** @return pushes that found the ring full and went to the overflow list (back-pressure), in total */
    public long overflowPushes() {
        return sum(overflowPushes);
    }

    /** @return discrete rounds (0 for a persistent run) */
    public long rounds() {
        return rounds;
    }

    /** @return idle-function sweeps run to confirm termination */
    public long idleSweeps() {
        return idleSweeps;
    }

    /** @return wall time of the run in nanoseconds */
    public long elapsedNanos() {
        return elapsedNanos;
    }

    /** @return true when the application stopped the run ({@link TaskContext#stop()}) before it ran out of tasks */
    public boolean stopped() {
        return stopped;
    }

    private static long sum(final long[] a) {
        long s = 0;
        for (final long v : a) {
            s += v;
        }
        return s;
    }

    @Override
    public String toString() {
        return "WorklistStats{tasks=" + Arrays.toString(tasks) + ", localPushes=" + localPushes() + ", remotePushes="
            + remotePushes() + ", remoteAtomics=" + remoteAtomics() + ", messages=" + messagesSent() + ", bytes="
            + bytesSent() + ", idlePolls=" + idlePolls() + ", overflowPushes=" + overflowPushes() + ", rounds="
            + rounds + ", idleSweeps=" + idleSweeps + ", ms=" + elapsedNanos / 1e6 + (stopped ? ", stopped" : "")
            + "}";
    }
}
