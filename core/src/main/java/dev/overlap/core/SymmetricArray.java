package dev.overlap.core;

import java.util.List;
import java.util.Objects;

/**
 * A symmetric allocation: the same offset and length on every device of a mesh (like {@code nvshmem_malloc}),
 * seen as one typed array per device. {@link #close()} frees the range on every device, once.
 *
 * <p>Thread-safety: {@link #on(int)} may be called from any thread; the per-device views are thread-safe as their
 * class states. Close only when no kernel uses the arrays any more: afterwards every view throws
 * {@link IllegalStateException} (see {@link DeviceArray}).
 *
 * @param <A> the typed view ({@link IntArray}, {@link LongArray}, {@link DoubleArray})
 */
public final class SymmetricArray<A extends DeviceArray> implements AutoCloseable {
    private final DeviceRegion region;
    private final List<A> views;

    SymmetricArray(final DeviceRegion region, final List<A> views) {
        this.region = region;
        this.views = List.copyOf(views);
    }

    /**
     * @param device a device id of the mesh, 0..device count - 1
     * @return the view on device {@code device}
     */
    public A on(final int device) {
        return views.get(Objects.checkIndex(device, views.size()));
    }

    /** @return the common byte offset in every device's memory */
    public long offset() {
        return region.offset();
    }

    /** @return elements per device */
    public int length() {
        return views.get(0).length();
    }

    /** @return number of devices */
    public int devices() {
        return views.size();
    }

    /** @return the allocation behind the views */
    public DeviceRegion region() {
        return region;
    }

    /** @return true once freed (closed, or the mesh closed) */
    public boolean isFreed() {
        return region.isFreed();
    }

    /** Frees the range on every device; idempotent (also after the mesh closed). */
    @Override
    public void close() {
        region.close();
    }

    @Override
    public String toString() {
        return "SymmetricArray{" + views.get(0).getClass().getSimpleName() + " x " + views.size() + " devices, length "
            + length() + " at +" + region.offset() + (region.isFreed() ? ", freed" : "") + "}";
    }
}
