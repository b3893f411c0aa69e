package dev.overlap.bench.graph;

import dev.overlap.graph.CsrGraph;
import dev.overlap.graph.Progress;
import dev.overlap.graph.app.GraphApp;
import dev.overlap.graph.ref.Verification;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Runs the GAP benchmark suite's kernels on the graph file Overlap loaded, as GAP's users run them, and turns what
 * they print into rows of the comparison:
 *
 * <ul>
 * <li>every kernel gets {@code -f FILE -s} (the file symmetrized, as Overlap reads it: GAP drops self-loops and
 *     duplicate edges itself), {@code -n W+R} trials of which the first {@code W} are dropped as warm-ups,
 *     {@code -v} (GAP verifies every trial: {@code bfs} its parent tree's depths against a serial BFS, {@code sssp}
 *     its distances against a serial Dijkstra, {@code pr} the residual of one more step below its tolerance) and
 *     {@code -a}, and runs with {@code OMP_NUM_THREADS} set to the threads Overlap has;</li>
 * <li>{@code bfs} and {@code sssp} start from Overlap's source ({@code -r}); {@code sssp} uses delta
 *     {@code --gap-delta}, or by default 2 on graphs whose vertices with edges have a mean degree of 8 or more (as
 *     GAP's own scripts run kron, urand, twitter and web) and 256 on sparser, mesh- or road-like ones;</li>
 * <li>{@code pr} runs at the accuracy every PageRank row is compared at: its tolerance {@code -t} is chosen by
 *     replaying GAP's algorithm ({@link GapPageRankModel}) so that it stops at the first iteration within
 *     {@code --pr-error} of the converged reference, with {@code -i 1000} and {@code -l}, whose per-iteration lines
 *     tell how many iterations each trial ran (the row's error is the replay's after that many);</li>
 * <li>beyond GAP's own verdicts, the row checks that GAP built the same graph (its vertex and undirected edge counts
 *     equal Overlap's; and, when GAP's {@code converter} is built, that the graph GAP builds from the file, written
 *     back by {@code converter -f FILE -s [-w] -e OUT}, is Overlap's edge for edge and weight for weight), that its
 *     BFS tree has the reference's vertices and edges, that its SSSP reaches the reference's vertices, and that its
 *     printed top PageRank scores match the reference (scaled to GAP's model);</li>
 * <li>the row's peak RSS is the GAP process's ({@link ExternalRun}).</li>
 * </ul>
 *
 * Not thread-safe; one comparison's GAP runs go one at a time.
 */
final class GapMeasurement {
    /** The implementation's name in the tables. */
    static final String GAP = "gap";

    private final GapBuild build;
    private final ExternalRun runner;
    private final int threads;
    private final int warmups;
    private final int runs;
    private final int deltaOverride;
    private final double prError;
    private final Consumer<String> status;

    /**
     * @param threads       OpenMP threads
     * @param deltaOverride SSSP delta for every graph, or 0 for the default per graph
     * @param prError       the L1 error PageRank runs at
     */
    GapMeasurement(final GapBuild build, final ExternalRun runner, final int threads, final int warmups,
        final int runs, final int deltaOverride, final double prError, final Consumer<String> status) {
        this.build = build;
        this.runner = runner;
        this.threads = threads;
        this.warmups = warmups;
        this.runs = runs;
        this.deltaOverride = deltaOverride;
        this.prError = prError;
        this.status = status;
    }

    /** The graph one set of GAP runs is on, and what its answers are checked against. */
    record Graph(String name, Path file, boolean fileWeighted, CsrGraph graph, int source,
                 Map<GraphApp, GraphApp.Expected> expected, Map<GraphApp, Long> edgesTraversed,
                 PageRankReference prReference) {
    }

    /**
     * @return GAP's default SSSP delta for {@code g}: 2 when its vertices with edges have a mean degree of at least 8,
     *         else 256
     */
    static int defaultDelta(final CsrGraph g) {
        long withEdges = 0;
        for (int v = 0; v < g.vertexCount(); v++) {
            withEdges += g.degree(v) > 0 ? 1 : 0;
        }
        return withEdges > 0 && g.edgeCount() >= 8 * withEdges ? 2 : 256;
    }

    /**
     * Runs each app of {@code apps} that has a binary; a missing binary or an unweighted file for SSSP is a note.
     *
     * @return the rows, app by app
     */
    List<ComparisonRow> measure(final Graph g, final Set<GraphApp> apps, final Set<String> notes) throws IOException {
        final List<GraphApp> runnable = new ArrayList<>();
        for (final GraphApp app : apps) {
            final String missing = build.missing(app);
            if (missing != null) {
                notes.add(missing);
            } else if (app == GraphApp.SSSP && !g.fileWeighted()) {
                notes.add("gap sssp skipped on " + g.name() + ": " + g.file().getFileName() + " has no weights and GAP "
                    + "would give it random ones (give a .wel file, e.g. converter -g 20 -w -e kron20.wel)");
            } else {
                runnable.add(app);
            }
        }
        final List<ComparisonRow> rows = new ArrayList<>();
        if (runnable.isEmpty()) {
            return rows;
        }
        final Verification sameGraph = sameGraph(g, notes);
        for (final GraphApp app : runnable) {
            ComparisonRow row = measure(g, app);
            if (sameGraph != null) {
                row = row.withVerification(!sameGraph.passed() ? sameGraph : !row.verification.passed()
                    ? row.verification : Verification.pass(row.verification.detail() + "; " + sameGraph.detail()));
            }
            status.accept(ComparisonReport.statusLine(row));
            rows.add(row);
        }
        return rows;
    }

    /**
     * The graph GAP builds from the file, written back by its {@code converter} and read by Overlap, against
     * Overlap's graph: vertex for vertex, edge for edge, weight for weight.
     *
     * @return the outcome, or null when the converter is not built (a note says the check is the counts only)
     */
    Verification sameGraph(final Graph g, final Set<String> notes) throws IOException {
        final Path converter = build.dir().resolve("converter");
        if (!Files.isExecutable(converter)) {
            notes.add("gap's converter is not built in " + build.dir() + ": the graph GAP builds is checked by its "
                + "vertex and edge counts only");
            return null;
        }
        final Path dir = g.file().toAbsolutePath().getParent();
        final Path back = Files.createTempFile(dir, "gap-view", g.fileWeighted() ? ".wel" : ".el");
        try {
            final List<String> cmd = new ArrayList<>(List.of(converter.toString(), "-f", g.file().toString(), "-s"));
            if (g.fileWeighted()) {
                cmd.add("-w");
            }
            cmd.addAll(List.of("-e", back.toString()));
            final ExternalRun.Result r = runner.run(cmd, Map.of("OMP_NUM_THREADS", Integer.toString(threads)));
            if (r.exit != 0) {
                return Verification.fail(String.join(" ", cmd) + " exited with " + r.exit + ": "
                    + String.join(" / ", r.lines.subList(Math.max(0, r.lines.size() - 3), r.lines.size())));
            }
            final CsrGraph gap = ComparisonInput.file(back).load(0, true, Progress.none());
            final CsrGraph mine = g.fileWeighted() ? g.graph() : g.graph().withoutWeights();
            if (!sameEdges(gap, mine)) {
                return Verification.fail(String.format(Locale.ROOT, "the graph GAP builds from %s (written back by "
                    + "its converter: %d vertices, %d directed edges%s) is not Overlap's (%d vertices, %d directed "
                    + "edges)", g.file().getFileName(), gap.vertexCount(), gap.edgeCount(), gap.isWeighted()
                    ? ", weighted" : "", mine.vertexCount(), mine.edgeCount()));
            }
            return Verification.pass("GAP's converter writes back the same " + (g.fileWeighted()
                ? "edges and weights" : "edges"));
        } finally {
            Files.deleteIfExists(back);
        }
    }

    /**
     * @return whether both graphs have the same edges (targets in the same order, the same weights when both have
     *         them) on every vertex; vertices past the smaller vertex count must have no edges (an edge list cannot
     *         show isolated vertices at its end: the vertex counts are checked apart, from GAP's own statistics)
     */
    static boolean sameEdges(final CsrGraph a, final CsrGraph b) {
        if (a.isWeighted() != b.isWeighted() || a.edgeCount() != b.edgeCount()) {
            return false;
        }
        final int n = Math.min(a.vertexCount(), b.vertexCount());
        for (int v = 0; v < n; v++) {
            if (a.degree(v) != b.degree(v)) {
                return false;
            }
            for (long i = a.edgeStart(v), j = b.edgeStart(v); i < a.edgeEnd(v); i++, j++) {
                if (a.target(i) != b.target(j) || a.weight(i) != b.weight(j)) {
                    return false;
                }
            }
        }
        for (final CsrGraph g : new CsrGraph[] {a, b}) {
            for (int v = n; v < g.vertexCount(); v++) {
                if (g.degree(v) != 0) {
                    return false;
                }
            }
        }
        return true;
    }

    private ComparisonRow measure(final Graph g, final GraphApp app) throws IOException {
        final int trials = warmups + runs;
        final List<String> cmd = new ArrayList<>(List.of(build.binary(app).toString(), "-f", g.file().toString(),
            "-s", "-n", Integer.toString(trials), "-v", "-a"));
        GapPageRankModel.Replay replay = null;
        GapPageRankModel.Plan plan = null;
        String settings = "";
        switch (app) {
            case BFS:
                cmd.addAll(List.of("-r", Integer.toString(g.source())));
                break;
            case SSSP: {
                final int delta = deltaOverride > 0 ? deltaOverride : defaultDelta(g.graph());
                cmd.addAll(List.of("-r", Integer.toString(g.source()), "-d", Integer.toString(delta)));
                settings = "-d " + delta;
                break;
            }
            default: {
                replay = GapPageRankModel.replay(g.graph(), g.prReference(), prError);
                plan = GapPageRankModel.plan(replay, prError);
                cmd.addAll(List.of("-t", plan.toleranceArgument(), "-i",
                    Integer.toString(GapPageRankModel.MAX_ITERATIONS), "-l"));
                break;
            }
        }
        final ExternalRun.Result r = runner.run(cmd, Map.of("OMP_NUM_THREADS", Integer.toString(threads)));
        final GapOutput out = GapOutput.parse(r.lines);
        final double[] all = out.trialMillis();
        if (r.exit != 0 || all.length != trials) {
            final List<String> tail = r.lines.subList(Math.max(0, r.lines.size() - 3), r.lines.size());
            return new ComparisonRow(g.name(), app, GAP, Integer.toString(threads), new double[] {Double.NaN}, 0,
                Verification.fail(String.format(Locale.ROOT, "%s exited with %d after %d of %d trials: %s",
                    String.join(" ", cmd), r.exit, all.length, trials, String.join(" / ", tail))))
                .withPeakRss(r.peakRssKib);
        }
        final double[] timed = Arrays.copyOfRange(all, warmups, trials);
        Verification v = check(app, out, g, trials);
        double error = Double.NaN;
        if (app == GraphApp.PAGERANK) {
            final int[] iterations = Arrays.copyOfRange(out.prIterations(), warmups, trials);
            final int last = iterations[iterations.length - 1];
            error = replay.error(Math.max(1, last));
            settings = prSettings(plan, iterations, error);
            if (v.passed()) {
                final Verification top = checkTopScores(out, g.prReference(), Math.max(error, prError));
                v = top.passed() ? Verification.pass(v.detail() + "; " + top.detail()) : top;
            }
        }
        return new ComparisonRow(g.name(), app, GAP, Integer.toString(threads), timed,
            g.edgesTraversed().getOrDefault(app, 0L), v).withPeakRss(r.peakRssKib).withPrError(error)
            .withSettings(settings + (r.exactRss ? "" : (settings.isEmpty() ? "" : "; ") + "RSS polled (a lower bound)"));
    }

    private static String prSettings(final GapPageRankModel.Plan plan, final int[] iterations, final double error) {
        int lo = Integer.MAX_VALUE;
        int hi = 0;
        for (final int k : iterations) {
            lo = Math.min(lo, k);
            hi = Math.max(hi, k);
        }
        return String.format(Locale.ROOT, "-t %.3g -i %d: %s iterations (replay: %d, error %.3g)", plan.tolerance(),
            GapPageRankModel.MAX_ITERATIONS, lo == hi ? Integer.toString(lo) : lo + "-" + hi, plan.iterations(),
            error);
    }

    /**
     * GAP's own verdicts and the cross-checks of the graph and the answer's size (not PageRank's scores).
     *
     * @param trials trials run (each printed a verdict)
     */
    static Verification check(final GraphApp app, final GapOutput out, final Graph g, final int trials) {
        final CsrGraph graph = g.graph();
        if (out.nodes != graph.vertexCount() || out.edges != graph.edgeCount() / 2 || out.directed) {
            return Verification.fail(String.format(Locale.ROOT, "GAP built another graph: %d nodes and %d %sdirected "
                + "edges, Overlap %d vertices and %d undirected edges", out.nodes, out.edges, out.directed ? "" : "un",
                graph.vertexCount(), graph.edgeCount() / 2));
        }
        final long passes = out.verifications().stream().filter(b -> b).count();
        if (out.verifications().size() != trials || passes != trials) {
            return Verification.fail(String.format(Locale.ROOT, "GAP's own verification (-v): %d of %d trials PASS "
                + "(%d verdicts printed)%s", passes, trials, out.verifications().size(), out.otherLines().isEmpty()
                ? "" : ": " + String.join(" / ", out.otherLines().subList(0, Math.min(3, out.otherLines().size())))));
        }
        final GraphApp.Expected ex = g.expected().get(app);
        final String same = String.format(Locale.ROOT, "GAP -v: %d/%d PASS; same graph (%d vertices, %d undirected "
            + "edges)", passes, trials, out.nodes, out.edges);
        switch (app) {
            case BFS: {
                final long edges = g.edgesTraversed().getOrDefault(app, -1L);
                return out.bfsTreeNodes == ex.reached() && out.bfsTreeEdges == edges
                    ? Verification.pass(same + "; BFS tree of " + out.bfsTreeNodes + " vertices and " + out.bfsTreeEdges
                        + " edges as the reference")
                    : Verification.fail(String.format(Locale.ROOT, "GAP's BFS tree has %d vertices and %d edges, the "
                        + "reference reaches %d vertices with %d edges", out.bfsTreeNodes, out.bfsTreeEdges, ex.reached(),
                        edges));
            }
            case SSSP:
                return out.ssspReached == ex.reached()
                    ? Verification.pass(same + "; reaches " + out.ssspReached + " vertices as Dijkstra")
                    : Verification.fail("GAP's SSSP reaches " + out.ssspReached + " vertices, Dijkstra "
                        + ex.reached());
            default:
                return Verification.pass(same);
        }
    }

    /**
     * GAP's printed top scores ({@code -a}, six significant digits) against the reference scaled to GAP's model: each
     * within {@code 1e-5} of itself plus twice the answer's L1 error (a single score cannot be further off than the
     * whole vector).
     *
     * @param error the L1 error of GAP's answer (the replay's, or the target when larger)
     */
    static Verification checkTopScores(final GapOutput out, final PageRankReference ref, final double error) {
        final Map<Integer, Double> top = out.topScores();
        if (top.isEmpty()) {
            return Verification.fail("GAP printed no top scores (-a)");
        }
        final double scale = ref.unnormalizedSum(GapPageRankModel.DAMPING);
        final double[] y = ref.ranks();
        double worst = 0;
        for (final Map.Entry<Integer, Double> e : top.entrySet()) {
            final int v = e.getKey();
            final double s = e.getValue();
            if (v < 0 || v >= y.length || !Double.isFinite(s)) {
                return Verification.fail("GAP printed the score " + s + " for vertex " + v);
            }
            final double expected = scale * y[v];
            final double allowed = 1e-5 * Math.abs(s) + 2 * scale * error;
            if (Math.abs(s - expected) > allowed) {
                return Verification.fail(String.format(Locale.ROOT, "GAP's score of vertex %d is %.6g, the reference "
                    + "(GAP's model) %.6g", v, s, expected));
            }
            worst = Math.max(worst, Math.abs(s - expected) / expected);
        }
        return Verification.pass(String.format(Locale.ROOT, "its top %d scores within %.2g (relative) of the "
            + "reference", top.size(), worst));
    }
}
