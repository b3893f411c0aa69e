package dev.overlap.replication;

import dev.overlap.core.BlockMapping;
import dev.overlap.core.ChunkTracker;
import dev.overlap.core.IdleStrategies;
import dev.overlap.core.Kernel;
import dev.overlap.core.KernelFailedException;
import dev.overlap.core.KernelLaunch;
import dev.overlap.core.LongArray;
import dev.overlap.core.Mesh;
import dev.overlap.core.SymmetricArray;
import dev.overlap.core.Waits;
import dev.overlap.core.World;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.IdleStrategy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;

/**
 * A region of 8-byte elements with one replica per device (PROACT). Each producing device computes its slice into
 * its own replica; after the producing kernels and {@link #awaitTransfers()}, every replica holds the whole region
 * — in every {@link TransferMode} except {@code NONE} and {@code TRACK_ONLY}, which exist to measure.
 *
 * <p>Per iteration: {@link #launch(int, Kernel)} once on every producing device (blocks write with
 * {@link #putLong}/{@link #putDouble}, plain stores into device memory), then {@link #awaitTransfers()}, which
 * waits for the kernels and the copies and re-arms the readiness counters in O(1).
 * In the decoupled modes each producer has a {@link ChunkTracker} over its slice: the completion that makes a chunk
 * ready sets its bit for the polling agents ({@code POLLING}) or hands it to the agents or copies it inline
 * ({@code TRIGGERED}). Each chunk is copied exactly once per iteration, after all of its writer blocks finished.
 *
 * <p>Thread-safety: {@code putLong}/{@code putDouble}/{@code get*} from kernel blocks (any thread); {@code launch},
 * {@code awaitTransfers} and {@code close} from one host thread. Ordering: after {@code awaitTransfers()} returns,
 * every replica's contents are visible to the calling thread and to kernels launched afterwards.
 *
 * <p><b>Failures and lifetime.</b> If a producing kernel fails, {@link #awaitTransfers()} first waits for every
 * kernel of the iteration (on every device), then throws the first failure (the others suppressed); the region is
 * then broken (its failed blocks' chunks never become ready) and every later {@code launch} or
 * {@code awaitTransfers} throws {@link IllegalStateException} until it is closed. {@link #close()} waits for any
 * kernel of the region still running, stops the transfer threads, and only then frees the replicas; the readiness
 * counters go with the region object, so nothing the region started can touch freed memory. The region is one of
 * its mesh's {@link Mesh#addDependent dependents}: closing the mesh closes it.
 *
 * <p><b>Across processes.</b> On a mesh that spans several processes ({@link World}), building and closing the region
 * are collective (its replicas are one symmetric allocation), every rank builds it with the same settings, and each
 * rank launches only its own producing devices and tracks, copies and counts only their chunks (the copies go into
 * the other processes' replicas through the shared memory). {@link #awaitTransfers()} then ends with a world barrier,
 * so when it returns on any rank every rank's copies of the iteration are done and every replica holds the whole
 * region; it throws {@link dev.overlap.core.PeerFailedException} if a rank fails meanwhile. In one process nothing
 * of this costs anything (the barrier of a one-rank world returns at once).
 */
public final class ReplicatedRegion implements AutoCloseable {
    private final Mesh mesh;
    private final TransferMode mode;
    private final long length;
    private final int chunkBytes;
    private final int gridSize;
    private final SymmetricArray<LongArray> storage;
    private final LongArray[] replicas;
    /** The processes the mesh spans: this rank launches, tracks and copies its own producers only. */
    private final World world;
    /** This iteration's local part is done and the world barrier that ends it has not completed yet. */
    private boolean awaitingPeers;
    private final long[] sliceStart;
    private final long[] sliceLength;
    private final boolean[] producer;
    private final ChunkTracker[] trackers;
    /** How kernels run and ready chunks travel in this region's mode: chosen once, here. */
    private final TransferStrategy strategy;
    /** Per device, the launches of the iteration in progress (BULK launches two: compute, then copy). */
    private final KernelLaunch[] launched;
    private final List<KernelLaunch> inFlight = new ArrayList<>();
    /** The failure that broke the region, or null. */
    private KernelFailedException broken;
    private final boolean inline;
    private final int totalChunks;
    private final AtomicLong copiedChunks = new AtomicLong();
    private final AtomicLong copiedBytes = new AtomicLong();
    private volatile Thread waiter;
    private volatile Throwable agentFailure;
    /** The iteration in progress, as the agents see it (written by the host after each awaitTransfers). */
    private volatile long publishedIteration;
    private long iteration;
    private boolean closed;

    private ReplicatedRegion(final Builder b) {
        this.mesh = b.mesh;
        this.mode = b.mode;
        this.length = b.elements;
        this.chunkBytes = b.chunkBytes;
        this.gridSize = b.gridSize;
        this.world = mesh.world();
        final int devices = mesh.deviceCount();
        this.producer = new boolean[devices];
        final int[] producers = b.producers != null ? b.producers : allDevices(devices);
        for (final int p : producers) {
            producer[p] = true;
        }
        this.sliceStart = new long[devices];
        this.sliceLength = new long[devices];
        for (int i = 0; i < producers.length; i++) {
            final long from = length * i / producers.length;
            final long to = length * (i + 1) / producers.length;
            sliceStart[producers[i]] = from;
            sliceLength[producers[i]] = to - from;
            if (to == from) {
                throw new IllegalArgumentException("region of " + length + " elements is too small for "
                    + producers.length + " producers: dev" + producers[i] + " would get an empty slice");
            }
        }
        this.storage = mesh.allocateLongs(length);
        this.replicas = new LongArray[devices];
        for (int d = 0; d < devices; d++) {
            replicas[d] = storage.on(d);
        }
        this.trackers = new ChunkTracker[devices];
        this.launched = new KernelLaunch[devices];
        int chunks = 0;
        try {
            for (int d = 0; d < devices; d++) {
                if (!producer[d] || !world.isLocal(d)) {
                    continue; // another process tracks and copies its own producers' chunks
                }
                final long bytes = sliceLength[d] * 8;
                final BlockMapping mapping = b.mapping != null ? b.mapping
                    : BlockMapping.oneToOne(((bytes + gridSize - 1) / gridSize + 7) & -8L);
                final int device = d;
                final ChunkTracker tracker = ChunkTracker.builder().regionBytes(bytes).chunkBytes(chunkBytes)
                    .gridSize(gridSize).mapping(mapping).onReady((chunk, epoch) -> onReady(device, chunk)).build();
                trackers[d] = tracker;
                chunks += tracker.chunkCount();
            }
            this.totalChunks = chunks;
            this.strategy = TransferStrategy.of(mode, this, trackers, gridSize, b.transferThreads, chunks,
                b.idle != null ? b.idle : IdleStrategies.defaultFor(world.localDeviceCount()
                    * mesh.device(world.firstLocalDevice()).workerCount() + b.transferThreads + 1), mesh.name(),
                b.threadFactory, !b.withoutThreads);
            this.inline = strategy.storesToEveryReplica();
        } catch (final RuntimeException | Error e) {
            for (final ChunkTracker t : trackers) {
                if (t != null) {
                    t.close();
                }
            }
            storage.close();
            throw e;
        }
        try {
            mesh.addDependent(this);
        } catch (final IllegalStateException meshClosed) {
            close();
            throw meshClosed;
        }
    }

    private static int[] allDevices(final int n) {
        final int[] all = new int[n];
        Arrays.setAll(all, i -> i);
        return all;
    }

    /**
     * @param mesh the mesh whose devices hold the replicas
     * @return a builder for a region on {@code mesh}
     */
    public static Builder builder(final Mesh mesh) {
        return new Builder(mesh);
    }

    /** The trackers' listener: the strategy moves the ready chunk (the field is set once the trackers exist). */
    private void onReady(final int device, final int chunk) {
        strategy.chunkReady(device, chunk);
    }

    /** Copies chunk {@code chunk} of {@code device}'s slice to every other replica. */
    void copyChunk(final int device, final int chunk) {
        try {
            final ChunkTracker t = trackers[device];
            final int from = (int)(sliceStart[device] + t.chunkOffset(chunk) / 8);
            final int count = (int)(t.chunkLength(chunk) / 8);
            final LongArray src = replicas[device];
            for (int peer = 0; peer < replicas.length; peer++) {
                if (peer != device) {
                    mesh.copy(src, from, replicas[peer], from, count);
                }
            }
            copiedBytes.addAndGet((long)count * 8 * (replicas.length - 1));
        } catch (final RuntimeException | Error e) {
            agentFailure = e;
        }
        chunkDone();
    }

    /** One chunk of this iteration is done (copied, or counted ready where nothing is copied). */
    void chunkDone() {
        if (copiedChunks.incrementAndGet() == (iterationTarget())) {
            final Thread w = waiter;
            if (w != null) {
                LockSupport.unpark(w);
            }
        }
    }

    /** Chunk completions counted up to the end of the current iteration (counters count up, never reset). */
    private long iterationTarget() {
        return (publishedIteration + 1) * totalChunks;
    }

    /**
     * Launches this iteration's producing kernel on {@code device}: {@link Builder#gridSize} blocks, tracked
     * as the mode requires (and followed by the slice copy kernel in {@code BULK}).
     *
     * @param device a producing device of this process
     * @param kernel the producing kernel, run over {@link Builder#gridSize} blocks; not null
     * @return the kernel's launch ({@link #awaitTransfers()} waits for it too)
     * @throws IllegalArgumentException if {@code device} produces no slice
     * @throws IllegalStateException    if it was already launched this iteration, or (across processes) another
     *                                  rank runs it
     */
    public KernelLaunch launch(final int device, final Kernel kernel) {
        Objects.requireNonNull(kernel, "kernel");
        checkUsable();
        if (device < 0 || device >= producer.length || !producer[device]) {
            throw new IllegalArgumentException("dev" + device + " produces no slice of this region (producers: "
                + producersList() + ")");
        }
        if (!world.isLocal(device)) {
            throw new IllegalStateException("dev" + device + " runs in rank " + world.rankOf(device) + ", not in this "
                + "process (rank " + world.rank() + "): each rank launches its own producers");
        }
        if (launched[device] != null || awaitingPeers) {
            throw new IllegalStateException("dev" + device + " already launched in iteration " + iteration
                + ": call awaitTransfers() first");
        }
        final KernelLaunch launch = strategy.launch(mesh.device(device), device, kernel, inFlight);
        inFlight.add(launch);
        launched[device] = launch;
        return launch;
    }

    private String producersList() {
        final StringBuilder sb = new StringBuilder();
        for (int d = 0; d < producer.length; d++) {
            if (producer[d]) {
                sb.append(sb.length() == 0 ? "" : ", ").append("dev").append(d);
            }
        }
        return sb.toString();
    }

    /**
     * Waits for every launched kernel and every copy of this iteration, then re-arms for the next iteration.
     *
     * @throws KernelFailedException    if a producing kernel failed (after every kernel of the iteration has
     *                                  finished; the others' failures suppressed): the region is broken, close it
     * @throws IllegalStateException    if a producer was not launched this iteration, a copy failed, or the region
     *                                  is broken or closed
     * @throws dev.overlap.core.InterruptedWaitException if the thread is interrupted while waiting (the iteration
     *                                  goes on; call again to wait for it)
     * @throws dev.overlap.core.PeerFailedException across processes, if another rank fails before it finishes the
     *                                  iteration (the world is then broken: close the region and the mesh)
     */
    public void awaitTransfers() {
        awaitTransfers(Waits.NO_DEADLINE);
    }

    /**
     * As {@link #awaitTransfers()}, giving up after {@code timeout}.
     *
     * @param timeout longest wait, {@code <= 0} to only check
     * @param unit its unit
     * @return true if the iteration completed in time (re-armed); false if kernels or copies are still running, or
     *         across processes another rank has not finished the iteration yet (call again to keep waiting)
     */
    public boolean awaitTransfers(final long timeout, final TimeUnit unit) {
        return awaitTransfers(Waits.deadline(timeout, unit));
    }

    private boolean awaitTransfers(final long deadline) {
        if (!awaitingPeers && !awaitLocal(deadline)) {
            return false;
        }
        if (awaitingPeers) {
            if (!barrierBy(deadline)) {
                return false; // still waiting for other ranks: the next call waits for the barrier only
            }
            awaitingPeers = false;
        }
        return true;
    }

    /** This rank's part of an iteration: its kernels and its chunks' copies; then re-arms. @return false on timeout */
    private boolean awaitLocal(final long deadline) {
        checkUsable();
        for (int d = 0; d < producer.length; d++) {
            if (producer[d] && world.isLocal(d) && launched[d] == null) {
                throw new IllegalStateException("awaitTransfers() in iteration " + iteration + " but dev" + d
                    + " was not launched");
            }
        }
        KernelFailedException failure = null;
        for (final KernelLaunch l : inFlight) {
            try {
                if (!joinBy(l, deadline)) {
                    return false;
                }
            } catch (final KernelFailedException e) {
                if (failure == null) {
                    failure = e;
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        if (failure != null) {
            broken = failure;
            endIteration();
            throw failure;
        }
        if (strategy.tracks() && !waitForCopies(deadline)) {
            return false;
        }
        endIteration();
        final Throwable copyFailure = agentFailure;
        if (copyFailure != null) {
            throw new IllegalStateException("a chunk copy failed in iteration " + iteration, copyFailure);
        }
        if (strategy.tracks()) {
            for (final ChunkTracker t : trackers) {
                if (t != null) {
                    t.rearm();
                }
            }
        }
        iteration++;
        publishedIteration = iteration;
        awaitingPeers = world.isDistributed();
        return true;
    }

    /** The world barrier that ends an iteration across processes (every rank's copies done). */
    private boolean barrierBy(final long deadline) {
        if (deadline == Waits.NO_DEADLINE) {
            world.barrier();
            return true;
        }
        return world.barrier(Math.max(0, Waits.remaining(deadline)), TimeUnit.NANOSECONDS);
    }

    private static boolean joinBy(final KernelLaunch launch, final long deadline) {
        if (deadline == Waits.NO_DEADLINE) {
            launch.join();
            return true;
        }
        return launch.join(Math.max(0, Waits.remaining(deadline)), TimeUnit.NANOSECONDS);
    }

    private void endIteration() {
        inFlight.clear();
        Arrays.fill(launched, null);
    }

    /** @return false if the deadline passed first */
    private boolean waitForCopies(final long deadline) {
        final long target = iterationTarget();
        for (int i = 0; i < 1000 && copiedChunks.get() < target; i++) {
            Thread.onSpinWait();
        }
        if (copiedChunks.get() >= target) {
            return true;
        }
        waiter = Thread.currentThread();
        try {
            while (copiedChunks.get() < target) {
                if (Thread.interrupted()) {
                    throw Waits.interrupted("the chunk copies of iteration " + iteration);
                }
                final long left = Waits.remaining(deadline);
                if (left <= 0) {
                    return false;
                }
                if (deadline == Waits.NO_DEADLINE) {
                    LockSupport.park(this);
                } else {
                    LockSupport.parkNanos(this, left);
                }
            }
            return true;
        } finally {
            waiter = null;
        }
    }

    /**
     * Stores {@code value} at element {@code index}: into the local replica, or every replica in INLINE mode.
     *
     * @param device the writing device, whose replica takes the value (every replica does in INLINE mode)
     * @param index the element index, 0..{@link #length()} - 1
     * @param value the new value
     */
    public void putLong(final int device, final int index, final long value) {
        if (inline) {
            for (final LongArray r : replicas) {
                r.set(index, value);
            }
        } else {
            replicas[device].set(index, value);
        }
    }

    /**
     * Stores {@code value} at element {@code index} (as its IEEE-754 bits); see {@link #putLong}.
     *
     * @param device the writing device, whose replica takes the value (every replica does in INLINE mode)
     * @param index the element index, 0..{@link #length()} - 1
     * @param value the new value
     */
    public void putDouble(final int device, final int index, final double value) {
        putLong(device, index, Double.doubleToRawLongBits(value));
    }

    /**
     * @param device a device of the mesh, 0..device count - 1
     * @param index the element index, 0..{@link #length()} - 1
     * @return element {@code index} of {@code device}'s replica (plain read)
     */
    public long getLong(final int device, final int index) {
        return replicas[device].get(index);
    }

    /**
     * @param device a device of the mesh, 0..device count - 1
     * @param index the element index, 0..{@link #length()} - 1
     * @return element {@code index} of {@code device}'s replica as a double
     */
    public double getDouble(final int device, final int index) {
        return Double.longBitsToDouble(replicas[device].get(index));
    }

    /**
     * @param device a device of the mesh, 0..device count - 1
     * @return {@code device}'s replica (read it between iterations, or for elements of its own slice)
     */
    public LongArray replica(final int device) {
        return replicas[device];
    }

    /**
     * @param device a device of the mesh, 0..device count - 1
     * @return the first element of {@code device}'s slice (0 for a device that produces nothing)
     */
    public long sliceStart(final int device) {
        return sliceStart[device];
    }

    /**
     * @param device a device of the mesh, 0..device count - 1
     * @return elements in {@code device}'s slice (0 for a device that produces nothing)
     */
    public long sliceLength(final int device) {
        return sliceLength[device];
    }

    /** @return elements in the region */
    public long length() {
        return length;
    }

    /** @return the transfer mode */
    public TransferMode mode() {
        return mode;
    }

    /** @return the chunk size in bytes */
    public int chunkBytes() {
        return chunkBytes;
    }

    /** @return blocks per producing kernel */
    public int gridSize() {
        return gridSize;
    }

    /** @return chunks over all producing slices (across processes: over this rank's producers' slices) */
    public int chunkCount() {
        return totalChunks;
    }

    /** @return completed iterations */
    public long iteration() {
        return iteration;
    }

    /**
     * @return the transfer agents of POLLING and TRIGGERED mode (empty in other modes or with no transfer thread):
     *         with {@link Builder#transferAgentsWithoutThreads()} the user runs them, each under one Agrona
     *         {@code AgentRunner} or {@code AgentInvoker}; otherwise the region's threads already run them (do not
     *         run them again). Immutable list.
     */
    public List<Agent> transferAgents() {
        return strategy.agents();
    }

    /**
     * Reports what a transfer thread's copy threw (the runner goes on with its next duty cycle); the agents' own end
     * at the close ({@code AgentTerminationException}) is no error.
     */
    static void printTransferError(final Throwable t) {
        if (t instanceof org.agrona.concurrent.AgentTerminationException) {
            return;
        }
        System.err.println("overlap transfer agent: " + t);
        t.printStackTrace();
    }

    /** @return chunk copies (or, in TRACK_ONLY, ready chunks) since creation, by this process */
    public long copiedChunks() {
        return copiedChunks.get();
    }

    /** @return bytes copied to peers since creation (decoupled and bulk modes), by this process */
    public long copiedBytes() {
        return copiedBytes.get();
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException(this + " is closed");
        }
    }

    private void checkUsable() {
        checkOpen();
        if (broken != null) {
            throw new IllegalStateException(this + " is broken: a producing kernel failed in iteration " + iteration
                + " (" + broken.getMessage() + "); close it", broken);
        }
    }

    /**
     * Waits for every kernel of the region still running (uninterruptibly; the interrupt status is kept), stops the
     * transfer threads, then frees the replicas. Idempotent.
     *
     * @throws KernelFailedException if a kernel of an iteration nobody awaited failed
     * @throws IllegalStateException if called from a worker of a device the region still has a kernel on
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        KernelFailedException failure = null;
        boolean interrupted = false;
        try {
            for (final KernelLaunch l : inFlight) {
                while (true) {
                    try {
                        l.join();
                        break;
                    } catch (final KernelFailedException e) {
                        failure = failure == null ? e : failure;
                        break;
                    } catch (final dev.overlap.core.InterruptedWaitException e) {
                        Thread.interrupted();
                        interrupted = true;
                    }
                }
            }
            endIteration();
            strategy.close();
            for (final ChunkTracker t : trackers) {
                if (t != null) {
                    t.close();
                }
            }
            storage.close();
            mesh.removeDependent(this);
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    @Override
    public String toString() {
        return "ReplicatedRegion{" + length + " elements, " + mode + ", iteration " + iteration
            + (closed ? ", closed" : broken != null ? ", broken" : "") + "}";
    }

    /** Validating builder; not thread-safe. */
    public static final class Builder {
        private final Mesh mesh;
        private long elements = -1;
        private TransferMode mode = TransferMode.TRIGGERED;
        private int chunkBytes = 64 << 10;
        private int transferThreads = 1;
        private int gridSize = -1;
        private BlockMapping mapping;
        private int[] producers;
        private Supplier<IdleStrategy> idle;
        private ThreadFactory threadFactory;
        private boolean withoutThreads;

        private Builder(final Mesh mesh) {
            this.mesh = Objects.requireNonNull(mesh, "mesh");
        }

        /**
         * @param elements 8-byte elements in the region, 1..{@link Integer#MAX_VALUE}/8
         * @return this builder
         */
        public Builder elements(final long elements) {
            if (elements <= 0 || elements > Integer.MAX_VALUE / 8) {
                throw new IllegalArgumentException("elements must be in 1.." + Integer.MAX_VALUE / 8 + ", was "
                    + elements);
            }
            this.elements = elements;
            return this;
        }

        /**
         * @param mode the transfer mode (default TRIGGERED)
         * @return this builder
         */
        public Builder mode(final TransferMode mode) {
            this.mode = Objects.requireNonNull(mode, "mode");
            return this;
        }

        /**
         * @param bytes transfer chunk size: a multiple of 8, 8 B .. 1 GiB (default 64 KiB)
         * @return this builder
         */
        public Builder chunkBytes(final long bytes) {
            if (bytes < 8 || bytes > (1 << 30) || (bytes & 7) != 0) {
                throw new IllegalArgumentException("chunkBytes must be a multiple of 8 in 8.." + (1 << 30) + ", was "
                    + bytes);
            }
            this.chunkBytes = (int)bytes;
            return this;
        }

        /**
         * @param threads transfer threads for POLLING (1..64) and TRIGGERED (0..64; 0 = the completing worker copies)
         * @return this builder
         */
        public Builder transferThreads(final int threads) {
            if (threads < 0 || threads > 64) {
                throw new IllegalArgumentException("transferThreads must be in 0..64, was " + threads);
            }
            this.transferThreads = threads;
            return this;
        }

        /**
         * @param blocks blocks of each producing kernel, > 0
         * @return this builder
         */
        public Builder gridSize(final int blocks) {
            if (blocks <= 0) {
                throw new IllegalArgumentException("gridSize must be > 0, was " + blocks);
            }
            this.gridSize = blocks;
            return this;
        }

        /**
         * @param mapping which bytes of its device's slice each block writes (offsets relative to the slice);
         *                default: one-to-one, the slice split evenly over the blocks
         * @return this builder
         */
        public Builder mapping(final BlockMapping mapping) {
            this.mapping = Objects.requireNonNull(mapping, "mapping");
            return this;
        }

        /**
         * @param devices the devices that produce slices (default: all), distinct, in slice order
         * @return this builder
         */
        public Builder producers(final int... devices) {
            if (devices.length == 0) {
                throw new IllegalArgumentException("producers needs at least one device");
            }
            final boolean[] seen = new boolean[mesh.deviceCount()];
            for (final int d : devices) {
                if (d < 0 || d >= seen.length) {
                    throw new IllegalArgumentException("producer dev" + d + " does not exist: mesh has devices 0.."
                        + (seen.length - 1));
                }
                if (seen[d]) {
                    throw new IllegalArgumentException("producer dev" + d + " is listed twice");
                }
                seen[d] = true;
            }
            this.producers = devices.clone();
            return this;
        }

        /**
         * @param factory makes the transfer threads (names, daemon flag, an affinity hook that wraps the Runnable): it
         *                must return a new, unstarted thread that runs the given Runnable (an Agrona
         *                {@code AgentRunner}). Default: daemon threads named {@code <mesh>-xfer<i>}. The region's
         *                close stops and joins them.
         * @return this builder
         */
        public Builder threadFactory(final ThreadFactory factory) {
            this.threadFactory = Objects.requireNonNull(factory, "factory");
            return this;
        }

        /**
         * No transfer threads: the {@code transferThreads} agents of POLLING or TRIGGERED mode are the user's to run
         * ({@link ReplicatedRegion#transferAgents()}) under their own Agrona {@code AgentRunner} or
         * {@code AgentInvoker}, each on one thread at a time; transfers then progress only while they run. The
         * region's close ends them (their {@code doWork()} throws {@code AgentTerminationException} afterwards) and
         * waits for any inside a duty cycle.
         *
         * @return this builder
         */
        public Builder transferAgentsWithoutThreads() {
            this.withoutThreads = true;
            return this;
        }

        /**
         * @param idle supplies the transfer threads' idle strategies
         * @return this builder
         */
        public Builder idleStrategy(final Supplier<IdleStrategy> idle) {
            this.idle = Objects.requireNonNull(idle, "idle");
            return this;
        }

        /** @return the region, replicas zeroed, in iteration 0 */
        public ReplicatedRegion build() {
            if (elements < 0 || gridSize < 0) {
                throw new IllegalStateException("ReplicatedRegion needs elements and gridSize; missing:"
                    + (elements < 0 ? " elements" : "") + (gridSize < 0 ? " gridSize" : ""));
            }
            if (mode == TransferMode.POLLING && transferThreads == 0) {
                throw new IllegalArgumentException("POLLING needs at least one transfer thread");
            }
            return new ReplicatedRegion(this);
        }
    }
}
