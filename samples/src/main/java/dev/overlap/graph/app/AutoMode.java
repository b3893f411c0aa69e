package dev.overlap.graph.app;

import java.util.Locale;
import java.util.Objects;

/**
 * {@code --mode auto}: the rule that chooses between the one-thread path ({@code solo}) and a parallel mode from
 * the graph's size and shape, before the graph is placed.
 *
 * <p><b>The rule.</b> With fewer than two workers in all, or a graph without edges, {@code solo}. Otherwise the
 * graph is <em>low-degree</em> when its mean out-degree (directed edges / vertices) is below
 * {@value #LOW_DEGREE} (grids about 4, road networks about 2.3: long diameters, many BFS levels) and
 * <em>high-degree</em> otherwise (Kronecker and social graphs), and each app has an edge count from which its
 * parallel mode is chosen, below which {@code solo} is:
 * <ul>
 *   <li>BFS: {@code coop} from {@value #BFS_HIGH_DEGREE_EDGES} edges on high-degree graphs and from
 *       {@value #BFS_LOW_DEGREE_EDGES} on low-degree ones (below, their thousands of short levels let two workers
 *       at best match one thread);</li>
 *   <li>PageRank: {@code coop} from {@value #PR_LOW_DEGREE_EDGES} edges on low-degree graphs (they need many
 *       iterations, which a pull over two workers shares well) and from {@value #PR_HIGH_DEGREE_EDGES} on
 *       high-degree ones;</li>
 *   <li>SSSP: {@code coop} (delta-stepping) from {@value #SSSP_LOW_DEGREE_EDGES} edges on low-degree graphs and
 *       from {@value #SSSP_HIGH_DEGREE_EDGES} on high-degree ones.</li>
 * </ul>
 * The parallel mode is {@code coop} (every worker of one device, rounds separated by an in-kernel barrier): it beat
 * {@code bsp} and {@code async} on every row it was measured on. The thresholds sit between the largest graph where
 * {@code solo} won and the smallest where {@code coop} did, on 2 workers ({@code bench/results/2026-11-28-coop/}:
 * kron 14-20, grid 200-1000, road 100k-1M; for BFS on low-degree graphs {@code bench/results/2026-11-29-coop-bfs/}:
 * grid 200-1000, road 100k-1M; for BFS on high-degree graphs {@code bench/results/2026-11-30-solo-bfs-direction/},
 * once solo's BFS was direction-optimizing too: even on kron 16, coop ahead from kron 17; for SSSP
 * {@code bench/results/2026-11-29-warmup/}, after solo's delta-stepping got faster: solo won on kron 16, grid 500 and
 * road 1M in every sweep, coop on kron 18 and grid 1000 in the sweep on a quiet machine). Across processes the mode
 * is the app's multi-device one ({@code bsp}, or {@code async} for SSSP): {@code solo} and {@code coop} run in one.
 * The mean degree is the predictor of shape because it costs nothing (two counts the graph already has) and separates the families measured cleanly.
 *
 * <p>Stateless; thread-safe. {@link Choice} is an immutable value.
 */
public final class AutoMode {
    /** The {@code --mode} name. */
    public static final String MODE = "auto";
    /** Mean out-degree below which a graph counts as low-degree (long-diameter). */
    public static final double LOW_DEGREE = 8;
    /** BFS on a high-degree graph: parallel ({@code coop}) from this many edges. */
    public static final long BFS_HIGH_DEGREE_EDGES = 3_000_000;
    /** BFS on a low-degree graph: parallel ({@code coop}) from this many edges. */
    public static final long BFS_LOW_DEGREE_EDGES = 1_500_000;
    /** PageRank on a low-degree graph: parallel ({@code coop}) from this many edges. */
    public static final long PR_LOW_DEGREE_EDGES = 200_000;
    /** PageRank on a high-degree graph: parallel ({@code coop}) from this many edges. */
    public static final long PR_HIGH_DEGREE_EDGES = 1_000_000;
    /** SSSP on a low-degree graph: parallel ({@code coop}) from this many edges. */
    public static final long SSSP_LOW_DEGREE_EDGES = 3_000_000;
    /** SSSP on a high-degree graph: parallel ({@code coop}) from this many edges. */
    public static final long SSSP_HIGH_DEGREE_EDGES = 4_000_000;

    private static final String SOLO = "solo";

    private AutoMode() {
    }

    /**
     * Applies the rule (see the class comment).
     *
     * @param app      the app
     * @param vertices the graph's vertices, at least 1
     * @param edges    the graph's directed edges (an undirected edge counts twice), at least 0
     * @param workers  the workers a parallel mode would get in all (devices x workers per device), at least 1
     * @return the mode and the reason
     * @throws IllegalArgumentException for counts out of range
     */
    public static Choice choose(final GraphApp app, final long vertices, final long edges, final int workers) {
        Objects.requireNonNull(app, "app");
        if (vertices < 1 || edges < 0 || workers < 1) {
            throw new IllegalArgumentException("auto mode needs vertices >= 1, edges >= 0 and workers >= 1, was "
                + vertices + ", " + edges + ", " + workers);
        }
        if (workers < 2) {
            return new Choice(SOLO, "one worker: nothing runs in parallel");
        }
        final boolean low = (double)edges / vertices < LOW_DEGREE;
        final long from = threshold(app, low);
        final String shape = shape(vertices, edges);
        final String mode = parallelMode(app);
        return edges >= from
            ? new Choice(mode, app + " on " + compact(edges) + " edges, at least " + compact(from) + " at " + shape)
            : new Choice(SOLO, app + " on " + compact(edges) + " edges, below " + compact(from) + " at " + shape);
    }

    /**
     * @param app the app
     * @return the choice for a run across processes: the app's multi-device mode (solo and coop run in one process)
     */
    public static Choice acrossProcesses(final GraphApp app) {
        return new Choice(Objects.requireNonNull(app, "app") == GraphApp.SSSP ? "async" : "bsp",
            "across processes: solo and coop run in one");
    }

    /** @return the mode {@code app} runs in when parallelism pays in one process: {@code coop} */
    static String parallelMode(final GraphApp app) {
        return "coop";
    }

    /** @return the edges from which {@code app} goes parallel on a low- or high-degree graph (MAX_VALUE: never) */
    static long threshold(final GraphApp app, final boolean lowDegree) {
        switch (app) {
            case BFS:
                return lowDegree ? BFS_LOW_DEGREE_EDGES : BFS_HIGH_DEGREE_EDGES;
            case PAGERANK:
                return lowDegree ? PR_LOW_DEGREE_EDGES : PR_HIGH_DEGREE_EDGES;
            default:
                return lowDegree ? SSSP_LOW_DEGREE_EDGES : SSSP_HIGH_DEGREE_EDGES;
        }
    }

    /**
     * @param vertices the graph's vertices, at least 1
     * @param edges    its directed edges
     * @return the graph's shape against {@link #LOW_DEGREE}, as the choices of {@code auto} settings name it:
     *         {@code "mean degree 3.8 < 8"}
     */
    public static String shape(final long vertices, final long edges) {
        final double degree = (double)edges / vertices;
        return "mean degree " + oneDecimal(degree, LOW_DEGREE) + (degree < LOW_DEGREE ? " < " : " >= ")
            + compact(LOW_DEGREE);
    }

    /**
     * @param x         a value compared with {@code threshold}
     * @param threshold what it is compared with
     * @return {@code x} with one decimal, rounded half up, or down where half up would print a value below the
     *         threshold as the threshold ({@code 7.96} against 8 is {@code "7.9"}, not {@code "8.0"})
     */
    public static String oneDecimal(final double x, final double threshold) {
        final double shown = x < threshold && Math.round(x * 10) / 10.0 >= threshold ? Math.floor(x * 10) / 10 : x;
        return String.format(Locale.ROOT, "%.1f", shown);
    }

    /** @return {@code n} in at most three significant digits with k or M ({@code 39600} is {@code 39.6k}) */
    static String compact(final double n) {
        if (n >= 1e6) {
            return trim(n / 1e6) + "M";
        }
        if (n >= 1e3) {
            return trim(n / 1e3) + "k";
        }
        return trim(n);
    }

    private static String trim(final double x) {
        final String s = String.format(Locale.ROOT, x >= 100 ? "%.0f" : x >= 10 ? "%.1f" : "%.2f", x);
        return s.contains(".") ? s.replaceAll("0+$", "").replaceAll("\\.$", "") : s;
    }

    /**
     * What {@code --mode auto} chose and why.
     *
     * @param mode   the mode that runs: {@code solo}, {@code bsp} or {@code async}
     * @param reason why, in a few words (the size and shape against the threshold)
     */
    public record Choice(String mode, String reason) {
        /** Checks the fields. */
        public Choice {
            Objects.requireNonNull(mode, "mode");
            Objects.requireNonNull(reason, "reason");
        }

        /** @return the one line the commands print: {@code mode auto -> solo (reason)} */
        public String line() {
            return "mode " + MODE + " -> " + mode + " (" + reason + ")";
        }
    }
}
