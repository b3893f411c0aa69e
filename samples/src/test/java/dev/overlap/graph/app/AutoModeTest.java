package dev.overlap.graph.app;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** {@code --mode auto} picks what its rule says on both sides of every threshold. */
class AutoModeTest {
    /** Vertices that make {@code edges} a low-degree (mean 4) or high-degree (mean 16) graph. */
    private static long vertices(final long edges, final boolean low) {
        return Math.max(1, edges / (low ? 4 : 16));
    }

    private static String pick(final GraphApp app, final long edges, final boolean low) {
        return AutoMode.choose(app, vertices(edges, low), edges, 2).mode();
    }

    @Test
    void eachAppGoesParallelAtItsThresholdAndStaysSoloJustBelow() {
        final Object[][] rules = {
            {GraphApp.BFS, false, AutoMode.BFS_HIGH_DEGREE_EDGES, "coop"},
            {GraphApp.BFS, true, AutoMode.BFS_LOW_DEGREE_EDGES, "coop"},
            {GraphApp.PAGERANK, true, AutoMode.PR_LOW_DEGREE_EDGES, "coop"},
            {GraphApp.PAGERANK, false, AutoMode.PR_HIGH_DEGREE_EDGES, "coop"},
            {GraphApp.SSSP, true, AutoMode.SSSP_LOW_DEGREE_EDGES, "coop"},
            {GraphApp.SSSP, false, AutoMode.SSSP_HIGH_DEGREE_EDGES, "coop"},
        };
        for (final Object[] r : rules) {
            final GraphApp app = (GraphApp)r[0];
            final boolean low = (Boolean)r[1];
            final long threshold = (Long)r[2];
            final String what = app + (low ? " low-degree" : " high-degree");
            assertEquals("solo", pick(app, threshold - 4 * 16, low), what + " below");
            assertEquals(r[3], pick(app, threshold, low), what + " at");
            assertEquals(r[3], pick(app, threshold * 100, low), what + " far above");
            assertEquals("solo", pick(app, 0, low), what + " without edges");
        }
    }

    @Test
    void theDegreeThresholdSeparatesTheShapes() {
        // sizes between each app's low- and high-degree thresholds: the mean degree alone decides
        final long pr = 500_000;
        assertEquals("coop", AutoMode.choose(GraphApp.PAGERANK, pr / 8 + 1, pr, 2).mode(), "just below 8: low");
        assertEquals("solo", AutoMode.choose(GraphApp.PAGERANK, pr / 8, pr, 2).mode(), "8 is high-degree");
        final long sssp = 3_500_000;
        assertEquals("coop", AutoMode.choose(GraphApp.SSSP, sssp / 8 + 1, sssp, 2).mode());
        assertEquals("solo", AutoMode.choose(GraphApp.SSSP, sssp / 8, sssp, 2).mode());
        final long bfs = 2_000_000;
        assertEquals("coop", AutoMode.choose(GraphApp.BFS, bfs / 8 + 1, bfs, 2).mode());
        assertEquals("solo", AutoMode.choose(GraphApp.BFS, bfs / 8, bfs, 2).mode());
    }

    @Test
    void oneWorkerIsAlwaysSoloAndAcrossProcessesNeverIs() {
        for (final GraphApp app : GraphApp.values()) {
            final AutoMode.Choice c = AutoMode.choose(app, 1 << 20, 1L << 30, 1);
            assertEquals("solo", c.mode(), app.toString());
            assertEquals("mode auto -> solo (one worker: nothing runs in parallel)", c.line());
            final AutoMode.Choice far = AutoMode.acrossProcesses(app);
            assertEquals(app == GraphApp.SSSP ? "async" : "bsp", far.mode());
            assertEquals("across processes: solo and coop run in one", far.reason());
        }
    }

    /**
     * The measured graphs (bench/results/2026-11-28-coop/, 2026-11-29-warmup/, 2026-11-30-auto-bfs-kron/ and the earlier sweeps: vertices, edges)
     * and what auto runs.
     */
    @Test
    void theSweepsGraphsGetTheModesTheResultsFileShowsWinning() {
        final Object[][] rows = {
            // graph, vertices, edges, bfs, pr, sssp
            {"road:10000", 10_000L, 22_998L, "solo", "solo", "solo"},
            {"grid:100x100", 10_000L, 39_600L, "solo", "solo", "solo"},
            {"grid:200x200", 40_000L, 159_200L, "solo", "solo", "solo"},
            {"road:100000", 100_000L, 229_998L, "solo", "coop", "solo"},
            {"kron:14", 16_384L, 426_246L, "solo", "solo", "solo"},
            {"grid:500x500", 250_000L, 998_000L, "solo", "coop", "solo"},
            {"grid:512x512", 262_144L, 1_046_528L, "solo", "coop", "solo"},
            {"grid:700x700", 490_000L, 1_957_200L, "coop", "coop", "solo"},
            {"kron:15", 32_768L, 884_042L, "solo", "solo", "solo"},
            {"kron:16", 65_536L, 1_819_184L, "solo", "coop", "solo"},
            {"kron:17", 131_072L, 3_729_656L, "coop", "coop", "solo"},
            {"road:1000000", 1_000_000L, 2_299_998L, "coop", "coop", "solo"},
            {"grid:1000x1000", 1_000_000L, 3_996_000L, "coop", "coop", "coop"},
            {"kron:18", 262_144L, 7_612_524L, "coop", "coop", "coop"},
            {"road:4000000", 4_000_000L, 9_199_998L, "coop", "coop", "coop"},
            {"grid:2000x2000", 4_000_000L, 15_992_000L, "coop", "coop", "coop"},
            {"kron:20", 1_048_576L, 31_408_236L, "coop", "coop", "coop"},
            {"kron:22", 4_194_304L, 128_314_544L, "coop", "coop", "coop"},
        };
        for (final Object[] r : rows) {
            final long n = (Long)r[1];
            final long m = (Long)r[2];
            assertEquals(r[3], AutoMode.choose(GraphApp.BFS, n, m, 2).mode(), r[0] + " bfs");
            assertEquals(r[4], AutoMode.choose(GraphApp.PAGERANK, n, m, 2).mode(), r[0] + " pr");
            assertEquals(r[5], AutoMode.choose(GraphApp.SSSP, n, m, 2).mode(), r[0] + " sssp");
        }
    }

    @Test
    void theLineNamesTheSizeTheShapeAndTheThreshold() {
        assertEquals("mode auto -> solo (pr on 39.6k edges, below 200k at mean degree 4.0 < 8)",
            AutoMode.choose(GraphApp.PAGERANK, 10_000, 39_600, 2).line());
        assertEquals("mode auto -> solo (sssp on 2.3M edges, below 3M at mean degree 2.3 < 8)",
            AutoMode.choose(GraphApp.SSSP, 1_000_000, 2_299_998, 2).line());
        assertEquals("mode auto -> coop (bfs on 30M edges, at least 3M at mean degree 30.0 >= 8)",
            AutoMode.choose(GraphApp.BFS, 1_000_000, 30_000_000, 2).line());
        assertEquals("mode auto -> coop (bfs on 16M edges, at least 1.5M at mean degree 4.0 < 8)",
            AutoMode.choose(GraphApp.BFS, 4_000_000, 15_992_000, 2).line());
        assertEquals("mode auto -> solo (bfs on 998k edges, below 1.5M at mean degree 4.0 < 8)",
            AutoMode.choose(GraphApp.BFS, 250_000, 998_000, 2).line());
        // near the threshold the mean is rounded so that it stays on its side
        assertEquals("mean degree 7.9 < 8", AutoMode.shape(1000, 7996));
        assertEquals("mean degree 8.0 >= 8", AutoMode.shape(1000, 8000));
        assertEquals("4.0", AutoMode.oneDecimal(3.96, 8));
        assertEquals("999", AutoMode.compact(999));
        assertEquals("1k", AutoMode.compact(1000));
        assertEquals("128M", AutoMode.compact(128_314_544));
    }

    @Test
    void countsOutOfRangeAreRefusedNamingThem() {
        assertEquals("auto mode needs vertices >= 1, edges >= 0 and workers >= 1, was 0, 5, 2", assertThrows(
            IllegalArgumentException.class, () -> AutoMode.choose(GraphApp.BFS, 0, 5, 2)).getMessage());
        assertThrows(IllegalArgumentException.class, () -> AutoMode.choose(GraphApp.BFS, 1, -1, 2));
        assertThrows(IllegalArgumentException.class, () -> AutoMode.choose(GraphApp.BFS, 1, 1, 0));
        assertThrows(NullPointerException.class, () -> AutoMode.choose(null, 1, 1, 2));
    }
}
