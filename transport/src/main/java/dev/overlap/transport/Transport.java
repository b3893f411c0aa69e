package dev.overlap.transport;

import dev.overlap.core.GlobalAddress;
import dev.overlap.core.IdleStrategies;
import dev.overlap.core.Mesh;
import dev.overlap.core.WorkerContext;
import dev.overlap.core.World;
import dev.overlap.core.counters.OverlapCounters;
import org.agrona.ErrorHandler;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.CountersManager;

import java.util.Objects;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Inboxes, aggregators and one-sided remote operations between the devices of a {@link Mesh} (or, standalone,
 * between "devices" that are just buffers): one {@link Inbox} per device (an Agrona {@code ManyToOneRingBuffer} in
 * that device's memory), {@link Endpoint endpoints} that send batches and remote operations, receiver-side
 * {@link BatchHandler handlers} per device and queue, and an optional progress thread (the UPC helper) that applies
 * messages for devices whose workers are busy.
 *
 * <pre>{@code
 * try (Mesh mesh = Mesh.builder().devices(4).threadsPerDevice(1).build();
 *      Transport transport = Transport.builder().mesh(mesh).ringCapacity(1 << 20).progressThread(true).build()) {
 *     for (int d = 0; d < 4; d++) {
 *         transport.registerHandler(d, QUEUE, ItemType.INT, (queue, sender, items, offset, count) -> ...);
 *     }
 *     mesh.device(0).launch(1, (ctx, block) -> {
 *         Endpoint ep = transport.endpoint(ctx);
 *         IntAggregator to1 = ep.intAggregator(1, QUEUE, AggregatorConfig.batched(4096, 32));
 *         to1.offerBlocking(42);               // or tryOffer: never waits, returns an OfferResult code
 *         ep.atomic(RemoteAtomic.INT_MIN, depth.on(1).address(7), 3);
 *         ep.quiet();
 *     }).join();
 * }
 * }</pre>
 *
 * <p>Progress: an inbox is applied only when someone drains it: its device's workers ({@link Endpoint#poll()} in
 * their loops), senders that wait on back-pressure or replies (they drain their own home inbox), explicit
 * {@link Inbox#drain()} calls, or the progress thread. A device whose workers neither poll nor send, with no progress
 * thread, leaves its inbox to fill up; senders to it then wait (back-pressure), they do not fail.
 *
 * <p><b>Counters</b> ({@link TransportCounter}) are Agrona counters in the {@link #counters() counters store}: the
 * mesh's (its private memory, the user's {@code CountersManager}, or the process's counters file that
 * {@code overlap stat} reads), the one given to {@link Builder#counters(CountersManager)}, or, standalone, a private
 * one in memory. The close frees them after recording their final values.
 *
 * <p><b>Threads.</b> The progress thread is an Agrona {@link AgentRunner} on a thread of
 * {@link Builder#progressThreadFactory} (default: a daemon thread named {@code <mesh>-progress}); with no progress
 * thread, {@link #newProgressAgent()} gives the same duty cycle to run under the user's own runner or
 * {@code AgentInvoker}.
 *
 * <p>Thread-safety: registration ({@link #registerHandler}), {@link #newEndpoint(int)}, counter reads and
 * {@link #drainAll()} may be called from any thread. Endpoints are single-threaded (see {@link Endpoint}).
 *
 * <p><b>Lifetime.</b> A transport over a mesh is one of the mesh's {@link Mesh#addDependent dependents}: closing the
 * mesh closes the transport first (after the mesh's queued kernels finished, before its memory goes). Close it
 * yourself, before the mesh, once the threads that use endpoints have stopped (e.g. after joining the kernels):
 * {@link #close()} stops the progress thread (and waits for every agent of {@link #newProgressAgent()} that is inside
 * a duty cycle), flushes every aggregator, applies everything left in the inboxes and frees the inbox memory.
 * Afterwards every method of the transport, its inboxes, endpoints, aggregators and progress agents that touches an
 * inbox or would send throws an {@link IllegalStateException} that names the closed transport (a progress agent ends
 * its runner with Agrona's {@code AgentTerminationException}). Counters are the exception: {@link #counter},
 * {@link #countersReport()} and {@link Endpoint#counter} stay readable, with their final values, and a counter read
 * that races the close (from any thread) returns the value before or after it: it never fails because of the close
 * and never reads freed memory ({@link Inbox#counter} answers with the value or that exception). An endpoint used by
 * another thread while the transport closes races with the close (endpoints are single-threaded), which is the
 * caller's error. A drain in progress on another thread (a handler still running) is waited for before the inbox
 * memory goes, as {@code Mesh.close} waits for running kernels, and what it left is applied by the close; a close
 * called from inside a handler is refused with an {@link IllegalStateException} (it would wait for itself).
 */
public final class Transport implements AutoCloseable {
    private final Mesh mesh;
    private final int devices;
    /** Each device's memory, the target of remote operations (null entries: a standalone transport without). */
    private final AtomicBuffer[] memories;
    private final int maxEndpoints;
    private final int maxQueues;
    private final int rendezvousThreshold;
    private final int directBatchThreshold;
    private final DirectPolicy directPolicy;
    private final long helpAfterNanos;
    private final TransportEndpoints endpoints;
    private final TransportMemory memory;
    private final ProgressAgents agents;
    private final OverlapCounters counters;
    /** Whether the close closes {@link #counters} (a handle the transport opened itself). */
    private final boolean ownsCounters;
    /** The mesh's world when it spans several processes (then the transport is collective), else null. */
    private final World world;
    /** By device: whether this process drains its inbox (every device, in one process). */
    private final boolean[] localDevices;
    private final int replySlots;
    private final int replySlotBytes;
    private volatile boolean closing;
    private volatile boolean closed;
    /** Closed first by {@link #close()}, most recent first; guarded by {@code this}. */
    private final java.util.ArrayList<AutoCloseable> dependents = new java.util.ArrayList<>();

    private Transport(final Builder b) {
        requireAgrona();
        this.mesh = b.mesh;
        this.devices = mesh != null ? mesh.deviceCount() : b.devices;
        this.maxQueues = b.maxQueues;
        this.directPolicy = b.directPolicy;
        this.helpAfterNanos = b.helpAfterNanos;
        int workers = 0;
        if (mesh != null) {
            for (int d = 0; d < devices; d++) {
                workers += mesh.device(d).workerCount();
            }
        }
        this.world = mesh != null && mesh.world().isDistributed() ? mesh.world() : null;
        this.localDevices = new boolean[devices];
        for (int d = 0; d < devices; d++) {
            localDevices[d] = world == null || world.isLocal(d);
        }
        final int ownEndpoints = b.maxEndpoints > 0 ? b.maxEndpoints : workers + 16;
        if (world != null) { // collective: the settings every rank's inboxes and messages depend on must agree
            world.checkSame("Transport ringCapacity", b.ringCapacity);
            world.checkSame("Transport maxQueues", b.maxQueues);
            world.checkSame("Transport replySlots", b.replySlots);
            world.checkSame("Transport rendezvousThreshold", b.rendezvousThreshold);
        }
        // endpoint ids are global across processes: one range of maxEndpoints per rank, the largest any rank needs
        this.maxEndpoints = world != null ? (int)world.allReduceMax(ownEndpoints) : ownEndpoints;
        if (maxEndpoints < workers) {
            throw new IllegalArgumentException("maxEndpoints " + maxEndpoints + " is less than the mesh's " + workers
                + " workers (each gets an endpoint)");
        }
        final int senders = world != null ? world.ranks() * maxEndpoints : maxEndpoints;
        this.memories = new AtomicBuffer[devices];
        for (int d = 0; d < devices; d++) {
            memories[d] = mesh != null ? mesh.memory(d).buffer() : b.memories != null ? b.memories[d] : null;
        }
        final int maxPut = AggregatorConfig.largestBatch(b.ringCapacity) - MessageFormat.PUT_HEADER_LENGTH;
        this.rendezvousThreshold = Math.min(b.rendezvousThreshold, maxPut + 1);
        this.directBatchThreshold = b.directBatchThreshold;
        this.replySlots = b.replySlots;
        // across processes a reply from another process carries a ring get's bytes inline (below the rendezvous)
        final int inlineReplies = world != null ? rendezvousThreshold : 0;
        this.replySlotBytes = ReplySlots.slotBytes(inlineReplies);
        final String name = mesh != null ? mesh.name() : "transport";
        this.ownsCounters = b.countersManager != null || mesh == null;
        this.counters = b.countersManager != null ? OverlapCounters.using(b.countersManager)
            : mesh != null ? mesh.counters() : OverlapCounters.inMemory();
        final String labelPrefix = (mesh != null ? name + " " : "") + "transport";
        this.endpoints = new TransportEndpoints(maxEndpoints, world != null ? world.rank() * maxEndpoints : 0, mesh,
            b.idleStrategy != null ? b.idleStrategy : IdleStrategies.defaultFor(workers + (b.progressThread ? 2 : 1)),
            b.replySlots, labelPrefix);
        this.memory = new TransportMemory(this, mesh, devices, b.inboxBuffers, b.ringCapacity, senders, counters,
            labelPrefix, endpoints, localDevices, b.replySlots, inlineReplies);
        endpoints.createWorkerEndpoints(this);
        final IdleStrategy progressIdle = !b.progressThread ? null : b.progressIdle != null ? b.progressIdle.get()
            : new BackoffIdleStrategy(64, 64, 1_000, 50_000);
        try {
            this.agents = new ProgressAgents(this, ownedInboxes(), helpAfterNanos, progressIdle, b.errorHandler,
                name + "-progress", b.progressThreadFactory);
        } catch (final RuntimeException e) { // the thread factory's failure: give back what was taken
            closing = true;
            closed = true;
            memory.release();
            if (ownsCounters) {
                counters.close();
            }
            throw e;
        }
        if (mesh != null) {
            try {
                mesh.addDependent(this);
            } catch (final IllegalStateException meshClosedMeanwhile) {
                close();
                throw meshClosedMeanwhile;
            }
        }
        if (world != null) {
            try {
                world.barrier(); // every rank's inboxes are set up before any rank sends
            } catch (final RuntimeException e) {
                close();
                throw e;
            }
        }
    }

    /** @return the inboxes this process drains, by device order */
    private Inbox[] ownedInboxes() {
        final Inbox[] all = memory.inboxes();
        int n = 0;
        for (final Inbox inbox : all) {
            n += inbox.isOwned() ? 1 : 0;
        }
        final Inbox[] owned = new Inbox[n];
        n = 0;
        for (final Inbox inbox : all) {
            if (inbox.isOwned()) {
                owned[n++] = inbox;
            }
        }
        return owned;
    }

    private static void requireAgrona() {
        try {
            new UnsafeBuffer(new byte[8]).getLongVolatile(0);
        } catch (final LinkageError e) {
            throw new IllegalStateException("Overlap transport uses Agrona, which needs the JVM flag "
                + "'--add-exports java.base/jdk.internal.misc=ALL-UNNAMED'", e);
        }
    }

    /** @return a builder (give it a {@link Builder#mesh(Mesh) mesh}, or {@link Builder#devices(int) devices}) */
    public static Builder builder() {
        return new Builder();
    }

    // ---------------------------------------------------------------------------------------------- accessors

    /** @return number of devices */
    public int deviceCount() {
        return devices;
    }

    /** @return the mesh, or null for a standalone transport */
    public Mesh mesh() {
        return mesh;
    }

    /**
     * @param device a device id, 0..device count - 1
     * @return device {@code device}'s inbox
     */
    public Inbox inbox(final int device) {
        return memory.inboxes()[checkDevice(device)];
    }

    /** @return the policy for small remote operations */
    public DirectPolicy directPolicy() {
        return directPolicy;
    }

    /** @return puts and gets of at least this many bytes take the direct (rendezvous) path */
    public int rendezvousThreshold() {
        return rendezvousThreshold;
    }

    /**
     * @return smallest batch (bytes, header included) that a bulk offer delivers by reference when the direct policy
     *         is not {@link DirectPolicy#NEVER}; {@link Integer#MAX_VALUE} when off
     * @see Builder#directBatchThreshold(int)
     */
    public int directBatchThreshold() {
        return directBatchThreshold;
    }

    /** @return queue ids run from 0 to this - 1 */
    public int maxQueues() {
        return maxQueues;
    }

    /** @return most endpoints this transport can create */
    public int maxEndpoints() {
        return maxEndpoints;
    }

    /**
     * @return the store of this transport's counters (the mesh's, the builder's, or a private one); the counters in
     *         it are freed by {@link #close()}
     */
    public OverlapCounters counters() {
        return counters;
    }

    /** @return true if a progress thread runs */
    public boolean hasProgressThread() {
        return agents.hasThread();
    }

    Inbox[] inboxes() {
        return memory.inboxes();
    }

    /**
     * @param device a device
     * @return true if this process drains {@code device}'s inbox and runs its handlers: every device in one process,
     *         this rank's devices in a mesh across processes
     */
    public boolean isLocal(final int device) {
        return localDevices[checkDevice(device)];
    }

    /** @return by device, whether this process drains its inbox (shared, do not modify) */
    boolean[] localDevices() {
        return world != null ? localDevices : null;
    }

    int replySlots() {
        return replySlots;
    }

    int replySlotBytes() {
        return replySlotBytes;
    }

    /** @return the mesh's world when the transport spans several processes, else null */
    World world() {
        return world;
    }

    /** @return the transport's own memory: inboxes, counter blocks, reply areas */
    TransportMemory ownMemory() {
        return memory;
    }

    /** @return the transport's endpoints */
    TransportEndpoints endpoints() {
        return endpoints;
    }

    AtomicBuffer memory(final int device) {
        return memories[device];
    }

    long helpAfterNanos() {
        return helpAfterNanos;
    }

    int checkDevice(final int device) {
        if (device < 0 || device >= devices) {
            throw new IndexOutOfBoundsException("device " + device + " does not exist: the transport has devices 0.."
                + (devices - 1));
        }
        return device;
    }

    void checkQueueId(final int queueId) {
        if (queueId < 0 || queueId >= maxQueues) {
            throw new IllegalArgumentException("queueId must be in 0.." + (maxQueues - 1) + " (Builder.maxQueues), was "
                + queueId);
        }
    }

    /** Validates a remote range; @return its device. */
    int checkRange(final long address, final int length, final int alignment, final String what) {
        if (length < 0) {
            throw new IllegalArgumentException(what + ": length must be >= 0, was " + length);
        }
        final int device = GlobalAddress.device(address);
        if (device >= devices) {
            throw new IndexOutOfBoundsException(what + " " + GlobalAddress.toString(address) + " names a device "
                + "outside 0.." + (devices - 1));
        }
        final AtomicBuffer memory = memories[device];
        if (memory == null) {
            throw new IllegalStateException("remote operations need device memory: build the transport over a Mesh "
                + "or give Builder.memories(...)");
        }
        final long offset = GlobalAddress.offset(address);
        if (offset + length > memory.capacity()) {
            throw new IndexOutOfBoundsException(what + " range [" + GlobalAddress.toString(address) + ", +" + length
                + ") is outside dev" + device + " memory of " + memory.capacity() + " bytes");
        }
        if ((offset & (alignment - 1)) != 0) {
            throw new IllegalArgumentException(what + " " + GlobalAddress.toString(address) + " is not aligned to "
                + alignment + " bytes");
        }
        return device;
    }

    // ---------------------------------------------------------------------------------------------- set-up

    /**
     * Registers the receiver of queue {@code queueId} on device {@code device}. Do it before creating aggregators
     * that send to that queue. Thread-safe; the registration is visible to every later drain.
     *
     * @param device the receiving device, 0..device count - 1
     * @param queueId the queue, 0..{@link Builder#maxQueues(int) maxQueues} - 1
     * @param type the item type the queue carries; aggregators sending to it must be of this type
     * @param handler called with each batch for the queue, on whichever thread drains the device's inbox
     * @throws IllegalStateException if the queue already has a handler on that device
     */
    public void registerHandler(final int device, final int queueId, final ItemType type, final BatchHandler handler) {
        checkOpen();
        checkDevice(device);
        checkQueueId(queueId);
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(handler, "handler");
        memory.inboxes()[device].dispatcher.bind(queueId, type, handler);
    }

    /**
     * Creates an endpoint for a thread that is not one of the mesh's workers (workers use
     * {@link #endpoint(WorkerContext)}).
     *
     * @param homeDevice the device whose inbox it drains while it waits
     * @return a new endpoint with that home device, for one thread at a time; close it when done
     * @throws IllegalStateException when {@link Builder#maxEndpoints(int)} endpoints exist
     */
    public synchronized Endpoint newEndpoint(final int homeDevice) {
        checkOpen(); // under the lock the close takes to start closing: no endpoint is created after that
        checkDevice(homeDevice);
        if (!localDevices[homeDevice]) {
            throw new IllegalStateException("an endpoint's home device must be one this process drains: dev"
                + homeDevice + " belongs to rank " + world.rankOf(homeDevice) + " (this is rank " + world.rank() + ")");
        }
        return endpoints.create(this, homeDevice);
    }

    /**
     * @param ctx a worker of this transport's mesh
     * @return that worker's endpoint (created with the transport; home device = the worker's device)
     */
    public Endpoint endpoint(final WorkerContext ctx) {
        if (ctx.mesh() != mesh) {
            throw new IllegalArgumentException("the worker belongs to another mesh than this transport's");
        }
        return endpoints.worker(ctx);
    }

    /**
     * @return a new progress agent over all inboxes, to compose into one's own Agrona duty cycle or
     *         {@link AgentRunner}; each agent must be driven by one thread. Once the transport is closed its
     *         {@code doWork()} throws Agrona's {@code AgentTerminationException}, which ends an {@link AgentRunner};
     *         {@link #close()} waits for an agent that is inside {@code doWork()}.
     * @throws IllegalStateException if the transport is closed
     */
    public Agent newProgressAgent() {
        checkOpen();
        return agents.newAgent();
    }

    /** @return true if the calling thread is applying messages of one of this transport's inboxes */
    boolean isDrainingOnCurrentThread() {
        for (final Inbox inbox : memory.inboxes()) {
            if (inbox.isDrainingOnCurrentThread()) {
                return true;
            }
        }
        return false;
    }

    // ---------------------------------------------------------------------------------------------- progress

    /**
     * Drains every inbox once (skipping those another thread is draining).
     *
     * @return messages applied
     */
    public int drainAll() {
        checkNotClosed();
        int work = 0;
        for (final Inbox inbox : memory.inboxes()) {
            if (inbox.isOwned()) {
                work += inbox.drain();
            }
        }
        return work;
    }

    /**
     * @param device  a device
     * @param counter any counter
     * @return for a sender counter, the sum over the endpoints homed on {@code device}; for a receiver counter, the
     *         value of the device's inbox. Counters stay readable after {@link #close()}, with their final values,
     *         and a read that races the close returns the value before or after it: it never fails because of the
     *         close and never reads freed memory. Thread-safe; acquire loads.
     */
    public long counter(final int device, final TransportCounter counter) {
        checkDevice(device);
        if (!counter.isSenderCounter()) {
            if (!localDevices[device]) {
                throw new IllegalStateException("dev" + device + "'s inbox counters are kept by rank "
                    + world.rankOf(device) + ", the process that drains it (this is rank " + world.rank() + ")");
            }
            return memory.receiverCounter(device, counter);
        }
        return endpoints.senderCounter(device, counter);
    }

    /**
     * @return every counter of every device, one line per device (for logs and dashboards); readable after
     *         {@link #close()} like {@link #counter}, with 0 bytes pending once the inboxes are freed
     */
    public String countersReport() {
        final StringBuilder sb = new StringBuilder();
        for (int d = 0; d < devices; d++) {
            if (!localDevices[d]) {
                continue; // another process's device: its process reports it
            }
            sb.append("dev").append(d).append(':');
            for (final TransportCounter c : TransportCounter.values()) {
                sb.append(' ').append(c.label()).append('=').append(counter(d, c)).append(',');
            }
            sb.setLength(sb.length() - 1);
            sb.append(" | inbox pending bytes=").append(memory.pendingBytes(d)).append('\n');
        }
        return sb.toString();
    }

    boolean isClosing() {
        return closing;
    }

    /** @return true once closed */
    public boolean isClosed() {
        return closed;
    }

    private void checkOpen() {
        if (closing) {
            throw new IllegalStateException(this + " is closed");
        }
    }

    /** Allows the close's own drains; refuses everything once the inbox memory may be gone. */
    void checkNotClosed() {
        if (closed) {
            throw closedError();
        }
    }

    /** @return the error for a use of inbox memory once the transport is closed: it names the transport */
    IllegalStateException closedError() {
        return new IllegalStateException(this + " is closed: its inboxes are freed");
    }

    /**
     * Makes {@code dependent} part of this transport's lifetime: {@link #close()} closes it first (dependents most
     * recent first), before it stops anything, so a dependent that sends into the inboxes or drains them from a
     * thread of its own (the host transport's receiver) has stopped before the inbox memory goes. Its
     * {@code close()} must be idempotent; a dependent closed earlier by its owner should
     * {@link #removeDependent remove} itself. What a dependent's close throws is passed on after the transport's own
     * close.
     *
     * @param dependent closed by this transport's close, not null
     * @throws IllegalStateException if the transport is closed or closing
     */
    public void addDependent(final AutoCloseable dependent) {
        Objects.requireNonNull(dependent, "dependent");
        synchronized (this) {
            checkOpen();
            dependents.add(dependent);
        }
    }

    /**
     * Forgets a dependent (no effect if it is not one).
     *
     * @param dependent a dependent added by {@link #addDependent}, or anything else (then nothing happens)
     */
    public void removeDependent(final AutoCloseable dependent) {
        synchronized (this) {
            dependents.remove(dependent);
        }
    }

    /** Closes the dependents, most recent first; @return the first failure, or null */
    private Throwable closeDependents() {
        Throwable failure = null;
        while (true) {
            final AutoCloseable d;
            synchronized (this) {
                if (dependents.isEmpty()) {
                    return failure;
                }
                d = dependents.remove(dependents.size() - 1);
            }
            try {
                d.close();
            } catch (final Exception | Error e) {
                if (failure == null) {
                    failure = e;
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
    }

    /**
     * Stops the progress thread, flushes every endpoint's aggregators, applies every message left in the inboxes,
     * and frees the inbox memory. Call it after the threads using endpoints have stopped and before closing the mesh.
     * Idempotent.
     *
     * <p>The order: {@code closing} (new endpoints, handlers and progress agents are refused; agents end), the
     * progress thread stopped and the agents' duty cycles waited out, every endpoint flushed, every inbox drained
     * until empty; then {@code closed} (every drain is refused), the agents waited out again, and the memory released
     * and the counters freed: counter reads racing the release read the values it recorded (see
     * {@link TransportMemory}).
     *
     * @throws IllegalStateException if an inbox keeps a message that never becomes readable (a sender still running)
     */
    @Override
    public void close() {
        for (final Inbox inbox : memory.inboxes()) {
            if (inbox.isDrainingOnCurrentThread()) {
                throw new IllegalStateException(this + ".close() called from a handler of dev" + inbox.device()
                    + "'s inbox: the close waits for every drain in progress, the caller's own included; close the "
                    + "transport from a thread that is not draining it");
            }
        }
        final Throwable dependentFailure = closeDependents(); // they still use the inboxes while they close
        synchronized (this) {
            if (closing) {
                return;
            }
            closing = true;
        }
        try {
            agents.stopThread();
            agents.awaitIdle();
            if (world != null) {
                // collective: every rank has stopped sending (its kernels are done) before the flushes, and every
                // flush is in before the last drains; a rank waiting keeps draining its inboxes for those flushing
                meetOthers();
            }
            endpoints.flushForClose();
            if (world != null) {
                meetOthers();
            }
            drainUntilEmpty();
        } finally {
            closed = true;
            agents.awaitIdle();
            memory.release();
            if (ownsCounters) {
                counters.close();
            }
            if (mesh != null) {
                mesh.removeDependent(this);
            }
        }
        if (dependentFailure instanceof RuntimeException) {
            throw (RuntimeException)dependentFailure;
        }
        if (dependentFailure instanceof Error) {
            throw (Error)dependentFailure;
        }
        if (dependentFailure != null) {
            throw new IllegalStateException("a dependent of " + this + " failed to close", dependentFailure);
        }
    }

    /** A barrier of the transport's close that drains this rank's inboxes while it waits; skipped once a peer failed. */
    private void meetOthers() {
        if (world.failure() == null) {
            try {
                world.barrier(this::drainAll);
            } catch (final dev.overlap.core.PeerFailedException e) {
                // a rank died or left first: nothing more comes from it; this rank still releases what it holds
            }
        }
    }

    private void drainUntilEmpty() {
        final IdleStrategy idle = new BackoffIdleStrategy(64, 64, 1_000, 1_000_000);
        long lastProgress = System.nanoTime();
        while (true) {
            final int work = drainAll();
            boolean empty = true;
            boolean drainedElsewhere = false;
            for (final Inbox inbox : memory.inboxes()) {
                empty &= !inbox.isOwned() || inbox.size() == 0; // another process empties its own
                drainedElsewhere |= inbox.isOwned() && inbox.isDrainingOnAnotherThread();
            }
            if (empty) {
                return;
            }
            final long now = System.nanoTime();
            if (work > 0 || drainedElsewhere) { // a handler running on another thread is progress we wait for
                lastProgress = now;
            } else if (now - lastProgress > TimeUnit.SECONDS.toNanos(10)) {
                throw new IllegalStateException("transport close: an inbox still holds unreadable messages after 10 s"
                    + " without progress (is a thread still sending?)\n" + countersReport());
            }
            idle.idle(work);
        }
    }

    @Override
    public String toString() {
        return "Transport{" + devices + " devices, ring " + memory.inboxes()[0].ringCapacity() + " bytes, "
            + directPolicy + ", rendezvous >= " + rendezvousThreshold + " bytes"
            + (directBatchThreshold == Integer.MAX_VALUE ? "" : ", batches by reference >= " + directBatchThreshold
            + " bytes") + (agents.hasThread() ? ", progress thread" : "")
            + "}";
    }

    /**
     * Validating builder. Defaults: 1 MiB rings, {@code workers + 16} endpoints, 64 queues, 16 reply slots per
     * endpoint, rendezvous at 4 KiB, {@link DirectPolicy#WHEN_ORDERED}, no progress thread (help after 20 us when
     * enabled), the idle strategy of {@link IdleStrategies#defaultFor(int)}. Not thread-safe.
     */
    public static final class Builder {
        private Mesh mesh;
        private int devices;
        private AtomicBuffer[] memories;
        private AtomicBuffer[] inboxBuffers;
        private int ringCapacity = 1 << 20;
        private int maxEndpoints = -1;
        private int maxQueues = 64;
        private int replySlots = 16;
        private int rendezvousThreshold = 4096;
        private int directBatchThreshold = Integer.MAX_VALUE;
        private DirectPolicy directPolicy = DirectPolicy.WHEN_ORDERED;
        private Supplier<IdleStrategy> idleStrategy;
        private boolean progressThread;
        private long helpAfterNanos = TimeUnit.MICROSECONDS.toNanos(20);
        private Supplier<IdleStrategy> progressIdle;
        private CountersManager countersManager;
        private ThreadFactory progressThreadFactory;
        private ErrorHandler errorHandler = t -> {
            System.err.println("overlap transport progress thread: " + t);
            t.printStackTrace();
        };

        private Builder() {
        }

        /**
         * @param mesh place the inboxes in the mesh's device memory and address its memories
         * @return this builder
         */
        public Builder mesh(final Mesh mesh) {
            this.mesh = Objects.requireNonNull(mesh, "mesh");
            return this;
        }

        /**
         * @param devices standalone: number of devices (inboxes), 1..65535
         * @return this builder
         */
        public Builder devices(final int devices) {
            if (devices < 1 || devices > GlobalAddress.MAX_DEVICE) {
                throw new IllegalArgumentException("devices must be in 1.." + GlobalAddress.MAX_DEVICE + ", was "
                    + devices);
            }
            this.devices = devices;
            return this;
        }

        /**
         * @param memories standalone: each device's memory, the target of remote operations (one per device)
         * @return this builder
         */
        public Builder memories(final AtomicBuffer... memories) {
            this.memories = memories.clone();
            return this;
        }

        /**
         * @param buffers standalone: where to place each device's inbox (one per device, at least
         *                {@link Inbox#requiredBytes(int, int)} bytes, 8-byte aligned); by default direct buffers
         * @return this builder
         */
        public Builder inboxBuffers(final AtomicBuffer... buffers) {
            this.inboxBuffers = buffers.clone();
            return this;
        }

        /**
         * @param bytes ring capacity of every inbox: a power of two, at least {@value Inbox#MIN_RING_CAPACITY}
         * @return this builder
         */
        public Builder ringCapacity(final int bytes) {
            Inbox.checkRingCapacity(bytes);
            this.ringCapacity = bytes;
            return this;
        }

        /**
         * @param endpoints most endpoints (worker endpoints included), 1..65536
         * @return this builder
         */
        public Builder maxEndpoints(final int endpoints) {
            if (endpoints < 1 || endpoints > 65536) {
                throw new IllegalArgumentException("maxEndpoints must be in 1..65536, was " + endpoints);
            }
            this.maxEndpoints = endpoints;
            return this;
        }

        /**
         * @param queues queue ids run from 0 to {@code queues - 1}, 1..65536
         * @return this builder
         */
        public Builder maxQueues(final int queues) {
            if (queues < 1 || queues > 65536) {
                throw new IllegalArgumentException("maxQueues must be in 1..65536, was " + queues);
            }
            this.maxQueues = queues;
            return this;
        }

        /**
         * @param slots outstanding gets/fetches per endpoint: a power of two, 1..1024
         * @return this builder
         */
        public Builder replySlots(final int slots) {
            if (slots < 1 || slots > 1024 || Integer.bitCount(slots) != 1) {
                throw new IllegalArgumentException("replySlots must be a power of two in 1..1024, was " + slots);
            }
            this.replySlots = slots;
            return this;
        }

        /**
         * @param bytes puts and gets of at least this size are done as direct copies (the rendezvous path); smaller
         *              ones go through the ring (or direct, per {@link #directPolicy}); at least 1. Puts that do not
         *              fit one ring message always go direct.
         * @return this builder
         */
        public Builder rendezvousThreshold(final int bytes) {
            if (bytes < 1) {
                throw new IllegalArgumentException("rendezvousThreshold must be at least 1 byte, was " + bytes);
            }
            this.rendezvousThreshold = bytes;
            return this;
        }

        /**
         * Batches delivered by reference (the in-JVM direct path of bulk offers; off by default). With a threshold
         * set and a {@link #directPolicy} other than {@link DirectPolicy#NEVER},
         * {@code IntAggregator.offerBlocking(DirectBuffer, int, int)} and its {@code long} twin send the whole batches
         * of an aggregator whose {@code batchBytes} is at
         * least {@code bytes} as one 24-byte descriptor through the ring instead of copying their items into the ring:
         * the receiving handler is called once per batch and reads the items in place in the caller's buffer, and the
         * offer returns once the descriptor has been applied (the caller's buffer may then be reused), draining its own inbox while it waits.
         * This skips the staging copy and the ring's zeroing of the items, at the price of an offer that waits for the
         * receiver (a rendezvous, like a large put). Offers made from inside a handler always copy into the ring.
         *
         * @param bytes smallest batch size (header included) sent by reference; {@link Integer#MAX_VALUE} = never
         * @return this builder
         */
        public Builder directBatchThreshold(final int bytes) {
            if (bytes < MessageFormat.BATCH_HEADER_LENGTH + 4) {
                throw new IllegalArgumentException("directBatchThreshold must be at least "
                    + (MessageFormat.BATCH_HEADER_LENGTH + 4) + " bytes (a batch header and one item), was " + bytes);
            }
            this.directBatchThreshold = bytes;
            return this;
        }

        /**
         * @param policy when small remote operations may bypass the ring
         * @return this builder
         */
        public Builder directPolicy(final DirectPolicy policy) {
            this.directPolicy = Objects.requireNonNull(policy, "policy");
            return this;
        }

        /**
         * @param idleStrategy one per endpoint: how a sender idles while it waits (Agrona strategies)
         * @return this builder
         */
        public Builder idleStrategy(final Supplier<IdleStrategy> idleStrategy) {
            this.idleStrategy = Objects.requireNonNull(idleStrategy, "idleStrategy");
            return this;
        }

        /**
         * @param enabled run a progress (helper) thread that applies messages for devices that are not draining
         * @return this builder
         */
        public Builder progressThread(final boolean enabled) {
            this.progressThread = enabled;
            return this;
        }

        /**
         * @param time how long an inbox's consumer position must stand still, with a message ready, before the
         *             progress thread helps; 0 = help at once; at most 1 s
         * @param unit its unit
         * @return this builder
         */
        public Builder helpAfter(final long time, final TimeUnit unit) {
            final long nanos = unit.toNanos(time);
            if (nanos < 0 || nanos > TimeUnit.SECONDS.toNanos(1)) {
                throw new IllegalArgumentException("helpAfter must be in 0..1 s, was " + time + " " + unit);
            }
            this.helpAfterNanos = nanos;
            return this;
        }

        /**
         * @param idle the progress thread's idle strategy (default: backoff, parking up to 50 us)
         * @return this builder
         */
        public Builder progressIdleStrategy(final Supplier<IdleStrategy> idle) {
            this.progressIdle = Objects.requireNonNull(idle, "idle");
            return this;
        }

        /**
         * @param manager keep this transport's counters in the user's Agrona counters manager (never closed by the
         *                transport; allocations hold its monitor) instead of the mesh's store or a private one
         * @return this builder
         */
        public Builder counters(final CountersManager manager) {
            this.countersManager = Objects.requireNonNull(manager, "manager");
            return this;
        }

        /**
         * @param factory makes the progress thread (names, daemon flag, an affinity hook that wraps the Runnable): it
         *                must return a new, unstarted thread that runs the given Runnable. Default: a daemon thread
         *                named {@code <mesh>-progress}. The transport's close stops and joins it.
         * @return this builder
         */
        public Builder progressThreadFactory(final ThreadFactory factory) {
            this.progressThreadFactory = Objects.requireNonNull(factory, "factory");
            return this;
        }

        /**
         * @param handler receives what handlers throw on the progress thread
         * @return this builder
         */
        public Builder errorHandler(final ErrorHandler handler) {
            this.errorHandler = Objects.requireNonNull(handler, "handler");
            return this;
        }

        /**
         * @return the transport (its progress thread started)
         * @throws IllegalArgumentException for inconsistent settings, naming them
         */
        public Transport build() {
            if (mesh != null && (devices != 0 || memories != null || inboxBuffers != null)) {
                throw new IllegalArgumentException("a mesh transport takes devices, memories and inbox placement from"
                    + " the mesh: do not also set devices(), memories() or inboxBuffers()");
            }
            if (mesh == null && devices == 0) {
                throw new IllegalArgumentException("give either mesh(...) or devices(n) for a standalone transport");
            }
            if (mesh != null && mesh.isClosed()) {
                throw new IllegalArgumentException("the mesh is closed");
            }
            if (memories != null && memories.length != devices) {
                throw new IllegalArgumentException("memories: expected one buffer per device (" + devices + "), got "
                    + memories.length);
            }
            if (inboxBuffers != null && inboxBuffers.length != devices) {
                throw new IllegalArgumentException("inboxBuffers: expected one buffer per device (" + devices
                    + "), got " + inboxBuffers.length);
            }
            return new Transport(this);
        }
    }
}
