package dev.overlap.graph.async;

import dev.overlap.core.WorldConfig;
import dev.overlap.graph.CsrGraph;
import dev.overlap.graph.Progress;
import dev.overlap.graph.app.AppResult;
import dev.overlap.graph.app.AppRunner;
import dev.overlap.graph.app.AppSettings;
import dev.overlap.graph.app.GraphApp;
import dev.overlap.graph.gen.GraphSpec;
import dev.overlap.graph.ref.Verification;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

import static dev.overlap.testing.TestThreads.inParallel;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The async apps on a mesh across processes, the ranks played by threads of one JVM (each builds its own mesh with
 * the world, as each process would; only device memory is shared between them, and the multi-process runs are in
 * integration-tests): BFS (the hybrid with its bottom-up steps on a scale-free graph, plain on a grid) and SSSP (FIFO
 * and priority worklists) answer exactly what one process answers on the same devices; PageRank (push with the
 * atomic kernel, push with the solo kernel on symmetric and directed graphs, pull) passes the app's own verification
 * against power iteration, and every rank holds the same answer bit for bit (they read the same memory after the same
 * barrier and divide by the same sum); persistent and discrete kernels; 2 and 3 ranks. The work counts are summed
 * over the ranks (every rank reports the same totals), and the job directory is gone afterwards.
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class AsyncAcrossRanksTest {
    private static final AsyncAlgorithms ASYNC = new AsyncAlgorithms();
    private static final AtomicInteger JOBS = new AtomicInteger();
    private static final AppSettings.KernelStyle PERSISTENT = AppSettings.KernelStyle.PERSISTENT;
    private static final AppSettings.KernelStyle DISCRETE = AppSettings.KernelStyle.DISCRETE;
    private static final AppSettings.Queue FIFO = AppSettings.Queue.FIFO;
    private static final AppSettings.Queue PRIORITY = AppSettings.Queue.PRIORITY;

    @TempDir
    Path tmp;

    /** One run: app, graph, what to vary, ranks and devices. */
    private record Case(GraphApp app, String graph, String variant, AppSettings.Queue queue,
        AppSettings.KernelStyle kernel, int threads, int ranks, int devices, AppRunner.Partitioning partitioning) {
        @Override
        public String toString() {
            return app.id() + " " + graph + " " + variant + " " + queue + " " + kernel + ", " + threads
                + " thread(s)/device: " + ranks + " ranks, " + devices + " devices, " + partitioning;
        }
    }

    static Stream<Arguments> cases() {
        final AppRunner.Partitioning range = AppRunner.Partitioning.RANGE;
        final AppRunner.Partitioning hash = AppRunner.Partitioning.HASH;
        final List<Case> list = new ArrayList<>();
        // BFS: the hybrid on a scale-free graph from its hub (it switches to bottom-up), plain on a grid
        list.add(new Case(GraphApp.BFS, "kron:11", "hybrid", FIFO, PERSISTENT, 1, 2, 2, range));
        list.add(new Case(GraphApp.BFS, "kron:11", "hybrid", PRIORITY, DISCRETE, 1, 3, 4, hash));
        list.add(new Case(GraphApp.BFS, "kron:11", "hybrid", FIFO, DISCRETE, 2, 2, 3, range));
        list.add(new Case(GraphApp.BFS, "kron:11", "hybrid", PRIORITY, PERSISTENT, 1, 3, 3, range));
        list.add(new Case(GraphApp.BFS, "grid:20x20", "plain", FIFO, PERSISTENT, 1, 3, 3, hash));
        list.add(new Case(GraphApp.BFS, "grid:20x20", "plain", PRIORITY, DISCRETE, 2, 2, 2, range));
        // SSSP: FIFO and priority queues
        list.add(new Case(GraphApp.SSSP, "kron:10", "", FIFO, PERSISTENT, 1, 2, 2, range));
        list.add(new Case(GraphApp.SSSP, "kron:10", "", FIFO, DISCRETE, 1, 3, 4, hash));
        list.add(new Case(GraphApp.SSSP, "kron:10", "", PRIORITY, DISCRETE, 2, 2, 3, range));
        list.add(new Case(GraphApp.SSSP, "grid:20x20", "", PRIORITY, PERSISTENT, 1, 3, 3, range));
        // PageRank: every variant (the solo push kernel with one worker per device, the atomic one with two)
        list.add(new Case(GraphApp.PAGERANK, "kron:10", "push", FIFO, PERSISTENT, 2, 2, 2, range));
        list.add(new Case(GraphApp.PAGERANK, "kron:10", "push", FIFO, DISCRETE, 2, 3, 3, hash));
        list.add(new Case(GraphApp.PAGERANK, "grid:20x20", "push", FIFO, PERSISTENT, 1, 3, 4, range));
        list.add(new Case(GraphApp.PAGERANK, "kron:10", "push", PRIORITY, DISCRETE, 1, 2, 2, hash));
        list.add(new Case(GraphApp.PAGERANK, "directed", "push", FIFO, PERSISTENT, 1, 2, 3, range));
        list.add(new Case(GraphApp.PAGERANK, "directed", "push", FIFO, DISCRETE, 2, 3, 3, range));
        list.add(new Case(GraphApp.PAGERANK, "kron:10", "pull", FIFO, PERSISTENT, 1, 2, 2, range));
        list.add(new Case(GraphApp.PAGERANK, "kron:10", "pull", PRIORITY, DISCRETE, 2, 3, 4, hash));
        list.add(new Case(GraphApp.PAGERANK, "grid:20x20", "pull", FIFO, DISCRETE, 1, 3, 3, range));
        return list.stream().map(Arguments::of);
    }

    private static CsrGraph graph(final String spec, final boolean weighted) {
        return spec.equals("directed") ? AsyncAlgorithmsTest.directedWithDanglingVertices(1500, 5)
            : GraphSpec.parse(spec).build(3, weighted, Progress.none());
    }

    private static AppSettings settings(final Case c) {
        final AppSettings.Builder b = AppSettings.builder().queue(c.queue).kernel(c.kernel).tolerance(1e-6);
        if (c.variant.equals("push")) {
            b.pageRankVariant(AppSettings.PageRankVariant.PUSH);
        } else if (c.variant.equals("pull")) {
            b.pageRankVariant(AppSettings.PageRankVariant.PULL);
        }
        return b.build();
    }

    private static AppRunner.Builder runner(final Case c) {
        return AppRunner.builder().devices(c.devices).threadsPerDevice(c.threads).partitioning(c.partitioning)
            .runs(2);
    }

    private List<AppResult> acrossRanks(final Case c, final CsrGraph g, final int source, final AppSettings s) {
        final Path dir = tmp.resolve("overlap-job" + JOBS.incrementAndGet());
        final List<AppResult> results = inParallel(c.ranks, r -> runner(c).world(WorldConfig.sharedMemory(dir,
            c.ranks, r).joinTimeout(30, TimeUnit.SECONDS).build()).build().measure(g, c.app, ASYNC, source, s)
            .result());
        assertFalse(Files.exists(dir), "the last rank to leave deletes the job directory");
        return results;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void everyRankGetsTheAnswerOfOneProcess(final Case c) {
        final CsrGraph g = graph(c.graph, c.app.weighted());
        final int source = c.variant.equals("hybrid") ? HybridBfsTest.hub(g) : GraphApp.defaultSource(g, 3);
        final AppSettings settings = settings(c);
        final AppResult one = runner(c).build().measure(g, c.app, ASYNC, source, settings).result();
        final GraphApp.Expected expected = c.app.expected(g, source, settings, null);
        final Verification single = expected.check(one);
        assertTrue(single.passed(), single.detail());
        final List<AppResult> results = acrossRanks(c, g, source, settings);
        final AppResult first = results.get(0);
        for (int r = 0; r < c.ranks; r++) {
            final AppResult result = results.get(r);
            final Verification v = expected.check(result);
            assertTrue(v.passed(), "rank " + r + ": " + v.detail());
            // exact answers: exactly one process's; PageRank: the same on every rank, bit for bit
            assertArrayEquals(one.depths(), result.depths(), "rank " + r);
            assertArrayEquals(one.distances(), result.distances(), "rank " + r);
            assertArrayEquals(first.ranks(), result.ranks(), "rank " + r + ": the same memory and the same sums");
            // summed over the ranks, in one reduction every rank takes part in
            assertEquals(first.counts().visited(), result.counts().visited(), "rank " + r);
            assertEquals(first.counts().edgesScanned(), result.counts().edgesScanned(), "rank " + r);
            assertEquals(first.counts().localPushes() + first.counts().remotePushes(),
                result.counts().localPushes() + result.counts().remotePushes(), "rank " + r);
            assertEquals(first.counts().iterations(), result.counts().iterations(), "rank " + r + ": the same passes");
        }
        if (c.variant.equals("hybrid") && c.kernel == PERSISTENT) {
            // one worklist run, then bottom-up steps and the tail: the switch fired on every rank alike
            assertTrue(first.counts().iterations() >= 3, "phases and steps: " + first.counts().iterations());
            assertEquals(one.counts().iterations() > 1, first.counts().iterations() > 1);
        }
        if (c.app != GraphApp.PAGERANK) {
            // every reached vertex was expanded or found by some rank's workers
            long reached = 0;
            for (int v = 0; v < g.vertexCount(); v++) {
                reached += (c.app == GraphApp.BFS ? one.depths()[v] >= 0 : one.distances()[v] != Long.MAX_VALUE)
                    ? 1 : 0;
            }
            assertTrue(first.counts().visited() >= reached, first.counts().visited() + " visited of " + reached);
        }
    }
}
