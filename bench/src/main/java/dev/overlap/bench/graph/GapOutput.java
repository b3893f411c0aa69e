package dev.overlap.bench.graph;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What one run of a GAP benchmark suite kernel ({@code bfs}, {@code sssp}, {@code pr} of {@code sbeamer/gapbs})
 * printed, parsed. The lines it understands are those of GAP's {@code BenchmarkKernel} and the kernels' analysis
 * ({@code -a}), verification ({@code -v}) and, for {@code pr}, logging ({@code -l}) output:
 *
 * <pre>
 * Graph has 1048576 nodes and 15699687 undirected edges for degree: 14
 * Trial Time:          0.01680          (seconds, 5 decimals; one per trial)
 * Verification:           PASS          (one per trial with -v: PASS or FAIL)
 * BFS Tree has 749510 nodes and 31398440 edges       (bfs -a, after the last trial)
 * SSSP Tree reaches 749510 nodes                      (sssp -a)
 * 113403:0.00123                                      (pr -a: the five largest scores, id:score)
 *     3                0.00042                        (pr -l: one line per iteration, before its trial's time)
 * </pre>
 *
 * Read, build, verification and average times are skipped; other lines (the verifiers' complaints, errors) are kept
 * as they are, for error messages.
 * Immutable; thread-safe.
 */
final class GapOutput {
    private static final Pattern STATS = Pattern.compile(
        "Graph has (\\d+) nodes and (\\d+) (un)?directed edges for degree: \\d+");
    private static final Pattern TIME = Pattern.compile("Trial Time:\\s+([0-9.]+)");
    private static final Pattern VERIFY = Pattern.compile("Verification:\\s+(PASS|FAIL)");
    private static final Pattern BFS_TREE = Pattern.compile("BFS Tree has (\\d+) nodes and (\\d+) edges");
    private static final Pattern SSSP_TREE = Pattern.compile("SSSP Tree reaches (\\d+) nodes");
    private static final Pattern TOP_SCORE = Pattern.compile("(\\d+):([-+0-9.eE]+|inf|nan)");
    private static final Pattern PR_STEP = Pattern.compile("\\s*(\\d+)\\s+([0-9.]+)");
    /** Timings and figures GAP prints besides the trials' ({@code Read Time:}, {@code Total Error:}, ...). */
    private static final Pattern OTHER_FIGURE = Pattern.compile("[A-Za-z ]+:\\s+[0-9.]+");

    /** Nodes of the graph as GAP built it, -1 when the stats line is missing. */
    final long nodes;
    /** Edges as GAP counts them (undirected edges once), -1 when missing. */
    final long edges;
    /** Whether GAP built a directed graph. */
    final boolean directed;
    private final double[] trialMillis;
    private final List<Boolean> verifications;
    /** BFS tree vertices and their out-edges ({@code -a}), -1 when absent. */
    final long bfsTreeNodes;
    final long bfsTreeEdges;
    /** Vertices the SSSP reaches ({@code -a}), -1 when absent. */
    final long ssspReached;
    private final int[] prIterations;
    private final Map<Integer, Double> topScores;
    private final List<String> otherLines;

    private GapOutput(final long nodes, final long edges, final boolean directed, final double[] trialMillis,
        final List<Boolean> verifications, final long bfsTreeNodes, final long bfsTreeEdges, final long ssspReached,
        final int[] prIterations, final Map<Integer, Double> topScores, final List<String> otherLines) {
        this.nodes = nodes;
        this.edges = edges;
        this.directed = directed;
        this.trialMillis = trialMillis;
        this.verifications = List.copyOf(verifications);
        this.bfsTreeNodes = bfsTreeNodes;
        this.bfsTreeEdges = bfsTreeEdges;
        this.ssspReached = ssspReached;
        this.prIterations = prIterations;
        this.topScores = topScores;
        this.otherLines = List.copyOf(otherLines);
    }

    /**
     * @param lines standard output (and error) of one run, line by line
     * @return what they say
     */
    static GapOutput parse(final List<String> lines) {
        long nodes = -1;
        long edges = -1;
        boolean directed = false;
        final List<Double> times = new ArrayList<>();
        final List<Boolean> verifications = new ArrayList<>();
        long treeNodes = -1;
        long treeEdges = -1;
        long reached = -1;
        final List<Integer> iterations = new ArrayList<>();
        int stepsThisTrial = 0;
        final Map<Integer, Double> top = new LinkedHashMap<>();
        final List<String> other = new ArrayList<>();
        for (final String raw : lines) {
            final String line = raw.strip();
            Matcher m;
            if ((m = STATS.matcher(line)).matches()) {
                nodes = Long.parseLong(m.group(1));
                edges = Long.parseLong(m.group(2));
                directed = m.group(3) == null;
            } else if ((m = TIME.matcher(line)).matches()) {
                times.add(Double.parseDouble(m.group(1)) * 1e3);
                iterations.add(stepsThisTrial);
                stepsThisTrial = 0;
            } else if ((m = VERIFY.matcher(line)).matches()) {
                verifications.add("PASS".equals(m.group(1)));
            } else if ((m = BFS_TREE.matcher(line)).matches()) {
                treeNodes = Long.parseLong(m.group(1));
                treeEdges = Long.parseLong(m.group(2));
            } else if ((m = SSSP_TREE.matcher(line)).matches()) {
                reached = Long.parseLong(m.group(1));
            } else if ((m = TOP_SCORE.matcher(line)).matches()) {
                top.put(Integer.parseInt(m.group(1)), parseScore(m.group(2)));
            } else if (PR_STEP.matcher(raw).matches()) {
                stepsThisTrial++;
            } else if (!line.isEmpty() && !OTHER_FIGURE.matcher(line).matches()) {
                other.add(line);
            }
        }
        final double[] t = new double[times.size()];
        for (int i = 0; i < t.length; i++) {
            t[i] = times.get(i);
        }
        final int[] it = new int[iterations.size()];
        for (int i = 0; i < it.length; i++) {
            it[i] = iterations.get(i);
        }
        return new GapOutput(nodes, edges, directed, t, verifications, treeNodes, treeEdges, reached, it, top, other);
    }

    private static double parseScore(final String s) {
        switch (s) {
            case "inf":
                return Double.POSITIVE_INFINITY;
            case "nan":
                return Double.NaN;
            default:
                try {
                    return Double.parseDouble(s);
                } catch (final NumberFormatException e) {
                    return Double.NaN;
                }
        }
    }

    /** @return every trial's time in milliseconds, in order (a copy) */
    double[] trialMillis() {
        return trialMillis.clone();
    }

    /** @return each {@code Verification:} line's outcome, in order */
    List<Boolean> verifications() {
        return verifications;
    }

    /**
     * @return for each trial, the {@code pr -l} iteration lines printed before its time (the iterations it ran); all
     *         zeros without {@code -l}
     */
    int[] prIterations() {
        return prIterations.clone();
    }

    /** @return {@code pr -a}'s largest scores by vertex id, in the order printed */
    Map<Integer, Double> topScores() {
        return topScores;
    }

    /** @return lines none of the patterns matched (complaints, errors), stripped */
    List<String> otherLines() {
        return otherLines;
    }
}
