package dev.overlap.worklist;

import dev.overlap.core.DeviceRegion;
import dev.overlap.core.KernelLaunch;
import dev.overlap.core.Mesh;
import dev.overlap.core.WorkerContext;
import dev.overlap.core.World;
import dev.overlap.queues.Publication;
import dev.overlap.transport.AggregatorConfig;
import dev.overlap.transport.ItemType;
import dev.overlap.transport.Transport;
import dev.overlap.core.InterruptedWaitException;
import dev.overlap.core.Waits;

import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The Atos distributed worklist ({@code DistributedQueues}) over a {@link Mesh}: every device has a local task
 * queue in its memory (a counter-based ring, FIFO, or a priority worklist) and its inbox; workers pop a task or a
 * batch ({@link WorkerShape}), run the application function on each, push new tasks locally or to their owner device
 * through the worker's aggregator (batched, or eager — Atos' lesson that latency-bound and bandwidth-bound apps want
 * different choices), and issue one-sided remote atomics. Tasks are {@code int}s (vertex ids, indices into
 * application arrays), optionally with an {@code int} priority.
 *
 * <pre>{@code
 * try (DistributedWorklist wl = DistributedWorklist.builder(mesh).queueCapacity(1 << 20).build()) {
 *     wl.seed(owner(source), source);
 *     WorklistStats stats = wl.run(WorkerShape.WARP, KernelMode.PERSISTENT, (v, ctx) -> {
 *         for (int w : neighbours(v)) {
 *             if (improve(w)) ctx.pushTo(owner(w), w);
 *         }
 *     });
 * }
 * }</pre>
 *
 * <p><b>Termination</b> — the run ends when every local queue is empty, every aggregator is flushed, no message is
 * in flight and no worker is inside a function — is detected with <em>counting</em> ({@link QuiescenceDetector}):
 * every worker owns a created and a completed counter on its own cache line; a task is counted created before it
 * becomes visible anywhere (queue, overflow, aggregator, ring) and completed after its function returned (so after
 * its children were counted), in one store per popped batch. An idle worker, holding a non-blocking guard so that
 * only one checks at a time, sums the completed counters and then the created counters; equal sums prove that no
 * task existed at the moment between the two waves and, since only tasks create tasks, none ever will. Chosen over a
 * Safra-style token ring because the counters are already per-worker single-writer stores (no extra message per
 * task or per batch), the check needs no cooperation from busy workers (a token must wait for every worker to pass
 * it on), and a failed check costs one read per worker. Fire-and-forget atomics ({@link TaskContext#atomic}) are
 * counted like tasks and completed once the issuing worker's endpoint has seen them applied, so an atomic still in a
 * ring also keeps the run alive.
 *
 * <p><b>Idle function.</b> With an {@link IdleFunction} a quiescent moment only opens a <em>sweep</em>: every worker
 * runs the idle function once more (as Atos' PageRank re-scans its vertices) and acknowledges; the run ends only if
 * the detector then finds the system quiescent again with the same number of tasks ever created — i.e. no sweep
 * pushed or sent anything. Otherwise the sweep closes and work goes on.
 *
 * <p><b>Back-pressure.</b> A push that finds the local ring full goes to a per-device overflow list (a lock, taken
 * only then), popped when the ring runs dry; a full inbox makes the sender wait while it drains its own inbox. No
 * task is dropped and no worker or handler blocks on a full queue, so devices that push to each other cannot
 * deadlock.
 *
 * <p><b>Stop and failure.</b> {@link TaskContext#stop()} ends a run early (the remaining tasks are discarded and
 * {@link WorklistStats#stopped()} says so). An exception from a function stops every worker and surfaces from
 * {@link #run} as a {@link TaskFailedException} naming the task and device. Either way the worklist is left empty
 * and ready for the next run.
 *
 * <p><b>Waiting.</b> {@link #run} waits for the run's kernels while it drains the inboxes; an interrupt of the host
 * thread stops the run as {@link TaskContext#stop()} does (the remaining tasks are discarded, the worklist is left
 * empty and usable) and then throws {@link InterruptedWaitException} with the interrupt status kept; the timed form
 * {@link #run(WorkerShape, KernelMode, TaskFunction, IdleFunction, long, TimeUnit)} does the same at its deadline
 * and throws {@link TimeoutException}.
 *
 * <p><b>Lifetime.</b> The worklist is one of its mesh's {@link Mesh#addDependent dependents}: closing the mesh closes
 * it (and the transport it created). After {@link #close()} every method throws {@link IllegalStateException}.
 *
 * <p><b>Thread-safety.</b> {@link #seed}, {@link #run} and {@link #close} are host calls: one thread at a time, never
 * during a run (checked). Functions run concurrently on all workers; each worker's {@link TaskContext} is confined
 * to it. <b>Memory ordering:</b> seeds happen-before the run; everything a run did happens-before {@code run}
 * returns; a push happens-before the function run on the pushed task.
 */
public final class DistributedWorklist implements AutoCloseable {
    private static final int DEFAULT_BATCH_BYTES = 16 << 10;
    private static final int DEFAULT_WAIT_POLLS = 64;
    /**
     * A busy worker polls its endpoint (drains its inbox, counts one aggregator wait poll) after at least this many
     * tasks: once per warp-sized batch, not per task of a thread-sized worker. An idle worker polls every time.
     */
    static final int POLL_EVERY = 32;
    private final Mesh mesh;
    private final Transport transport;
    private final boolean ownsTransport;
    private final int devices;
    private final boolean priority;
    private final int queueId;
    private final AggregatorConfig remote;
    private final LocalQueue[] queues;
    private final TaskContext[][] contexts;
    private final int hostParticipant;
    final QuiescenceDetector detector;
    /** The words the run's workers share (see {@link WorklistControl}): on the heap, or shared by the ranks. */
    private final WorklistControl control;
    /** The mesh's world when it spans several processes (the worklist is then collective), else null. */
    private final World world;
    /** The detector's and the control's memory in a mesh across processes (freed by the close); null otherwise. */
    private final DeviceRegion sharedRegion;
    /** The ranks of other processes that share no memory with this one (hosts), or null: see {@link RankLink}. */
    private final RankLink link;
    /** The global termination check over {@link #link}'s collectives; null without a link. */
    private final RankTermination rankTermination;
    /** A rank failed during a run over {@link #link}: its tasks are lost, no run can complete any more. */
    private boolean broken;
    /** The last run across ranks ended by a stop or failure on some rank (every rank decided the same). */
    private boolean rankStopped;

    private final AtomicBoolean running = new AtomicBoolean();
    /** This rank's own failure, with its cause; another rank's is read from the control. */
    private final AtomicReference<TaskFailedException> failure = new AtomicReference<>();
    private final AtomicLong[] budgets;
    /** Workers over every rank (the discrete rounds' barrier counts them). */
    private final int totalWorkers;
    private long sweeps;
    private long runSequence;
    /** The discrete rounds' arrival count at the run's start, and the rounds run since (the same on every rank). */
    private long arrivalsBase;
    private long round;
    private TaskFunction function;
    private IdleFunction idleFunction;
    private int fetch;
    private boolean closed;
    /** Host-confined state of the run in progress: its deadline, and whether an interrupt or the deadline ended it. */
    private long deadline = Waits.NO_DEADLINE;
    private boolean interrupted;
    private boolean timedOut;

    private DistributedWorklist(final Builder b) {
        this.mesh = b.mesh;
        this.devices = mesh.deviceCount();
        this.world = mesh.world().isDistributed() ? mesh.world() : null;
        this.link = b.link;
        if (link != null) {
            if (world != null) {
                throw new IllegalArgumentException("a worklist spans either the processes of one mesh (its world) or "
                    + "ranks that share no memory (a RankLink), not both");
            }
            if (link.devicesPerRank() != devices) {
                throw new IllegalArgumentException("the rank link has " + link.devicesPerRank() + " devices per rank,"
                    + " the mesh " + devices + ": every rank runs the same device count");
            }
        }
        this.priority = b.priority;
        this.queueId = b.queueId;
        this.remote = b.remote != null ? b.remote
            : AggregatorConfig.batched(Math.min(DEFAULT_BATCH_BYTES,
                AggregatorConfig.largestBatch(b.ringCapacityOrDefault())), DEFAULT_WAIT_POLLS);
        if (b.transport != null) {
            if (b.transport.mesh() != mesh) {
                throw new IllegalArgumentException("the transport belongs to another mesh than the worklist's");
            }
            this.transport = b.transport;
            this.ownsTransport = false;
        } else {
            this.transport = Transport.builder().mesh(mesh).ringCapacity(b.ringCapacity)
                .progressThread(b.progressThread).build();
            this.ownsTransport = true;
        }
        this.queues = new LocalQueue[devices];
        this.budgets = new AtomicLong[devices];
        int workers = 0;
        DeviceRegion region = null;
        try {
            for (int d = 0; d < devices; d++) {
                if (mesh.device(d).isLocal()) { // another rank's device keeps its queue in its own process
                    queues[d] = priority
                        ? LocalQueue.priority(mesh.device(d), b.queueCapacity, b.initialThreshold, b.delta)
                        : LocalQueue.fifo(mesh.device(d), b.queueCapacity, b.publication);
                }
                budgets[d] = new AtomicLong();
                workers += mesh.device(d).workerCount();
            }
            // Participants: this rank's workers, then its host; across processes one range of the same size per rank
            final int own = workers + 1;
            final int perRank = world != null ? (int)world.allReduceMax(own) : own;
            final int base = world != null ? world.rank() * perRank : 0;
            final int participants = world != null ? world.ranks() * perRank : own;
            this.hostParticipant = base + workers;
            this.totalWorkers = world != null ? (int)world.allReduceSum(workers) : workers;
            if (world != null) { // collective: one region every rank maps, the same offsets everywhere
                final int detectorBytes = (QuiescenceDetector.bytes(participants) + 127) & -128;
                region = mesh.allocateSymmetric(detectorBytes + WorklistControl.bytes(participants), 4096);
                final AtomicBuffer shared = region.buffer(world.firstDeviceOf(0));
                this.detector = new QuiescenceDetector(new UnsafeBuffer(shared, 0, detectorBytes), participants);
                this.control = new WorklistControl(new UnsafeBuffer(shared, detectorBytes,
                    WorklistControl.bytes(participants)), participants);
            } else {
                this.detector = new QuiescenceDetector(participants);
                this.control = new WorklistControl(participants);
            }
            this.sharedRegion = region;
            for (int p = base + workers; p < base + perRank; p++) {
                control.ack(p, WorklistControl.ALWAYS); // the host and unused slots never hold a sweep up
            }
            this.contexts = new TaskContext[devices][];
            int p = base;
            for (int d = 0; d < devices; d++) {
                contexts[d] = new TaskContext[mesh.device(d).workerCount()];
                for (int w = 0; w < contexts[d].length; w++) {
                    contexts[d][w] = new TaskContext(this, d, w, p++);
                }
            }
            for (int d = 0; d < devices; d++) {
                for (int w = 0; w < contexts[d].length; w++) {
                    contexts[d][w].counters = new WorkerCounters(transport.counters(), mesh.name() + " worklist dev"
                        + d + " worker " + w, d, w);
                }
            }
            for (int d = 0; d < devices; d++) {
                final int max = transport.inbox(d).maxMessageLength();
                if (devices > 1 && !remote.isEager() && remote.batchBytes() > max) {
                    throw new IllegalArgumentException("remote batchBytes " + remote.batchBytes() + " exceeds the largest"
                        + " message dev" + d + "'s inbox accepts (" + max + " bytes, ring capacity / 8): use a smaller "
                        + "batch or a ring of at least " + AggregatorConfig.smallestRing(remote.batchBytes())
                        + " bytes");
                }
            }
            for (int d = 0; d < devices; d++) {
                final LocalQueue q = queues[d];
                final int dev = d;
                // every device's binding, so senders know the item type; only this rank's devices' handlers run here
                transport.registerHandler(d, queueId, priority ? ItemType.LONG : ItemType.INT, q != null
                    ? (queue, sender, items, offset, count) -> q.pushBatch(items, offset, count)
                    : (queue, sender, items, offset, count) -> {
                        throw new IllegalStateException("dev" + dev + " runs in another process");
                    });
            }
            if (world != null) {
                world.barrier(transport::drainAll); // every rank's handlers are bound before any rank pushes
            }
            this.rankTermination = link != null ? new RankTermination(link, detector) : null;
            if (link != null) {
                link.barrier(); // every rank's handlers are bound before any rank pushes
            }
        } catch (RuntimeException e) {
            freeQueues();
            freeCounters();
            if (region != null) {
                region.close();
            }
            if (ownsTransport) {
                transport.close();
            }
            throw e;
        }
        try {
            mesh.addDependent(this);
        } catch (final IllegalStateException meshClosed) {
            close();
            throw meshClosed;
        }
    }

    /**
     * @param mesh the mesh whose workers run the tasks
     * @return a builder for a worklist over {@code mesh}
     */
    public static Builder builder(final Mesh mesh) {
        return new Builder(Objects.requireNonNull(mesh, "mesh"));
    }

    // ------------------------------------------------------------------------------------------------ host API

    /**
     * Seeds a task with priority 0 onto {@code device}'s queue; host only, between runs.
     *
     * @param device the device whose queue takes it, 0..device count - 1
     * @param task the task (an application-defined {@code int}, e.g. a vertex id)
     */
    public void seed(final int device, final int task) {
        seed(device, task, 0);
    }

    /**
     * Seeds a task onto {@code device}'s queue; host only, between runs.
     *
     * @param priority >= 0 (ignored by a FIFO worklist)
     * @param device the device whose queue takes it, 0..device count - 1
     * @param task the task (an application-defined {@code int}, e.g. a vertex id)
     * @throws IllegalArgumentException for a device outside the mesh or a negative priority
     * @throws IllegalStateException    during a run or after close
     */
    public void seed(final int device, final int task, final int priority) {
        checkHost("seed");
        if (device < 0 || device >= devices) {
            throw new IllegalArgumentException("device " + device + " outside 0.." + (devices - 1));
        }
        if (priority < 0) {
            throw new IllegalArgumentException("priority must be >= 0, was " + priority);
        }
        if (queues[device] == null) {
            throw new IllegalStateException("dev" + device + " runs in rank " + world.rankOf(device) + ": seed its "
                + "tasks there (this is rank " + world.rank() + ")");
        }
        checkUsable();
        detector.created(hostParticipant, 1);
        queues[device].push(task, priority);
    }

    /**
     * Runs without an idle function; see {@link #run(WorkerShape, KernelMode, TaskFunction, IdleFunction)}.
     *
     * @param shape tasks per pop
     * @param mode persistent or discrete kernels
     * @param function the task function
     * @return the run's statistics
     */
    public WorklistStats run(final WorkerShape shape, final KernelMode mode, final TaskFunction function) {
        return run(shape, mode, function, null);
    }

    /**
     * Runs the seeded tasks and everything they spawn to global termination (or to a stop).
     *
     * @param shape    tasks per pop
     * @param mode     persistent or discrete kernels
     * @param function the task function
     * @param idle     the idle function, or null
     * @return the run's statistics
     * @throws TaskFailedException   when a function threw (the worklist is empty again afterwards)
     * @throws IllegalStateException when called during a run, from a worker, or after close
     * @throws InterruptedWaitException if the host thread is interrupted: the run is stopped (its remaining tasks
     *                                  discarded) before this is thrown, and the worklist is usable again
     */
    public WorklistStats run(final WorkerShape shape, final KernelMode mode, final TaskFunction function,
        final IdleFunction idle) {
        return run(shape, mode, function, idle, Waits.NO_DEADLINE);
    }

    /**
     * As {@link #run(WorkerShape, KernelMode, TaskFunction, IdleFunction)}, stopping the run if it has not ended
     * within {@code timeout} (its remaining tasks discarded, the worklist empty and usable again).
     *
     * @param shape tasks per pop
     * @param mode persistent or discrete kernels
     * @param function the task function
     * @param idle the idle function, or null
     * @param timeout longest the run may take before it is stopped
     * @param unit its unit
     * @return the run's statistics, when it ended in time
     * @throws TimeoutException if the run was stopped at its deadline
     */
    public WorklistStats run(final WorkerShape shape, final KernelMode mode, final TaskFunction function,
        final IdleFunction idle, final long timeout, final TimeUnit unit) throws TimeoutException {
        final long start = System.nanoTime();
        final WorklistStats stats = run(shape, mode, function, idle, Waits.deadline(timeout, unit));
        if (timedOut) {
            throw new TimeoutException("worklist run stopped after " + (System.nanoTime() - start) / 1_000_000
                + " ms: not done within " + timeout + " " + unit + " (" + stats.tasks() + " tasks ran)");
        }
        return stats;
    }

    private WorklistStats run(final WorkerShape shape, final KernelMode mode, final TaskFunction function,
        final IdleFunction idle, final long runDeadline) {
        Objects.requireNonNull(shape, "shape");
        Objects.requireNonNull(mode, "mode");
        Objects.requireNonNull(function, "function");
        if (closed) {
            throw new IllegalStateException("worklist closed");
        }
        if (link != null) {
            if (mode != KernelMode.PERSISTENT) {
                throw new IllegalArgumentException("a worklist across ranks (RankLink) runs PERSISTENT kernels only, "
                    + "not " + mode);
            }
            if (idle != null) {
                throw new IllegalArgumentException("a worklist across ranks (RankLink) runs without an idle function");
            }
            checkUsable();
        }
        if (!running.compareAndSet(false, true)) {
            throw new IllegalStateException("a run is already in progress (runs are host calls, one at a time)");
        }
        try {
            this.function = function;
            this.idleFunction = idle;
            this.fetch = shape.fetchSize();
            this.deadline = runDeadline;
            this.interrupted = false;
            this.timedOut = false;
            failure.set(null);
            sweeps = 0;
            runSequence++;
            if (world != null) {
                // collective: every rank has seeded and ended its previous run before one of them clears the flags,
                // and the flags are clear before any rank's workers start; the discrete rounds' arrival count is
                // read while nobody runs, so every rank counts its rounds from the same base
                world.barrier(transport::drainAll);
                if (world.rank() == 0) {
                    control.reset();
                }
                arrivalsBase = control.arrivals();
                world.barrier();
            } else {
                if (link != null) {
                    link.barrier(); // every rank seeded and ended its previous run before any worker starts
                    rankTermination.reset();
                }
                control.reset();
                arrivalsBase = control.arrivals();
            }
            round = 0;
            for (final TaskContext[] cs : contexts) {
                for (final TaskContext c : cs) {
                    c.ensureFetch(fetch);
                    c.resetStats();
                }
            }
            final long start = System.nanoTime();
            final long rounds = link != null ? runAcrossRanks()
                : mode == KernelMode.PERSISTENT ? runPersistent() : runDiscrete();
            final long elapsed = System.nanoTime() - start;
            if (world != null) {
                world.checkPeers(); // a rank died during the run: its tasks are lost, the run cannot be completed
                world.barrier(transport::drainAll); // every rank's workers are done: the flags below are final
            }
            final int failedRank = control.failedRank();
            // across ranks every rank must take the same decision (the discard is collective): the rounds' decision
            final boolean stopped = link != null ? rankStopped
                : control.stopRequested() || failedRank >= 0 || failure.get() != null;
            if (stopped) {
                discardLeftovers();
            }
            final TaskFailedException f = failure.get();
            if (f != null) {
                throw f;
            }
            if (failedRank >= 0) {
                throw control.failure(failedRank); // another rank's task failed: this rank's run stopped with it
            }
            if (link != null && rankTermination.failures() > 0) {
                final int named = rankTermination.failedRank();
                throw new TaskFailedException(-1, -1, TaskFailedException.NO_TASK, new IllegalStateException(
                    (named >= 0 ? "a task failed on rank " + named : "a task failed on "
                    + rankTermination.failures() + " other ranks") + ": this rank's run stopped with it"));
            }
            if (interrupted) {
                throw Waits.interrupted("a worklist run (stopped, its remaining tasks discarded)");
            }
            return stats(rounds, elapsed, link != null ? rankStopped : control.stopRequested());
        } finally {
            this.function = null;
            this.idleFunction = null;
            running.set(false);
        }
    }

    // ------------------------------------------------------------------------------------------------ kernels

    private long runPersistent() {
        final KernelLaunch[] launches = new KernelLaunch[devices];
        for (int d = 0; d < devices; d++) {
            if (queues[d] != null) {
                launches[d] = mesh.device(d).launchPersistent(this::pollPersistent);
            }
        }
        joinAll(launches);
        return 0;
    }

    /**
     * Persistent kernels on this rank's devices; the host thread runs the global termination rounds
     * ({@link RankTermination}) while it drains the inboxes, until every rank decided the same: all tasks done, or
     * stopped. An interrupt or the deadline stops this rank's run, and the stop reaches every rank in the next round.
     */
    private long runAcrossRanks() {
        rankStopped = false;
        final KernelLaunch[] launches = new KernelLaunch[devices];
        for (int d = 0; d < devices; d++) {
            launches[d] = mesh.device(d).launchPersistent(this::pollPersistent);
        }
        try {
            int decision = RankTermination.GOING;
            while (decision == RankTermination.GOING) {
                transport.drainAll();
                try {
                    decision = rankTermination.step(control.finished(), failure.get() != null
                        || control.failedRank() >= 0, 1, TimeUnit.MILLISECONDS);
                } catch (final InterruptedWaitException e) {
                    Thread.interrupted(); // noted; the collective stays pending and the next step completes it
                    stopFor(true);
                }
                if (Thread.interrupted()) {
                    stopFor(true);
                } else if (deadline != Waits.NO_DEADLINE && Waits.remaining(deadline) <= 0) {
                    stopFor(false);
                }
            }
            rankStopped = decision == RankTermination.STOPPED;
            if (rankStopped && !control.finished()) {
                control.stop(); // another rank stopped or failed: this rank's workers leave with it
            } else {
                control.finish();
            }
        } catch (final RuntimeException e) { // a rank failed (or the link broke): no run can complete any more
            broken = true;
            requestStop();
            joinAll(launches);
            throw e;
        }
        joinAll(launches);
        return 0;
    }

    private int pollPersistent(final WorkerContext wc) {
        final TaskContext c = contexts[wc.deviceId()][wc.workerIndex()];
        if (control.finished()) {
            wc.stopLaunch();
            return 0;
        }
        try {
            c.bind(wc, runSequence);
            final int n = queues[c.device()].pop(c.taskBuffer, c.priorityBuffer, c.entryBuffer, fetch);
            if (n > 0) {
                runTasks(c, n);
                if ((c.sincePoll += n) >= POLL_EVERY) {
                    c.sincePoll = 0;
                    c.endpoint().poll();
                    c.pollRankBatches();
                    c.publishCounters();
                }
                return n;
            }
            c.sincePoll = 0;
            if (c.endpoint().poll() > 0) {
                return 1;
            }
            c.idlePolls++;
            c.publishCounters();
            c.flushRemote();
            final IdleFunction idle = idleFunction;
            if (idle != null) {
                if (control.sweepOpen()) {
                    final long e = control.sweepEpoch();
                    if (control.acked(c.participant) != e) {
                        runIdle(c, idle);
                        control.ack(c.participant, e);
                    }
                } else {
                    runIdle(c, idle);
                }
            }
            checkTermination();
        } catch (Throwable t) {
            fail(c, TaskFailedException.NO_TASK, t);
        }
        return 0;
    }

    /**
     * Discrete rounds: each rank's host launches a round on its devices and joins it; the workers of every rank meet
     * at the round's end ({@link #endOfRound}); then the hosts meet and each decides on values no worker changes any
     * more (the detector's counts, the acknowledgements, a stop or failure flagged during the round), so every rank
     * takes the same decision (and the same sweep epochs). A decision takes effect only after the hosts met again (a
     * sweep's workers push at once, which changes the counts a slower rank is about to read; an end is seen by every
     * worker): a rank never sees another's decision of the same round early, and every rank meets as often.
     */
    private long runDiscrete() {
        final KernelLaunch[] launches = new KernelLaunch[devices];
        long rounds = 0;
        long epoch = control.sweepEpoch();
        while (true) {
            for (int d = 0; d < devices; d++) {
                budgets[d].set(queues[d] != null ? queues[d].size() : 0);
            }
            final long target = nextRoundTarget();
            for (int d = 0; d < devices; d++) {
                if (queues[d] != null) {
                    launches[d] = mesh.device(d).launch(mesh.device(d).workerCount(), (wc, block) -> round(wc, target));
                }
            }
            joinAll(launches);
            rounds++;
            hostsMeet();
            boolean done = control.finished(); // a stop or failure during the round (only workers and hosts' joins set it)
            if (!done) {
                final long quiescent = detector.quiescentCreated();
                if (quiescent >= 0) {
                    if (idleFunction == null) {
                        done = true;
                    } else {
                        // every rank read the counts before any rank's sweep pushes (and counts) new tasks: a rank
                        // that read them later would decide against the sweep and wait at another barrier
                        hostsMeet();
                        final long sweepEpoch = ++epoch;
                        control.setSweepEpoch(sweepEpoch);
                        sweeps++;
                        while (!control.finished() && !control.allAcked(sweepEpoch)) {
                            final long sweepTarget = nextRoundTarget();
                            for (int d = 0; d < devices; d++) {
                                if (queues[d] != null) {
                                    launches[d] = mesh.device(d).launch(mesh.device(d).workerCount(),
                                        (wc, block) -> sweep(wc, sweepEpoch, sweepTarget));
                                }
                            }
                            joinAll(launches);
                            rounds++;
                            hostsMeet();
                        }
                        done = control.finished() || detector.quiescentCreated() == quiescent;
                    }
                }
            }
            hostsMeet(); // every rank decided before any rank acts on its decision
            if (done) {
                control.finish();
                return rounds;
            }
        }
    }

    /** @return the arrival count at which the next discrete round's workers are all through (every rank alike) */
    private long nextRoundTarget() {
        return arrivalsBase + ++round * totalWorkers;
    }

    /**
     * The hosts of every rank meet (between discrete rounds, draining their inboxes meanwhile; across ranks of a
     * {@link RankLink}, at its barrier; a no-op in one process).
     */
    private void hostsMeet() {
        if (world != null) {
            world.barrier(transport::drainAll);
        } else if (link != null) {
            link.barrier();
        }
    }

    private void round(final WorkerContext wc, final long target) {
        final TaskContext c = contexts[wc.deviceId()][wc.workerIndex()];
        try {
            c.bind(wc, runSequence);
            c.endpoint().poll();
            final AtomicLong budget = budgets[c.device()];
            final LocalQueue q = queues[c.device()];
            while (!control.finished()) {
                final long before = budget.getAndAdd(-fetch);
                if (before <= 0) {
                    break;
                }
                final int n = q.pop(c.taskBuffer, c.priorityBuffer, c.entryBuffer, (int)Math.min(fetch, before));
                if (n == 0) {
                    break;
                }
                runTasks(c, n);
                if ((c.sincePoll += n) >= POLL_EVERY) {
                    c.sincePoll = 0;
                    c.endpoint().poll();
                    c.publishCounters();
                }
            }
            c.flushRemote();
            c.publishCounters();
            endOfRound(c, target);
        } catch (Throwable t) {
            fail(c, TaskFailedException.NO_TASK, t);
        }
    }

    private void sweep(final WorkerContext wc, final long epoch, final long target) {
        final TaskContext c = contexts[wc.deviceId()][wc.workerIndex()];
        try {
            c.bind(wc, runSequence);
            if (control.acked(c.participant) != epoch && !control.finished()) {
                runIdle(c, idleFunction);
                c.flushRemote();
                control.ack(c.participant, epoch);
            }
            endOfRound(c, target);
        } catch (Throwable t) {
            fail(c, TaskFailedException.NO_TASK, t);
        }
    }

    /**
     * The end of a discrete round: a barrier over every worker of every device, during which a worker keeps
     * draining its inbox. Without it a worker could wait forever for space in the inbox of a device whose workers
     * already ended their round (the host starts the next round only after all of them); with it every full inbox
     * has a drainer until every sender is through, and handlers never block, so the round always ends.
     */
    private void endOfRound(final TaskContext c, final long target) {
        control.arrive();
        while (control.arrivals() < target && !control.finished()) {
            if (c.endpoint().poll() == 0) {
                Thread.yield();
            }
        }
    }

    private void runTasks(final TaskContext c, final int n) {
        final int[] tasks = c.taskBuffer;
        final int[] priorities = c.priorityBuffer;
        final TaskFunction f = function;
        final boolean prio = priority;
        int i = 0;
        try {
            for (; i < n; i++) {
                if (prio) {
                    c.priority = priorities[i];
                }
                f.run(tasks[i], c);
            }
            c.publishStaged();
        } catch (Throwable t) {
            c.discardStaged();
            fail(c, i < n ? tasks[i] : TaskFailedException.NO_TASK, t);
            return;
        } finally {
            c.priority = 0;
        }
        detector.completed(c.participant, n);
        c.tasks += n;
    }

    private void runIdle(final TaskContext c, final IdleFunction idle) {
        try {
            idle.onIdle(c);
            c.publishStaged();
        } catch (Throwable t) {
            c.discardStaged();
            fail(c, TaskFailedException.IDLE_FUNCTION, t);
        }
    }

    /** Termination check by an idle worker; at most one at a time (others skip), so no thread ever blocks here. */
    private void checkTermination() {
        if (link != null) {
            return; // across ranks only the hosts' rounds decide (RankTermination)
        }
        if (control.finished() || !control.tryCheck()) {
            return;
        }
        try {
            if (idleFunction == null) {
                if (detector.quiescentCreated() >= 0) {
                    control.finish();
                }
                return;
            }
            if (!control.sweepOpen()) {
                final long q = detector.quiescentCreated();
                if (q >= 0) {
                    control.openSweep(control.sweepEpoch() + 1, q);
                    sweeps++;
                }
                return;
            }
            final long e = control.sweepEpoch();
            if (!control.allAcked(e)) {
                return;
            }
            if (detector.quiescentCreated() == control.sweepBase()) {
                control.finish();
            } else {
                control.closeSweep();
            }
        } finally {
            control.endCheck();
        }
    }

    private void fail(final TaskContext c, final long task, final Throwable t) {
        failure.compareAndSet(null, new TaskFailedException(c.device(), c.worker(), task, t));
        control.fail(world != null ? world.rank() : 0, c.device(), c.worker(), task, String.valueOf(t));
    }

    void requestStop() {
        control.stop();
    }

    /**
     * Joins every launch, draining the inboxes between short timed joins: a worker may be waiting for space in the
     * inbox of a device whose workers are not polling — they finished their discrete round, or left a stopped or
     * failed run — and the host's drain (handlers never block) lets it go on. Discrete rounds also end at a draining
     * barrier ({@link #endOfRound}); the host's drain is the second line that also covers stops and failures.
     */
    private void joinAll(final KernelLaunch[] launches) {
        RuntimeException first = null;
        for (final KernelLaunch l : launches) {
            while (l != null) { // null: another rank's device
                try {
                    if (l.join(1, TimeUnit.MILLISECONDS)) {
                        break;
                    }
                    transport.drainAll();
                    if (world != null && world.failure() != null && !control.finished()) {
                        requestStop(); // a rank died: the run cannot terminate; this rank's workers leave it
                    }
                    if (Thread.interrupted()) {
                        stopFor(true);
                    } else if (deadline != Waits.NO_DEADLINE && Waits.remaining(deadline) <= 0) {
                        stopFor(false);
                    }
                } catch (final InterruptedWaitException e) {
                    Thread.interrupted(); // noted; set again when run() throws
                    stopFor(true);
                } catch (RuntimeException e) {
                    if (first == null) {
                        first = e;
                    }
                    break;
                }
            }
        }
        if (first != null) {
            throw first;
        }
    }

    /** The host was interrupted or the deadline passed: stop the run (the workers leave, leftovers are discarded). */
    private void stopFor(final boolean interrupt) {
        if (interrupt) {
            interrupted = true;
        } else {
            timedOut = true;
        }
        deadline = Waits.NO_DEADLINE;
        requestStop();
    }

    /**
     * After a stop or failure: flush every worker's sends, drain every inbox, empty every queue, rebalance the
     * detector. Collective across processes: the ranks flush and drain until their own sends are applied, meet (so
     * nothing is in flight anywhere), empty their queues, meet again, and rank 0 rebalances the counts of all. Across
     * the ranks of a {@link RankLink} the batches not sent are forgotten (counted, rebalanced here), each rank first
     * waits until what it sent to the others is applied there, and the imbalance is one sum over the ranks.
     */
    private void discardLeftovers() {
        for (final TaskContext[] cs : contexts) {
            for (final TaskContext c : cs) {
                c.hostFlush();
            }
        }
        if (link != null) {
            for (final TaskContext[] cs : contexts) {
                for (final TaskContext c : cs) {
                    c.hostQuietRanks(); // what this rank's workers sent to other ranks is applied there
                }
            }
        }
        boolean quiet;
        do {
            transport.drainAll();
            quiet = true;
            for (final TaskContext[] cs : contexts) {
                for (final TaskContext c : cs) {
                    quiet &= c.hostQuiet();
                }
            }
        } while (!quiet);
        hostsMeet();
        while (transport.drainAll() > 0) {
            Thread.onSpinWait();
        }
        final int[] sink = new int[256];
        final int[] sinkPriorities = new int[256];
        final long[] sinkEntries = new long[256];
        for (final LocalQueue q : queues) {
            while (q != null && q.pop(sink, sinkPriorities, sinkEntries, sink.length) > 0) {
                Thread.onSpinWait();
            }
        }
        hostsMeet();
        if (link != null) { // each rank has its own counters: rank 0 rebalances the sum of every rank's imbalance
            final long[] imbalance = {detector.createdTotal() - detector.completedTotal()};
            while (!link.allReduceSum(imbalance, 1, TimeUnit.MILLISECONDS)) {
                transport.drainAll();
            }
            if (link.rank() == 0) {
                detector.completed(hostParticipant, imbalance[0]);
            }
        } else if (world == null || world.rank() == 0) {
            final long imbalance = detector.createdTotal() - detector.completedTotal();
            detector.completed(hostParticipant, imbalance);
        }
        hostsMeet(); // the rebalanced counts are in before any rank seeds the next run
    }

    private WorklistStats stats(final long rounds, final long elapsed, final boolean stopped) {
        final long[] tasks = new long[devices];
        final long[] local = new long[devices];
        final long[] remotes = new long[devices];
        final long[] atomics = new long[devices];
        final long[] messages = new long[devices];
        final long[] bytes = new long[devices];
        final long[] idle = new long[devices];
        final long[] overflow = new long[devices];
        for (int d = 0; d < devices; d++) {
            for (final TaskContext c : contexts[d]) {
                c.publishCounters(); // the run's last counts (the join ordered the worker's writes before this)
                tasks[d] += c.tasks;
                local[d] += c.localPushes;
                remotes[d] += c.remotePushes;
                atomics[d] += c.remoteAtomics;
                idle[d] += c.idlePolls;
                if (c.boundRun == runSequence) {
                    messages[d] += c.messagesThisRun();
                    bytes[d] += c.bytesThisRun();
                }
            }
            overflow[d] = queues[d] != null ? queues[d].overflowPushes() : 0;
        }
        return new WorklistStats(tasks, local, remotes, atomics, messages, bytes, idle, overflow, rounds, sweeps,
            elapsed, stopped);
    }

    // ------------------------------------------------------------------------------------------------ accessors

    /** @return the mesh */
    public Mesh mesh() {
        return mesh;
    }

    /** @return the transport carrying remote tasks (owned by the worklist unless one was given to the builder) */
    public Transport transport() {
        return transport;
    }

    /** @return number of devices */
    public int devices() {
        return devices;
    }

    /** @return true for a priority worklist */
    public boolean isPriority() {
        return priority;
    }

    /** @return the transport queue id the worklist's batches travel under */
    public int queueId() {
        return queueId;
    }

    /** @return the aggregator configuration of remote pushes */
    public AggregatorConfig remote() {
        return remote;
    }

    /**
     * @param device a device of the mesh whose queue this rank keeps
     * @return tasks currently queued on {@code device} (a snapshot; 0 between runs unless seeded)
     */
    public long queuedTasks(final int device) {
        if (queues[device] == null) {
            throw new IllegalStateException("dev" + device + "'s queue is kept by rank " + world.rankOf(device)
                + " (this is rank " + world.rank() + ")");
        }
        return queues[device].size();
    }

    LocalQueue queue(final int device) {
        return queues[device];
    }

    /** @return the link to the other ranks, or null */
    RankLink link() {
        return link;
    }

    /** A run across ranks lost a rank: refuse further seeds and runs, naming it. */
    private void checkUsable() {
        if (broken) {
            link.checkPeers();
            throw new IllegalStateException("a rank failed during an earlier run: this worklist cannot complete a run"
                + " any more (close it)");
        }
    }

    private void checkHost(final String what) {
        if (closed) {
            throw new IllegalStateException("worklist closed");
        }
        if (running.get()) {
            throw new IllegalStateException("cannot " + what + " during a run (use TaskContext.push from a task)");
        }
    }

    /**
     * Closes the worker aggregators, frees the queues and, if the worklist created it, closes the transport. The
     * queue id stays registered on a shared transport. Host only; idempotent.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        if (running.get()) {
            throw new IllegalStateException("cannot close during a run");
        }
        closed = true;
        try {
            for (final TaskContext[] cs : contexts) {
                for (final TaskContext c : cs) {
                    c.closeAggregators();
                }
            }
        } finally {
            freeCounters();
            try {
                if (ownsTransport) {
                    transport.close(); // collective across processes
                }
            } finally {
                freeQueues();
                if (sharedRegion != null) {
                    sharedRegion.close(); // collective: every rank's close frees it
                }
                mesh.removeDependent(this);
            }
        }
    }

    private void freeCounters() {
        if (contexts == null) {
            return;
        }
        for (final TaskContext[] cs : contexts) {
            if (cs != null) {
                for (final TaskContext c : cs) {
                    if (c != null && c.counters != null) {
                        c.counters.free(transport.counters());
                    }
                }
            }
        }
    }

    private void freeQueues() {
        for (final LocalQueue q : queues) {
            if (q != null && !q.isFreed()) {
                q.free();
            }
        }
    }

    @Override
    public String toString() {
        return "DistributedWorklist{" + devices + " devices, " + (priority ? "priority" : "fifo") + ", remote "
            + remote + "}";
    }

    /**
     * Configures a worklist. Defaults: FIFO queues of 2^20 tasks per device ({@link Publication#WINDOWED}: lock-free
     * pushes, which keep going when workers outnumber cores), remote pushes batched in messages of 16 KiB (or the
     * largest the inbox takes, {@link AggregatorConfig#largestBatch}, if smaller) flushed after 64 polls, an own
     * transport with 1 MiB inboxes and no progress thread, queue id 0. Not thread-safe.
     */
    public static final class Builder {
        private final Mesh mesh;
        private Transport transport;
        private int ringCapacity = 1 << 20;
        private boolean progressThread;
        private int queueCapacity = 1 << 20;
        private boolean priority;
        private int initialThreshold;
        private int delta = 1;
        private Publication publication = Publication.WINDOWED;
        private AggregatorConfig remote;
        private int queueId;
        private RankLink link;

        private Builder(final Mesh mesh) {
            this.mesh = mesh;
        }

        int ringCapacityOrDefault() {
            return transport != null ? transport.inbox(0).ringCapacity() : ringCapacity;
        }

        /**
         * Carries remote tasks over an existing transport of the same mesh (not closed by the worklist).
         *
         * @param transport a transport over the same mesh, with queue {@link #queueId(int)} free
         * @return this builder
         */
        public Builder transport(final Transport transport) {
            this.transport = Objects.requireNonNull(transport, "transport");
            return this;
        }

        /**
         * Inbox ring bytes of the worklist's own transport (a power of two, see {@link Transport.Builder}).
         *
         * @param bytes ring capacity of every inbox of the worklist's own transport, a power of two (checked by {@link
         *              Transport.Builder#ringCapacity(int)} when the transport is built); default 1 MiB
         * @return this builder
         */
        public Builder ringCapacity(final int bytes) {
            this.ringCapacity = bytes;
            return this;
        }

        /**
         * Gives the worklist's own transport a progress thread.
         *
         * @param enabled true to run a progress thread (see {@link Transport.Builder#progressThread(boolean)})
         * @return this builder
         */
        public Builder progressThread(final boolean enabled) {
            this.progressThread = enabled;
            return this;
        }

        /**
         * @param tasks tasks each device's ring holds before pushes spill to the overflow list, 1..2^28
         * @return this builder
         */
        public Builder queueCapacity(final int tasks) {
            if (tasks < 1 || tasks > (1 << 28)) {
                throw new IllegalArgumentException("queue capacity must be in 1.." + (1 << 28) + ", was " + tasks);
            }
            this.queueCapacity = tasks;
            return this;
        }

        /**
         * FIFO local queues (the default).
         *
         * @return this builder
         */
        public Builder fifo() {
            this.priority = false;
            return this;
        }

        /**
         * Priority local queues (Atos {@code DistributedPriorityQueues}): tasks with priority below the threshold
         * are near, the rest far; the threshold rises by {@code delta} when the near queue drains.
         *
         * @param initialThreshold >= 0
         * @param delta            >= 1
         * @return this builder
         */
        public Builder priority(final int initialThreshold, final int delta) {
            if (initialThreshold < 0) {
                throw new IllegalArgumentException("initial threshold must be >= 0, was " + initialThreshold);
            }
            if (delta < 1) {
                throw new IllegalArgumentException("delta must be >= 1, was " + delta);
            }
            this.priority = true;
            this.initialThreshold = initialThreshold;
            this.delta = delta;
            return this;
        }

        /**
         * Publication rule of the FIFO rings (default {@link Publication#WINDOWED}).
         *
         * @param publication the rule, not null
         * @return this builder
         */
        public Builder publication(final Publication publication) {
            this.publication = Objects.requireNonNull(publication, "publication");
            return this;
        }

        /**
         * How remote pushes are sent: {@link AggregatorConfig#eager()} or batched. A batched aggregator's
         * {@code waitPolls} counts the worker's endpoint polls: one per {@value DistributedWorklist#POLL_EVERY} tasks
         * while it is busy; an idle worker flushes at once (it will produce nothing more to add).
         *
         * @param config eager or batched; not null
         * @return this builder
         */
        public Builder remote(final AggregatorConfig config) {
            this.remote = Objects.requireNonNull(config, "remote");
            return this;
        }

        /**
         * Transport queue id of the worklist's batches (distinct per worklist on a shared transport).
         *
         * @param id the queue id, >= 0 (and below the transport's {@code maxQueues})
         * @return this builder
         */
        public Builder queueId(final int id) {
            if (id < 0) {
                throw new IllegalArgumentException("queue id must be >= 0, was " + id);
            }
            this.queueId = id;
            return this;
        }

        /**
         * Spans ranks whose processes share no memory (hosts): pushes to another rank's device
         * ({@link TaskContext#pushToRank}) travel through {@code link}, and a run ends when every rank's tasks are
         * done: each rank's host runs rounds of one {@link RankLink#allReduceSum} of its created and completed
         * totals, and the run ends when one round's completed sum equals the next round's created sum (Mattern's two
         * waves across the ranks). Every rank builds its worklist with the same settings (collective: the build
         * meets the other ranks once the handlers are bound); runs are collective too, {@link KernelMode#PERSISTENT}
         * and without an idle function. {@code overlap-hosts}' {@code HostWorklistLink} implements it.
         *
         * @param link the ranks, with {@link RankLink#devicesPerRank()} equal to the mesh's device count
         * @return this builder
         */
        public Builder ranks(final RankLink link) {
            this.link = Objects.requireNonNull(link, "link");
            return this;
        }

        /**
         * @return the worklist, its queues allocated in device memory and its handlers registered
         * @throws IllegalArgumentException when a queue or the inboxes do not fit in device memory, or the batch size
         *                                  exceeds what the inbox ring can carry
         */
        public DistributedWorklist build() {
            if (mesh.isClosed()) {
                throw new IllegalStateException("mesh closed");
            }
            return new DistributedWorklist(this);
        }
    }
}
