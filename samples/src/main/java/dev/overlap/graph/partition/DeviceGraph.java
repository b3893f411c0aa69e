package dev.overlap.graph.partition;

import dev.overlap.core.Device;
import dev.overlap.core.IntArray;
import dev.overlap.core.KernelLaunch;
import dev.overlap.core.LongArray;
import dev.overlap.core.Mesh;
import dev.overlap.core.SymmetricArray;
import dev.overlap.graph.BuildOptions;
import dev.overlap.graph.Csr;
import dev.overlap.graph.CsrGraph;
import dev.overlap.graph.EdgeArrays;
import dev.overlap.graph.EdgeStream;
import dev.overlap.graph.GraphBuilder;
import dev.overlap.graph.Progress;
import dev.overlap.graph.GraphSummary;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * A {@link CsrGraph} placed in device memory, one CSR slice per device: device {@code d} holds the out-edges of
 * the vertices it owns ({@link Partition}), as local offsets ({@code size(d) + 1} longs, starting at 0), targets
 * (internal ids, so the owner of a target is found from the partition bounds) and, when asked, weights. The slices
 * are written by a kernel on each device (devices fill their own memory in parallel).
 *
 * <p><b>Symmetric layout.</b> Each of the three arrays is one symmetric allocation as long as the largest slice, so
 * a slice sits at the same offset on every device and every device's slice is addressable from every process of a
 * mesh that spans several ({@link dev.overlap.core.World}): kernels read other devices' offsets one-sidedly. Across
 * processes {@link #place} is collective (every rank places the same graph with the same partition) and each rank
 * fills only the slices of its own devices; {@link #close()} is collective too.
 *
 * <p>Thread-safety: immutable once {@link #place} returns (it joins the filling kernels, so the contents
 * happen-before any later launch; across processes, other ranks' slices are complete once the ranks have met at a
 * barrier after placing). Kernels on any device may read any slice. {@link #close()} frees the memory.
 *
 * <p><b>Lifetime.</b> A run holds a {@link Lease} ({@link #lease()}) while it uses the graph (every built-in
 * {@link dev.overlap.graph.app.GraphAlgorithms} runs under {@link #leased}). Its kernels read the slices at raw
 * addresses without a lifetime check: freed under a run, a slice may be reused by another allocation, and a target read
 * from it becomes a raw write outside the run's arrays. So {@link #close()} refuses with an
 * {@link IllegalStateException} while a lease is held, and frees nothing; a lease is refused once the graph is closed.
 *
 * <p><b>No host copy.</b> The placed graph keeps a {@link GraphSummary} of the host graph (counts, symmetry,
 * out-degrees, weight facts: what the apps read besides the slices), never the {@link CsrGraph} itself, so a caller
 * that lets go of the host graph after {@link #place} lets the garbage collector take it while the graph runs.
 */
public final class DeviceGraph implements AutoCloseable {
    private static final int ROWS_PER_BLOCK = 4096;

    private final Mesh mesh;
    private final Partition partition;
    private final GraphSummary summary;
    private final LongArray[] offsets;
    private final IntArray[] targets;
    private final IntArray[] weights;
    private final long[] localEdges;
    /** The symmetric allocations behind the views above (null until allocated). */
    private final List<SymmetricArray<?>> storage = new ArrayList<>(3);
    /** The leases held (runs in flight), and the close. */
    private final LeaseCount leases = new LeaseCount();

    private DeviceGraph(final Mesh mesh, final Partition partition, final GraphSummary summary,
        final boolean withWeights) {
        final int devices = partition.devices();
        this.mesh = mesh;
        this.partition = partition;
        this.summary = summary;
        this.offsets = new LongArray[devices];
        this.targets = new IntArray[devices];
        this.weights = withWeights ? new IntArray[devices] : null;
        this.localEdges = new long[devices];
    }

    /**
     * @return bytes every device needs for the graph (allocation granularity included): the symmetric layout gives
     *         each device room for the largest slice
     */
    public static long bytesPerDevice(final CsrGraph g, final Partition p, final boolean withWeights) {
        final long[] edges = edgesPerDevice(g, p);
        long maxRows = 0;
        long maxEdges = 0;
        for (int d = 0; d < p.devices(); d++) {
            maxRows = Math.max(maxRows, p.size(d));
            maxEdges = Math.max(maxEdges, edges[d]);
        }
        return bytesFor((int)maxRows, maxEdges, withWeights);
    }

    private static long[] edgesPerDevice(final CsrGraph g, final Partition p) {
        final long[] edges = new long[p.devices()];
        for (int d = 0; d < p.devices(); d++) {
            for (int i = p.lo(d); i < p.hi(d); i++) {
                edges[d] += g.degree(p.original(i));
            }
        }
        return edges;
    }

    private static long align(final long bytes) {
        return (bytes + 63) & -64L;
    }

    /**
     * Copies {@code g} into the devices' memories: across processes, into this rank's devices (collective: every
     * rank places the same graph with the same partition).
     *
     * @param mesh        the mesh; its device count must equal the partition's
     * @param g           the graph (read here; only its {@link GraphSummary} is kept)
     * @param p           who owns what
     * @param withWeights whether to place the weights (unit weights if the graph has none)
     * @return the placed graph
     * @throws IllegalStateException if a device has no room (the message names free and needed bytes)
     */
    public static DeviceGraph place(final Mesh mesh, final CsrGraph g, final Partition p, final boolean withWeights) {
        return place(mesh, g, GraphSummary.of(g), p, withWeights);
    }

    /**
     * As {@link #place(Mesh, CsrGraph, Partition, boolean)}, keeping a summary of {@code g} the caller already made
     * (one degree array instead of two).
     *
     * @param summary {@link GraphSummary#of GraphSummary.of(g)}
     * @throws IllegalArgumentException when the summary's counts are not {@code g}'s
     */
    public static DeviceGraph place(final Mesh mesh, final CsrGraph g, final GraphSummary summary, final Partition p,
        final boolean withWeights) {
        if (summary.vertexCount() != g.vertexCount() || summary.edgeCount() != g.edgeCount()) {
            throw new IllegalArgumentException(summary + " is not a summary of " + g);
        }
        if (mesh.deviceCount() != p.devices()) {
            throw new IllegalArgumentException("partition is for " + p.devices() + " devices, mesh has "
                + mesh.deviceCount());
        }
        if (p.vertexCount() != g.vertexCount()) {
            throw new IllegalArgumentException("partition is for " + p.vertexCount() + " vertices, graph has "
                + g.vertexCount());
        }
        final DeviceGraph dg = new DeviceGraph(mesh, p, summary, withWeights);
        final KernelLaunch[] launches = new KernelLaunch[p.devices()];
        // the fill kernels capture the host graph; a completed launch drops its kernel (KernelLaunch), so nothing the
        // placed graph or its devices keep reaches the host graph once the placement has joined them
        try {
            final long[] edges = edgesPerDevice(g, p);
            long maxRows = 0;
            long maxEdges = 0;
            for (int d = 0; d < p.devices(); d++) {
                dg.localEdges[d] = edges[d];
                maxRows = Math.max(maxRows, p.size(d));
                maxEdges = Math.max(maxEdges, edges[d]);
            }
            final SymmetricArray<LongArray> off = dg.keep(mesh.allocateLongs(maxRows + 1));
            final SymmetricArray<IntArray> tgt = dg.keep(mesh.allocateInts(Math.max(1, maxEdges)));
            final SymmetricArray<IntArray> wgt = withWeights ? dg.keep(mesh.allocateInts(Math.max(1, maxEdges))) : null;
            for (int d = 0; d < p.devices(); d++) {
                dg.offsets[d] = off.on(d);
                dg.targets[d] = tgt.on(d);
                if (withWeights) {
                    dg.weights[d] = wgt.on(d);
                }
                if (mesh.world().isLocal(d)) {
                    launches[d] = fill(mesh.device(d), g, p, d, off.on(d), tgt.on(d),
                        wgt != null ? wgt.on(d) : null);
                }
            }
            for (final KernelLaunch l : launches) {
                if (l != null) {
                    l.join();
                }
            }
        } catch (final RuntimeException | Error e) {
            for (final KernelLaunch l : launches) {
                if (l != null) {
                    try {
                        l.join();
                    } catch (final RuntimeException ignored) {
                        // the first failure is the one to report
                    }
                }
            }
            dg.close();
            throw e;
        }
        return dg;
    }

    private <A extends dev.overlap.core.DeviceArray> SymmetricArray<A> keep(final SymmetricArray<A> array) {
        storage.add(array);
        return array;
    }

    /** Launches the kernel that writes device {@code d}'s slice of {@code g} into its memory. */
    private static KernelLaunch fill(final Device dev, final CsrGraph g, final Partition p, final int d,
        final LongArray off, final IntArray tgt, final IntArray wgt) {
        final int lo = p.lo(d);
        final int rows = p.size(d);
        final int blocks = Math.max(1, (rows + ROWS_PER_BLOCK - 1) / ROWS_PER_BLOCK);
        // each block's first local offset: one long per block, not a second copy of the slice's offsets on the heap
        final long[] blockStart = new long[blocks + 1];
        for (int i = 0; i < rows; i++) {
            blockStart[i / ROWS_PER_BLOCK + 1] += g.degree(p.original(lo + i));
        }
        for (int b = 0; b < blocks; b++) {
            blockStart[b + 1] += blockStart[b];
        }
        return dev.launch(blocks, (ctx, block) -> {
            final int from = block * ROWS_PER_BLOCK;
            final int to = Math.min(rows, from + ROWS_PER_BLOCK);
            long slot = blockStart[block];
            for (int i = from; i < to; i++) {
                off.set(i, slot);
                final int u = p.original(lo + i);
                for (long e = g.edgeStart(u), end = g.edgeEnd(u); e < end; e++, slot++) {
                    tgt.set((int)slot, p.internal(g.target(e)));
                    if (wgt != null) {
                        wgt.set((int)slot, g.weight(e));
                    }
                }
            }
            if (to == rows) {
                off.set(rows, slot);
            }
        });
    }

    /**
     * The placed graph of a one-device mesh read as a {@link Csr}, in the original vertex ids (what the sequential
     * references and the answers use): vertex {@code v}'s edges are those of its internal row, their targets mapped
     * back. Every read goes through the typed arrays' checks, so a read once the graph is closed throws
     * {@link IllegalStateException} instead of touching freed memory; it is the checked path for the references
     * computed from the device copy (no host copy exists), not for kernels.
     *
     * @return the view, valid while the graph is open
     * @throws IllegalStateException when the graph is closed, spans several devices or its device is another
     *                               process's
     */
    public Csr csr() {
        if (leases.isClosed()) {
            throw new IllegalStateException(this + " is closed: place or load the graph again to read it");
        }
        if (devices() != 1 || !mesh.world().isLocal(0)) {
            throw new IllegalStateException(this + ": only the graph of one device in this process reads as a Csr");
        }
        return new SliceCsr(partition, offsets[0], targets[0], weights == null ? null : weights[0], summary.vertexCount(),
            localEdges[0], summary.isSymmetric(), summary.isWeighted());
    }

    /**
     * Builds a graph from {@code edges} straight into the memory of a one-device mesh, the way {@link GraphBuilder}
     * builds a {@link CsrGraph} on the heap (the same two passes, checks, symmetrizing, self-loop and duplicate
     * dropping): the first pass counts the degrees on the heap, {@code meshFor} then builds the mesh for the counted
     * graph, the second pass writes each edge into the device's slice, and duplicates are dropped there. So the graph
     * exists once, in device memory, where placing a loaded graph holds it twice (the host CSR and the device copy).
     * The slice is in the original ids ({@link Partition#byEdges} of one device); its edge arrays keep the room of the
     * first pass's count when duplicates were dropped (as {@link GraphBuilder} keeps its arrays).
     *
     * @param edges       the edges, read twice in the same order
     * @param vertexCount the vertex count, or -1 for the largest id plus one
     * @param options     the cleaning steps
     * @param symmetricIn whether the edges already hold both directions of every edge
     * @param withWeights whether to place weights (unit weights when the edges have none)
     * @param meshFor     builds the mesh once the graph's size is known: one device in this process with at least
     *                    the bytes it is given free; the load owns it until it returns, and closes it if it fails
     * @param progress    progress reporting
     * @return the graph, on the mesh {@code meshFor} built (close both: {@link #closeWithMesh()})
     * @throws IllegalArgumentException as {@link GraphBuilder} does for bad edges
     * @throws IllegalStateException    when {@code meshFor} fails or builds a mesh that is not one device in this
     *                                  process, or the mesh has no room (the message names free and needed bytes)
     */
    public static DeviceGraph load(final EdgeStream edges, final int vertexCount, final BuildOptions options,
        final boolean symmetricIn, final boolean withWeights, final MeshFor meshFor, final Progress progress) {
        return GraphBuilder.build(edges, vertexCount, options, symmetricIn, progress, loading(withWeights, meshFor));
    }

    /**
     * The destination of a {@link #load}, for any source of edges a {@link GraphBuilder} reads (a file's reader, a
     * generator): one per graph. A second build into it is refused with an {@link IllegalStateException} before
     * anything is allocated (the first graph and its mesh are untouched).
     *
     * @param withWeights whether to place weights (unit weights when the edges have none)
     * @param meshFor     builds the mesh once the graph's size is known (see {@link #load})
     * @return the destination
     */
    public static GraphBuilder.Destination<DeviceGraph> loading(final boolean withWeights, final MeshFor meshFor) {
        return new Loading(withWeights, Objects.requireNonNull(meshFor, "meshFor"));
    }

    /** Builds the mesh a {@link #load} writes into, once the graph's size is known. */
    @FunctionalInterface
    public interface MeshFor {
        /**
         * @param vertices   the graph's vertices
         * @param edges      the edges of the first pass (duplicates are dropped later)
         * @param graphBytes the device bytes the graph takes ({@link #bytesFor}); a device holds at least 4096
         *                   ({@link Mesh.Builder#memoryPerDevice}), so a mesh for the graph alone asks for
         *                   {@code Math.max(4096, graphBytes)}, and one for runs adds their state
         * @return a mesh of one device in this process with at least {@code graphBytes} free
         */
        Mesh build(int vertices, long edges, long graphBytes);
    }

    /**
     * @return device bytes a one-device slice of {@code vertices} and {@code edges} takes, as {@link #bytesPerDevice}
     *         counts them
     */
    public static long bytesFor(final int vertices, final long edges, final boolean withWeights) {
        return align((vertices + 1L) * 8) + align(Math.max(1, edges) * 4) * (withWeights ? 2 : 1);
    }

    /** {@link #load}'s destination: the mesh and the slice's arrays, then the placed graph. Not thread-safe. */
    private static final class Loading implements GraphBuilder.Destination<DeviceGraph> {
        private final boolean withWeights;
        private final MeshFor meshFor;
        private Mesh mesh;
        /** Set by the first {@link #allocate}: a destination builds one graph. */
        private boolean used;
        /** Set once {@link #finish} has made the graph: the mesh is the graph's holder's, not this load's, after. */
        private boolean built;
        private final List<SymmetricArray<?>> storage = new ArrayList<>(3);
        private DeviceEdges slots;
        private int vertices;
        private boolean weightedIn;

        Loading(final boolean withWeights, final MeshFor meshFor) {
            this.withWeights = withWeights;
            this.meshFor = meshFor;
        }

        @Override
        public EdgeArrays allocate(final int vertices, final long edges, final boolean weighted) {
            if (used) {
                throw new IllegalStateException("a loading destination builds one graph: ask DeviceGraph.loading for "
                    + "another");
            }
            used = true;
            final long bytes = bytesFor(vertices, edges, withWeights);
            this.vertices = vertices;
            this.weightedIn = weighted;
            // a bad mesh is the caller's mistake, not the edges': IllegalStateException, which a reader does not
            // report as a malformed file (it wraps the builder's IllegalArgumentExceptions, about the edges)
            try {
                mesh = meshFor.build(vertices, edges, bytes);
            } catch (final IllegalArgumentException e) {
                throw new IllegalStateException("meshFor could not build a mesh for " + vertices + " vertices and "
                    + edges + " edges (" + bytes + " bytes of graph): " + e.getMessage(), e);
            }
            if (mesh == null) {
                throw new IllegalStateException("meshFor built no mesh");
            }
            if (mesh.deviceCount() != 1 || !mesh.world().isLocal(0)) {
                throw new IllegalStateException("a graph loads into a mesh of one device in this process, not "
                    + mesh);
            }
            final SymmetricArray<LongArray> off = keep(mesh.allocateLongs(vertices + 1L));
            final SymmetricArray<IntArray> tgt = keep(mesh.allocateInts(Math.max(1, edges)));
            final SymmetricArray<IntArray> wgt = withWeights ? keep(mesh.allocateInts(Math.max(1, edges))) : null;
            slots = new DeviceEdges(off.on(0), tgt.on(0), wgt != null ? wgt.on(0) : null, edges, weighted);
            return slots;
        }

        private <A extends dev.overlap.core.DeviceArray> SymmetricArray<A> keep(final SymmetricArray<A> array) {
            storage.add(array);
            return array;
        }

        @Override
        public DeviceGraph finish(final long[] offsets, final EdgeArrays edges, final boolean symmetric) {
            final LongArray off = slots.offsets;
            for (int v = 0; v <= vertices; v++) {
                off.set(v, offsets[v]);
            }
            final long m = offsets[vertices];
            final Csr view = new SliceCsr(null, off, slots.targets, slots.weights, vertices, m, symmetric, weightedIn);
            final GraphSummary summary = GraphSummary.of(view);
            final DeviceGraph dg = new DeviceGraph(mesh, Partition.byEdges(view, 1), summary, withWeights);
            dg.offsets[0] = off;
            dg.targets[0] = slots.targets;
            if (withWeights) {
                dg.weights[0] = slots.weights;
            }
            dg.localEdges[0] = m;
            dg.storage.addAll(storage);
            built = true;
            return dg;
        }

        @Override
        public void abandon() {
            if (mesh != null && !built) {
                mesh.close(); // frees the arrays with it
            }
        }
    }

    /**
     * The edge slots of a {@link #load}: device memory written through the typed arrays (checked, so a bug in the
     * build cannot write outside them). One thread writes and moves; the deduplication's threads sort disjoint rows.
     */
    private static final class DeviceEdges implements EdgeArrays {
        final LongArray offsets;
        final IntArray targets;
        final IntArray weights;
        private final long length;
        private final boolean weightedIn;

        DeviceEdges(final LongArray offsets, final IntArray targets, final IntArray weights, final long length,
            final boolean weightedIn) {
            this.offsets = offsets;
            this.targets = targets;
            this.weights = weights;
            this.length = length;
            this.weightedIn = weightedIn;
        }

        @Override
        public boolean weighted() {
            return weights != null;
        }

        @Override
        public long length() {
            return length;
        }

        @Override
        public void put(final long slot, final int target, final int weight) {
            targets.set((int)slot, target);
            if (weights != null) {
                weights.set((int)slot, weightedIn ? weight : 1);
            }
        }

        @Override
        public int dedupeRow(final long from, final long to, final long[][] scratch) {
            final int count = (int)(to - from);
            final long[] pairs = EdgeArrays.Rows.pairs(scratch, count);
            for (int r = 0; r < count; r++) {
                final int slot = (int)from + r;
                pairs[r] = EdgeArrays.Rows.pair(targets.get(slot), weights != null ? weights.get(slot) : 0);
            }
            final int kept = EdgeArrays.Rows.sortAndKeepFirst(pairs, count);
            for (int r = 0; r < kept; r++) {
                final int slot = (int)from + r;
                targets.set(slot, EdgeArrays.Rows.target(pairs[r]));
                if (weights != null) {
                    weights.set(slot, EdgeArrays.Rows.weight(pairs[r]));
                }
            }
            return kept;
        }

        @Override
        public void move(final long from, final long to, final int count) {
            for (int i = 0; i < count; i++) { // to < from: a forward copy never overwrites a slot it has yet to read
                targets.set((int)to + i, targets.get((int)from + i));
                if (weights != null) {
                    weights.set((int)to + i, weights.get((int)from + i));
                }
            }
        }
    }

    /**
     * A one-device slice read as a {@link Csr} in the original ids ({@link #csr()}, and {@link #load}'s summary before
     * the graph exists): every read goes through the typed arrays' checks. Immutable.
     */
    private static final class SliceCsr implements Csr {
        private final Partition partition;
        private final LongArray off;
        private final IntArray tgt;
        private final IntArray wgt;
        private final int vertices;
        private final long edges;
        private final boolean symmetric;
        private final boolean weighted;

        /** @param partition the numbering, or null for the identity */
        SliceCsr(final Partition partition, final LongArray off, final IntArray tgt, final IntArray wgt,
            final int vertices, final long edges, final boolean symmetric, final boolean weighted) {
            this.partition = partition == null || partition.isIdentity() ? null : partition;
            this.off = off;
            this.tgt = tgt;
            this.wgt = wgt;
            this.vertices = vertices;
            this.edges = edges;
            this.symmetric = symmetric;
            this.weighted = weighted && wgt != null;
        }

        @Override
        public int vertexCount() {
            return vertices;
        }

        @Override
        public long edgeCount() {
            return edges;
        }

        @Override
        public boolean isSymmetric() {
            return symmetric;
        }

        @Override
        public boolean isWeighted() {
            return weighted;
        }

        @Override
        public long edgeStart(final int v) {
            return off.get(partition == null ? v : partition.internal(v));
        }

        @Override
        public long edgeEnd(final int v) {
            return off.get((partition == null ? v : partition.internal(v)) + 1);
        }

        @Override
        public int target(final long e) {
            final int t = tgt.get(edge(e));
            return partition == null ? t : partition.original(t);
        }

        @Override
        public int weight(final long e) {
            return weighted ? wgt.get(edge(e)) : 1;
        }

        private int edge(final long e) {
            if (e < 0 || e >= edges) {
                throw new IndexOutOfBoundsException("edge " + e + " of " + edges);
            }
            return (int)e;
        }
    }

    /** @return the mesh */
    public Mesh mesh() {
        return mesh;
    }

    /** @return the partition */
    public Partition partition() {
        return partition;
    }

    /** @return the summary of the host graph this was placed from (its counts, symmetry, degrees, weight facts) */
    public GraphSummary summary() {
        return summary;
    }

    /** @return number of devices */
    public int devices() {
        return partition.devices();
    }

    /** @return device {@code d}'s local offsets (the first {@code size(d) + 1} entries; the view may be longer) */
    public LongArray offsets(final int d) {
        return offsets[d];
    }

    /** @return device {@code d}'s targets (internal ids; the first {@code localEdges(d)} entries) */
    public IntArray targets(final int d) {
        return targets[d];
    }

    /** @return device {@code d}'s weights; null when placed without weights */
    public IntArray weights(final int d) {
        return weights == null ? null : weights[d];
    }

    /** @return true when weights were placed */
    public boolean hasWeights() {
        return weights != null;
    }

    /** @return edges stored on device {@code d} */
    public long localEdges(final int d) {
        return localEdges[d];
    }

    /**
     * Takes a lease for a run: the graph cannot be closed until the lease is closed ({@link LeaseCount}). One
     * compare-and-set; a run takes one, not one per kernel or item.
     *
     * @return the lease, to close when the run no longer uses the graph (try-with-resources)
     * @throws IllegalStateException if the graph is closed
     */
    public Lease lease() {
        if (!leases.acquire()) {
            throw new IllegalStateException(this + " is closed: place the graph again to run on it");
        }
        return new Lease();
    }

    /**
     * Runs {@code body} under a {@link #lease()}, released however it ends.
     *
     * @param body a run on this graph
     * @param <T>  its result
     * @return what {@code body} returned
     * @throws IllegalStateException if the graph is closed
     */
    public <T> T leased(final Supplier<T> body) {
        final Lease lease = lease();
        try {
            return body.get();
        } finally {
            lease.close();
        }
    }

    /** @return the leases held now (runs in flight); 0 once closed */
    public int runsInFlight() {
        return leases.held();
    }

    /**
     * Frees the slices; idempotent. Across processes collective, as the placement was.
     *
     * @throws IllegalStateException if a run holds a {@link Lease}: nothing is freed, the graph stays usable, and
     *                               closing it again once the runs have returned frees it
     */
    @Override
    public synchronized void close() {
        final int outcome = leases.tryClose();
        if (outcome == LeaseCount.ALREADY_CLOSED) {
            return;
        }
        if (outcome == LeaseCount.IN_USE) {
            throw new IllegalStateException(this + " is in use by " + runsInFlight() + " run(s): close it after they "
                + "return (nothing was freed)");
        }
        if (mesh.isClosed()) {
            return;
        }
        for (int i = storage.size() - 1; i >= 0; i--) {
            storage.get(i).close();
        }
    }

    /**
     * Closes this graph, then its mesh: for a graph on a mesh of its own ({@link #load}, or a runner's placement),
     * whose holder owns the mesh with the graph.
     *
     * @throws IllegalStateException if a run holds a {@link Lease}: as {@link #close()}, nothing is closed or freed
     *                               (the mesh neither: its memory holds the slices the run reads)
     */
    public void closeWithMesh() {
        close();
        mesh.close();
    }

    @Override
    public String toString() {
        return "DeviceGraph{" + summary.vertexCount() + " vertices, " + summary.edgeCount() + " edges on "
            + partition.devices() + " device(s)}";
    }

    /**
     * A run's hold on the graph ({@link #lease()}). Closing it more than once has no further effect. Confined to the
     * thread that runs with it.
     */
    public final class Lease implements AutoCloseable {
        private boolean released;

        private Lease() {
        }

        /** Releases the hold; the graph may be closed once no lease is held. */
        @Override
        public void close() {
            if (!released) {
                released = true;
                leases.release();
            }
        }
    }
}
