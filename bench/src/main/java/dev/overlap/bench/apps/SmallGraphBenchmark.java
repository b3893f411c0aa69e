package dev.overlap.bench.apps;

import dev.overlap.bench.report.BusyThreads;
import dev.overlap.bench.report.ComparedTo;
import dev.overlap.bench.report.Family;
import dev.overlap.bench.report.Quick;
import dev.overlap.graph.CsrGraph;
import dev.overlap.graph.Progress;
import dev.overlap.graph.app.Algorithms;
import dev.overlap.graph.app.AppResult;
import dev.overlap.graph.app.AppRunner;
import dev.overlap.graph.app.AppSettings;
import dev.overlap.graph.app.AutoMode;
import dev.overlap.graph.app.GraphApp;
import dev.overlap.graph.app.HostGraph;
import dev.overlap.graph.gen.GraphSpec;
import dev.overlap.graph.ref.Verification;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;

/**
 * <b>What is measured:</b> one run of BFS, PageRank or SSSP on graphs of 100 k to 500 k directed edges, where a run
 * takes a millisecond or less and fixed costs weigh most, in the mode {@code --mode auto} picks for the graph
 * ({@link AutoMode}: {@code solo}, the calling thread, below its thresholds; {@code coop}, every core's worker on one
 * device, above), against the single-threaded Java references every answer is checked against ({@code SequentialBfs},
 * {@code PowerIteration}, {@code Dijkstra} of {@code dev.overlap.graph.ref}) on the host CSR.
 * <ul>
 *   <li>{@link #overlapAuto}: {@link AppRunner.Placed#run} on a graph placed once per trial
 *       ({@link AppRunner#place}), what {@code overlap bfs|pr|sssp} times: the provider's state set-up and the run,
 *       not placement;</li>
 *   <li>peer {@link #javaReference}: {@link GraphApp#sequential} on the host CSR: plain array loops, no allocation
 *       per edge.</li>
 * </ul>
 * The same work: PageRank runs {@value #PR_ITERATIONS} Jacobi iterations in both (a fixed count makes Overlap's
 * {@code --sweep auto} Jacobi), BFS and SSSP compute the same depths and distances (SSSP by delta-stepping against
 * Dijkstra's heap). Each answer is verified against the reference once per trial, before the measurement.
 *
 * <p><b>Target</b> (the graph-app performance issue): no app slower than the Java reference on a graph of 100 k
 * edges or more, long-diameter graphs included ({@code road}: mean degree 2.3, diameter in the hundreds).
 *
 * <p>{@code --quick} runs the road graph's BFS only (the suite's time budget); every row needs the full run:
 * {@code ./overlap bench --full --include SmallGraph}.
 *
 * <p>Threads: {@code solo} runs on the JMH thread alone; {@code coop} on the mesh's workers (one per core) while the
 * JMH thread waits in the launch's join (spins briefly, then parks): busy threads = cores.
 */
@Family("graphs")
@BusyThreads("2")
@Quick(params = {"graph=road:100000", "app=bfs"}, forks = 1, warmupIterations = 1, warmupTime = "200ms", iterations = 3,
    time = "200ms", setupSeconds = 0.5)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 2, jvmArgsAppend = {"--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED"})
@State(Scope.Benchmark)
public class SmallGraphBenchmark {
    /** PageRank iterations of both sides: equal work. */
    static final int PR_ITERATIONS = 20;

    /** The graph: a grid (diameter 398), a road-like planar graph (mean degree 2.3), a Kronecker graph. */
    @Param({"grid:200x200", "road:100000", "kron:14"})
    public String graph;

    /** The app. */
    @Param({"bfs", "pr", "sssp"})
    public String app;

    private CsrGraph host;
    private GraphApp graphApp;
    private AppSettings settings;
    private int source;
    private AppRunner.Placed placed;

    @Setup(Level.Trial)
    public void setUp() {
        graphApp = GraphApp.parse(app);
        host = GraphSpec.parse(graph).build(1, graphApp.weighted(), Progress.none());
        source = GraphApp.defaultSource(host, 1);
        settings = AppSettings.builder().fixedIterations(PR_ITERATIONS).queue(graphApp.autoQueue()).build();
        final int workers = Math.max(1, Runtime.getRuntime().availableProcessors());
        final String mode = AutoMode.choose(graphApp, host.vertexCount(), host.edgeCount(), workers).mode();
        placed = AppRunner.builder().devices(1).threadsPerDevice(workers).build().place(HostGraph.of(host), graphApp,
            Algorithms.forMode(mode), settings);
        final Verification v = graphApp.expected(host, source, settings, null).check(placed.run(source));
        if (!v.passed()) {
            throw new IllegalStateException(mode + " " + app + " on " + graph + ": " + v.detail());
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        placed.close();
    }

    @Benchmark
    @ComparedTo(value = "javaReference", name = "vs Java reference")
    public AppResult overlapAuto() {
        return placed.run(source);
    }

    @Benchmark
    public AppResult javaReference() {
        return graphApp.sequential(host, source, settings);
    }
}
