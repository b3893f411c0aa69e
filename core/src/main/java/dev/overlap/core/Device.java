package dev.overlap.core;

import org.agrona.concurrent.IdleStrategy;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;

/**
 * A device: a fixed group of worker threads (named {@code <mesh>-dev<D>-w<W>}) that runs kernels, plus its
 * {@link DeviceMemory}. Created and owned by a {@link Mesh}, closed with it.
 *
 * <p>Launches form a stream: {@link #launch} and {@link #launchPersistent} return at once, and launches run one
 * after another in submission order, each using all workers. Submission takes a short per-device lock (one per
 * launch, never per block); workers never lock.
 *
 * <p>Waiting ({@link #synchronize()}) follows {@link KernelLaunch#join()}: timed form, interrupt answered with
 * {@link InterruptedWaitException}, parking, and an {@link IllegalStateException} instead of a deadlock when a worker
 * of this device would wait for its own device. A launch that failed and was never joined is reported by the next
 * {@code synchronize()} (and by {@link Mesh#close()}), so no failure goes unnoticed.
 *
 * <p>Thread-safety: every method may be called from any thread. Ordering: everything the launching thread did
 * before {@code launch} happens-before the kernel's blocks run; everything the blocks did happens-before
 * {@link KernelLaunch#join()} returns, and everything every launch submitted before {@code synchronize()} did
 * happens-before it returns. After the mesh is closed every method that launches, waits or allocates throws
 * {@link IllegalStateException}.
 */
public final class Device {
    private final Mesh mesh;
    private final int id;
    private final DeviceMemory memory;
    private final DeviceWorker[] workers;
    /** How long a waiting worker spins and yields before it parks (the mesh's {@code parkAfterMicros}). */
    private final long parkAfterNanos;
    private final Object streamLock = new Object();
    /** Persistent launches not yet known to be done, so close() can stop them (the stream keeps no head). */
    private final ArrayDeque<KernelLaunch> persistentLaunches = new ArrayDeque<>();
    /** Launches that failed, until synchronize() or close() has seen them; guarded by itself. */
    private final List<KernelLaunch> failed = new ArrayList<>();
    private KernelLaunch tail;
    private long launches;
    private boolean closed;

    Device(final Mesh mesh, final int id, final DeviceMemory memory, final int threads,
        final Supplier<IdleStrategy> idleStrategy, final long parkAfterNanos, final boolean spin,
        final String namePrefix, final ThreadFactory threadFactory) {
        this.mesh = mesh;
        this.id = id;
        this.memory = memory;
        this.parkAfterNanos = parkAfterNanos;
        final KernelLaunch sentinel = KernelLaunch.sentinel(this);
        this.tail = sentinel;
        this.workers = new DeviceWorker[threads];
        for (int w = 0; w < threads; w++) {
            final IdleStrategy idle = idleStrategy.get();
            if (idle == null) {
                throw new IllegalArgumentException("idle strategy supplier returned null");
            }
            workers[w] = new DeviceWorker(new WorkerContext(mesh, this, w), idle, parkAfterNanos, sentinel, spin,
                namePrefix + "-dev" + id + "-w" + w);
        }
        for (int w = 0; w < threads; w++) {
            workers[w].thread = ThreadFactories.newThread(threadFactory, workers[w], workers[w].toString());
        }
    }

    void start() {
        for (final DeviceWorker w : workers) {
            w.thread.start();
        }
    }

    /** @return this device's id in its mesh, 0..devices-1 */
    public int id() {
        return id;
    }

    /** @return the mesh that owns this device */
    public Mesh mesh() {
        return mesh;
    }

    /** @return this device's memory */
    public DeviceMemory memory() {
        return memory;
    }

    /** @return number of worker threads */
    public int workerCount() {
        return workers.length;
    }

    /**
     * Launches a discrete kernel: blocks {@code 0..gridSize-1}, handed out dynamically to the workers.
     *
     * @param gridSize number of blocks, 1..{@link Integer#MAX_VALUE}/2
     * @param kernel   the block body
     * @return the completion handle
     * @throws IllegalArgumentException for a bad grid size
     * @throws IllegalStateException    if the mesh is closed
     */
    public KernelLaunch launch(final int gridSize, final Kernel kernel) {
        if (gridSize < 1 || gridSize > Integer.MAX_VALUE / 2) {
            throw new IllegalArgumentException("gridSize must be in 1.." + Integer.MAX_VALUE / 2 + ", was " + gridSize);
        }
        if (kernel == null) {
            throw new NullPointerException("kernel");
        }
        checkLocal();
        synchronized (streamLock) {
            checkOpen();
            return link(KernelLaunch.discrete(this, ++launches, gridSize, kernel));
        }
    }

    /**
     * Launches a persistent kernel: every worker loops on {@link PersistentKernel#poll} until the launch is
     * stopped. Later launches on this device wait until it has stopped.
     *
     * @param kernel the loop body
     * @return the handle; {@link KernelLaunch#stop()} ends it
     * @throws IllegalStateException if the mesh is closed
     */
    public KernelLaunch launchPersistent(final PersistentKernel kernel) {
        if (kernel == null) {
            throw new NullPointerException("kernel");
        }
        checkLocal();
        synchronized (streamLock) {
            checkOpen();
            persistentLaunches.removeIf(KernelLaunch::isDone);
            final KernelLaunch launch = KernelLaunch.persistent(this, ++launches, kernel);
            persistentLaunches.add(launch);
            return link(launch);
        }
    }

    /**
     * Waits for every launch submitted so far, then reports the first failure of a launch that nobody joined (the
     * others as suppressed exceptions), once.
     *
     * @throws KernelFailedException    for a failed launch that nobody joined
     * @throws InterruptedWaitException if the thread is interrupted while waiting (the launches go on)
     * @throws IllegalStateException    if the mesh is closed, or if called by a worker of this device (which would
     *                                  wait for its own launch forever)
     */
    public void synchronize() {
        lastLaunch().awaitDone(Waits.NO_DEADLINE, "every launch on dev" + id);
        throwUnreportedFailures();
    }

    /**
     * As {@link #synchronize()}, waiting at most {@code timeout}.
     *
     * @param timeout longest wait, {@code <= 0} to only check whether every launch is done
     * @param unit its unit
     * @return true if every launch submitted so far completed within the timeout (failures are then thrown)
     */
    public boolean synchronize(final long timeout, final TimeUnit unit) {
        if (!lastLaunch().awaitDone(Waits.deadline(timeout, unit), "every launch on dev" + id)) {
            return false;
        }
        throwUnreportedFailures();
        return true;
    }

    private KernelLaunch lastLaunch() {
        synchronized (streamLock) {
            checkOpen();
            return tail;
        }
    }

    /** Called by a failed launch's completing worker. */
    void failed(final KernelLaunch launch) {
        synchronized (failed) {
            failed.add(launch);
        }
    }

    /** @throws KernelFailedException the first failure nobody has seen yet, with the later ones suppressed */
    void throwUnreportedFailures() {
        final KernelFailedException first = takeUnreportedFailures();
        if (first != null) {
            throw first;
        }
    }

    /** @return the first failure nobody has seen yet, with the later ones added as suppressed; null if none */
    KernelFailedException takeUnreportedFailures() {
        KernelFailedException first = null;
        synchronized (failed) {
            for (final KernelLaunch l : failed) {
                final KernelFailedException f = l.takeUnreportedFailure();
                if (f == null) {
                    continue;
                }
                if (first == null) {
                    first = f;
                } else if (first != f) {
                    first.addSuppressed(f);
                }
            }
            failed.clear();
        }
        return first;
    }

    /** @return true if this process runs this device's workers (every device, in a mesh of one process) */
    public boolean isLocal() {
        return workers.length > 0;
    }

    private void checkLocal() {
        if (workers.length == 0) {
            final World w = mesh.world();
            throw new IllegalStateException("dev" + id + " runs in rank " + w.rankOf(id) + ", another process (this is"
                + " rank " + w.rank() + "): launch its kernels there; here its memory is reachable, its workers are "
                + "not");
        }
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("dev" + id + " of mesh '" + mesh.name() + "' is closed");
        }
    }

    private KernelLaunch link(final KernelLaunch launch) {
        tail.next = launch;
        tail = launch;
        wakeWorkers();
        return launch;
    }

    void wakeWorkers() {
        for (final DeviceWorker w : workers) {
            w.wake();
        }
    }

    /**
     * Unparks every worker thread but {@code except}'s (an index, or -1 for none), parked or not: for the workers
     * asleep in a persistent launch's barrier ({@link KernelLaunch#syncWorkers}). A worker that was not parked keeps
     * the permit, and its next park returns at once; every park of a worker re-checks what it waits for.
     */
    void unparkWorkers(final int except) {
        for (int w = 0; w < workers.length; w++) {
            if (w != except) {
                LockSupport.unpark(workers[w].thread);
            }
        }
    }

    /** @return how long a waiting worker spins and yields before it parks */
    long parkAfterNanos() {
        return parkAfterNanos;
    }

    /**
     * Allocates a zeroed range of this device's memory only (not symmetric), for structures placed in device memory
     * (queues, rings); see {@link DeviceRegion#buffer(int)}.
     *
     * @param bytes     size, at least 1
     * @param alignment a power of two
     * @return the region; {@link DeviceRegion#close()} frees it
     * @throws IllegalStateException if the mesh is closed or the memory is exhausted (naming what is free)
     */
    public DeviceRegion allocate(final long bytes, final int alignment) {
        return mesh.allocateRegion(id, bytes, alignment);
    }

    /**
     * Allocates an int array in this device's memory only (not symmetric).
     *
     * @param length number of elements
     * @return a zeroed view; free it with {@link #free(DeviceArray)}
     * @throws IllegalStateException if the mesh is closed or the memory is exhausted
     */
    public IntArray allocateInts(final long length) {
        return mesh.allocateLocal(id, length, 4, IntArray::new);
    }

    /**
     * @param length number of elements
     * @return a zeroed view; free it with {@link #free(DeviceArray)}
     * @see #allocateInts(long)
     */
    public LongArray allocateLongs(final long length) {
        return mesh.allocateLocal(id, length, 8, LongArray::new);
    }

    /**
     * @param length number of elements
     * @return a zeroed view; free it with {@link #free(DeviceArray)}
     * @see #allocateInts(long)
     */
    public DoubleArray allocateDoubles(final long length) {
        return mesh.allocateLocal(id, length, 8, DoubleArray::new);
    }

    /**
     * Frees an array allocated by this device's {@code allocate*} method, zeroing it for the next user. Freeing is
     * the explicit verb, so a second free is reported rather than ignored.
     *
     * @param array an array returned by one of this device's {@code allocate*} methods
     * @throws IllegalArgumentException if the array is not one of this device's own allocations (another device's,
     *                                  another mesh's, or a view of a {@link SymmetricArray}, which only its
     *                                  {@code close()} frees)
     * @throws IllegalStateException    if the array was already freed, or the mesh is closed
     */
    public void free(final DeviceArray array) {
        final DeviceRegion region = array.region();
        if (region.mesh() != mesh || array.device() != id) {
            throw new IllegalArgumentException(array + " does not live in dev" + id + " memory of mesh '"
                + mesh.name() + "'");
        }
        if (region.isSymmetric()) {
            throw new IllegalArgumentException(array + " is one device's view of a symmetric allocation: close its "
                + "SymmetricArray to free it on every device");
        }
        mesh.free(region, array.toString());
    }

    static long bytes(final long length, final int elementBytes) {
        if (length <= 0 || length > Integer.MAX_VALUE / elementBytes) {
            throw new IllegalArgumentException("array length must be in 1.." + Integer.MAX_VALUE / elementBytes
                + " for " + elementBytes + "-byte elements, was " + length);
        }
        return length * elementBytes;
    }

    /**
     * First step of the mesh's close: refuses new launches, asks persistent launches to stop.
     *
     * @return the last launch, which the closer waits for
     */
    KernelLaunch shutdown() {
        synchronized (streamLock) {
            closed = true;
            for (final KernelLaunch l : persistentLaunches) {
                l.stop();
            }
            persistentLaunches.clear();
            return tail;
        }
    }

    /** Interrupts every worker (the closer was interrupted: abort what the kernels wait for). */
    void interruptWorkers() {
        for (final DeviceWorker w : workers) {
            w.thread.interrupt();
        }
    }

    /** Last step of the mesh's close: ends the workers' loops and joins them (uninterruptibly; status kept). */
    void stopWorkers() {
        synchronized (streamLock) {
            link(KernelLaunch.poison(this, ++launches));
        }
        boolean interrupted = false;
        for (final DeviceWorker w : workers) {
            interrupted |= Waits.joinUninterruptibly(w.thread);
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public String toString() {
        return "Device{dev" + id + ", " + workers.length + " workers}";
    }
}
