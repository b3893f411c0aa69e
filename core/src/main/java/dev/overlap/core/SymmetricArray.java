package dev.overlap.core;

import java.util.List;
import java.util.Objects;

/**
 * A symmetric allocation: the same offset and length on every device of a mesh (like {@code nvshmem_malloc}),
 * seen as one typed array per device. {@link #close()} frees the range on every device.
 *
 * <p>Thread-safety: {@link #on(int)} may be called from any thread; the per-device views are thread-safe as their
 * class states. Close only when no kernel uses the arrays any more.
 *
 * @param <A> the typed view ({@link IntArray}, {@link LongArray}, {@link DoubleArray})
 */
public final class SymmetricArray<A extends DeviceArray> implements AutoCloseable {
    private final Mesh mesh;
    private final List<A> views;
    private final long offset;
    private boolean closed;

    SymmetricArray(final Mesh mesh, final long offset, final List<A> views) {
        this.mesh = mesh;
        this.offset = offset;
        this.views = List.copyOf(views);
    }

    /** @return the view on device {@code device} */
    public A on(final int device) {
        return views.get(Objects.checkIndex(device, views.size()));
    }

    /** @return the common byte offset in every device's memory */
    public long offset() {
        return offset;
    }

    /** @return elements per device */
    public int length() {
        return views.get(0).length();
    }

    /** @return number of devices */
    public int devices() {
        return views.size();
    }

    /** Frees the range on every device; idempotent. */
    @Override
    public synchronized void close() {
        if (!closed) {
            closed = true;
            mesh.freeSymmetric(offset);
        }
    }
}
