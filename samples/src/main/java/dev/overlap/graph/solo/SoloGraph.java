package dev.overlap.graph.solo;

import dev.overlap.core.Kernel;
import dev.overlap.core.KernelLaunch;
import dev.overlap.graph.partition.DeviceGraph;
import dev.overlap.graph.partition.Partition;
import dev.overlap.graph.partition.RawArrays;
import org.agrona.concurrent.AtomicBuffer;

/**
 * The placed graph as the solo loops read it: device 0's CSR slice (all of the graph) as raw buffers and byte bases,
 * so the loops index device memory without the typed arrays' per-access checks (the slots were validated when the
 * graph was placed), and the one-worker launch every solo app runs in.
 *
 * <p>Thread-safety: immutable; {@link #runOnOneWorker} hands the loop to device 0's worker and joins it, so what the
 * loop writes (on the heap or in device memory) happens-before the caller reads it.
 */
final class SoloGraph {
    private final DeviceGraph graph;
    private final AtomicBuffer offsets;
    private final int offsetsBase;
    private final AtomicBuffer targets;
    private final int targetsBase;
    private final AtomicBuffer weights;
    private final int weightsBase;

    private SoloGraph(final DeviceGraph graph) {
        this.graph = graph;
        final RawArrays off = RawArrays.of(graph.offsets(0));
        final RawArrays tgt = RawArrays.of(graph.targets(0));
        this.offsets = off.buffer(0);
        this.offsetsBase = off.base(0);
        this.targets = tgt.buffer(0);
        this.targetsBase = tgt.base(0);
        if (graph.hasWeights()) {
            final RawArrays w = RawArrays.of(graph.weights(0));
            this.weights = w.buffer(0);
            this.weightsBase = w.base(0);
        } else {
            this.weights = null;
            this.weightsBase = 0;
        }
    }

    /**
     * @param g a graph placed on a mesh of one device in this process
     * @return its solo view
     * @throws IllegalArgumentException when the graph is spread over several devices, or its device is another
     *                                  process's (solo is one worker of one device: the runner builds that mesh)
     */
    static SoloGraph of(final DeviceGraph g) {
        if (g.devices() != 1) {
            throw new IllegalArgumentException("solo runs on one device, the graph is placed on " + g.devices()
                + ": place it on a mesh of one device");
        }
        if (!g.mesh().world().isLocal(0)) {
            throw new IllegalArgumentException("solo runs in one process: device 0 belongs to another rank");
        }
        return new SoloGraph(g);
    }

    /** @return the placed graph */
    DeviceGraph graph() {
        return graph;
    }

    /** @return vertices */
    int vertices() {
        return graph.partition().vertexCount();
    }

    /** @return the partition (one device; its numbering is the identity unless degree-ordered) */
    Partition partition() {
        return graph.partition();
    }

    /** @return the offsets' buffer (vertex {@code v}'s first edge slot is the long at {@link #offsetsBase()} + 8v) */
    AtomicBuffer offsets() {
        return offsets;
    }

    /** @return byte offset of the offsets' element 0 */
    int offsetsBase() {
        return offsetsBase;
    }

    /** @return the targets' buffer (internal ids; slot {@code e} is the int at {@link #targetsBase()} + 4e) */
    AtomicBuffer targets() {
        return targets;
    }

    /** @return byte offset of the targets' element 0 */
    int targetsBase() {
        return targetsBase;
    }

    /**
     * @return the weights' buffer (slot {@code e} is the int at {@link #weightsBase()} + 4e)
     * @throws IllegalArgumentException when the graph was placed without weights
     */
    AtomicBuffer weights() {
        if (weights == null) {
            throw new IllegalArgumentException("the graph was placed without weights: SSSP needs them");
        }
        return weights;
    }

    /** @return byte offset of the weights' element 0 */
    int weightsBase() {
        return weightsBase;
    }

    /**
     * The absolute address of the offsets' element 0, for loops that read with {@code org.agrona.UnsafeApi} and no
     * bounds check at all (an {@link AtomicBuffer} still checks each access unless Agrona's bounds checks are
     * disabled, which the library does not rely on). Valid while the graph is placed; the slots were validated then.
     *
     * @return the address of vertex 0's first edge slot (a {@code long}; vertex {@code v}'s at 8v past it)
     */
    long offsetsAt() {
        return RawArrays.addressOf(graph.offsets(0));
    }

    /** @return the absolute address of the targets' slot 0 (an {@code int} per slot), as {@link #offsetsAt()} */
    long targetsAt() {
        return RawArrays.addressOf(graph.targets(0));
    }

    /**
     * @return the absolute address of the weights' slot 0 (an {@code int} per slot), as {@link #offsetsAt()}
     * @throws IllegalArgumentException when the graph was placed without weights
     */
    long weightsAt() {
        weights();
        return RawArrays.addressOf(graph.weights(0));
    }

    /**
     * @param source a vertex, original id
     * @return its internal id
     * @throws IllegalArgumentException when it is outside the graph
     */
    int internalSource(final int source) {
        if (source < 0 || source >= vertices()) {
            throw new IllegalArgumentException("source " + source + " is outside 0.." + (vertices() - 1));
        }
        return graph.partition().internal(source);
    }

    /** Runs {@code loop} as one block on device 0 (its first free worker) and waits for it. */
    void runOnOneWorker(final Kernel loop) {
        final KernelLaunch launch = graph.mesh().device(0).launch(1, loop);
        launch.join();
    }

    /** @return {@code internal}, indexed by internal id, in original ids (the array itself for the identity) */
    int[] toOriginal(final int[] internal) {
        final Partition p = graph.partition();
        if (p.isIdentity()) {
            return internal;
        }
        final int[] out = new int[internal.length];
        for (int i = 0; i < internal.length; i++) {
            out[p.original(i)] = internal[i];
        }
        return out;
    }

    /** @return {@code internal}, indexed by internal id, in original ids (the array itself for the identity) */
    long[] toOriginal(final long[] internal) {
        final Partition p = graph.partition();
        if (p.isIdentity()) {
            return internal;
        }
        final long[] out = new long[internal.length];
        for (int i = 0; i < internal.length; i++) {
            out[p.original(i)] = internal[i];
        }
        return out;
    }

    /** @return {@code internal}, indexed by internal id, in original ids (the array itself for the identity) */
    double[] toOriginal(final double[] internal) {
        final Partition p = graph.partition();
        if (p.isIdentity()) {
            return internal;
        }
        final double[] out = new double[internal.length];
        for (int i = 0; i < internal.length; i++) {
            out[p.original(i)] = internal[i];
        }
        return out;
    }
}
