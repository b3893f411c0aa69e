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

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link AppRunner#loading} and {@link AppRunner#measure(DeviceGraph, GraphApp, GraphAlgorithms, int, AppSettings)}:
 * a graph loaded into the runner's mesh is measured in any of the modes it was loaded for, and the runner closes it
 * and its mesh however the measurement ends; a mode it was not loaded for, a source outside it, a directed graph for
 * PageRank's pull and a multi-device mode are refused with a clear exception, and still closed. With a
 * {@link AppRunner.Tuning}, the trials run on the loaded graph and the timed runs run the settings it chose; a trial
 * kept past the tuning, no tuning, a tuning without settings and a failing tuning are refused, and the graph is still closed.
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

    @Test
    void aTuningsTrialsRunOnTheLoadedGraphAndItsChoiceIsWhatTheTimedRunsUse() {
        final AppRunner runner = AppRunner.builder().devices(1).threadsPerDevice(2).warmups(1).runs(2).build();
        final DeviceGraph dg = load(runner, GraphApp.PAGERANK, GRID.options(), "coop");
        final Mesh mesh = dg.mesh();
        final AppSettings loose = AppSettings.builder().tolerance(1e-2).build();
        final AppSettings tight = AppSettings.builder().tolerance(1e-9).build();
        final long[] trialIterations = new long[2];
        final AppRunner.Measurement m = runner.measure(dg, GraphApp.PAGERANK, Algorithms.forMode("coop"), 0,
            trial -> {
                assertFalse(mesh.isClosed(), "the trials run on the loaded graph, still open");
                trialIterations[0] = trial.apply(loose).counts().iterations();
                trialIterations[1] = trial.apply(tight).counts().iterations();
                return tight;
            });
        assertTrue(trialIterations[0] < trialIterations[1], Arrays.toString(trialIterations));
        assertEquals(trialIterations[1], m.result().counts().iterations(), "the timed runs ran the chosen settings");
        assertTrue(mesh.isClosed(), "closed after the runs, as after a measurement");
    }

    @Test
    void aTrialKeptPastTheTuningOrATuningWithoutSettingsIsRefusedAndTheGraphClosed() {
        final AppRunner runner = AppRunner.builder().devices(1).threadsPerDevice(2).warmups(0).runs(1).build();
        final DeviceGraph kept = load(runner, GraphApp.PAGERANK, GRID.options(), "coop");
        final AtomicReference<Function<AppSettings, AppResult>> trial = new AtomicReference<>();
        runner.measure(kept, GraphApp.PAGERANK, Algorithms.forMode("coop"), 0, t -> {
            trial.set(t);
            return AppSettings.defaults();
        });
        final IllegalStateException late = assertThrows(IllegalStateException.class,
            () -> trial.get().apply(AppSettings.defaults()));
        assertEquals("a trial run after the tuning returned its settings", late.getMessage());

        final DeviceGraph noTuning = load(runner, GraphApp.PAGERANK, GRID.options(), "coop");
        assertThrows(NullPointerException.class, () -> runner.measure(noTuning, GraphApp.PAGERANK,
            Algorithms.forMode("coop"), 0, (AppRunner.Tuning)null));
        assertTrue(noTuning.mesh().isClosed(), "closed when there is no tuning");

        final DeviceGraph none = load(runner, GraphApp.PAGERANK, GRID.options(), "coop");
        final NullPointerException npe = assertThrows(NullPointerException.class,
            () -> runner.measure(none, GraphApp.PAGERANK, Algorithms.forMode("coop"), 0, t -> null));
        assertEquals("the settings the tuning chose", npe.getMessage());
        assertTrue(none.mesh().isClosed());

        final DeviceGraph failing = load(runner, GraphApp.PAGERANK, GRID.options(), "coop");
        assertThrows(ArithmeticException.class, () -> runner.measure(failing, GraphApp.PAGERANK,
            Algorithms.forMode("coop"), 0, t -> {
                throw new ArithmeticException("the tuning's own failure");
            }));
        assertTrue(failing.mesh().isClosed(), "closed when the tuning fails");
    }
}
