package dev.overlap.stress.core;

import dev.overlap.core.Device;
import dev.overlap.core.Mesh;

/**
 * The one {@link Mesh} of a jcstress fork, created lazily on first use and shared by every state instance.
 *
 * <p>jcstress creates state objects by the thousand (a whole stride batch is alive at once and is re-created
 * after every pass), so a state must never build a mesh (worker threads) or allocate device memory (the symmetric
 * heap is synchronized and slow). Tests take a small, fixed-size piece of one preallocated array per state
 * through a {@link SlotRing} instead. The mesh has one device with two daemon workers (enough for blocks of a
 * discrete kernel to run concurrently on this 2-core class of machine) and is never closed: its threads die with
 * the fork.
 *
 * <p>Thread-safety: {@link #device()} may be called from any thread (holder-class initialisation).
 */
final class StressMesh {
    /** Workers of the shared device: two, so blocks of one launch really run in parallel. */
    static final int WORKERS = 2;

    private StressMesh() {
    }

    private static final class Holder {
        static final Mesh MESH = Mesh.builder()
            .name("jcstress")
            .devices(1)
            .threadsPerDevice(WORKERS)
            .memoryPerDevice(16 << 20)
            .build();
    }

    /** @return device 0 of the fork's shared mesh (created on first call) */
    static Device device() {
        return Holder.MESH.device(0);
    }
}
