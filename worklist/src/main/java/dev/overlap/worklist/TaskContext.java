package dev.overlap.worklist;

import dev.overlap.core.WorkerContext;
import dev.overlap.queues.IntPriorityWorklist;
import dev.overlap.transport.AggregatorConfig;
import dev.overlap.transport.Aggregator;
import dev.overlap.transport.Endpoint;
import dev.overlap.transport.IntAggregator;
import dev.overlap.transport.LongAggregator;
import dev.overlap.transport.RemoteAtomic;
import dev.overlap.transport.TransportCounter;

/** Padding before the worker's hot fields (another worker's context may sit on the previous cache lines). */
abstract class TaskContextPad {
    long p00, p01, p02, p03, p04, p05, p06, p07;
    long p08, p09, p0a, p0b, p0c, p0d, p0e, p0f;
}

/** The worker-owned state: written only by the worker (or by the host between runs). */
abstract class TaskContextFields extends TaskContextPad {
    int priority;
    boolean pendingRemote;
    long outstandingAtomics;
    long tasks;
    long localPushes;
    long remotePushes;
    long remoteAtomics;
    long idlePolls;
    int sincePoll;
}

/**
 * What a task or idle function can do on its worker: push local tasks, push tasks to other devices (through the
 * worker's aggregators, batched or eager as the worklist was built), issue one-sided remote atomics, and stop the
 * run. One context per worker thread, reused for every task (no allocation per task).
 *
 * <p><b>Local pushes are staged.</b> {@link #push} only appends to the worker's staging array; the worker publishes
 * the staged tasks to its device's queue when the fetch it is running ends (after the last of its tasks, or after
 * the idle function), or when {@value #STAGE} are staged: with <em>one</em> reservation on a FIFO ring, with one
 * reservation for the entries below the threshold on a priority worklist. A single push on the counter ring costs
 * a reservation CAS, a window count and a publication CAS; a task that pushes one or two neighbours (BFS on a
 * mesh-like graph) would pay them for every push. Staged tasks are counted as created when they are published,
 * which is before the pushing tasks are counted completed, so termination detection is unchanged.
 *
 * <p><b>Thread-safety.</b> Confined to its worker thread while a run is in progress; do not keep it past the
 * function call. <b>Memory ordering.</b> Everything a function did before pushing a task happens-before the function
 * run on that task (on any device). Every task is counted by the termination detector <em>before</em> it becomes
 * visible, so a task that is queued, buffered in an aggregator, in a ring or running always keeps the run alive.
 */
public final class TaskContext extends TaskContextFields {
    long p10, p11, p12, p13, p14, p15, p16, p17;
    long p18, p19, p1a, p1b, p1c, p1d, p1e, p1f;

    /** Local pushes a worker stages before it publishes them. */
    public static final int STAGE = 256;

    private final DistributedWorklist worklist;
    private final LocalQueue localQueue;
    private final int[] staged;
    private final long[] stagedEntries;
    private int stagedCount;
    private final int device;
    private final int worker;
    final int participant;
    int[] taskBuffer = new int[1];
    int[] priorityBuffer = new int[1];
    long[] entryBuffer = new long[1];
    private WorkerContext workerContext;
    private Endpoint endpoint;
    private IntAggregator[] intAggregators;
    private LongAggregator[] longAggregators;
    /** Batches for devices of other ranks (a worklist with a {@link RankLink}), else null. */
    private RankBatches rankBatches;
    /** The worklist's link to other ranks, or null. */
    private final RankLink link;
    /** Busy polls since the rank batches were last sent (they go after the aggregators' {@code waitPolls}). */
    private long rankPolls;
    long boundRun;
    /** The worker's Agrona counters; set by the worklist once the context is built. */
    WorkerCounters counters;
    long messagesAtStart;
    long bytesAtStart;

    TaskContext(final DistributedWorklist worklist, final int device, final int worker, final int participant) {
        this.worklist = worklist;
        this.localQueue = worklist.queue(device);
        this.device = device;
        this.worker = worker;
        this.participant = participant;
        this.link = worklist.link();
        this.staged = worklist.isPriority() ? null : new int[STAGE];
        this.stagedEntries = worklist.isPriority() ? new long[STAGE] : null;
    }

    /** Binds the worker's thread state at its first poll of a run. */
    void bind(final WorkerContext ctx, final long run) {
        if (boundRun == run) {
            return;
        }
        workerContext = ctx;
        if (endpoint == null) {
            endpoint = worklist.transport().endpoint(ctx);
            final int n = worklist.devices();
            intAggregators = new IntAggregator[n];
            longAggregators = new LongAggregator[n];
            if (link != null) {
                final AggregatorConfig remote = worklist.remote();
                rankBatches = new RankBatches(link, link.sender(device), worklist.detector, participant,
                    worklist.queueId(), worklist.isPriority() ? 8 : 4, remote.isEager() ? 1 : remote.batchBytes());
            }
        }
        messagesAtStart = endpoint.counter(TransportCounter.MESSAGES_SENT);
        bytesAtStart = endpoint.counter(TransportCounter.BYTES_SENT);
        boundRun = run;
    }

    /** @return this worker's device */
    public int device() {
        return device;
    }

    /** @return this worker's index on its device */
    public int worker() {
        return worker;
    }

    /** @return devices of the mesh (of every rank's mesh, for a worklist across ranks) */
    public int devices() {
        return worklist.devices();
    }

    /** @return this worker's rank (0 unless the worklist spans ranks with a {@link RankLink}) */
    public int rank() {
        return link != null ? link.rank() : 0;
    }

    /** @return the ranks the worklist spans (1 unless it was built with a {@link RankLink}) */
    public int ranks() {
        return link != null ? link.ranks() : 1;
    }

    /** @return the priority of the task being run (0 on a FIFO worklist and in the idle function) */
    public int priority() {
        return priority;
    }

    /** @return the core worker context (device memory, mesh) */
    public WorkerContext workerContext() {
        return workerContext;
    }

    /**
     * @return the worker's transport endpoint, for remote operations beyond {@link #atomic}/{@link #fetch}; effects
     *         of operations sent through it directly are not tracked for termination: {@link Endpoint#quiet()}
     *         before the function returns if the run must not end before they are applied
     */
    public Endpoint endpoint() {
        return endpoint;
    }

    /**
     * Pushes a task onto this device's queue (priority 0).
     *
     * @param task the task (an application-defined {@code int}, e.g. a vertex id)
     */
    public void push(final int task) {
        push(task, 0);
    }

    /**
     * Pushes a task onto this device's queue (stages it; published when the current fetch ends).
     *
     * @param priority its priority, >= 0, lower is more urgent (ignored by a FIFO worklist)
     * @param task the task (an application-defined {@code int}, e.g. a vertex id)
     */
    public void push(final int task, final int priority) {
        checkPriority(priority);
        int n = stagedCount;
        if (n == STAGE) {
            publishStaged();
            n = 0;
        }
        final int[] s = staged;
        if (s != null) {
            s[n] = task;
        } else {
            stagedEntries[n] = IntPriorityWorklist.entry(task, priority);
        }
        stagedCount = n + 1;
        localPushes++;
    }

    /** Counts the staged tasks created and publishes them to the device's queue with one reservation. */
    void publishStaged() {
        final int n = stagedCount;
        if (n > 0) {
            worklist.detector.created(participant, n);
            if (staged != null) {
                localQueue.pushAll(staged, n);
            } else {
                localQueue.pushEntries(stagedEntries, n);
            }
            stagedCount = 0;
        }
    }

    /** Forgets the staged tasks (never counted, never visible): after a failed function, whose run is discarded. */
    void discardStaged() {
        stagedCount = 0;
    }

    /**
     * Pushes a task onto {@code device}'s queue (priority 0).
     *
     * @param device the device whose queue takes it, 0..device count - 1
     * @param task the task (an application-defined {@code int}, e.g. a vertex id)
     */
    public void pushTo(final int device, final int task) {
        pushTo(device, task, 0);
    }

    /**
     * Pushes a task onto {@code device}'s queue: a local push for this worker's own device, otherwise through the
     * aggregator to {@code device} (which may wait, draining this device's inbox, while that inbox is full).
     *
     * @param priority its priority, >= 0 (ignored by a FIFO worklist)
     * @param device the device whose queue takes it, 0..device count - 1
     * @param task the task (an application-defined {@code int}, e.g. a vertex id)
     * @throws IllegalArgumentException for a device outside the mesh or a negative priority
     */
    public void pushTo(final int device, final int task, final int priority) {
        if (device == this.device) {
            push(task, priority);
            return;
        }
        if (device < 0 || device >= intAggregators.length) {
            throw new IllegalArgumentException("device " + device + " outside 0.." + (intAggregators.length - 1));
        }
        checkPriority(priority);
        worklist.detector.created(participant, 1);
        if (worklist.isPriority()) {
            LongAggregator a = longAggregators[device];
            if (a == null) {
                a = longAggregators[device] = endpoint.longAggregator(device, worklist.queueId(), worklist.remote());
            }
            a.offerBlocking(IntPriorityWorklist.entry(task, priority));
        } else {
            IntAggregator a = intAggregators[device];
            if (a == null) {
                a = intAggregators[device] = endpoint.intAggregator(device, worklist.queueId(), worklist.remote());
            }
            a.offerBlocking(task);
        }
        remotePushes++;
        pendingRemote = true;
    }

    /**
     * Pushes a task onto {@code device}'s queue on rank {@code rank} (priority 0); see
     * {@link #pushToRank(int, int, int, int)}.
     *
     * @param rank the rank whose device takes it, 0..{@link #ranks()} - 1
     * @param device the device there, 0..device count - 1
     * @param task the task
     */
    public void pushToRank(final int rank, final int device, final int task) {
        pushToRank(rank, device, task, 0);
    }

    /**
     * Pushes a task onto {@code device}'s queue on rank {@code rank}: {@link #pushTo(int, int, int)} for this
     * worker's own rank; otherwise into this worker's batch for that device, sent as one message through the
     * worklist's {@link RankLink} when it is full, when the worker runs out of work, or when it is told to flush
     * (which may wait on back-pressure, draining this device's inbox). The task is counted created before it enters
     * the batch, so a task batched or in flight between ranks keeps every rank's run alive.
     *
     * @param rank the rank whose device takes it, 0..{@link #ranks()} - 1
     * @param device the device there, 0..device count - 1
     * @param task the task (an application-defined {@code int}, e.g. a vertex id)
     * @param priority its priority, >= 0 (ignored by a FIFO worklist)
     * @throws IllegalArgumentException for a rank or device that does not exist, or a negative priority
     */
    public void pushToRank(final int rank, final int device, final int task, final int priority) {
        if (rank == rank()) {
            pushTo(device, task, priority);
            return;
        }
        if (rank < 0 || rank >= ranks()) {
            throw new IllegalArgumentException("rank " + rank + " outside 0.." + (ranks() - 1));
        }
        if (device < 0 || device >= intAggregators.length) {
            throw new IllegalArgumentException("device " + device + " outside 0.." + (intAggregators.length - 1));
        }
        checkPriority(priority);
        if (worklist.isPriority()) { // counted created before it enters the batch
            rankBatches.addLong(rank, device, IntPriorityWorklist.entry(task, priority));
        } else {
            rankBatches.addInt(rank, device, task);
        }
        remotePushes++;
    }

    /**
     * A one-sided remote atomic (fire and forget) on device memory at a global address. The run does not end until
     * it is applied.
     *
     * @param op the operation (its width says {@code int} or {@code long})
     * @param address global address ({@link dev.overlap.core.GlobalAddress}) of the target, aligned to {@code op}'s
     *                width
     * @param operand the operand (truncated to an {@code int} for the {@code INT_} operations)
     */
    public void atomic(final RemoteAtomic op, final long address, final long operand) {
        worklist.detector.created(participant, 1);
        outstandingAtomics++;
        remoteAtomics++;
        endpoint.atomic(op, address, operand);
    }

    /**
     * A remote atomic that returns the previous value (waits for it, draining this device's inbox meanwhile).
     *
     * @param op the operation (its width says {@code int} or {@code long})
     * @param address global address ({@link dev.overlap.core.GlobalAddress}) of the target, aligned to {@code op}'s
     *                width
     * @param operand the operand (truncated to an {@code int} for the {@code INT_} operations)
     * @return the previous value at {@code address} (sign-extended for the {@code INT_} operations)
     */
    public long fetch(final RemoteAtomic op, final long address, final long operand) {
        remoteAtomics++;
        return endpoint.fetch(op, address, operand);
    }

    /** Ends the run early: every worker stops after its current task; the tasks left are discarded. */
    public void stop() {
        worklist.requestStop();
    }

    /** Sends every pending remote task, waits until tracked atomics are applied and counts them complete. */
    void flushRemote() {
        if (pendingRemote) {
            pendingRemote = false;
            flushAll(intAggregators);
            flushAll(longAggregators);
        }
        if (rankBatches != null) {
            rankBatches.flush();
        }
        if (outstandingAtomics > 0) {
            endpoint.quiet();
            worklist.detector.completed(participant, outstandingAtomics);
            outstandingAtomics = 0;
        }
    }

    private static void flushAll(final Aggregator[] aggregators) {
        for (final Aggregator a : aggregators) {
            if (a != null) {
                a.flush();
            }
        }
    }

    /** Makes the buffers hold a fetch of {@code fetch} tasks; host only, between runs. */
    void ensureFetch(final int fetch) {
        if (taskBuffer.length < fetch) {
            taskBuffer = new int[fetch];
            priorityBuffer = new int[fetch];
            entryBuffer = new long[fetch];
        }
    }

    /** @return this run's messages sent (published endpoint counters) */
    long messagesThisRun() {
        return endpoint == null ? 0 : endpoint.counter(TransportCounter.MESSAGES_SENT) - messagesAtStart;
    }

    /** @return this run's bytes sent */
    long bytesThisRun() {
        return endpoint == null ? 0 : endpoint.counter(TransportCounter.BYTES_SENT) - bytesAtStart;
    }

    /** Publishes the worker's counters (release stores of what changed); the worker, or the host between runs. */
    void publishCounters() {
        counters.publish(this);
    }

    /** Zeroes the per-run statistics, folded into the counters first; host only, between runs. */
    void resetStats() {
        counters.endRun(this);
        tasks = 0;
        localPushes = 0;
        remotePushes = 0;
        remoteAtomics = 0;
        idlePolls = 0;
    }

    /** Flushes and closes this worker's aggregators; host only, after the last run. */
    void closeAggregators() {
        if (endpoint == null) {
            return;
        }
        for (int d = 0; d < intAggregators.length; d++) {
            if (intAggregators[d] != null) {
                intAggregators[d].close();
                intAggregators[d] = null;
            }
            if (longAggregators[d] != null) {
                longAggregators[d].close();
                longAggregators[d] = null;
            }
        }
    }

    /**
     * The host's flush after a stopped or failed run (ownership moved to the host by joining the launches): sends
     * what the aggregators hold; never waits (the devices' workers are gone, so the host drains the inboxes itself).
     */
    void hostFlush() {
        if (endpoint != null) {
            endpoint.flush();
        }
        if (rankBatches != null) {
            rankBatches.discard(); // counted, never sent: the stop's rebalance covers them
        }
        pendingRemote = false;
        outstandingAtomics = 0;
    }

    /**
     * A busy worker's endpoint poll: sends the batches for other ranks once they waited the remote configuration's
     * {@code waitPolls} polls (as a batched aggregator does), so a busy worker does not hold another rank's work.
     */
    void pollRankBatches() {
        if (rankBatches != null && rankBatches.pending() && ++rankPolls >= worklist.remote().waitPolls()) {
            rankPolls = 0;
            rankBatches.flush();
        }
    }

    /** Waits until what this worker sent to other ranks has been applied there (host, after a stopped run). */
    void hostQuietRanks() {
        if (rankBatches != null) {
            rankBatches.quiet();
        }
    }

    /** @return true when everything this worker's endpoint sent has been applied (host, after a run) */
    boolean hostQuiet() {
        if (endpoint == null) {
            return true;
        }
        for (int d = 0; d < intAggregators.length; d++) {
            if (!endpoint.isQuiet(d)) {
                return false;
            }
        }
        return true;
    }

    private static void checkPriority(final int priority) {
        if (priority < 0) {
            throw new IllegalArgumentException("priority must be >= 0, was " + priority);
        }
    }

    @Override
    public String toString() {
        return "TaskContext{dev" + device + " worker " + worker + "}";
    }
}
