package dev.overlap.core;

import dev.overlap.core.counters.CountersFile;
import dev.overlap.core.counters.OverlapCounters;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.status.CountersManager;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The whole multi-device system: {@code N} {@link Device devices}, each a group of worker threads with its own
 * off-heap {@link DeviceMemory}; symmetric allocation across all devices; one-sided {@code put}/{@code get}/
 * {@code copy} between any two devices' memories by {@link GlobalAddress global address}.
 *
 * <pre>{@code
 * try (Mesh mesh = Mesh.builder().devices(2).threadsPerDevice(2).memoryPerDevice(64 << 20).build();
 *      SymmetricArray<IntArray> data = mesh.allocateInts(1 << 20)) {
 *     IntArray local = data.on(0);
 *     mesh.device(0).launch(1024, (ctx, block) -> local.set(block, block)).join();
 *     mesh.copy(data.on(0), 0, data.on(1), 0, 1024);
 * }
 * }</pre>
 *
 * <p><b>Ownership.</b> The mesh owns its devices' threads, their memory and everything built on them: every
 * allocation ({@link DeviceRegion}, typed arrays, {@link SymmetricArray}), and every resource registered with
 * {@link #addDependent(AutoCloseable)} (transports, replicated regions, worklists register themselves). Closing the
 * mesh closes all of it in a safe order (see {@link #close()}); afterwards every method that touches memory or
 * threads, on the mesh, its devices, its memories and every array or region, throws {@link IllegalStateException}
 * naming the closed mesh or the freed allocation. Closing things earlier, in the opposite order of their creation,
 * is the efficient path (see {@link #close()} on when memory is returned).
 *
 * <p><b>Across processes.</b> Built with a {@link Builder#world WorldConfig}, the mesh spans several processes on
 * one host: each process (rank) runs the workers of its own devices ({@link #localDevices()}) and maps every
 * device's memory, so one-sided operations reach every device; symmetric allocations are collective. See
 * {@link World}.
 *
 * <p><b>Counters.</b> What is built on the mesh (transports, worklists) keeps its counters in the mesh's
 * {@link #counters() counters store}: Agrona counters in a private in-memory {@code CountersManager} by default, in
 * the user's own ({@link Builder#counters(CountersManager)}), or in the process's memory-mapped counters file
 * ({@link Builder#countersDirectory(Path)}, or the system property {@value CountersFile#DIRECTORY_PROPERTY}), which
 * {@code overlap stat} reads from another process. The mesh's close closes its handle on the store last (the file
 * is deleted once no mesh of the process uses it).
 *
 * <p><b>Threads.</b> Each worker runs on a thread made by the builder's {@link Builder#threadFactory ThreadFactory}
 * (default: daemon threads named {@code <name>-dev<d>-w<w>}). Workers stay plain threads rather than Agrona
 * {@code Agent}s: a worker waiting for the next launch parks and is unparked by the launcher, so a launch wakes it at
 * once; an agent idles with an idle strategy between duty cycles, which would trade launch latency for spinning.
 *
 * <p>Thread-safety: every method may be called from any thread. Allocation is synchronized (a set-up operation).
 * {@code put}/{@code get}/{@code copy} are plain bulk copies: they order nothing by themselves; publish with a
 * release store, an atomic, or a kernel boundary.
 */
public final class Mesh implements AutoCloseable {
    private static final int OPEN = 0;
    private static final int CLOSING = 1;
    private static final int CLOSED = 2;

    private final String name;
    private final Device[] devices;
    private final DeviceMemory[] memories;
    private final SymmetricHeap heap;
    private final MemoryBacking backing;
    private final World world;
    private final OverlapCounters counters;
    /** Regions not yet freed, in allocation order; guarded by {@link #heap}. */
    private final Map<DeviceRegion, Boolean> live = new IdentityHashMap<>();
    /** Resources closed before the devices stop, most recent first; guarded by {@link #lifecycle}. */
    private final List<AutoCloseable> dependents = new ArrayList<>();
    private final Object lifecycle = new Object();
    private final CountDownLatch closedLatch = new CountDownLatch(1);
    private volatile int state = OPEN;

    private Mesh(final Builder b) {
        AgronaAccess.require();
        this.name = b.name;
        final int threads = b.threadsPerDevice;
        this.world = b.world != null ? World.join(b.world, b.devices, b.memoryPerDevice) : World.single(b.devices);
        this.backing = b.world != null ? MemoryBacking.shared(world) : b.backing;
        this.heap = new SymmetricHeap(b.devices, b.memoryPerDevice, world.isDistributed());
        this.devices = new Device[b.devices];
        this.memories = new DeviceMemory[b.devices];
        final int localThreads = world.localDeviceCount() * threads;
        final Supplier<IdleStrategy> idle = b.idleStrategy != null ? b.idleStrategy
            : IdleStrategies.defaultFor(localThreads + 1);
        // Spinning while waiting for a launch only pays when every busy thread has a core of its own.
        final boolean spin = localThreads + 1 <= Runtime.getRuntime().availableProcessors();
        try {
            this.counters = b.countersManager != null ? OverlapCounters.using(b.countersManager)
                : b.countersDirectory != null ? OverlapCounters.file(b.countersDirectory)
                : OverlapCounters.fromSystemProperties();
        } catch (final RuntimeException | Error e) {
            world.leave();
            throw e;
        }
        try {
            // This rank's devices' memory first: the other ranks map it once this rank has announced it.
            for (int d = 0; d < b.devices; d++) {
                if (world.isLocal(d)) {
                    memories[d] = new DeviceMemory(this, d, b.memoryPerDevice, backing.allocate(d,
                        b.memoryPerDevice));
                }
            }
            if (world.isDistributed()) {
                world.announceReady();
                world.awaitReady();
            }
            for (int d = 0; d < b.devices; d++) {
                if (memories[d] == null) {
                    memories[d] = new DeviceMemory(this, d, b.memoryPerDevice, backing.allocate(d,
                        b.memoryPerDevice));
                }
                devices[d] = new Device(this, d, memories[d], world.isLocal(d) ? threads : 0, idle,
                    b.parkAfterNanos, spin, name, b.threadFactory);
            }
        } catch (final RuntimeException | Error e) {
            try {
                releaseMemory(false);
            } finally {
                try {
                    counters.close();
                } finally {
                    world.leave();
                }
            }
            throw e;
        }
        for (final Device device : devices) {
            device.start();
        }
    }

    /** @return a builder with defaults that fit this machine */
    public static Builder builder() {
        return new Builder();
    }

    /** @return number of devices */
    public int deviceCount() {
        return devices.length;
    }

    /**
     * @param id a device id, 0..{@link #deviceCount()} - 1
     * @return device {@code id}
     */
    public Device device(final int id) {
        return devices[checkDevice(id)];
    }

    /**
     * @return the processes this mesh spans and this process's place among them (a world of one rank unless the
     *         mesh was built with a {@link Builder#world WorldConfig})
     */
    public World world() {
        return world;
    }

    /** @return the devices this process runs (all of them in a mesh of one process), by id */
    public List<Device> localDevices() {
        final List<Device> local = new ArrayList<>(world.localDeviceCount());
        for (int d = world.firstLocalDevice(), end = d + world.localDeviceCount(); d < end; d++) {
            local.add(devices[d]);
        }
        return local;
    }

    /**
     * @param id a device id, 0..{@link #deviceCount()} - 1
     * @return the memory of device {@code id} (its accessors throw once the mesh is closed)
     */
    public DeviceMemory memory(final int id) {
        return memories[checkDevice(id)];
    }

    /**
     * @return the store of the counters of everything built on this mesh (see the class comment); open until the
     *         mesh's close has closed its dependents
     */
    public OverlapCounters counters() {
        return counters;
    }

    /** @return the mesh name (thread-name prefix) */
    public String name() {
        return name;
    }

    /** @return bytes of memory per device */
    public int memoryPerDevice() {
        return memories[0].capacity();
    }

    /**
     * @param id a device id, 0..{@link #deviceCount()} - 1
     * @return free bytes on device {@code id}
     * @throws IllegalStateException if the mesh is closed
     */
    public long freeMemory(final int id) {
        checkOpen();
        return heap.freeBytes(checkDevice(id));
    }

    private int checkDevice(final int id) {
        if (id < 0 || id >= devices.length) {
            throw new IndexOutOfBoundsException("device " + id + " does not exist: mesh has devices 0.."
                + (devices.length - 1));
        }
        return id;
    }

    // ------------------------------------------------------------------------------------------ allocation

    /**
     * Reserves the same byte range on every device, zeroed (like {@code nvshmem_malloc}).
     *
     * @param bytes     size, at least 1
     * @param alignment a power of two
     * @return the region; {@link DeviceRegion#close()} frees it on every device
     * @throws IllegalStateException when the mesh is closed, or some device has no room (naming the devices and
     *                               what is free)
     */
    public DeviceRegion allocateSymmetric(final long bytes, final int alignment) {
        return allocateRegion(DeviceRegion.SYMMETRIC, bytes, alignment);
    }

    DeviceRegion allocateRegion(final int device, final long bytes, final int alignment) {
        synchronized (heap) {
            checkOpen();
            if (device != DeviceRegion.SYMMETRIC && !world.isLocal(device)) {
                throw new IllegalStateException("dev" + device + " belongs to rank " + world.rankOf(device) + ", not "
                    + "to this process (rank " + world.rank() + "): allocate its local memory there");
            }
            final long offset = device == DeviceRegion.SYMMETRIC ? heap.allocateSymmetric(bytes, alignment)
                : heap.allocateLocal(device, bytes, alignment);
            if (device == DeviceRegion.SYMMETRIC) {
                try {
                    world.checkSymmetric(offset, bytes);
                } catch (final IllegalStateException e) {
                    heap.freeSymmetric(offset);
                    throw e;
                }
            }
            final DeviceRegion region = new DeviceRegion(this, device, offset, bytes);
            live.put(region, Boolean.TRUE);
            return region;
        }
    }

    /** Builds a typed view; the array classes' constructors. */
    interface ViewFactory<A extends DeviceArray> {
        A create(DeviceRegion region, DeviceMemory memory, long offset, long length);
    }

    <A extends DeviceArray> A allocateLocal(final int device, final long length, final int elementBytes,
        final ViewFactory<A> factory) {
        final long bytes = Device.bytes(length, elementBytes);
        synchronized (heap) {
            final DeviceRegion region = allocateRegion(device, bytes, 8);
            final A view = factory.create(region, memories[device], region.offset(), length);
            region.views(List.of(view));
            return view;
        }
    }

    private <A extends DeviceArray> SymmetricArray<A> allocateArrays(final long length, final int elementBytes,
        final ViewFactory<A> factory) {
        final long bytes = Device.bytes(length, elementBytes);
        synchronized (heap) {
            final DeviceRegion region = allocateRegion(DeviceRegion.SYMMETRIC, bytes, 64);
            final List<A> views = new ArrayList<>(devices.length);
            for (final DeviceMemory m : memories) {
                views.add(factory.create(region, m, region.offset(), length));
            }
            region.views(views);
            return new SymmetricArray<>(region, views);
        }
    }

    /**
     * @param length number of elements
     * @return a zeroed int array of {@code length} elements at the same offset on every device
     * @throws IllegalStateException if the mesh is closed or the memory is exhausted
     */
    public SymmetricArray<IntArray> allocateInts(final long length) {
        return allocateArrays(length, 4, IntArray::new);
    }

    /**
     * @param length number of elements
     * @return a zeroed long array of {@code length} elements at the same offset on every device
     * @throws IllegalStateException if the mesh is closed or the memory is exhausted
     */
    public SymmetricArray<LongArray> allocateLongs(final long length) {
        return allocateArrays(length, 8, LongArray::new);
    }

    /**
     * @param length number of elements
     * @return a zeroed double array of {@code length} elements at the same offset on every device
     * @throws IllegalStateException if the mesh is closed or the memory is exhausted
     */
    public SymmetricArray<DoubleArray> allocateDoubles(final long length) {
        return allocateArrays(length, 8, DoubleArray::new);
    }

    /** Frees a region once (idempotent): for {@link DeviceRegion#close()}. */
    void release(final DeviceRegion region, final String freedBy) {
        synchronized (heap) {
            if (region.isFreed()) {
                return;
            }
            freeLive(region, freedBy != null ? freedBy : region + " was freed");
        }
    }

    /** Frees an array's region, reporting a second free: for {@link Device#free(DeviceArray)}. */
    void free(final DeviceRegion region, final String what) {
        synchronized (heap) {
            checkOpen();
            if (region.isFreed()) {
                throw new IllegalStateException(what + " was already freed");
            }
            freeLive(region, what + " was freed by Device.free");
        }
    }

    private void freeLive(final DeviceRegion region, final String reason) {
        region.invalidate(reason);
        live.remove(region);
        final int from = region.isSymmetric() ? 0 : region.device();
        final int to = region.isSymmetric() ? memories.length - 1 : region.device();
        for (int d = from; d <= to; d++) {
            if (world.isLocal(d)) { // every rank zeroes its own devices' part
                memories[d].rawBuffer().setMemory((int)region.offset(), (int)region.bytes(), (byte)0);
            }
        }
        if (region.isSymmetric() && world.isDistributed() && world.failure() == null) {
            // collective: nobody reuses the range before every rank has zeroed its part and stopped using it
            try {
                world.barrier();
            } catch (final PeerFailedException e) {
                // a rank died or left: the world is broken, no collective allocation follows; free this rank's part
            }
        }
        if (region.isSymmetric()) {
            heap.freeSymmetric(region.offset());
        } else {
            heap.freeLocal(region.device(), region.offset());
        }
    }

    // ------------------------------------------------------------------------------------------ data movement

    private AtomicBuffer bufferAt(final long address, final int length, final String what) {
        final int device = GlobalAddress.device(address);
        if (device >= devices.length) {
            throw new IndexOutOfBoundsException(what + " address " + GlobalAddress.toString(address)
                + " names a device outside 0.." + (devices.length - 1));
        }
        memories[device].checkRange(GlobalAddress.offset(address), length);
        return memories[device].rawBuffer();
    }

    private void checkLength(final int length) {
        checkOpen();
        if (length < 0) {
            throw new IllegalArgumentException("length must be >= 0, was " + length);
        }
    }

    /**
     * One-sided copy of {@code length} bytes from one device's memory to another's (or within one).
     * Returns when the copy is done; the source may be reused at once.
     *
     * @param srcAddress global address ({@link GlobalAddress}) of the first byte to read; the range must lie in its
     *                   device's memory
     * @param dstAddress global address of the first byte to write; the range must lie in its device's memory
     * @param length bytes to copy, >= 0
     * @throws IllegalStateException if the mesh is closed
     */
    public void copy(final long srcAddress, final long dstAddress, final int length) {
        checkLength(length);
        final AtomicBuffer src = bufferAt(srcAddress, length, "source");
        final AtomicBuffer dst = bufferAt(dstAddress, length, "destination");
        dst.putBytes((int)GlobalAddress.offset(dstAddress), src, (int)GlobalAddress.offset(srcAddress), length);
    }

    /**
     * One-sided put of {@code length} bytes of {@code src} (from {@code srcIndex}) to a global address.
     *
     * @param dstAddress global address ({@link GlobalAddress}) of the first byte to write; the range must lie in its
     *                   device's memory
     * @param src the bytes to put
     * @param srcIndex index in {@code src} of the first byte
     * @param length bytes to put, >= 0
     * @throws IllegalStateException if the mesh is closed
     */
    public void put(final long dstAddress, final DirectBuffer src, final int srcIndex, final int length) {
        checkLength(length);
        final AtomicBuffer dst = bufferAt(dstAddress, length, "destination");
        dst.putBytes((int)GlobalAddress.offset(dstAddress), src, srcIndex, length);
    }

    /**
     * One-sided put of {@code length} bytes of a heap array to a global address.
     *
     * @param dstAddress global address ({@link GlobalAddress}) of the first byte to write; the range must lie in its
     *                   device's memory
     * @param src the bytes to put
     * @param srcIndex index in {@code src} of the first byte; {@code [srcIndex, srcIndex + length)} must lie in {@code
     *                 src}
     * @param length bytes to put, >= 0
     * @throws IllegalStateException if the mesh is closed
     */
    public void put(final long dstAddress, final byte[] src, final int srcIndex, final int length) {
        checkLength(length);
        Objects.checkFromIndexSize(srcIndex, length, src.length);
        bufferAt(dstAddress, length, "destination").putBytes((int)GlobalAddress.offset(dstAddress), src, srcIndex,
            length);
    }

    /**
     * One-sided get of {@code length} bytes at a global address into {@code dst} (from {@code dstIndex}).
     *
     * @param srcAddress global address ({@link GlobalAddress}) of the first byte to read; the range must lie in its
     *                   device's memory
     * @param dst receives the bytes
     * @param dstIndex index in {@code dst} of the first byte written
     * @param length bytes to get, >= 0
     * @throws IllegalStateException if the mesh is closed
     */
    public void get(final long srcAddress, final MutableDirectBuffer dst, final int dstIndex, final int length) {
        checkLength(length);
        final AtomicBuffer src = bufferAt(srcAddress, length, "source");
        dst.putBytes(dstIndex, src, (int)GlobalAddress.offset(srcAddress), length);
    }

    /**
     * One-sided get of {@code length} bytes at a global address into a heap array.
     *
     * @param srcAddress global address ({@link GlobalAddress}) of the first byte to read; the range must lie in its
     *                   device's memory
     * @param dst receives the bytes
     * @param dstIndex index in {@code dst} of the first byte written; {@code [dstIndex, dstIndex + length)} must lie in
     *                 {@code dst}
     * @param length bytes to get, >= 0
     * @throws IllegalStateException if the mesh is closed
     */
    public void get(final long srcAddress, final byte[] dst, final int dstIndex, final int length) {
        checkLength(length);
        Objects.checkFromIndexSize(dstIndex, length, dst.length);
        bufferAt(srcAddress, length, "source").getBytes((int)GlobalAddress.offset(srcAddress), dst, dstIndex, length);
    }

    /**
     * Copies {@code count} elements between two arrays of the same element type, on any devices.
     *
     * @param src the array read, live
     * @param srcIndex index of the first element read
     * @param dst the array written, live, of the same element type as {@code src}
     * @param dstIndex index of the first element written
     * @param count elements to copy, >= 0
     * @throws IllegalArgumentException  if the element types differ
     * @throws IndexOutOfBoundsException if a range is outside its array
     * @throws IllegalStateException     if either array has been freed (or the mesh closed)
     */
    public void copy(final DeviceArray src, final int srcIndex, final DeviceArray dst, final int dstIndex,
        final int count) {
        if (src.getClass() != dst.getClass()) {
            throw new IllegalArgumentException("cannot copy " + src + " to " + dst + ": element types differ");
        }
        src.checkLive();
        dst.checkLive();
        Objects.checkFromIndexSize(srcIndex, count, src.length());
        Objects.checkFromIndexSize(dstIndex, count, dst.length());
        final int size = src.elementBytes();
        dst.buffer.putBytes(dst.offset + dstIndex * size, src.buffer, src.offset + srcIndex * size, count * size);
    }

    // ------------------------------------------------------------------------------------------ lifetime

    /**
     * @throws IllegalStateException naming the mesh if it is closed or closing
     */
    public void checkOpen() {
        if (state != OPEN) {
            throw new IllegalStateException("mesh '" + name + "' is " + (state == CLOSED ? "closed" : "closing"));
        }
    }

    /** @return true once {@link #close()} has been called */
    public boolean isClosed() {
        return state != OPEN;
    }

    /**
     * Makes {@code dependent} part of this mesh's lifetime: {@link #close()} closes it (dependents most recent
     * first) after the devices' queued launches have finished and before the worker threads stop and the memory is
     * freed, so nothing it runs (progress threads, transfer agents) can touch freed memory. Its {@code close()}
     * must be idempotent; a dependent closed earlier by its owner should {@link #removeDependent remove} itself.
     *
     * @param dependent closed by this mesh's close, not null
     * @throws IllegalStateException if the mesh is closed or closing
     */
    public void addDependent(final AutoCloseable dependent) {
        Objects.requireNonNull(dependent, "dependent");
        synchronized (lifecycle) {
            checkOpen();
            dependents.add(dependent);
        }
    }

    /**
     * Forgets a dependent (no effect if it is not one, or once the mesh is closing).
     *
     * @param dependent a dependent added by {@link #addDependent}, or anything else (then nothing happens)
     */
    public void removeDependent(final AutoCloseable dependent) {
        synchronized (lifecycle) {
            if (state == OPEN) {
                dependents.remove(dependent);
            }
        }
    }

    /**
     * Closes the mesh and everything built on it; idempotent (a concurrent second call waits for the first). In
     * order: (1) the devices refuse new launches and persistent launches are asked to stop; (2) every launch
     * already submitted runs to its end; (3) the {@link #addDependent dependents} are closed, most recent first;
     * (4) the worker threads stop and are joined; (5) every allocation still live is freed (its arrays and regions
     * throw from then on) and the memory is returned; (6) failures are reported: a launch that failed and that
     * nobody joined, then what a dependent's close threw (the first thrown, the others suppressed).
     *
     * <p><b>When memory is returned.</b> If every allocation was freed before the close began (the efficient,
     * recommended order: close what you built on the mesh before the mesh), the memory is freed at once. If some
     * allocation was still live, a thread that the close cannot know about might still be using it, so instead of
     * freeing memory under it the mesh gives it to the garbage collector: it is freed once nothing references it.
     * Either way nothing can crash the JVM: late accesses through arrays and regions throw, and an access racing
     * with the close reads memory that is still there.
     *
     * <p><b>Waiting.</b> Step (2) waits for launched kernels as long as they run (as
     * {@code ExecutorService.close()} (JDK 19 and later) does). If the closing thread is interrupted, the
     * workers are interrupted too (so kernels blocked in Overlap's waits, which answer interrupts, fail instead of
     * holding the close up), the close goes on, and the interrupt status is set again at the end. For a bounded
     * wait, call {@link Device#synchronize(long, TimeUnit)} on each device first, and interrupt or stop what is still
     * running before closing.
     *
     * @throws KernelFailedException if a launch failed and nobody joined it
     * @throws IllegalStateException if called from one of this mesh's worker threads (it would wait for itself)
     */
    @Override
    public void close() {
        final Device self = WorkerThread.currentDevice();
        if (self != null && self.mesh() == this) {
            throw new IllegalStateException("Mesh.close() called by " + Thread.currentThread().getName() + ", a "
                + "worker of mesh '" + name + "': the close waits for every launch, including the caller's own; "
                + "close the mesh from a host thread");
        }
        synchronized (lifecycle) {
            if (state != OPEN) {
                awaitClosedUninterruptibly();
                return;
            }
            state = CLOSING;
        }
        boolean interrupted = false;
        RuntimeException failure = null;
        try {
            final boolean hadLive;
            synchronized (heap) {
                hadLive = !live.isEmpty();
            }
            final KernelLaunch[] last = new KernelLaunch[devices.length];
            for (int d = 0; d < devices.length; d++) {
                last[d] = devices[d].shutdown();
            }
            for (int d = 0; d < devices.length; d++) {
                interrupted |= awaitUninterruptibly(last[d]);
            }
            failure = closeDependents();
            for (final Device device : devices) {
                device.stopWorkers();
            }
            interrupted |= Thread.interrupted();
            synchronized (heap) {
                final String reason = "mesh '" + name + "' was closed";
                for (final DeviceRegion r : new ArrayList<>(live.keySet())) {
                    r.invalidate(reason);
                }
                live.clear();
            }
            try {
                releaseMemory(hadLive);
            } catch (final RuntimeException e) {
                failure = add(failure, e);
            }
            try {
                counters.close();
            } catch (final RuntimeException e) {
                failure = add(failure, e);
            }
            for (final Device device : devices) {
                final KernelFailedException f = device.takeUnreportedFailures();
                if (f != null) {
                    failure = failure == null ? f : add(f, failure);
                }
            }
        } finally {
            world.leave();
            state = CLOSED;
            closedLatch.countDown();
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    private static RuntimeException add(final RuntimeException first, final RuntimeException next) {
        if (first == null) {
            return next;
        }
        first.addSuppressed(next);
        return first;
    }

    /** @return true if the thread was interrupted while waiting (the workers were then interrupted too) */
    private boolean awaitUninterruptibly(final KernelLaunch last) {
        boolean interrupted = false;
        while (true) {
            try {
                last.awaitDone(Waits.NO_DEADLINE, "the launches of mesh '" + name + "' to finish");
                return interrupted;
            } catch (final InterruptedWaitException e) {
                Thread.interrupted();
                if (!interrupted) {
                    for (final Device d : devices) {
                        d.interruptWorkers();
                    }
                }
                interrupted = true;
            }
        }
    }

    private void awaitClosedUninterruptibly() {
        boolean interrupted = false;
        while (true) {
            try {
                closedLatch.await();
                break;
            } catch (final InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    private RuntimeException closeDependents() {
        final List<AutoCloseable> toClose;
        synchronized (lifecycle) {
            toClose = new ArrayList<>(dependents);
            dependents.clear();
        }
        RuntimeException failure = null;
        for (int i = toClose.size() - 1; i >= 0; i--) {
            try {
                toClose.get(i).close();
            } catch (final Exception e) {
                failure = add(failure, e instanceof RuntimeException ? (RuntimeException)e
                    : new IllegalStateException("closing " + toClose.get(i) + " failed: " + e, e));
            }
        }
        return failure;
    }

    /**
     * Frees (or, when parts may still be referenced, abandons to the garbage collector) every device's memory; a
     * failure on one device does not keep the others from being released.
     */
    private void releaseMemory(final boolean abandon) {
        RuntimeException failure = null;
        for (int d = 0; d < memories.length; d++) {
            if (memories[d] != null) {
                try {
                    if (abandon) {
                        backing.abandon(d, memories[d].backing());
                    } else {
                        backing.release(d, memories[d].backing());
                    }
                } catch (final RuntimeException e) {
                    failure = add(failure, e);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    @Override
    public String toString() {
        return "Mesh{" + name + ", " + devices.length + " devices x " + devices[world.firstLocalDevice()].workerCount()
            + " workers, " + memoryPerDevice() + " bytes each, " + backing + (world.isDistributed() ? ", " + world : "")
            + (state != OPEN ? ", closed" : "") + "}";
    }

    /**
     * Validating builder. Defaults: 2 devices, {@code max(1, cores / devices)} workers each, 64 MiB of direct memory
     * per device, the idle strategy of {@link IdleStrategies#defaultFor(int)}, park after 100 us of idling.
     * Not thread-safe.
     */
    public static final class Builder {
        private int devices = 2;
        private int threadsPerDevice = -1;
        private int memoryPerDevice = 64 << 20;
        private MemoryBacking backing = MemoryBacking.direct();
        private Supplier<IdleStrategy> idleStrategy;
        private long parkAfterNanos = TimeUnit.MICROSECONDS.toNanos(100);
        private String name = "overlap";
        private WorldConfig world;
        private boolean backingSet;
        private ThreadFactory threadFactory;
        private CountersManager countersManager;
        private Path countersDirectory;

        private Builder() {
        }

        /**
         * @param factory makes the worker threads (names, daemon flag, priority, an affinity hook that wraps the
         *                Runnable): it must return a new, unstarted thread that runs the given Runnable, whose
         *                {@code toString()} is the default name {@code <name>-dev<d>-w<w>}. Default: daemon threads
         *                with that name. The mesh starts them, and its close joins them.
         * @return this builder
         */
        public Builder threadFactory(final ThreadFactory factory) {
            this.threadFactory = Objects.requireNonNull(factory, "factory");
            return this;
        }

        /**
         * @param manager keep the counters of what is built on the mesh in the user's Agrona counters manager (never
         *                closed by the mesh; allocations hold its monitor); excludes {@link #countersDirectory}
         * @return this builder
         */
        public Builder counters(final CountersManager manager) {
            this.countersManager = Objects.requireNonNull(manager, "manager");
            return this;
        }

        /**
         * @param directory keep the counters in this process's counters file in {@code directory} (created with the
         *                  directory, deleted when the last mesh using it closes), where {@code overlap stat} finds it;
         *                  {@link CountersFile#defaultDirectory()} is the usual place. Default: the system property
         *                  {@value CountersFile#DIRECTORY_PROPERTY} if set, else private memory.
         * @return this builder
         */
        public Builder countersDirectory(final Path directory) {
            this.countersDirectory = Objects.requireNonNull(directory, "directory");
            return this;
        }

        /**
         * @param devices number of devices, 1..4096
         * @return this builder
         */
        public Builder devices(final int devices) {
            if (devices < 1 || devices > 4096) {
                throw new IllegalArgumentException("devices must be in 1..4096, was " + devices);
            }
            this.devices = devices;
            return this;
        }

        /**
         * @param threads worker threads per device, 1..1024
         * @return this builder
         */
        public Builder threadsPerDevice(final int threads) {
            if (threads < 1 || threads > 1024) {
                throw new IllegalArgumentException("threadsPerDevice must be in 1..1024, was " + threads);
            }
            this.threadsPerDevice = threads;
            return this;
        }

        /**
         * @param bytes memory per device, 4 KiB .. 2 GiB - 4 KiB, rounded up to a multiple of 4 KiB
         * @return this builder
         */
        public Builder memoryPerDevice(final long bytes) {
            final long max = Integer.MAX_VALUE - MemoryBacking.PAGE + 1;
            if (bytes < MemoryBacking.PAGE || bytes > max) {
                throw new IllegalArgumentException("memoryPerDevice must be in " + MemoryBacking.PAGE + ".." + max
                    + " bytes, was " + bytes);
            }
            this.memoryPerDevice = (int)((bytes + MemoryBacking.PAGE - 1) & -MemoryBacking.PAGE);
            return this;
        }

        /**
         * @param backing direct buffers (default) or mapped files
         * @return this builder
         */
        public Builder backing(final MemoryBacking backing) {
            this.backing = Objects.requireNonNull(backing, "backing");
            this.backingSet = true;
            return this;
        }

        /**
         * @param world span several processes on this host: the devices are split among the world's ranks, each rank
         *              runs its own devices' workers and maps every device's memory (see {@link World}); every
         *              rank builds its mesh with the same devices, memory per device and world, and its own rank.
         *              The memory lives in the world's directory, so {@link #backing} may not be set too.
         * @return this builder
         */
        public Builder world(final WorldConfig world) {
            this.world = Objects.requireNonNull(world, "world");
            return this;
        }

        /**
         * @param idleStrategy supplies one idle strategy per worker (see {@link IdleStrategies})
         * @return this builder
         */
        public Builder idleStrategy(final Supplier<IdleStrategy> idleStrategy) {
            this.idleStrategy = Objects.requireNonNull(idleStrategy, "idleStrategy");
            return this;
        }

        /**
         * @param micros how long a waiting worker spins and yields before it parks until woken, 0..1 s: an idle worker
         *               waiting for the next launch, and a worker waiting in a persistent launch's barrier
         *               ({@link KernelLaunch#syncWorkers}); 0 parks at once
         * @return this builder
         */
        public Builder parkAfterMicros(final long micros) {
            if (micros < 0 || micros > 1_000_000) {
                throw new IllegalArgumentException("parkAfterMicros must be in 0..1000000, was " + micros);
            }
            this.parkAfterNanos = TimeUnit.MICROSECONDS.toNanos(micros);
            return this;
        }

        /**
         * @param name prefix of worker thread names, non-blank
         * @return this builder
         */
        public Builder name(final String name) {
            if (name == null || name.isBlank()) {
                throw new IllegalArgumentException("name must be non-blank");
            }
            this.name = name;
            return this;
        }

        /**
         * @return a started mesh
         * @throws IllegalStateException if the Agrona flag is missing (the message names it)
         */
        public Mesh build() {
            if (world != null && backingSet) {
                throw new IllegalArgumentException("a mesh across processes keeps its memory in the world's directory:"
                    + " do not also set backing()");
            }
            if (world != null && devices < world.ranks()) {
                throw new IllegalArgumentException("a world of " + world.ranks() + " ranks needs at least as many "
                    + "devices (each rank owns one or more), was " + devices);
            }
            if (countersManager != null && countersDirectory != null) {
                throw new IllegalArgumentException("give either counters(CountersManager) or countersDirectory(Path), "
                    + "not both");
            }
            if (threadsPerDevice < 0) {
                final int localDevices = world == null ? devices : (devices + world.ranks() - 1) / world.ranks();
                threadsPerDevice = Math.max(1, Runtime.getRuntime().availableProcessors() / localDevices);
            }
            return new Mesh(this);
        }
    }
}
