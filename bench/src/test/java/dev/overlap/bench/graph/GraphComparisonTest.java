package dev.overlap.bench.graph;

import com.fasterxml.jackson.jr.ob.JSON;
import dev.overlap.graph.app.AppResult;
import dev.overlap.graph.app.AppSettings;
import dev.overlap.graph.app.Algorithms;
import dev.overlap.graph.app.GraphAlgorithms;
import dev.overlap.graph.partition.DeviceGraph;
import dev.overlap.testing.Xml;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import picocli.CommandLine;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Tag("slow")
class GraphComparisonTest {
    @TempDir
    Path dir;

    private static final class Run {
        final int exit;
        final String out;
        final String err;

        Run(final Consumer<GraphComparison> setup, final String... args) {
            final CommandLine cl = GraphComparison.commandLine();
            // the same whether or not the machine running the tests has OVERLAP_GAP_DIR set (GapPeerTest covers GAP)
            ((GraphComparison)cl.getCommand()).gapEnv = () -> null;
            setup.accept(cl.getCommand());
            final StringWriter o = new StringWriter();
            final StringWriter e = new StringWriter();
            cl.setOut(new PrintWriter(o));
            cl.setErr(new PrintWriter(e));
            exit = cl.execute(args);
            out = o.toString();
            err = e.toString();
        }
    }

    private String[] tiny(final String outDir, final String... more) {
        final List<String> all = new ArrayList<>(List.of("--quick", "--warmups", "0", "--runs", "1", "--quiet", "--out",
            dir.resolve(outDir).toString()));
        if (!List.of(more).contains("--graphs")) {
            all.add("--graphs=kron:8,grid:12x12");
        }
        if (!List.of(more).contains("--fork")) {
            all.add("--no-fork"); // in this JVM, so that tests can replace the providers
        }
        all.addAll(List.of(more));
        return all.toArray(new String[0]);
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> rows(final Path json) throws IOException {
        return (List<Map<String, Object>>)JSON.std.mapFrom(Files.readString(json)).get("rows");
    }

    /**
     * Forked (the default): every Overlap mode and app measured and verified in a JVM of its own, on the graph the
     * parent generated (the weighted one for every app when SSSP is among them: weights change the edge set).
     */
    @Test
    void forkedMeasurementsAreVerifiedRowsOfTheParentsTable() throws IOException {
        final Run run = new Run(c -> { }, tiny("forked", "--fork", "--graphs", "kron:8", "--impls",
            "bsp,async,solo,coop,coop-gs,java", "--apps", "bfs,pr,sssp"));
        assertEquals(0, run.exit, run.err + run.out);
        final List<Map<String, Object>> rows = rows(dir.resolve("forked").resolve("comparison.json"));
        assertEquals(16, rows.size(), "5 implementations x 3 apps, and coop-gs's PageRank: " + rows);
        for (final Map<String, Object> r : rows) {
            assertEquals("passed", r.get("verified"), r.toString());
            assertEquals("kron:8", r.get("graph"), r.toString());
            assertTrue(((Number)r.get("medianMs")).doubleValue() > 0, r.toString());
            if (r.get("implementation").toString().startsWith("overlap")) {
                // the one-thread path runs on one device with one worker whatever the mesh of the others
                final Object impl = r.get("implementation");
                assertEquals(impl.equals("overlap solo") ? "1x1" : impl.toString().startsWith("overlap coop") ? "1x2"
                    : "2x1", r.get("threads"), r.toString());
            }
        }
        for (final String app : new String[] {"bfs", "pr", "sssp"}) {
            assertTrue(rows.stream().anyMatch(r -> r.get("implementation").equals("overlap solo")
                && r.get("app").equals(app)), "solo beside java in one run: " + app);
        }
        // the child's note reaches the parent's table
        assertTrue(run.out.contains("note: async pr has no iterations"), run.out);
        // Gauss-Seidel sweeps: PageRank only, to a calibrated tolerance, verified against the converged ranks
        final List<Map<String, Object>> gs = rows.stream().filter(r -> r.get("implementation").equals(
            "overlap coop-gs")).collect(java.util.stream.Collectors.toList());
        assertEquals(1, gs.size(), rows.toString());
        assertEquals("pr", gs.get(0).get("app"));
        assertTrue(gs.get(0).get("settings").toString().matches("tolerance \\S+: \\d+ sweeps"), gs.toString());
        assertTrue(run.out.contains("note: coop-gs pr (Gauss-Seidel sweeps"), run.out);
        assertTrue(rows.stream().anyMatch(r -> r.get("implementation").equals("overlap coop")
            && r.get("app").equals("sssp")), "coop's sssp: " + rows);
    }

    /** The smoke run CI relies on: the real providers, every implementation, tiny graphs, seconds. */
    @Test
    void quickRunComparesEveryImplementationAndVerifiesEveryAnswer() throws IOException {
        final Run run = new Run(c -> { }, tiny("smoke"));
        assertEquals(0, run.exit, run.err + run.out);
        final Path out = dir.resolve("smoke");
        final List<Map<String, Object>> rows = rows(out.resolve("comparison.json"));
        // java csr, overlap bsp, overlap solo and jgrapht for 3 apps on 2 graphs; overlap async too.
        assertTrue(rows.size() >= 24, rows.toString());
        for (final String impl : new String[] {"java csr", "overlap bsp", "overlap solo", "jgrapht 1.5.3"}) {
            for (final String graph : new String[] {"kron:8", "grid:12x12"}) {
                for (final String app : new String[] {"bfs", "pr", "sssp"}) {
                    assertTrue(rows.stream().anyMatch(r -> r.get("implementation").equals(impl)
                        && r.get("graph").equals(graph) && r.get("app").equals(app)), impl + " " + graph + " " + app);
                }
            }
        }
        for (final Map<String, Object> r : rows) {
            assertEquals("passed", r.get("verified"), r.toString());
            assertTrue(((Number)r.get("medianMs")).doubleValue() >= 0, r.toString());
            assertEquals(!r.get("app").equals("pr"), r.containsKey("mteps"), r.toString());
        }
        final String md = Files.readString(out.resolve("comparison.md"));
        assertTrue(md.startsWith("# Graph apps: Overlap vs plain Java vs JGraphT (quick smoke run, not a measurement)"),
            md);
        assertTrue(md.contains("| graph | app | implementation | threads | median ms | min ms | MTEPS | vs java csr "
            + "| L1 error | verified | settings |"), md);
        assertTrue(md.contains("PageRank at equal accuracy: damping 0.85, every answer aims at an L1 error of 1.00e-05"),
            md);
        final List<String> csv = Files.readAllLines(out.resolve("comparison.csv"));
        assertEquals(rows.size() + 1, csv.size());
        assertTrue(csv.get(0).startsWith("graph,app,implementation,threads,warmups,runs,medianMs"), csv.get(0));
        assertTrue(run.out.contains("vs java csr"), run.out);
        assertTrue(run.out.contains("wrote " + out + "/comparison.{md,csv,json}"), run.out);
    }

    @Test
    void aMissingModeAndATooSmallHeapAreSkippedWithNotes() throws IOException {
        final Run run = new Run(c -> {
            c.lookup = mode -> {
                if (mode.equals("bsp")) {
                    return Algorithms.forMode("bsp");
                }
                throw new IllegalArgumentException(mode + " is not built in this test");
            };
            c.heapAvailable = () -> 1L << 10;
        }, tiny("skips", "--apps", "bfs", "--graphs", "kron:8"));
        assertEquals(0, run.exit, run.err);
        assertTrue(run.out.contains("note: async mode not available (async is not built in this test): its rows are "
            + "skipped"), run.out);
        assertTrue(run.out.contains("note: solo mode not available (solo is not built in this test): its rows are "
            + "skipped"), run.out);
        assertTrue(run.out.contains("note: jgrapht 1.5.3 skipped on kron:8: needs about "), run.out);
        final List<Map<String, Object>> rows = rows(dir.resolve("skips").resolve("comparison.json"));
        assertEquals(List.of("java csr", "overlap bsp"), rows.stream().map(r -> r.get("implementation")).toList());
    }

    /** Answers through bsp, with the SSSP source's distance wrong. */
    private static final class WrongSssp implements GraphAlgorithms {
        private final GraphAlgorithms bsp = Algorithms.forMode("bsp");

        @Override
        public String mode() {
            return "async";
        }

        @Override
        public AppResult bfs(final DeviceGraph g, final int source, final AppSettings settings) {
            return bsp.bfs(g, source, settings);
        }

        @Override
        public AppResult sssp(final DeviceGraph g, final int source, final AppSettings settings) {
            final AppResult r = bsp.sssp(g, source, settings);
            final long[] d = r.distances().clone();
            d[source] = 7;
            return AppResult.sssp(d, r.nanos(), r.counts());
        }

        @Override
        public AppResult pageRank(final DeviceGraph in, final int[] outDegrees, final AppSettings settings) {
            return bsp.pageRank(in, outDegrees, settings);
        }

        @Override
        public long stateBytesPerDevice(final int vertices, final int maxOwned, final int devices, final int workers) {
            return bsp.stateBytesPerDevice(vertices, maxOwned, devices, workers);
        }
    }

    @Test
    void aWrongAnswerExitsOneAndIsMarkedInTheFiles() throws IOException {
        final Run run = new Run(c -> c.lookup = mode -> new WrongSssp(), tiny("wrong", "--apps", "sssp", "--impls",
            "async,java"));
        assertEquals(1, run.exit, run.out);
        assertTrue(run.err.contains("overlap bench-graphs: verification FAILED: kron:8 sssp overlap async: vertex "),
            run.err);
        assertTrue(run.err.contains("has distance 7, Dijkstra says 0"), run.err);
        final List<Map<String, Object>> rows = rows(dir.resolve("wrong").resolve("comparison.json"));
        assertTrue(rows.stream().anyMatch(r -> r.get("verified").equals("FAILED")), rows.toString());
        assertTrue(Files.readString(dir.resolve("wrong").resolve("comparison.md")).contains("| FAILED |"));
    }

    /** The size sweep: a series of sizes per family, time per edge per implementation, CSV, JSON, charts. */
    @Test
    void aSweepWritesTimePerEdgeAndAChartPerFamilyAndApp() throws IOException {
        final Run run = new Run(c -> { }, tiny("sweep", "--sweep", "--graphs", "kron:6,kron:7,road:100,road:400",
            "--impls", "java,bsp", "--apps", "bfs,pr"));
        assertEquals(0, run.exit, run.err + run.out);
        final Path out = dir.resolve("sweep");
        final List<String> csv = Files.readAllLines(out.resolve("sweep.csv"));
        assertEquals("family,graph,vertices,edges,app,implementation,medianMs,nsPerEdge,verified", csv.get(0));
        assertEquals(1 + 4 * 2 * 2, csv.size(), csv.toString());
        assertTrue(csv.stream().anyMatch(l -> l.startsWith("road,road:400,400,")), csv.toString());
        for (final String chart : new String[] {"sweep-kron-bfs.svg", "sweep-kron-pr.svg", "sweep-road-bfs.svg",
            "sweep-road-pr.svg"}) {
            final Document svg = Xml.parse(Files.readString(out.resolve(chart)));
            // one point per graph of the family, per implementation
            assertEquals(2, Xml.points(svg, "java csr").size(), chart);
            assertEquals(2, Xml.points(svg, "overlap bsp").size(), chart);
            assertTrue(Xml.texts(svg).contains("directed edges (log scale)"), chart);
        }
        final String md = Files.readString(out.resolve("comparison.md"));
        assertTrue(md.contains("## Size sweep: time per edge against size"), md);
        assertTrue(md.contains("![sweep-road-pr.svg](sweep-road-pr.svg)"), md);
        assertTrue(md.contains("| family | app | graph | edges | java csr | overlap bsp |"), md);
        @SuppressWarnings("unchecked")
        final List<Map<String, Object>> points = (List<Map<String, Object>>)JSON.std.mapFrom(
            Files.readString(out.resolve("sweep.json"))).get("points");
        assertEquals(16, points.size());
        for (final Map<String, Object> p : points) {
            final double ns = ((Number)p.get("nsPerEdge")).doubleValue();
            final double ms = ((Number)p.get("medianMs")).doubleValue();
            final long edges = ((Number)p.get("edges")).longValue();
            assertEquals(ms * 1e6 / edges, ns, 0.0005 * 1e6 / edges + 0.001, p.toString()); // both rounded to 3 decimals
        }
        assertTrue(run.out.contains("and sweep.{csv,json}, sweep-*.svg"), run.out);
    }

    @Test
    void wrongArgumentsGiveTheReasonInOneLine() throws IOException {
        final Path file = dir.resolve("a-file");
        Files.writeString(file, "x");
        final String[][] cases = {
            {"--threads", "3", "--devices", "2"},
            {"--impls", "bsp,networkx"},
            {"--apps", "bfs,dfs"},
            {"--graphs", "ring:3"},
            {"--runs", "0"},
            {"--warmups", "-1"},
            {"--warmup-ms", "-5"},
            {"--pr-iterations", "0"},
            {"--devices", "0"},
            {"--out", file.toString()},
            {"--bogus"},
        };
        final String[] reasons = {
            "--threads 3 is not a multiple of --devices 2", "--impls: unknown implementation 'networkx': expected bsp, "
                + "async, solo, coop, solo-gs, coop-gs, java, jgrapht or gap", "--apps: unknown app 'dfs': expected bfs, pr or sssp", "--graphs: unknown "
                + "generator 'ring'", "--runs must be in 1..1000, was 0", "--warmups must be in 0..100, was -1",
            "--warmup-ms must be in 0..60000, was -5", "--pr-iterations must be in 1..10000, was 0", "--devices must be in 1..64, was 0",
            "exists and is not a directory", "unknown option '--bogus'",
        };
        for (int i = 0; i < cases.length; i++) {
            final Run run = new Run(c -> { }, cases[i]);
            final String args = String.join(" ", cases[i]);
            assertEquals(2, run.exit, args + ": " + run.err);
            // one line, as the overlap command's usage errors: the reason, not a screen of options
            final String line = run.err.strip();
            assertFalse(line.contains("\n") || line.contains("Usage:"), args + ": more than one line:\n" + run.err);
            assertTrue(line.startsWith("overlap bench-graphs: ") && line.endsWith("(try 'overlap bench-graphs --help')"),
                args + ": " + line);
            assertTrue(line.contains(reasons[i]), args + ": " + line);
        }
        assertFalse(Files.exists(dir.resolve("graph-comparison")));
    }
}
