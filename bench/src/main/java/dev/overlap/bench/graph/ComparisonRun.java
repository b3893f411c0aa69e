package dev.overlap.bench.graph;

import dev.overlap.graph.ConsoleProgress;
import dev.overlap.graph.CsrGraph;
import dev.overlap.graph.app.AppResult;
import dev.overlap.graph.app.AppRunner;
import dev.overlap.graph.app.AppSettings;
import dev.overlap.graph.app.GraphAlgorithms;
import dev.overlap.graph.app.GraphApp;
import dev.overlap.graph.gen.GraphSpec;
import dev.overlap.graph.ref.Verification;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * Runs the comparison graph by graph: generates the graph, measures the single-threaded Java CSR references first
 * (their answers are what every other row is checked against), then each Overlap mode (in a forked JVM unless told
 * otherwise), then JGraphT on a copy when it fits in the heap. Every implementation gets the same warm-ups and timed
 * runs, and every answer is verified. Rendering is {@link ComparisonReport}'s job. Not thread-safe; one run per
 * instance.
 */
final class ComparisonRun {
    static final String JGRAPHT = "jgrapht 1.5.3";
    static final String JAVA = "java csr";
    /**
     * Async PageRank has no iterations (Atos: push residuals until every one is below a threshold): it runs to this L1
     * tolerance and is verified against power iteration to it.
     */
    static final double ASYNC_PR_TOLERANCE = 1e-4;

    private final long seed;
    private final boolean quiet;
    private final boolean child;
    private final boolean childWeights;
    private final ForkedMeasurement forker;
    private final int warmups;
    private final int runs;
    private final int prIterations;
    private final LongSupplier heapAvailable;
    private final Consumer<String> status;
    private final List<ComparisonRow> rows = new ArrayList<>();
    private final List<ComparisonGraph> graphs = new ArrayList<>();
    private final Set<String> notes;

    /**
     * @param child         whether this JVM is a forked measurement (one mode and app; the references run once)
     * @param childWeights  a forked measurement whose parent generated the graphs with weights
     * @param forker        measures each Overlap mode and app in a JVM of its own, or null to measure here
     * @param heapAvailable heap bytes free for the JGraphT copy
     * @param status        where progress lines go
     * @param notes         notes so far (modes without a provider)
     */
    ComparisonRun(final long seed, final boolean quiet, final boolean child, final boolean childWeights,
        final ForkedMeasurement forker, final int warmups, final int runs, final int prIterations,
        final LongSupplier heapAvailable, final Consumer<String> status, final Set<String> notes) {
        this.seed = seed;
        this.quiet = quiet;
        this.child = child;
        this.childWeights = childWeights;
        this.forker = forker;
        this.warmups = warmups;
        this.runs = runs;
        this.prIterations = prIterations;
        this.heapAvailable = heapAvailable;
        this.status = status;
        this.notes = new LinkedHashSet<>(notes);
    }

    /** @return the rows so far, graph by graph, app by app within a graph */
    List<ComparisonRow> rows() {
        return List.copyOf(rows);
    }

    /** @return the graphs so far */
    List<ComparisonGraph> graphs() {
        return List.copyOf(graphs);
    }

    /** @return the notes so far */
    Set<String> notes() {
        return new LinkedHashSet<>(notes);
    }

    /**
     * Measures every app of {@code apps} on one graph with every implementation of {@code impls}.
     *
     * @param providers Overlap's available modes
     * @param runner    the Overlap mesh, warm-ups and runs
     * @param settings  the settings every fixed-iteration run uses
     */
    void measureGraph(final GraphSpec gs, final Set<GraphApp> apps, final Set<String> impls,
        final Map<String, GraphAlgorithms> providers, final AppRunner runner, final AppSettings settings)
        throws IOException {
        boolean needWeights = childWeights;
        for (final GraphApp a : apps) {
            needWeights |= a.weighted();
        }
        final long genStart = System.nanoTime();
        final CsrGraph weighted = gs.build(seed, needWeights, ConsoleProgress.forConsole(quiet));
        final double genMillis = (System.nanoTime() - genStart) / 1e6;
        final CsrGraph plain = weighted.withoutWeights();
        final String name = gs.toString();
        final int source = GraphApp.defaultSource(plain, seed);
        graphs.add(new ComparisonGraph(name, plain.vertexCount(), plain.edgeCount(), source, genMillis));
        status.accept(String.format(Locale.ROOT, "%s: %,d vertices, %,d edges, source %d, generated in %.0f ms", name,
            plain.vertexCount(), plain.edgeCount(), source, genMillis));
        // The sequential runs come first: their answers are the references of every other row.
        final Map<GraphApp, GraphApp.Expected> expected = new LinkedHashMap<>();
        final Map<GraphApp, Double> javaMillis = new LinkedHashMap<>();
        final int firstRow = rows.size();
        for (final GraphApp app : apps) {
            final CsrGraph g = app.weighted() ? weighted : plain;
            System.gc();
            AppResult seq = null;
            // a forked measurement only needs the answer, once
            final int seqRuns = child ? 1 : runs;
            final double[] times = new double[seqRuns];
            for (int i = child ? 0 : -warmups; i < seqRuns; i++) {
                seq = app.sequential(g, source, settings);
                if (i >= 0) {
                    times[i] = seq.nanos() / 1e6;
                }
            }
            expected.put(app, app.expected(g, source, settings, seq));
            final ComparisonRow row = new ComparisonRow(name, app, JAVA, "1", times, app.edgesTraversed(g, seq),
                Verification.pass("the reference (checked against itself: its answer is the expected one)"));
            javaMillis.put(app, row.median());
            if (impls.contains("java")) {
                add(row);
            }
        }
        for (final Map.Entry<String, GraphAlgorithms> p : providers.entrySet()) {
            for (final GraphApp app : apps) {
                if (forker != null) {
                    final ComparisonRow row = forker.measure(gs, name, app, p.getKey(), needWeights, notes);
                    if (row != null) {
                        add(row);
                    }
                    continue;
                }
                measureOverlap(name, app.weighted() ? weighted : plain, source, app, p.getKey(), p.getValue(), runner,
                    expected.get(app));
            }
        }
        if (impls.contains("jgrapht")) {
            measureJGraphT(name, weighted, plain, source, apps, settings, expected);
        }
        // Measured implementation by implementation (one JGraphT copy at a time); shown app by app.
        final List<ComparisonRow> mine = new ArrayList<>();
        for (final ComparisonRow row : rows.subList(firstRow, rows.size())) {
            mine.add(row.withJavaMillis(javaMillis.get(row.app)));
        }
        mine.sort(Comparator.comparing((ComparisonRow x) -> x.app));
        rows.subList(firstRow, rows.size()).clear();
        rows.addAll(mine);
    }

    private void add(final ComparisonRow row) {
        rows.add(row);
        status.accept(ComparisonReport.statusLine(row));
    }

    private void measureOverlap(final String name, final CsrGraph g, final int source, final GraphApp app,
        final String mode, final GraphAlgorithms provider, final AppRunner runner, final GraphApp.Expected expected) {
        System.gc();
        final boolean toTolerance = app == GraphApp.PAGERANK && "async".equals(mode);
        // the app's own worklist, as `--queue auto` picks it: priority for SSSP, FIFO for BFS and PageRank
        final AppSettings s = toTolerance
            ? AppSettings.builder().tolerance(ASYNC_PR_TOLERANCE).queue(app.autoQueue()).build()
            : AppSettings.builder().fixedIterations(prIterations).queue(app.autoQueue()).build();
        if (toTolerance) {
            notes.add("async pr has no iterations: it runs to an L1 tolerance of " + ASYNC_PR_TOLERANCE
                + " and is verified against power iteration to that tolerance (the others run " + prIterations
                + " iterations)");
        }
        final AppRunner.Measurement m;
        try {
            m = runner.measure(g, app, provider, source, s);
        } catch (final UnsupportedOperationException e) {
            notes.add(mode + " " + app + " skipped: the provider does not support it (" + e.getMessage() + ")");
            return;
        } catch (final IllegalStateException e) {
            notes.add(mode + " " + app + " on " + name + " skipped: " + e.getMessage());
            return;
        }
        add(new ComparisonRow(name, app, "overlap " + mode, runner.devices() + "x" + runner.threadsPerDevice(),
            m.runMillis(), app.edgesTraversed(g, m.result()),
            (toTolerance ? app.expected(g, source, s, null) : expected).check(m.result())));
    }

    private void measureJGraphT(final String name, final CsrGraph weighted, final CsrGraph plain, final int source,
        final Set<GraphApp> apps, final AppSettings settings, final Map<GraphApp, GraphApp.Expected> expected) {
        System.gc();
        final long need = JGraphTPeer.estimateBytes(weighted);
        final long free = heapAvailable.getAsLong();
        if (need > free) {
            notes.add(String.format(Locale.ROOT, "%s skipped on %s: needs about %,d MiB of heap, %,d MiB free (raise "
                + "-Xmx, e.g. OVERLAP_JAVA_OPTS=-Xmx16g)", JGRAPHT, name, need >> 20, free >> 20));
            return;
        }
        final JGraphTPeer peer;
        try {
            final long buildStart = System.nanoTime();
            peer = JGraphTPeer.copyOf(weighted);
            status.accept(String.format(Locale.ROOT, "%s: %s copy built in %.0f ms", name, JGRAPHT,
                (System.nanoTime() - buildStart) / 1e6));
        } catch (final OutOfMemoryError e) {
            notes.add(JGRAPHT + " skipped on " + name + ": the heap ran out while copying the graph (raise -Xmx)");
            return;
        }
        try {
            for (final GraphApp app : apps) {
                final CsrGraph g = app.weighted() ? weighted : plain;
                final GraphApp.Expected ex = expected.get(app);
                System.gc();
                final double[] times = new double[runs];
                Verification v = null;
                long traversed = 0;
                for (int i = -warmups; i < runs; i++) {
                    final long t0 = System.nanoTime();
                    switch (app) {
                        case BFS: {
                            final JGraphTPeer.Bfs b = peer.bfs(source);
                            final long t1 = System.nanoTime();
                            if (i == runs - 1) {
                                final int[] depths = b.depths(ex.depths());
                                v = b.reached() != ex.reached() ? Verification.fail("JGraphT reached " + b.reached()
                                    + " vertices, sequential BFS " + ex.reached()) : Verification.depths(ex.depths(),
                                    depths);
                                traversed = app.edgesTraversed(g, AppResult.bfs(depths, 0, null));
                            }
                            record(times, i, t0, t1);
                            break;
                        }
                        case SSSP: {
                            final var paths = peer.dijkstra(source);
                            final long t1 = System.nanoTime();
                            if (i == runs - 1) {
                                final long[] d = peer.distances(paths);
                                v = Verification.distances(ex.distances(), d);
                                traversed = app.edgesTraversed(g, AppResult.sssp(d, 0, null));
                            }
                            record(times, i, t0, t1);
                            break;
                        }
                        default: {
                            final double[] ranks = peer.pageRank(settings.damping(), settings.fixedIterations());
                            final long t1 = System.nanoTime();
                            if (i == runs - 1) {
                                v = ex.check(AppResult.pageRank(ranks, 0, null));
                            }
                            record(times, i, t0, t1);
                            break;
                        }
                    }
                }
                add(new ComparisonRow(name, app, JGRAPHT, "1", times, traversed, v));
            }
        } catch (final OutOfMemoryError e) {
            notes.add(JGRAPHT + " on " + name + " stopped: the heap ran out during a run (raise -Xmx)");
        }
    }

    private static void record(final double[] times, final int i, final long t0, final long t1) {
        if (i >= 0) {
            times[i] = (t1 - t0) / 1e6;
        }
    }
}
