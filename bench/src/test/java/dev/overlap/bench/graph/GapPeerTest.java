package dev.overlap.bench.graph;

import com.fasterxml.jackson.jr.ob.JSON;
import dev.overlap.graph.CsrGraph;
import dev.overlap.graph.Progress;
import dev.overlap.graph.app.AppSettings;
import dev.overlap.graph.app.GraphApp;
import dev.overlap.graph.gen.GraphSpec;
import dev.overlap.graph.ref.PowerIteration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * GAP as a peer of {@code bench-graphs} without GAP: a stand-in build whose {@code bfs}, {@code sssp} and {@code pr}
 * are shell scripts printing what GAP prints (in its formats, with the figures of the graph under test) and recording
 * their arguments; and the ways GAP can be absent.
 */
class GapPeerTest {
    @TempDir
    Path dir;

    private static final String GRAPH = "kron:8";

    private record Run(int exit, String out, String err) {
    }

    private Run run(final String envGap, final String... args) {
        final CommandLine cl = GraphComparison.commandLine();
        final GraphComparison c = cl.getCommand();
        c.gapEnv = () -> envGap;
        final StringWriter o = new StringWriter();
        final StringWriter e = new StringWriter();
        cl.setOut(new PrintWriter(o));
        cl.setErr(new PrintWriter(e));
        final List<String> all = new ArrayList<>(List.of("--quick", "--warmups", "1", "--runs", "2", "--quiet",
            "--no-fork", "--graphs", GRAPH, "--out", dir.resolve("out").toString()));
        all.addAll(List.of(args));
        return new Run(cl.execute(all.toArray(new String[0])), o.toString(), e.toString());
    }

    @SuppressWarnings("unchecked")
    private List<Map<String, Object>> rows() throws IOException {
        return (List<Map<String, Object>>)JSON.std.mapFrom(Files.readString(dir.resolve("out")
            .resolve("comparison.json"))).get("rows");
    }

    /** A stand-in kernel: prints GAP's lines for each of its -n trials, then {@code tail}. */
    private void script(final Path gap, final String name, final List<String> perTrial, final String verdict,
        final List<String> tail) throws IOException {
        final CsrGraph g = GraphSpec.parse(GRAPH).build(1, true, Progress.none());
        final StringBuilder sb = new StringBuilder("#!/bin/sh\n");
        sb.append("echo \"$*\" >> \"$(dirname \"$0\")/args-").append(name).append(".txt\"\n");
        sb.append("trials=1\nprev=\nfor a in \"$@\"; do\n  if [ \"$prev\" = \"-n\" ]; then trials=$a; fi\n"
            + "  prev=$a\ndone\n");
        sb.append("echo 'Read Time:           0.00100'\n");
        sb.append("echo 'Graph has ").append(g.vertexCount()).append(" nodes and ").append(g.edgeCount() / 2)
            .append(" undirected edges for degree: 9'\n");
        sb.append("i=0\nwhile [ $i -lt $trials ]; do\n");
        for (final String line : perTrial) {
            sb.append("  echo '").append(line).append("'\n");
        }
        sb.append("  echo 'Trial Time:          0.00200'\n  echo 'Verification:           ").append(verdict)
            .append("'\n  i=$((i+1))\ndone\n");
        for (final String line : tail) {
            sb.append("echo '").append(line).append("'\n");
        }
        final Path p = Files.writeString(gap.resolve(name), sb.toString());
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    /**
     * A stand-in converter: writes the graph it read back as an edge list, as GAP's does (here a copy of the file, or
     * with every weight turned into 1 to play a GAP that read the weights wrong).
     */
    private static void converter(final Path gap, final boolean wrongWeights) throws IOException {
        final String sb = "#!/bin/sh\nin=\nout=\nprev=\nfor a in \"$@\"; do\n"
            + "  if [ \"$prev\" = \"-f\" ]; then in=$a; fi\n  if [ \"$prev\" = \"-e\" ]; then out=$a; fi\n  prev=$a\n"
            + "done\necho \"$*\" >> \"$(dirname \"$0\")/args-converter.txt\"\n"
            + (wrongWeights ? "sed 's/ [0-9]*$/ 1/' \"$in\" > \"$out\"\n" : "cp \"$in\" \"$out\"\n");
        final Path p = Files.writeString(gap.resolve("converter"), sb);
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    /** Stand-ins whose figures match the graph: what GAP prints when it computed the right answers. */
    private Path fakeGap(final String name, final String bfsVerdict, final double scoreOffset) throws IOException {
        final Path gap = Files.createDirectories(dir.resolve(name));
        converter(gap, false);
        final CsrGraph w = GraphSpec.parse(GRAPH).build(1, true, Progress.none());
        final CsrGraph g = w.withoutWeights();
        final int source = GraphApp.defaultSource(g, 1);
        final AppSettings s = AppSettings.defaults();
        final GraphApp.Expected bfs = GraphApp.BFS.expected(g, source, s, null);
        final long edges = GraphApp.BFS.edgesTraversed(g, GraphApp.BFS.sequential(g, source, s));
        script(gap, "bfs", List.of(), bfsVerdict, List.of("BFS Tree has " + bfs.reached() + " nodes and " + edges
            + " edges"));
        script(gap, "sssp", List.of(), "PASS", List.of("SSSP Tree reaches "
            + GraphApp.SSSP.expected(w, source, s, null).reached() + " nodes"));
        final PageRankReference ref = PageRankReference.compute(g, PowerIteration.DAMPING);
        final double scale = ref.unnormalizedSum(GapPageRankModel.DAMPING);
        final List<String> top = new ArrayList<>();
        final double[] y = ref.ranks();
        final Integer[] order = new Integer[y.length];
        for (int v = 0; v < y.length; v++) {
            order[v] = v;
        }
        java.util.Arrays.sort(order, (a, b) -> Double.compare(y[b], y[a]));
        for (int i = 0; i < 5; i++) {
            top.add(String.format(Locale.ROOT, "%d:%.6g", order[i], scale * y[order[i]] + scoreOffset));
        }
        script(gap, "pr", List.of("    0                0.80000", "    1                0.00100",
            "    2                0.00000"), "PASS", top);
        return gap;
    }

    @Test
    void gapRowsComeFromItsOutputOnTheFileOverlapLoaded() throws IOException {
        final Path gap = fakeGap("gap", "PASS", 0);
        final Run r = run(null, "--gap", gap.toString(), "--impls", "java,gap");
        assertEquals(0, r.exit, r.err + r.out);
        final List<Map<String, Object>> gapRows = rows().stream().filter(x -> x.get("implementation").equals("gap"))
            .toList();
        assertEquals(List.of("bfs", "pr", "sssp"), gapRows.stream().map(x -> x.get("app")).toList());
        for (final Map<String, Object> x : gapRows) {
            assertEquals("passed", x.get("verified"), x.toString());
            assertEquals(List.of(2.0, 2.0), x.get("runTimesMs"), "the warm-up trial dropped, seconds read as ms");
            assertEquals("2", x.get("threads"));
            assertTrue(((Number)x.get("peakRssKiB")).longValue() >= 0 || !Files.exists(Path.of("/proc")), x.toString());
        }
        final Map<String, Object> pr = gapRows.get(1);
        assertTrue(pr.get("settings").toString().matches("-t \\S+ -i 1000: 3 iterations \\(replay: \\d+, error .*"),
            pr.toString());
        assertTrue(((Number)pr.get("prError")).doubleValue() > 0, "the replay's error after 3 iterations");
        assertEquals("-d 2", gapRows.get(2).get("settings"), "kron's mean degree is above 8");
        // every kernel got the file Overlap loaded, symmetrized, with W + R trials and GAP's own verification
        final CsrGraph g = GraphSpec.parse(GRAPH).build(1, true, Progress.none()).withoutWeights();
        final String file = dir.resolve("out").resolve("graphs").resolve("kron-8-seed1.wel").toString();
        final String common = "-f " + file + " -s -n 3 -v -a";
        assertEquals(common + " -r " + GraphApp.defaultSource(g, 1), Files.readString(gap.resolve("args-bfs.txt"))
            .strip());
        assertEquals(common + " -r " + GraphApp.defaultSource(g, 1) + " -d 2", Files.readString(
            gap.resolve("args-sssp.txt")).strip());
        assertTrue(Files.readString(gap.resolve("args-pr.txt")).strip().matches(java.util.regex.Pattern.quote(common)
            + " -t \\S+ -i 1000 -l"));
        assertFalse(Files.exists(Path.of(file)), "the graph file is deleted after its graph");
        assertFalse(Files.exists(dir.resolve("out").resolve("graphs")), "and its directory, left empty");
        assertTrue(Files.readString(gap.resolve("args-converter.txt")).startsWith("-f " + file + " -s -w -e "),
            "GAP's view of the file, written back");
        assertTrue(gapRows.get(0).get("verification").toString().endsWith("; GAP's converter writes back the same "
            + "edges and weights"), gapRows.get(0).toString());
        final String md = Files.readString(dir.resolve("out").resolve("comparison.md"));
        assertTrue(md.startsWith("# Graph apps: Overlap vs plain Java vs JGraphT vs GAP"), md);
        assertTrue(md.contains("| time / gap | rss-idle / gap |"), md);
        assertTrue(md.contains("- **gap**: the GAP benchmark suite"), md);
        assertTrue(r.out.contains("time / gap"), r.out);
    }

    @Test
    void aFailedGapVerdictOrAWrongScoreFailsTheRun() throws IOException {
        final Path gap = fakeGap("bad", "FAIL", 0.5);
        final Run r = run(null, "--gap", gap.toString(), "--impls", "gap", "--keep-graph-files");
        assertEquals(1, r.exit, r.out);
        assertTrue(r.err.contains("verification FAILED: kron:8 bfs gap: GAP's own verification (-v): 0 of 3 trials "
            + "PASS (3 verdicts printed)\n"), r.err);
        assertTrue(r.err.contains("verification FAILED: kron:8 pr gap: GAP's score of vertex"), r.err);
        assertTrue(Files.exists(dir.resolve("out").resolve("graphs").resolve("kron-8-seed1.wel")), "kept");
    }

    @Test
    void aGraphGapReadsDifferentlyFailsEveryGapRow() throws IOException {
        final Path gap = fakeGap("misread", "PASS", 0);
        converter(gap, true);
        final Run r = run(null, "--gap", gap.toString(), "--impls", "gap", "--apps", "bfs,sssp");
        assertEquals(1, r.exit, r.out);
        assertTrue(r.err.contains("verification FAILED: kron:8 bfs gap: the graph GAP builds from kron-8-seed1.wel "
            + "(written back by its converter: "), r.err);
        assertTrue(r.err.contains("verification FAILED: kron:8 sssp gap: the graph GAP builds"), r.err);
    }

    @Test
    void edgesAreComparedVertexByVertexAndTrailingIsolatedVerticesDoNotCount() {
        final CsrGraph a = CsrGraph.wrap(new long[] {0, 1, 2, 2}, new int[] {1, 0}, new int[] {5, 5}, true);
        final CsrGraph sameWithoutTheLastVertex = CsrGraph.wrap(new long[] {0, 1, 2}, new int[] {1, 0},
            new int[] {5, 5}, true);
        final CsrGraph otherWeight = CsrGraph.wrap(new long[] {0, 1, 2, 2}, new int[] {1, 0}, new int[] {5, 6}, true);
        final CsrGraph otherTarget = CsrGraph.wrap(new long[] {0, 1, 2, 2}, new int[] {2, 0}, new int[] {5, 5}, false);
        assertTrue(GapMeasurement.sameEdges(a, sameWithoutTheLastVertex));
        assertTrue(GapMeasurement.sameEdges(sameWithoutTheLastVertex, a));
        assertFalse(GapMeasurement.sameEdges(a, otherWeight));
        assertFalse(GapMeasurement.sameEdges(a, otherTarget));
        assertFalse(GapMeasurement.sameEdges(a, a.withoutWeights()));
    }

    @Test
    void absentGapIsANoteAndTheRestRuns() throws IOException {
        final Run none = run(null, "--impls", "java,gap", "--apps", "bfs");
        assertEquals(0, none.exit, none.err);
        assertTrue(none.out.contains("note: gap not run: no GAP build given (git clone https://github.com/sbeamer/gapbs"),
            none.out);
        assertEquals(List.of("java csr"), rows().stream().map(x -> x.get("implementation")).toList());
        final Run missingDir = run(dir.resolve("nowhere").toString(), "--impls", "java,gap", "--apps", "bfs");
        assertEquals(0, missingDir.exit);
        assertTrue(missingDir.out.contains("note: gap not run: OVERLAP_GAP_DIR=" + dir.resolve("nowhere")
            + " is not a directory"), missingDir.out);
        // a build without binaries (not made yet): a note per kernel, the environment variable used
        final Path empty = Files.createDirectories(dir.resolve("unbuilt"));
        final Run unbuilt = run(empty.toString(), "--impls", "java,gap", "--apps", "bfs,sssp");
        assertEquals(0, unbuilt.exit, unbuilt.err);
        assertTrue(unbuilt.out.contains("note: gap bfs skipped: " + empty.resolve("bfs") + " is missing or not "
            + "executable (run make in " + empty + ")"), unbuilt.out);
        assertTrue(unbuilt.out.contains("note: gap sssp skipped: " + empty.resolve("sssp")), unbuilt.out);
        assertFalse(unbuilt.out.contains("converter"), "no kernel to run: the graph is not checked either");
        // not asked for: no note
        final Run notAsked = run(null, "--impls", "java", "--apps", "bfs");
        assertFalse(notAsked.out.contains("gap"), notAsked.out);
    }

    @Test
    void aFileWithoutWeightsSkipsGapsSssp() throws IOException {
        final Path gap = fakeGap("gap2", "PASS", 0);
        Files.delete(gap.resolve("converter"));
        final CsrGraph g = GraphSpec.parse(GRAPH).build(1, true, Progress.none());
        final Path el = dir.resolve("k8.el");
        dev.overlap.graph.io.EdgeListWriter.write(g.withoutWeights(), el, Progress.none());
        final CommandLine cl = GraphComparison.commandLine();
        final StringWriter o = new StringWriter();
        cl.setOut(new PrintWriter(o));
        cl.setErr(new PrintWriter(new StringWriter()));
        final int exit = cl.execute("--quick", "--warmups", "0", "--runs", "1", "--quiet", "--no-fork", "--graphs",
            el.toString(), "--impls", "java,gap", "--apps", "bfs,sssp", "--gap", gap.toString(), "--out",
            dir.resolve("out").toString());
        assertEquals(0, exit, o.toString());
        assertTrue(o.toString().contains("note: gap sssp skipped on k8.el: k8.el has no weights and GAP would give it "
            + "random ones"), o.toString());
        assertTrue(Files.readString(gap.resolve("args-bfs.txt")).contains("-f " + el + " -s"), "the file itself");
        assertTrue(o.toString().contains("note: gap's converter is not built in " + gap + ": the graph GAP builds is "
            + "checked by its vertex and edge counts only"), o.toString());
    }
}
