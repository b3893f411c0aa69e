package dev.overlap.graph.async;

import dev.overlap.core.DeviceArray;
import dev.overlap.core.DeviceRegion;
import dev.overlap.core.DoubleArray;
import dev.overlap.core.IntArray;
import dev.overlap.core.LongArray;
import dev.overlap.core.Mesh;
import dev.overlap.core.SymmetricArray;
import org.agrona.concurrent.AtomicBuffer;

import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;

/**
 * The symmetric device memory of one async run: every state another device reads or updates one-sidedly (depths,
 * distances, residuals, block states, bitmaps, the shared words of a {@link DirectionSwitch}, the partial sums every
 * rank adds up), so that it sits at the same offset on every device and is mapped in every process of a mesh that
 * spans several ({@link dev.overlap.core.World}). Allocation and {@link #close()} are collective across processes:
 * every rank makes the same allocations in the same order (the mesh checks it) and frees them together, after a
 * barrier that follows the last read of another rank's part. In one process they are ordinary allocations.
 *
 * <p>Host only; not thread-safe (one run's host thread).
 */
final class SymmetricState implements AutoCloseable {
    private final Mesh mesh;
    private final List<DeviceRegion> regions = new ArrayList<>();

    SymmetricState(final Mesh mesh) {
        this.mesh = mesh;
    }

    /** @return one zeroed int array of {@code length} per device (entry {@code d} in device {@code d}'s memory) */
    IntArray[] ints(final long length) {
        return views(mesh.allocateInts(length), IntArray[]::new);
    }

    /** @return one zeroed long array of {@code length} per device */
    LongArray[] longs(final long length) {
        return views(mesh.allocateLongs(length), LongArray[]::new);
    }

    /** @return one zeroed double array of {@code length} per device */
    DoubleArray[] doubles(final long length) {
        return views(mesh.allocateDoubles(length), DoubleArray[]::new);
    }

    /**
     * @return {@code bytes} zeroed bytes every process addresses as the same words: the copy in the memory of the
     *         first rank's first device (every rank uses that one; the other devices' copies stay unused), indexed
     *         from 0 and aligned to a cache line
     */
    AtomicBuffer words(final int bytes) {
        final DeviceRegion region = mesh.allocateSymmetric(bytes, 64);
        regions.add(region);
        return region.buffer(mesh.world().firstDeviceOf(0));
    }

    private <A extends DeviceArray> A[] views(final SymmetricArray<A> array, final IntFunction<A[]> make) {
        regions.add(array.region());
        final A[] views = make.apply(array.devices());
        for (int d = 0; d < views.length; d++) {
            views[d] = array.on(d);
        }
        return views;
    }

    /** Frees every allocation, newest first (collective across processes); idempotent, nothing once the mesh closed. */
    @Override
    public void close() {
        if (mesh.isClosed()) {
            return;
        }
        for (int i = regions.size() - 1; i >= 0; i--) {
            regions.get(i).close();
        }
        regions.clear();
    }
}
