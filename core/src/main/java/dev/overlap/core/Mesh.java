package dev.overlap.core;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.IdleStrategy;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The whole multi-device system: {@code N} {@link Device devices}, each a group of worker threads with its own
 * off-heap {@link DeviceMemory}; symmetric allocation across all devices; one-sided {@code put}/{@code get}/
 * {@code copy} between any two devices' memories by {@link GlobalAddress global address}.
 *
 * <pre>{@code
 * try (Mesh mesh = Mesh.builder().devices(2).threadsPerDevice(2).memoryPerDevice(64 << 20).build()) {
 *     SymmetricArray<IntArray> data = mesh.allocateInts(1 << 20);
 *     mesh.device(0).launch(1024, (ctx, block) -> data.on(0).set(block, block)).join();
 *     mesh.copy(data.on(0).address(0), data.on(1).address(0), 4 << 10);
 * }
 * }</pre>
 *
 * <p>Thread-safety: every method may be called from any thread. Allocation is synchronized (a set-up operation).
 * {@code put}/{@code get}/{@code copy} are plain bulk copies: they order nothing by themselves; publish with a
 * release store, an atomic, or a kernel boundary. {@link #close()} stops persistent kernels, waits for queued
 * launches, stops the workers and frees the memory.
 */
public final class Mesh implements AutoCloseable {
    private final String name;
    private final Device[] devices;
    private final DeviceMemory[] memories;
    private final SymmetricHeap heap;
    private final MemoryBacking backing;
    private volatile boolean closed;

    private Mesh(final Builder b) {
        AgronaAccess.require();
        this.name = b.name;
        this.backing = b.backing;
        final int threads = b.threadsPerDevice;
        this.heap = new SymmetricHeap(b.devices, b.memoryPerDevice);
        this.devices = new Device[b.devices];
        this.memories = new DeviceMemory[b.devices];
        final Supplier<IdleStrategy> idle = b.idleStrategy != null ? b.idleStrategy
            : IdleStrategies.defaultFor(b.devices * threads + 1);
        // Spinning while waiting for a launch only pays when every busy thread has a core of its own.
        final boolean spin = b.devices * threads + 1 <= Runtime.getRuntime().availableProcessors();
        try {
            for (int d = 0; d < b.devices; d++) {
                memories[d] = new DeviceMemory(d, b.memoryPerDevice, backing.allocate(d, b.memoryPerDevice));
                devices[d] = new Device(this, d, memories[d], threads, idle, b.parkAfterNanos, spin, name);
            }
        } catch (final RuntimeException | Error e) {
            releaseMemory();
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

    /** @return device {@code id} */
    public Device device(final int id) {
        return devices[checkDevice(id)];
    }

    /** @return the memory of device {@code id} */
    public DeviceMemory memory(final int id) {
        return memories[checkDevice(id)];
    }

    /** @return the mesh name (thread-name prefix) */
    public String name() {
        return name;
    }

    /** @return bytes of memory per device */
    public int memoryPerDevice() {
        return memories[0].capacity();
    }

    /** @return free bytes on device {@code id} */
    public long freeMemory(final int id) {
        return heap.freeBytes(checkDevice(id));
    }

    private int checkDevice(final int id) {
        if (id < 0 || id >= devices.length) {
            throw new IndexOutOfBoundsException("device " + id + " does not exist: mesh has devices 0.."
                + (devices.length - 1));
        }
        return id;
    }

    SymmetricHeap heap() {
        return heap;
    }

    /**
     * Reserves the same byte range on every device.
     *
     * @param bytes     size
     * @param alignment a power of two
     * @return the common offset; free it with {@link #freeSymmetric(long)}
     * @throws IllegalStateException when some device has no room, naming the devices and what is free
     */
    public long allocateSymmetric(final long bytes, final int alignment) {
        checkOpen();
        return heap.allocateSymmetric(bytes, alignment);
    }

    /** Zeroes and frees a symmetric range on every device. */
    public void freeSymmetric(final long offset) {
        checkOpen();
        final long length = heap.symmetricLength(offset);
        for (final DeviceMemory m : memories) {
            m.buffer().setMemory((int)offset, (int)length, (byte)0);
        }
        heap.freeSymmetric(offset);
    }

    /** @return a zeroed int array of {@code length} elements at the same offset on every device */
    public SymmetricArray<IntArray> allocateInts(final long length) {
        final long offset = allocateSymmetric(Device.bytes(length, 4), 64);
        final List<IntArray> views = new ArrayList<>(devices.length);
        for (final DeviceMemory m : memories) {
            views.add(new IntArray(m, offset, length));
        }
        return new SymmetricArray<>(this, offset, views);
    }

    /** @return a zeroed long array of {@code length} elements at the same offset on every device */
    public SymmetricArray<LongArray> allocateLongs(final long length) {
        final long offset = allocateSymmetric(Device.bytes(length, 8), 64);
        final List<LongArray> views = new ArrayList<>(devices.length);
        for (final DeviceMemory m : memories) {
            views.add(new LongArray(m, offset, length));
        }
        return new SymmetricArray<>(this, offset, views);
    }

    /** @return a zeroed double array of {@code length} elements at the same offset on every device */
    public SymmetricArray<DoubleArray> allocateDoubles(final long length) {
        final long offset = allocateSymmetric(Device.bytes(length, 8), 64);
        final List<DoubleArray> views = new ArrayList<>(devices.length);
        for (final DeviceMemory m : memories) {
            views.add(new DoubleArray(m, offset, length));
        }
        return new SymmetricArray<>(this, offset, views);
    }

    private AtomicBuffer bufferAt(final long address, final int length, final String what) {
        final int device = GlobalAddress.device(address);
        if (device >= devices.length) {
            throw new IndexOutOfBoundsException(what + " address " + GlobalAddress.toString(address)
                + " names a device outside 0.." + (devices.length - 1));
        }
        memories[device].checkRange(GlobalAddress.offset(address), length);
        return memories[device].buffer();
    }

    private static void checkLength(final int length) {
        if (length < 0) {
            throw new IllegalArgumentException("length must be >= 0, was " + length);
        }
    }

    /**
     * One-sided copy of {@code length} bytes from one device's memory to another's (or within one).
     * Returns when the copy is done; the source may be reused at once.
     */
    public void copy(final long srcAddress, final long dstAddress, final int length) {
        checkLength(length);
        final AtomicBuffer src = bufferAt(srcAddress, length, "source");
        final AtomicBuffer dst = bufferAt(dstAddress, length, "destination");
        dst.putBytes((int)GlobalAddress.offset(dstAddress), src, (int)GlobalAddress.offset(srcAddress), length);
    }

    /** One-sided put of {@code length} bytes of {@code src} (from {@code srcIndex}) to a global address. */
    public void put(final long dstAddress, final DirectBuffer src, final int srcIndex, final int length) {
        checkLength(length);
        final AtomicBuffer dst = bufferAt(dstAddress, length, "destination");
        dst.putBytes((int)GlobalAddress.offset(dstAddress), src, srcIndex, length);
    }

    /** One-sided put of {@code length} bytes of a heap array to a global address. */
    public void put(final long dstAddress, final byte[] src, final int srcIndex, final int length) {
        checkLength(length);
        Objects.checkFromIndexSize(srcIndex, length, src.length);
        bufferAt(dstAddress, length, "destination").putBytes((int)GlobalAddress.offset(dstAddress), src, srcIndex,
            length);
    }

    /** One-sided get of {@code length} bytes at a global address into {@code dst} (from {@code dstIndex}). */
    public void get(final long srcAddress, final MutableDirectBuffer dst, final int dstIndex, final int length) {
        checkLength(length);
        final AtomicBuffer src = bufferAt(srcAddress, length, "source");
        dst.putBytes(dstIndex, src, (int)GlobalAddress.offset(srcAddress), length);
    }

    /** One-sided get of {@code length} bytes at a global address into a heap array. */
    public void get(final long srcAddress, final byte[] dst, final int dstIndex, final int length) {
        checkLength(length);
        Objects.checkFromIndexSize(dstIndex, length, dst.length);
        bufferAt(srcAddress, length, "source").getBytes((int)GlobalAddress.offset(srcAddress), dst, dstIndex, length);
    }

    /**
     * Copies {@code count} elements between two arrays of the same element type, on any devices.
     *
     * @throws IllegalArgumentException if the element types differ
     * @throws IndexOutOfBoundsException if a range is outside its array
     */
    public void copy(final DeviceArray src, final int srcIndex, final DeviceArray dst, final int dstIndex,
        final int count) {
        if (src.getClass() != dst.getClass()) {
            throw new IllegalArgumentException("cannot copy " + src + " to " + dst + ": element types differ");
        }
        Objects.checkFromIndexSize(srcIndex, count, src.length());
        Objects.checkFromIndexSize(dstIndex, count, dst.length());
        final int size = src.elementBytes();
        dst.buffer.putBytes(dst.offset + dstIndex * size, src.buffer, src.offset + srcIndex * size, count * size);
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("mesh '" + name + "' is closed");
        }
    }

    /** @return true once {@link #close()} has been called */
    public boolean isClosed() {
        return closed;
    }

    /**
     * Stops persistent kernels, waits for queued launches, stops the workers and frees every device's memory.
     * Idempotent. Views of device memory must not be used afterwards.
     */
    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        for (final Device device : devices) {
            device.close();
        }
        releaseMemory();
    }

    /** Frees every device's memory; a failure on one device does not keep the others from being freed. */
    private void releaseMemory() {
        RuntimeException failure = null;
        for (int d = 0; d < memories.length; d++) {
            if (memories[d] != null) {
                try {
                    backing.release(d, memories[d].backing());
                } catch (final RuntimeException e) {
                    if (failure == null) {
                        failure = e;
                    } else {
                        failure.addSuppressed(e);
                    }
                }
                memories[d] = null;
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    @Override
    public String toString() {
        return "Mesh{" + name + ", " + devices.length + " devices x " + devices[0].workerCount() + " workers, "
            + memoryPerDevice() + " bytes each, " + backing + "}";
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

        private Builder() {
        }

        /** @param devices number of devices, 1..4096 */
        public Builder devices(final int devices) {
            if (devices < 1 || devices > 4096) {
                throw new IllegalArgumentException("devices must be in 1..4096, was " + devices);
            }
            this.devices = devices;
            return this;
        }

        /** @param threads worker threads per device, 1..1024 */
        public Builder threadsPerDevice(final int threads) {
            if (threads < 1 || threads > 1024) {
                throw new IllegalArgumentException("threadsPerDevice must be in 1..1024, was " + threads);
            }
            this.threadsPerDevice = threads;
            return this;
        }

        /** @param bytes memory per device, 4 KiB .. 2 GiB - 4 KiB, rounded up to a multiple of 4 KiB */
        public Builder memoryPerDevice(final long bytes) {
            final long max = Integer.MAX_VALUE - MemoryBacking.PAGE + 1;
            if (bytes < MemoryBacking.PAGE || bytes > max) {
                throw new IllegalArgumentException("memoryPerDevice must be in " + MemoryBacking.PAGE + ".." + max
                    + " bytes, was " + bytes);
            }
            this.memoryPerDevice = (int)((bytes + MemoryBacking.PAGE - 1) & -MemoryBacking.PAGE);
            return this;
        }

        /** @param backing direct buffers (default) or mapped files */
        public Builder backing(final MemoryBacking backing) {
            this.backing = Objects.requireNonNull(backing, "backing");
            return this;
        }

        /** @param idleStrategy supplies one idle strategy per worker (see {@link IdleStrategies}) */
        public Builder idleStrategy(final Supplier<IdleStrategy> idleStrategy) {
            this.idleStrategy = Objects.requireNonNull(idleStrategy, "idleStrategy");
            return this;
        }

        /** @param micros how long an idle worker uses its idle strategy before parking until woken, 0..1 s */
        public Builder parkAfterMicros(final long micros) {
            if (micros < 0 || micros > 1_000_000) {
                throw new IllegalArgumentException("parkAfterMicros must be in 0..1000000, was " + micros);
            }
            this.parkAfterNanos = TimeUnit.MICROSECONDS.toNanos(micros);
            return this;
        }

        /** @param name prefix of worker thread names, non-blank */
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
            if (threadsPerDevice < 0) {
                threadsPerDevice = Math.max(1, Runtime.getRuntime().availableProcessors() / devices);
            }
            return new Mesh(this);
        }
    }
}
