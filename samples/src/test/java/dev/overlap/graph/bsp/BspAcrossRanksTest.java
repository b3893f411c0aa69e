package dev.overlap.graph.bsp;

import dev.overlap.core.WorldConfig;
import dev.overlap.graph.CsrGraph;
import dev.overlap.graph.Progress;
import dev.overlap.graph.app.AppResult;
import dev.overlap.graph.app.AppRunner;
import dev.overlap.graph.app.AppSettings;
import dev.overlap.graph.app.GraphApp;
import dev.overlap.graph.gen.GraphSpec;
import dev.overlap.graph.ref.Verification;
import org.junit.jupiter.api.Test;
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
import java.util.function.Supplier;
import java.util.stream.Stream;

import static dev.overlap.testing.TestThreads.inParallel;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The BSP apps on a mesh across processes, the ranks played by threads of one JVM (each builds its own mesh with the
 * world, as each process would; the multi-process runs are in integration-tests): every rank's answer is the
 * reference's and exactly what one process computes on the same devices (PageRank bit for bit, since every rank
 * sums the same partials in the same order), the work counts are summed over the ranks, and the job directory is
 * gone afterwards.
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class BspAcrossRanksTest {
    private static final BspAlgorithms BSP = new BspAlgorithms();
    private static final AtomicInteger JOBS = new AtomicInteger();

    @TempDir
    Path tmp;

    static Stream<Arguments> cases() {
        final List<Arguments> list = new ArrayList<>();
        for (final GraphApp app : GraphApp.values()) {
            for (final String graph : new String[] {"kron:10", "grid:20x20"}) {
                list.add(Arguments.of(app, graph, 2, 2, AppRunner.Partitioning.RANGE));
                list.add(Arguments.of(app, graph, 3, 4, AppRunner.Partitioning.HASH));
            }
        }
        list.add(Arguments.of(GraphApp.BFS, "kron:10", 2, 3, AppRunner.Partitioning.DEGREE));
        return list.stream();
    }

    private static AppRunner.Builder runner(final int devices, final AppRunner.Partitioning partitioning) {
        return AppRunner.builder().devices(devices).threadsPerDevice(1).partitioning(partitioning).runs(2);
    }

    /** Runs the app on {@code ranks} ranks, each with a runner of its own (builders are not thread-safe). */
    private List<AppResult> acrossRanks(final int ranks, final Supplier<AppRunner.Builder> runner, final CsrGraph g,
        final GraphApp app, final int source, final AppSettings settings) {
        final Path dir = tmp.resolve("overlap-job" + JOBS.incrementAndGet());
        final List<AppResult> results = inParallel(ranks, r -> runner.get().world(WorldConfig.sharedMemory(dir, ranks,
            r).joinTimeout(30, TimeUnit.SECONDS).build()).build().measure(g, app, BSP, source, settings).result());
        assertFalse(Files.exists(dir), "the last rank to leave deletes the job directory");
        return results;
    }

    @ParameterizedTest(name = "{0} {1}: {2} ranks, {3} devices, {4}")
    @MethodSource("cases")
    void everyRankGetsTheAnswerOfOneProcess(final GraphApp app, final String graph, final int ranks,
        final int devices, final AppRunner.Partitioning partitioning) {
        final CsrGraph g = GraphSpec.parse(graph).build(3, app.weighted(), Progress.none());
        final int source = GraphApp.defaultSource(g, 3);
        final AppSettings settings = AppSettings.builder().tolerance(1e-6).build();
        final AppResult one = runner(devices, partitioning).build().measure(g, app, BSP, source, settings).result();
        final GraphApp.Expected expected = app.expected(g, source, settings, null);
        final Verification single = expected.check(one);
        assertTrue(single.passed(), single.detail());
        final List<AppResult> results = acrossRanks(ranks, () -> runner(devices, partitioning), g, app, source,
            settings);
        for (int r = 0; r < ranks; r++) {
            final AppResult result = results.get(r);
            final Verification v = expected.check(result);
            assertTrue(v.passed(), "rank " + r + ": " + v.detail());
            assertArrayEquals(one.depths(), result.depths(), "rank " + r);
            assertArrayEquals(one.distances(), result.distances(), "rank " + r);
            assertArrayEquals(one.ranks(), result.ranks(), "rank " + r + ": the same sums in the same order");
            if (app == GraphApp.BFS) { // level-synchronous: the same levels, claims and scans whoever runs them
                assertEquals(one.counts().iterations(), result.counts().iterations(), "rank " + r);
                assertEquals(one.counts().visited(), result.counts().visited(), "rank " + r + ": summed over ranks");
                assertEquals(one.counts().edgesScanned(), result.counts().edgesScanned(), "rank " + r);
                assertEquals(one.counts().remotePushes() + one.counts().localPushes(),
                    result.counts().remotePushes() + result.counts().localPushes(), "rank " + r);
            } else if (app == GraphApp.PAGERANK) {
                assertEquals(one.counts().iterations(), result.counts().iterations(), "rank " + r);
                assertEquals(one.counts().bytesSent(), result.counts().bytesSent(), "rank " + r);
            } // SSSP's rounds and relaxations depend on how the workers interleave (fusion, claims), in one process too
        }
    }

    @Test
    void ranksGivenDifferentGraphsRefuseToRunNamingIt() {
        final CsrGraph[] graphs = {GraphSpec.parse("kron:8").build(1, false, Progress.none()),
            GraphSpec.parse("kron:8").build(2, false, Progress.none())};
        final Path dir = tmp.resolve("overlap-differ");
        final List<String> messages = inParallel(2, r -> assertThrows(IllegalStateException.class,
            () -> runner(2, AppRunner.Partitioning.RANGE).world(WorldConfig.sharedMemory(dir, 2, r)
                .joinTimeout(30, TimeUnit.SECONDS).build()).build()
                .measure(graphs[r], GraphApp.BFS, BSP, 0, AppSettings.defaults())).getMessage());
        for (final String m : messages) {
            assertTrue(m.contains("the graph") && m.contains("differs across the ranks"), m);
        }
        assertFalse(Files.exists(dir));
    }
}
