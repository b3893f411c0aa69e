package dev.overlap.graph.app;

import dev.overlap.core.Mesh;
import dev.overlap.graph.BuildOptions;
import dev.overlap.graph.CsrGraph;
import dev.overlap.graph.GraphBuilder;
import dev.overlap.graph.Progress;
import dev.overlap.graph.gen.GraphSpec;
import dev.overlap.graph.partition.DeviceGraph;
import dev.overlap.graph.ref.SequentialBfs;
import dev.overlap.graph.ref.Verification;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link AppRunner#loading} and {@link AppRunner#measure(DeviceGraph, GraphApp, GraphAlgorithms, int, AppSettings)}:
 * a graph loaded into the runner's mesh is measured in any of the modes it was loaded for, and the runner closes it
 * and its mesh however the measurement ends; a mode it was not loaded for, a source outside it, a directed graph for
 * PageRank's pull and a multi-device mode are refused with a clear exception, and still closed.
 */
@Timeout(120)
class LoadedGraphTest {
    private static final GraphSpec GRID = GraphSpec.parse("grid:30x20");

    private static DeviceGraph load(final AppRunner runner, final GraphApp app, final BuildOptions options,
        final String... modes) {
        final GraphAlgorithms[] algorithms = new GraphAlgorithms[modes.length];
        for (int i = 0; i < modes.length; i++) {
            algorithms[i] = Algorithms.forMode(modes[i]);
        }
        return GraphBuilder.build(GRID.edges(1, app.weighted(), Progress.none()), GRID.vertexCount(), options, false,
            Progress.none(), runner.loading(app, algorithms));
    }

    @Test
    void aLoadedGraphIsMeasuredInEitherModeItWasLoadedForAndClosedAfter() {
        final CsrGraph host = GRID.build(1, false, Progress.none());
        for (final String mode : new String[] {"solo", "coop"}) {
            final AppRunner runner = AppRunner.builder().devices(2).threadsPerDevice(1).warmups(1).runs(2).build();
            final DeviceGraph dg = load(runner, GraphApp.BFS, GRID.options(), "solo", "coop");
            final Mesh mesh = dg.mesh();
            assertEquals(2, mesh.device(0).workerCount(), "the workers of the most demanding mode");
            final AppRunner.Measurement m = runner.measure(dg, GraphApp.BFS, Algorithms.forMode(mode), 17,
                AppSettings.defaults());
            final Verification v = Verification.depths(SequentialBfs.depths(host, 17), m.result().depths());
            assertTrue(v.passed(), mode + ": " + v.detail());
            assertEquals(mode.equals("solo") ? 1 : 2, m.threadsPerDevice());
            assertEquals(0, m.placeMillis(), "placed as it loaded");
            assertTrue(mesh.isClosed(), mode + ": the runner closed the mesh it built");
            assertThrows(IllegalStateException.class, dg::csr, "and the graph");
        }
    }

    @Test
    void refusalsCloseTheLoadedGraphAndNameWhatWasWrong() {
        final AppRunner runner = AppRunner.builder().devices(2).threadsPerDevice(1).build();
        final DeviceGraph forSolo = load(runner, GraphApp.BFS, GRID.options(), "solo");
        final IllegalArgumentException workers = assertThrows(IllegalArgumentException.class, () -> runner.measure(
            forSolo, GraphApp.BFS, Algorithms.forMode("coop"), 0, AppSettings.defaults()));
        assertTrue(workers.getMessage().contains("workers"), workers.getMessage());
        assertTrue(forSolo.mesh().isClosed());

        final DeviceGraph source = load(runner, GraphApp.BFS, GRID.options(), "solo");
        final IllegalArgumentException outside = assertThrows(IllegalArgumentException.class, () -> runner.measure(
            source, GraphApp.BFS, Algorithms.forMode("solo"), 600, AppSettings.defaults()));
        assertEquals("source 600 is outside 0..599", outside.getMessage());
        assertTrue(source.mesh().isClosed());

        final DeviceGraph directed = load(runner, GraphApp.PAGERANK, BuildOptions.AS_IS, "coop");
        final IllegalArgumentException pull = assertThrows(IllegalArgumentException.class, () -> runner.measure(
            directed, GraphApp.PAGERANK, Algorithms.forMode("coop"), 0, AppSettings.defaults()));
        assertTrue(pull.getMessage().contains("in-edges"), pull.getMessage());
        assertTrue(directed.mesh().isClosed());

        assertThrows(IllegalArgumentException.class, () -> runner.loading(GraphApp.BFS, Algorithms.forMode("bsp")));
        assertThrows(IllegalArgumentException.class, () -> runner.loading(GraphApp.BFS));
    }
}
