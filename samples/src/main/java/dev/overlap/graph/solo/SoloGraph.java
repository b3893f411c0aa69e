package dev.overlap.graph.solo;

import dev.overlap.graph.partition.DeviceGraph;
import dev.overlap.graph.partition.Partition;
import dev.overlap.graph.partition.RawArrays;

/**
 * The placed graph as the solo loops read it: the absolute addresses of element 0 of device 0's CSR arrays (all of
 * the graph), for {@code org.agrona.UnsafeApi}'s {@code getInt(null, address)} and {@code getLong(null, address)}.
 * Device memory is off-heap (direct or mapped), so every array has an address ({@link RawArrays#address(int)}).
 *
 * <p><b>Why raw.</b> A solo loop is the one-thread path for graphs where parallelism cannot pay, so it is measured
 * against a plain Java loop over heap arrays; reading device memory through Agrona's buffers pays a bounds check
 * per access that the Java loop's array checks mostly do not (the JIT hoists those out of a counted loop). Every slot
 * a loop reads was validated when the graph was placed (offsets within the edge count, targets below the vertex
 * count), so the loops index device memory without checks. The addresses are valid while the placed graph is: the
 * caller's run holds it, and the runner closes it only after the run.
 *
 * <p><b>Where the loop runs.</b> On the calling thread. A solo run is one sequential loop: handing it to the device's
 * worker bought nothing and cost a launch, a wake-up and a join per run, a fixed cost that dominated graphs of a few
 * thousand vertices (where the whole loop takes tens of microseconds).
 *
 * <p>Thread-safety: immutable; one run at a time per placed graph.
 */
final class SoloGraph {
    private final DeviceGraph graph;
    private final long offsetsAt;
    private final long targetsAt;
    private final long weightsAt;

    private SoloGraph(final DeviceGraph graph) {
        this.graph = graph;
        this.offsetsAt = RawArrays.of(graph.offsets(0)).address(0);
        this.targetsAt = RawArrays.of(graph.targets(0)).address(0);
        this.weightsAt = graph.hasWeights() ? RawArrays.of(graph.weights(0)).address(0) : -1;
    }

    /**
     * @param g a graph placed on a mesh of one device in this process
     * @return its solo view
     * @throws IllegalArgumentException when the graph is spread over several devices, or its device is another
     *                                  process's (solo reads one device's memory: the runner builds that mesh)
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

    /** @return absolute address of the offsets' element 0 (vertex {@code v}'s first edge slot is the long at + 8v) */
    long offsetsAt() {
        return offsetsAt;
    }

    /** @return absolute address of the targets' element 0 (internal ids; slot {@code e} is the int at + 4e) */
    long targetsAt() {
        return targetsAt;
    }

    /**
     * @return absolute address of the weights' element 0 (slot {@code e} is the int at + 4e)
     * @throws IllegalArgumentException when the graph was placed without weights
     */
    long weightsAt() {
        if (weightsAt < 0) {
            throw new IllegalArgumentException("the graph was placed without weights: SSSP needs them");
        }
        return weightsAt;
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
