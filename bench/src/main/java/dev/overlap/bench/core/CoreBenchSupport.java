package dev.overlap.bench.core;

import dev.overlap.core.ChunkTracker;
import dev.overlap.core.Mesh;

/**
 * Tear-down helpers shared by the core benchmarks.
 *
 * <p><b>Known core defect worked around here:</b> {@code MemoryBacking.direct()} allocates device memory with Agrona's
 * {@code BufferUtil.allocateDirectAligned}, which returns a <em>slice</em> of a larger direct buffer, and later frees
 * it with {@code BufferUtil.free}, i.e. {@code Unsafe.invokeCleaner}, which rejects slices with
 * {@code IllegalArgumentException("duplicate or slice")}. So {@link Mesh#close()} throws on every direct-backed mesh
 * (after its workers have stopped, while freeing memory), and {@link ChunkTracker#close()} throws the same way for its
 * counters. The memory is then freed by the parent buffer's cleaner when it becomes unreachable, which is harmless in
 * a JMH fork. These helpers swallow exactly that exception and nothing else, so a benchmark still fails on any other
 * tear-down error; once core is fixed they are plain {@code close()} calls.
 */
final class CoreBenchSupport {
    private static final String SLICE_FREE_MESSAGE = "duplicate or slice";

    private CoreBenchSupport() {
    }

    /** Closes the mesh (stops its workers), tolerating only the known slice-free defect. */
    static void close(final Mesh mesh) {
        if (mesh == null) {
            return;
        }
        try {
            mesh.close();
        } catch (final IllegalArgumentException e) {
            rethrowUnlessSliceFree(e);
        }
    }

    /** Closes the tracker, tolerating only the known slice-free defect. */
    static void close(final ChunkTracker tracker) {
        if (tracker == null) {
            return;
        }
        try {
            tracker.close();
        } catch (final IllegalArgumentException e) {
            rethrowUnlessSliceFree(e);
        }
    }

    private static void rethrowUnlessSliceFree(final IllegalArgumentException e) {
        if (!SLICE_FREE_MESSAGE.equals(e.getMessage())) {
            throw e;
        }
    }
}
