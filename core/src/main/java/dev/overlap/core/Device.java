package dev.overlap.core;

import org.agrona.concurrent.IdleStrategy;

import java.util.function.Supplier;

/**
 * A device: a fixed group of worker threads (named {@code <mesh>-dev<D>-w<W>}) that runs kernels, plus its
 * {@link DeviceMemory}. Created and owned by a {@link Mesh}.
 *
 * <p>Launches form a stream: {@link #launch} and {@link #launchPersistent} return at once, and launches run one
 * after another in submission order, each using all workers. Submission takes a short per-device lock (one per
 * launch, never per block); workers never lock.
 *
 * <p>Thread-safety: every method may be called from any thread. Ordering: everything the launching thread did
 * before {@code launch} happens-before the kernel's blocks run; everything the blocks did happens-before
 * {@link KernelLaunch#join()} returns.
 */
public final class Device {
    private final Mesh mesh;
    private final int id;
    private final DeviceMemory memory;
    private final DeviceWorker[] workers;
    private final Object streamLock = new Object();
    /** Persistent launches not yet known to be done, so close() can stop them (the stream keeps no head). */
    private final java.util.ArrayDeque<KernelLaunch> persistentLaunches = new java.util.ArrayDeque<>();
    private KernelLaunch tail;
    private long launches;
    private boolean closed;

    Device(final Mesh mesh, final int id, final DeviceMemory memory, final int threads,
        final Supplier<IdleStrategy> idleStrategy, final long parkAfterNanos, final boolean spin,
        final String namePrefix) {
        this.mesh = mesh;
        this.id = id;
        this.memory = memory;
        final KernelLaunch sentinel = KernelLaunch.sentinel(this);
        this.tail = sentinel;
        this.workers = new DeviceWorker[threads];
        for (int w = 0; w < threads; w++) {
            final IdleStrategy idle = idleStrategy.get();
            if (idle == null) {
                throw new IllegalArgumentException("idle strategy supplier returned null");
            }
            workers[w] = new DeviceWorker(new WorkerContext(mesh, this, w), idle, parkAfterNanos, sentinel, spin);
        }
        for (int w = 0; w < threads; w++) {
            final Thread t = new Thread(workers[w], namePrefix + "-dev" + id + "-w" + w);
            t.setDaemon(true);
            workers[w].thread = t;
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
     */
    public KernelLaunch launchPersistent(final PersistentKernel kernel) {
        if (kernel == null) {
            throw new NullPointerException("kernel");
        }
        synchronized (streamLock) {
            checkOpen();
            persistentLaunches.removeIf(KernelLaunch::isDone);
            final KernelLaunch launch = KernelLaunch.persistent(this, ++launches, kernel);
            persistentLaunches.add(launch);
            return link(launch);
        }
    }

    /** Waits for every launch submitted so far; throws the failure of the last one if it failed. */
    public void synchronize() {
        final KernelLaunch last;
        synchronized (streamLock) {
            last = tail;
        }
        last.join();
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("dev" + id + " is closed");
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
     * Allocates an int array in this device's memory only (not symmetric).
     *
     * @param length number of elements
     * @return a zeroed view; free it with {@link #free(DeviceArray)}
     */
    public IntArray allocateInts(final long length) {
        return new IntArray(memory, mesh.heap().allocateLocal(id, bytes(length, 4), 8), length);
    }

    /** @see #allocateInts(long) */
    public LongArray allocateLongs(final long length) {
        return new LongArray(memory, mesh.heap().allocateLocal(id, bytes(length, 8), 8), length);
    }

    /** @see #allocateInts(long) */
    public DoubleArray allocateDoubles(final long length) {
        return new DoubleArray(memory, mesh.heap().allocateLocal(id, bytes(length, 8), 8), length);
    }

    /** Frees an array allocated by this device's {@code allocate*} method (zeroing it for the next user). */
    public void free(final DeviceArray array) {
        if (array.memory() != memory) {
            throw new IllegalArgumentException(array + " does not live in dev" + id + " memory");
        }
        array.clear();
        mesh.heap().freeLocal(id, array.offset());
    }

    static long bytes(final long length, final int elementBytes) {
        if (length <= 0 || length > Integer.MAX_VALUE / elementBytes) {
            throw new IllegalArgumentException("array length must be in 1.." + Integer.MAX_VALUE / elementBytes
                + " for " + elementBytes + "-byte elements, was " + length);
        }
        return length * elementBytes;
    }

    /** Asks persistent launches to stop, lets queued launches finish, stops the workers. */
    void close() {
        final KernelLaunch poison;
        synchronized (streamLock) {
            if (closed) {
                return;
            }
            closed = true;
            for (final KernelLaunch l : persistentLaunches) {
                l.stop();
            }
            persistentLaunches.clear();
            poison = KernelLaunch.poison(this, ++launches);
            link(poison);
        }
        boolean interrupted = false;
        for (final DeviceWorker w : workers) {
            while (w.thread.isAlive()) {
                try {
                    w.thread.join();
                } catch (final InterruptedException e) {
                    interrupted = true;
                }
            }
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
