package dev.overlap.graph.app;

import dev.overlap.core.Mesh;
import dev.overlap.core.World;
import dev.overlap.core.WorldConfig;
import dev.overlap.graph.CsrGraph;
import dev.overlap.graph.EdgeArrays;
import dev.overlap.graph.GraphBuilder;
import dev.overlap.graph.GraphSummary;
import dev.overlap.graph.partition.DeviceGraph;
import dev.overlap.graph.partition.Partition;

import org.agrona.concurrent.IdleStrategy;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Runs a {@link GraphApp} on a fresh mesh the way every command measures it: partition the graph, size each device's
 * memory for its slice plus the model's state for this app, build the mesh, place the graph, drop the host graph
 * ({@link HostGraph}: the runs read its {@link GraphSummary}), run the {@link Warmup} (untimed runs) and {@code runs}
 * timed ones on the placed graph, close everything. The time of a run is the provider's own
 * ({@link AppResult#nanos()}: state initialisation and supersteps; not placement). A model that runs on one worker
 * ({@link GraphAlgorithms#singleWorker()}, {@code solo}) gets a mesh of one device with one worker, and one that runs
 * on one device ({@link GraphAlgorithms#oneDevice()}, {@code coop}) a mesh of one device with devices x workers per
 * device workers, whatever the builder was given; {@link Measurement#devices()} and
 * {@link Measurement#threadsPerDevice()} say what ran. {@link #place} does the first half alone and leaves the graph
 * placed for the caller's own runs ({@link Placed}: queries from many sources, a benchmark harness).
 *
 * <p><b>Across processes.</b> With a {@link Builder#world WorldConfig} the mesh spans several processes (ranks) on
 * one host and every rank calls {@link #measure} with the same graph, app and settings (SPMD): each rank builds the
 * mesh with the same devices and memory (the world checks it), places the slices of its own devices, runs its own
 * devices' kernels, and the runs meet at the world's barriers. The ranks check that they agree on the graph and the
 * run before placing it ({@link dev.overlap.core.World#checkSame}); the early end of the timed runs
 * ({@link Builder#stopRunsWhen}) is decided together (any rank's stop stops all). Every rank gets the whole answer.
 *
 * <p>Thread-safety: immutable; {@link #measure} may be called from several threads, each call builds and closes its
 * own mesh (on a small machine, one at a time is what measures anything).
 */
public final class AppRunner {
    /**
     * Device memory beyond the graph and the app's reported state, for the modes that build a transport (inboxes,
     * worklist rings, exchange buffers: sized by their builders, with alignment the estimate does not repeat).
     */
    private static final long SLACK = 8L << 20;
    /**
     * The same for the one-device modes ({@code solo}, {@code coop}): their runs allocate exactly the state they
     * report (alignment included), so the slack covers allocation granularity only. The device memory is zeroed, so
     * resident, from the mesh's start: slack no run uses is resident memory for nothing.
     */
    private static final long ONE_DEVICE_SLACK = 1L << 20;
    /** Heap a run may leave behind before the next run starts on a collected heap ({@link #collectBetweenRuns}). */
    private static final long RUN_GARBAGE = 4L << 20;
    /** The source of a {@link #place placement}: none yet, each {@link Placed#run} names and checks its own. */
    private static final int EACH_RUN = Integer.MIN_VALUE;
    /** The most memory one device can have (a mesh's limit, just under 2 GiB). */
    public static final long MAX_DEVICE_BYTES = Integer.MAX_VALUE - 4095L;

    /** How vertices are spread over the devices. Stateless constants; thread-safe. */
    public enum Partitioning {
        /** Contiguous id ranges balanced by edges ({@link Partition#byEdges}). */
        RANGE,
        /** {@code hash(v) mod devices} ({@link Partition#byHash}). */
        HASH,
        /** Edge-balanced ranges renumbered by decreasing degree ({@link Partition#byEdgesDegreeOrdered}). */
        DEGREE;

        /** @return the partition of {@code g} over {@code devices} devices */
        public Partition of(final CsrGraph g, final int devices) {
            switch (this) {
                case HASH:
                    return Partition.byHash(g, devices);
                case DEGREE:
                    return Partition.byEdgesDegreeOrdered(g, devices);
                default:
                    return Partition.byEdges(g, devices);
            }
        }
    }

    private final int devices;
    private final int threadsPerDevice;
    private final Partitioning partitioning;
    private final Warmup warmup;
    private final int runs;
    private final Supplier<IdleStrategy> idleStrategy;
    private final BooleanSupplier stopRuns;
    private final Path countersDirectory;
    private final WorldConfig world;

    private AppRunner(final Builder b) {
        this.devices = b.devices;
        this.threadsPerDevice = b.threadsPerDevice;
        this.partitioning = b.partitioning;
        this.warmup = new Warmup(b.warmups, b.warmupMillis);
        this.runs = b.runs;
        this.idleStrategy = b.idleStrategy;
        this.stopRuns = b.stopRuns;
        this.countersDirectory = b.countersDirectory;
        this.world = b.world;
    }

    /** @return a builder: 2 devices, 1 worker each, range partitioning, no warm-up, 1 run */
    public static Builder builder() {
        return new Builder();
    }

    /** @return devices */
    public int devices() {
        return devices;
    }

    /** @return workers per device */
    public int threadsPerDevice() {
        return threadsPerDevice;
    }

    /** @return the warm-up before the timed runs: its runs and its time floor */
    public Warmup warmup() {
        return warmup;
    }

    /** @return timed runs */
    public int runs() {
        return runs;
    }

    /**
     * Measures one app on one graph the caller keeps: as {@link #measure(HostGraph, GraphApp, GraphAlgorithms, int,
     * AppSettings)} with {@link HostGraph#of(CsrGraph) HostGraph.of(g)} (the runner lets go of {@code g} after
     * placing it, the caller holds it all along: for callers that measure the same graph several times).
     */
    public Measurement measure(final CsrGraph g, final GraphApp app, final GraphAlgorithms algorithms,
        final int source, final AppSettings settings) {
        return measure(HostGraph.of(Objects.requireNonNull(g, "g")), app, algorithms, source, settings, false);
    }

    /**
     * Measures one app on one graph, holding the host graph only until it is placed: partition it, give it to the host
     * graph's last reader, size and build the mesh, place it (across processes the last reader comes here), drop it,
     * then run. The runs read the host graph only
     * through its {@link GraphSummary} (PageRank's out-degrees, SSSP's weight check, the counts), so once the caller
     * keeps no reference to the graph either, it is garbage during the runs.
     *
     * @param host       the host graph (weighted for SSSP, or unit weights are placed); released here
     * @param app        the app
     * @param algorithms the execution model
     * @param source     source vertex of traversals (ignored by PageRank)
     * @param settings   knobs
     * @return the times and the last run's answer
     * @throws IllegalStateException when a device would need more than 2 GiB (the message says to add devices), for
     *                               SSSP on a negative weight, across processes when the ranks' graphs or settings
     *                               differ, or when {@code host} was measured before
     * @throws IllegalArgumentException for a source outside the graph, or a single-worker model
     *                                  ({@link GraphAlgorithms#singleWorker()}) on a mesh across processes
     * @throws dev.overlap.core.PeerFailedException across processes, when another rank fails
     */
    public Measurement measure(final HostGraph host, final GraphApp app, final GraphAlgorithms algorithms,
        final int source, final AppSettings settings) {
        return measure(host, app, algorithms, source, settings, true);
    }

    /**
     * Places one app's graph once for runs the caller makes: the first half of {@link #measure(HostGraph, GraphApp,
     * GraphAlgorithms, int, AppSettings) measure} (partition the graph, give it to its last reader, size and build the
     * mesh, place it, drop it), left open. It is what {@code measure} times, for a caller's own loop: a benchmark
     * harness's, or queries from many sources on one placed graph. Close it to free the mesh and its memory.
     *
     * @param host       the host graph (weighted for SSSP, or unit weights are placed); released once placed
     * @param app        the app
     * @param algorithms the execution model
     * @param settings   knobs (they size the devices' memory, so every run uses them)
     * @return the placed graph, open
     * @throws IllegalStateException as {@link #measure(HostGraph, GraphApp, GraphAlgorithms, int, AppSettings)
     *                               measure}, and for a runner across processes (whose ranks run together: measure)
     */
    public Placed place(final HostGraph host, final GraphApp app, final GraphAlgorithms algorithms,
        final AppSettings settings) {
        if (world != null) {
            throw new IllegalStateException("a runner across processes measures (every rank runs together): place "
                + "runs in one process");
        }
        return open(host, app, algorithms, EACH_RUN, settings, false);
    }

    /**
     * @param collect whether to ask for a full collection before the mesh is built and again once the graph is
     *                dropped (when the caller has let go of it too): the first lets a heap that may shrink give back
     *                what the load left behind before the devices' memory is allocated; without the second, G1 keeps a
     *                dead CSR's regions until its next collection, and meanwhile grows the heap into memory it never
     *                touched for the runs' arrays: both raise the peak resident memory
     */
    private Measurement measure(final HostGraph host, final GraphApp app, final GraphAlgorithms algorithms,
        final int source, final AppSettings settings, final boolean collect) {
        try (Placed placed = open(host, app, algorithms, source, settings, collect)) {
            return runs(placed, source, collect);
        }
    }

    /**
     * Where a graph loads for a one-device run of {@code app}: a {@link GraphBuilder.Destination} (for
     * {@link dev.overlap.graph.io.GraphReader#read(Path, dev.overlap.graph.io.GraphFormat,
     * dev.overlap.graph.BuildOptions, boolean, dev.overlap.graph.Progress, GraphBuilder.Destination) GraphReader.read}
     * or {@link GraphBuilder#build(dev.overlap.graph.EdgeStream, int, dev.overlap.graph.BuildOptions, boolean,
     * dev.overlap.graph.Progress, GraphBuilder.Destination) GraphBuilder.build}) that builds this runner's mesh of one
     * device once the first pass has counted the graph, and the graph into its memory
     * ({@link DeviceGraph#loading}): the graph is never on the heap, where a placed host graph exists twice while it
     * is copied. The mesh gets the workers and the device memory the most demanding of {@code modes} needs, so any of
     * them can run on it (a caller that chooses the mode from the loaded graph, as {@code --mode auto} does, names
     * its candidates). Hand the graph to {@link #measure(DeviceGraph, GraphApp, GraphAlgorithms, int, AppSettings)}.
     *
     * @param app   the app (its weights: SSSP's are loaded, unit weights when the edges have none)
     * @param modes the one-device models that may run on it ({@link GraphAlgorithms#singleWorker()} or
     *              {@link GraphAlgorithms#oneDevice()})
     * @return the destination, for one graph
     * @throws IllegalArgumentException for no model, or one that runs on several devices
     * @throws IllegalStateException    for a runner across processes (its ranks place a host graph together)
     */
    public GraphBuilder.Destination<DeviceGraph> loading(final GraphApp app, final GraphAlgorithms... modes) {
        Objects.requireNonNull(app, "app");
        if (world != null) {
            throw new IllegalStateException("a runner across processes places a host graph on every rank: a graph "
                + "loads into one device in one process");
        }
        if (modes.length == 0) {
            throw new IllegalArgumentException("name the modes the loaded graph is for");
        }
        int workers = 1;
        for (final GraphAlgorithms m : modes) {
            workers = Math.max(workers, workersOf(m));
        }
        final int meshWorkers = workers;
        final GraphBuilder.Destination<DeviceGraph> loading = DeviceGraph.loading(app.weighted(),
            (vertices, edges, graphBytes) -> {
                long state = 0;
                for (final GraphAlgorithms m : modes) {
                    state = Math.max(state, m.stateBytesForLoad(app, vertices, workersOf(m)));
                }
                final long perDevice = graphBytes + state + ONE_DEVICE_SLACK;
                if (perDevice > MAX_DEVICE_BYTES) {
                    throw new IllegalStateException("the graph needs " + (perDevice >> 20) + " MiB on one device, "
                        + "more than a device holds (2 GiB): use a multi-device --mode");
                }
                // the first pass's garbage (the degree counts it outgrew), before the devices' zeroed memory joins
                // the heap's: a heap that may shrink (the launcher's -XX:MaxHeapFreeRatio) gives its pages back here
                System.gc();
                return mesh(app, 1, meshWorkers, perDevice);
            });
        return new GraphBuilder.Destination<>() {
            @Override
            public EdgeArrays allocate(final int vertices, final long edges, final boolean weighted) {
                return loading.allocate(vertices, edges, weighted);
            }

            @Override
            public DeviceGraph finish(final long[] offsets, final EdgeArrays edges,
                final boolean symmetric) {
                final DeviceGraph dg = loading.finish(offsets, edges, symmetric);
                System.gc(); // the second pass's cursors and the deduplication's counts, before the caller reads it
                return dg;
            }

            @Override
            public void abandon() {
                loading.abandon();
            }
        };
    }

    /**
     * Measures one app on a graph loaded into this runner's mesh ({@link #loading}), which it takes over: the runs, as
     * {@link #measure(HostGraph, GraphApp, GraphAlgorithms, int, AppSettings) measure} times them, then the graph and
     * its mesh are closed, however the measurement ends.
     *
     * @param loaded     a graph {@link #loading} built, for a set of modes holding {@code algorithms}
     * @param algorithms the one-device model to run
     * @return the times and the last run's answer ({@link Measurement#placeMillis()} 0: the graph was placed as it
     *         loaded)
     * @throws IllegalArgumentException for a source outside the graph, a model that is not one-device, a mesh with
     *                                  fewer workers than it runs, or PageRank pulling along the in-edges of a graph
     *                                  that is not symmetric (load it symmetrized, or place a host graph: the reverse
     *                                  is built from it)
     * @throws IllegalStateException    for SSSP on a negative weight (the message names the edge)
     */
    public Measurement measure(final DeviceGraph loaded, final GraphApp app, final GraphAlgorithms algorithms,
        final int source, final AppSettings settings) {
        try (Placed placed = adopt(loaded, app, algorithms, source, settings)) {
            return runs(placed, source, true);
        }
    }

    /**
     * As {@link #measure(DeviceGraph, GraphApp, GraphAlgorithms, int, AppSettings) measure}, with the settings of the
     * warm-up and timed runs chosen on the loaded graph itself: {@code tuning} makes untimed trial runs with settings
     * of its own (for example a search for the PageRank tolerance that reaches a target error, as
     * {@code bench-graphs} makes for its to-tolerance rows) and returns the settings to measure. So the trials need
     * no second copy of the graph, and the process that is measured holds what a run with the chosen settings holds.
     * A loaded graph's device memory is sized by the app and mode, not by the settings, so any settings can run on it.
     *
     * @param loaded     a graph {@link #loading} built, for a set of modes holding {@code algorithms}
     * @param algorithms the one-device model to run
     * @param tuning     the trials and the choice ({@link Tuning#choose})
     * @return the times and the last run's answer, with the chosen settings
     * @throws IllegalArgumentException as {@link #measure(DeviceGraph, GraphApp, GraphAlgorithms, int, AppSettings)
     *                                  measure}
     * @throws IllegalStateException    as {@code measure}
     * @throws NullPointerException     for no tuning, or a tuning that returns no settings (the graph and its mesh are
     *                                  closed, as after any failure here)
     */
    public Measurement measure(final DeviceGraph loaded, final GraphApp app, final GraphAlgorithms algorithms,
        final int source, final Tuning tuning) {
        try (Placed trials = adopt(loaded, app, algorithms, source, AppSettings.defaults())) {
            Objects.requireNonNull(tuning, "tuning");
            final AtomicBoolean open = new AtomicBoolean(true); // a trial kept and called later is refused
            final long settled = usedHeap();
            final AppSettings chosen;
            try {
                chosen = Objects.requireNonNull(tuning.choose(s -> {
                    if (!open.get()) {
                        throw new IllegalStateException("a trial run after the tuning returned its settings");
                    }
                    Objects.requireNonNull(s, "settings");
                    collectBetweenRuns(true, settled); // the last trial's arrays, as between warm-up runs
                    return trials.run(source, s);
                }), "the settings the tuning chose");
            } finally {
                open.set(false);
            }
            System.gc(); // the trials' garbage, before the runs' arrays: as after a load
            return runs(trials.with(chosen), source, true);
        }
    }

    /**
     * Chooses the settings of a measurement from untimed trial runs on its graph
     * ({@link #measure(DeviceGraph, GraphApp, GraphAlgorithms, int, Tuning)}).
     */
    @FunctionalInterface
    public interface Tuning {
        /**
         * @param trial one untimed run with the settings it is given (the measurement's source, on the caller's
         *              thread); its answer belongs to the caller. Run it as often as needed, one run at a time, and
         *              only until this method returns: a trial run later throws {@link IllegalStateException}
         * @return the settings of the warm-up and timed runs
         */
        AppSettings choose(Function<AppSettings, AppResult> trial);
    }

    /** @return the workers of a one-device model's mesh */
    private int workersOf(final GraphAlgorithms m) {
        if (m.singleWorker()) {
            return 1;
        }
        if (!m.oneDevice()) {
            throw new IllegalArgumentException("--mode " + m.mode() + " runs on several devices: a graph loads into "
                + "one");
        }
        return devices * threadsPerDevice;
    }

    /** Checks a loaded graph for a run and wraps it; closes it (and its mesh) when a check fails. */
    private Placed adopt(final DeviceGraph loaded, final GraphApp app, final GraphAlgorithms algorithms,
        final int source, final AppSettings settings) {
        Objects.requireNonNull(loaded, "loaded");
        boolean adopted = false;
        try {
            Objects.requireNonNull(app, "app");
            Objects.requireNonNull(settings, "settings");
            final int workers = workersOf(Objects.requireNonNull(algorithms, "algorithms"));
            final GraphSummary graph = loaded.summary();
            if (graph.vertexCount() == 0) {
                throw new IllegalArgumentException("the graph has no vertices");
            }
            if (app.hasSource() && (source < 0 || source >= graph.vertexCount())) {
                throw new IllegalArgumentException("source " + source + " is outside 0.." + (graph.vertexCount() - 1));
            }
            // solo runs on the calling thread whatever the device has; coop on every worker, as many as this runner's
            if (loaded.devices() != 1 || !algorithms.singleWorker()
                && loaded.mesh().device(0).workerCount() != workers) {
                throw new IllegalArgumentException(loaded + " is not on a mesh of one device with " + workers
                    + " workers: load it with this runner's loading(app, modes) naming --mode " + algorithms.mode());
            }
            if (app == GraphApp.PAGERANK && algorithms.pageRankEdges() == GraphAlgorithms.PageRankEdges.IN
                && !graph.isSymmetric()) {
                throw new IllegalArgumentException("--mode " + algorithms.mode() + " pulls PageRank along in-edges, and "
                    + "the loaded graph is directed: load it symmetrized, or place a host graph (its reverse is built "
                    + "from it)");
            }
            app.requireUsable(graph);
            // the load's garbage (and the caller's reference answer's), before the runs' arrays: as after a placement
            System.gc();
            final Placed placed = new Placed(loaded.mesh(), loaded, graph, app, algorithms, settings, 0, 1, workers);
            adopted = true;
            return placed;
        } finally {
            if (!adopted) {
                loaded.closeWithMesh();
            }
        }
    }

    /**
     * The warm-up and timed runs of a measurement on a placed graph. A measurement that collects holds the heap's size
     * over its runs ({@link HeapShrinkHold}): the collections between them free the last run's arrays without giving
     * their pages back, so no run grows the heap again inside its timed part.
     */
    private Measurement runs(final Placed placed, final int source, final boolean collect) {
        if (!collect) {
            return warmupAndTimedRuns(placed, source, false);
        }
        final HeapShrinkHold hold = HeapShrinkHold.open();
        try {
            return warmupAndTimedRuns(placed, source, true);
        } finally {
            hold.close();
        }
    }

    private Measurement warmupAndTimedRuns(final Placed placed, final int source, final boolean collect) {
        final World w = placed.mesh.world();
        final long settled = usedHeap();
        // across processes a count alone (the builder refuses a floor there): every rank makes the same runs
        warmup.perform(() -> {
            placed.run(source);
            collectBetweenRuns(collect, settled);
        });
        AppResult result = null;
        double[] times = new double[runs];
        for (int r = 0; r < runs; r++) {
            if (r > 0) {
                result = null; // the last run's answer is the one kept
                collectBetweenRuns(collect, settled);
            }
            result = placed.run(source);
            times[r] = result.nanos() / 1e6;
            // decided together across processes: any rank's stop ends every rank's runs here
            if (r + 1 < runs && w.allReduceMax(stopRuns.getAsBoolean() ? 1 : 0) > 0) {
                times = Arrays.copyOf(times, r + 1);
                break;
            }
        }
        return new Measurement(result, times, placed.placeMillis, placed.devices, placed.workers, placed.graph);
    }

    /**
     * Partitions, gives the host graph to its last reader, builds the mesh, places the graph and drops it: a placed
     * graph open for runs ({@code source} {@link #EACH_RUN}: each run checks its own, in one process only).
     */
    private Placed open(final HostGraph host, final GraphApp app, final GraphAlgorithms algorithms, final int source,
        final AppSettings settings, final boolean collect) {
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(app, "app");
        Objects.requireNonNull(algorithms, "algorithms");
        Objects.requireNonNull(settings, "settings");
        final boolean solo = algorithms.singleWorker();
        final boolean oneDevice = algorithms.oneDevice();
        if ((solo || oneDevice) && world != null) {
            throw new IllegalArgumentException("--mode " + algorithms.mode() + " runs on one device in one process, "
                + "not across processes");
        }
        final int meshDevices = solo || oneDevice ? 1 : devices;
        final int meshWorkers = solo ? 1 : oneDevice ? devices * threadsPerDevice : threadsPerDevice;
        // every reference to the CSR lives in the plan (until placed) and in host (until released), none in a local
        final Plan plan = plan(host.graph(), app, algorithms, source, settings, meshDevices, meshWorkers);
        if (world == null) {
            host.readLast(); // its arrays come and go before the devices' memory is allocated
        }
        if (collect) {
            // the load's and the reference's garbage, before the devices' zeroed memory joins the heap's: a heap that
            // may shrink (the launcher's -XX:MaxHeapFreeRatio) gives its unused pages back here
            System.gc();
        }
        final Mesh mesh = mesh(app, meshDevices, meshWorkers, plan.perDevice);
        DeviceGraph dg = null;
        boolean opened = false;
        try {
            final World w = mesh.world();
            if (w.isDistributed()) {
                w.checkSame("the graph (a checksum of its vertices, edges and weights)", plan.fingerprint);
                w.checkSame("the app, mode, source and runs", java.util.Objects.hash(app.id(), algorithms.mode(),
                    source, warmup, runs, partitioning.ordinal(), settings.fingerprint()));
            }
            final long placeStart = System.nanoTime();
            dg = plan.place(mesh, app.weighted());
            final double placeMillis = (System.nanoTime() - placeStart) / 1e6;
            host.release();
            if (collect) {
                System.gc(); // before the warm-up runs: the dropped CSR's memory serves the runs' arrays
            }
            final Placed placed = new Placed(mesh, dg, plan.graph, app, algorithms, settings, placeMillis, meshDevices,
                meshWorkers);
            opened = true;
            return placed;
        } finally {
            if (!opened) { // a failed check or placement: nothing stays open
                try {
                    if (dg != null) {
                        dg.close();
                    }
                } finally {
                    mesh.close();
                }
            }
        }
    }

    /** @return a mesh for {@code app} with this runner's idle strategy, counters and world */
    private Mesh mesh(final GraphApp app, final int meshDevices, final int meshWorkers, final long perDevice) {
        final Mesh.Builder mb = Mesh.builder().name("overlap-" + app.id()).devices(meshDevices)
            .threadsPerDevice(meshWorkers).memoryPerDevice(perDevice);
        if (idleStrategy != null) {
            mb.idleStrategy(idleStrategy);
        }
        if (countersDirectory != null) {
            mb.countersDirectory(countersDirectory);
        }
        if (world != null) {
            mb.world(world);
        }
        return mb.build();
    }

    /**
     * Collects between two runs (untimed) when the last one left more than {@link #RUN_GARBAGE} bytes of heap behind:
     * a run's arrays on the heap (solo's and coop's state, every answer) are garbage once it returns, and a heap left
     * to collect them by itself grows run after run into memory no single run needs, which raises the peak resident
     * memory; a run that leaves little (small graphs, device-memory state) costs no collection. The runs hold the
     * heap's size ({@link HeapShrinkHold}), so the collection frees the arrays without giving back their pages.
     *
     * @param collect whether this measurement collects at all
     * @param settled the heap in use once the graph was placed and collected
     */
    private static void collectBetweenRuns(final boolean collect, final long settled) {
        if (collect && usedHeap() - settled > RUN_GARBAGE) {
            System.gc();
        }
    }

    /** @return bytes of heap in use (live or not yet collected) */
    private static long usedHeap() {
        final Runtime rt = Runtime.getRuntime();
        return rt.totalMemory() - rt.freeMemory();
    }

    /** @return the checked plan of a measurement of {@code g} (the graph to place, its partition, sizes, summary) */
    private Plan plan(final CsrGraph g, final GraphApp app, final GraphAlgorithms algorithms, final int source,
        final AppSettings settings, final int meshDevices, final int meshWorkers) {
        if (g.vertexCount() == 0) {
            throw new IllegalArgumentException("the graph has no vertices");
        }
        if (app.hasSource() && source != EACH_RUN && (source < 0 || source >= g.vertexCount())) {
            throw new IllegalArgumentException("source " + source + " is outside 0.." + (g.vertexCount() - 1));
        }
        final GraphSummary graph = GraphSummary.of(g);
        app.requireUsable(graph);
        final Partition p = partitioning.of(g, meshDevices);
        final CsrGraph toPlace = app.placed(g, algorithms);
        final long perDevice = bytesPerDevice(toPlace, graph, p, app, algorithms, settings, meshDevices, meshWorkers);
        return new Plan(toPlace, p, perDevice, world != null ? g.fingerprint() : 0, graph, toPlace == g);
    }

    /**
     * What a measurement places and how: the graph to place (the app's graph, or its reverse), held only until
     * {@link #place}, its partition and memory per device, the app's graph's fingerprint (across processes) and
     * summary (which the placed graph shares when it is the app's graph itself). Not thread-safe; one measurement's.
     */
    private static final class Plan {
        private CsrGraph toPlace;
        private final Partition partition;
        private final long perDevice;
        private final long fingerprint;
        private final GraphSummary graph;
        private final boolean placesTheGraph;

        Plan(final CsrGraph toPlace, final Partition partition, final long perDevice, final long fingerprint,
            final GraphSummary graph, final boolean placesTheGraph) {
            this.toPlace = toPlace;
            this.placesTheGraph = placesTheGraph;
            this.partition = partition;
            this.perDevice = perDevice;
            this.fingerprint = fingerprint;
            this.graph = graph;
        }

        /** Places the graph and forgets it (the device graph keeps its summary only). */
        DeviceGraph place(final Mesh mesh, final boolean weighted) {
            final CsrGraph g = toPlace;
            toPlace = null;
            return placesTheGraph ? DeviceGraph.place(mesh, g, graph, partition, weighted)
                : DeviceGraph.place(mesh, g, partition, weighted);
        }
    }

    private static long bytesPerDevice(final CsrGraph toPlace, final GraphSummary graph, final Partition p,
        final GraphApp app, final GraphAlgorithms algorithms, final AppSettings settings, final int devices,
        final int threadsPerDevice) {
        int maxOwned = 0;
        for (int d = 0; d < devices; d++) {
            maxOwned = Math.max(maxOwned, p.size(d));
        }
        final long perDevice = DeviceGraph.bytesPerDevice(toPlace, p, app.weighted())
            + algorithms.stateBytesPerDevice(app, graph, maxOwned, devices, threadsPerDevice, settings)
            + (algorithms.singleWorker() || algorithms.oneDevice() ? ONE_DEVICE_SLACK : SLACK);
        if (perDevice > MAX_DEVICE_BYTES) {
            throw new IllegalStateException("the graph needs " + (perDevice >> 20) + " MiB per device on " + devices
                + " devices, more than a device holds (2 GiB): " + (algorithms.singleWorker() ? "use a parallel --mode"
                : "use more --devices"));
        }
        return perDevice;
    }

    @Override
    public String toString() {
        return "AppRunner{" + devices + " devices x " + threadsPerDevice + " workers, " + partitioning + ", "
            + warmup.describe() + " + " + runs + " runs}";
    }

    /**
     * One app's graph placed on a mesh of its own ({@link #place}), open for runs: {@link #run} is one run as
     * {@link #measure(HostGraph, GraphApp, GraphAlgorithms, int, AppSettings) measure} times it (the provider's own
     * time, in {@link AppResult#nanos()}). {@link #close} closes the placed graph, then the mesh; a second close does
     * nothing, and a run after it is refused with an {@link IllegalStateException}.
     *
     * <p>Thread-safety: one run at a time (the runs share the mesh's workers); {@link #close} may come from any
     * thread, and is refused while a run holds the placed graph (nothing is closed or freed).
     */
    public static final class Placed implements AutoCloseable {
        private final Mesh mesh;
        private final DeviceGraph placedGraph;
        private final GraphSummary graph;
        private final GraphApp app;
        private final GraphAlgorithms algorithms;
        private final AppSettings settings;
        private final double placeMillis;
        private final int devices;
        private final int workers;

        Placed(final Mesh mesh, final DeviceGraph placedGraph, final GraphSummary graph, final GraphApp app,
            final GraphAlgorithms algorithms, final AppSettings settings, final double placeMillis, final int devices,
            final int workers) {
            this.mesh = mesh;
            this.placedGraph = placedGraph;
            this.graph = graph;
            this.app = app;
            this.algorithms = algorithms;
            this.settings = settings;
            this.placeMillis = placeMillis;
            this.devices = devices;
            this.workers = workers;
        }

        /**
         * One run of the app on the placed graph.
         *
         * @param source the source vertex (ignored by PageRank)
         * @return its answer, work counts and time
         * @throws IllegalArgumentException for a source outside the graph
         * @throws IllegalStateException    once closed
         */
        public AppResult run(final int source) {
            return run(source, settings);
        }

        /** One run with other settings than the placed graph's (a loaded graph's memory does not depend on them). */
        AppResult run(final int source, final AppSettings with) {
            if (app.hasSource() && (source < 0 || source >= graph.vertexCount())) {
                throw new IllegalArgumentException("source " + source + " is outside 0.." + (graph.vertexCount() - 1));
            }
            return app.run(algorithms, placedGraph, graph, source, with);
        }

        /** @return this placed graph with other settings for its runs: the same graph and mesh, closed by either */
        Placed with(final AppSettings other) {
            return new Placed(mesh, placedGraph, graph, app, algorithms, other, placeMillis, devices, workers);
        }

        /** @return the summary of the placed app's graph (not its reverse): counts and out-degrees */
        public GraphSummary graph() {
            return graph;
        }

        /** @return milliseconds it took to place the graph into device memory */
        public double placeMillis() {
            return placeMillis;
        }

        /** @return devices of the mesh (1 for a single-worker or one-device model) */
        public int devices() {
            return devices;
        }

        /** @return workers per device of the mesh */
        public int threadsPerDevice() {
            return workers;
        }

        /**
         * Closes the placed graph, then the mesh.
         *
         * @throws IllegalStateException while a run holds the placed graph: nothing is closed or freed, close again
         *                               once it returns
         */
        @Override
        public void close() {
            placedGraph.closeWithMesh();
        }

        @Override
        public String toString() {
            return "AppRunner.Placed{" + app + " " + algorithms.mode() + ", " + devices + "x" + workers + ", "
                + graph.vertexCount() + " vertices}";
        }
    }

    /** Times of the timed runs and the answer of the last. Immutable; thread-safe. */
    public static final class Measurement {
        private final AppResult result;
        private final double[] runMillis;
        private final double placeMillis;
        private final int devices;
        private final int threadsPerDevice;
        private final GraphSummary graph;

        Measurement(final AppResult result, final double[] runMillis, final double placeMillis, final int devices,
            final int threadsPerDevice, final GraphSummary graph) {
            this.result = result;
            this.graph = graph;
            this.runMillis = runMillis;
            this.placeMillis = placeMillis;
            this.devices = devices;
            this.threadsPerDevice = threadsPerDevice;
        }

        /** @return the summary of the measured graph (the app's graph, not its reverse): counts and out-degrees */
        public GraphSummary graph() {
            return graph;
        }

        /** @return the last timed run's answer and work counts */
        public AppResult result() {
            return result;
        }

        /** @return every timed run's milliseconds, in run order (a copy) */
        public double[] runMillis() {
            return runMillis.clone();
        }

        /** @return the median of {@link #runMillis()} (the upper median for an even count) */
        public double medianMillis() {
            return median(runMillis);
        }

        /** @return the fastest run */
        public double bestMillis() {
            double b = Double.POSITIVE_INFINITY;
            for (final double t : runMillis) {
                b = Math.min(b, t);
            }
            return b;
        }

        /** @return the slowest run */
        public double worstMillis() {
            double w = Double.NEGATIVE_INFINITY;
            for (final double t : runMillis) {
                w = Math.max(w, t);
            }
            return w;
        }

        /** @return milliseconds to place the graph into device memory */
        public double placeMillis() {
            return placeMillis;
        }

        /** @return devices of the mesh that ran (1 for a single-worker model) */
        public int devices() {
            return devices;
        }

        /** @return workers per device of the mesh that ran (1 for a single-worker model) */
        public int threadsPerDevice() {
            return threadsPerDevice;
        }
    }

    /** @return the median of {@code values} (the upper median for an even count) */
    public static double median(final double[] values) {
        if (values.length == 0) {
            throw new IllegalArgumentException("no values");
        }
        final double[] s = values.clone();
        Arrays.sort(s);
        return s[s.length / 2];
    }

    /** Validating builder; not thread-safe. */
    public static final class Builder {
        private int devices = 2;
        private int threadsPerDevice = 1;
        private Partitioning partitioning = Partitioning.RANGE;
        private int warmups;
        private long warmupMillis;
        private int runs = 1;
        private Supplier<IdleStrategy> idleStrategy;
        private BooleanSupplier stopRuns = () -> false;
        private Path countersDirectory;
        private WorldConfig world;

        private Builder() {
        }

        /**
         * @param config run across processes: this process is rank {@code config.rank()} of a mesh that spans
         *               {@code config.ranks()} processes on this host (see the class comment); default: one process
         */
        public Builder world(final WorldConfig config) {
            this.world = Objects.requireNonNull(config, "config");
            return this;
        }

        /** @param n devices, 1..64 */
        public Builder devices(final int n) {
            if (n < 1 || n > 64) {
                throw new IllegalArgumentException("devices must be in 1..64, was " + n);
            }
            this.devices = n;
            return this;
        }

        /** @param n workers per device, 1..1024 */
        public Builder threadsPerDevice(final int n) {
            if (n < 1 || n > 1024) {
                throw new IllegalArgumentException("threads per device must be in 1..1024, was " + n);
            }
            this.threadsPerDevice = n;
            return this;
        }

        /** @param p vertex partitioning */
        public Builder partitioning(final Partitioning p) {
            this.partitioning = Objects.requireNonNull(p, "partitioning");
            return this;
        }

        /** @param n untimed runs before the timed ones, 0..1000 */
        public Builder warmups(final int n) {
            if (n < 0 || n > 1000) {
                throw new IllegalArgumentException("warm-up runs must be in 0..1000, was " + n);
            }
            this.warmups = n;
            return this;
        }

        /**
         * @param millis keep warming up past {@link #warmups} until the warm-up has lasted this long, 0..600,000
         *               (default 0: the runs alone); see {@link Warmup}. In one process only: {@link #build} refuses
         *               it with a {@link #world}, where every rank must make the same runs
         */
        public Builder warmupMillis(final long millis) {
            this.warmupMillis = new Warmup(0, millis).minMillis(); // checks the range
            return this;
        }

        /** @param n timed runs, 1..1000 */
        public Builder runs(final int n) {
            if (n < 1 || n > 1000) {
                throw new IllegalArgumentException("runs must be in 1..1000, was " + n);
            }
            this.runs = n;
            return this;
        }

        /**
         * @param directory publish the mesh's counters (transport, worklist) to this process's counters file there,
         *                  for {@code overlap stat} (default: the mesh's default)
         */
        public Builder countersDirectory(final Path directory) {
            this.countersDirectory = Objects.requireNonNull(directory, "directory");
            return this;
        }

        /** @param idle the workers' idle strategy (default: the mesh's) */
        public Builder idleStrategy(final Supplier<IdleStrategy> idle) {
            this.idleStrategy = Objects.requireNonNull(idle, "idle");
            return this;
        }

        /**
         * @param stop asked after each timed run but the last: true ends the timed runs there (the answer is the last
         *             run's, the times those run so far); default never
         */
        public Builder stopRunsWhen(final BooleanSupplier stop) {
            this.stopRuns = Objects.requireNonNull(stop, "stop");
            return this;
        }

        /** @return the runner */
        public AppRunner build() {
            if (world != null && warmupMillis > 0) {
                throw new IllegalArgumentException("a warm-up time floor (" + warmupMillis + " ms) would end after "
                    + "different runs in different processes, whose runs meet at barriers: give warm-up runs only "
                    + "across processes");
            }
            return new AppRunner(this);
        }
    }
}
